// Copyright 2026 The Invoicing Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package reconciler

import (
	"context"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/coalesce"
)

// LiveProfiles reads workspaces' BillingProfiles from the API server for
// IssuingProfile, one read for many callers (coalesce.Call): a caller is
// answered by a read that started after it asked, so the read sees every
// profile created before the caller's record reached the manager's cache,
// and the callers that ask while a read is under way share the next one.
// A burst of invoices in a workspace without a profile then costs about
// two GETs, not one per invoice.
type LiveProfiles struct {
	// Reader reads from the API server (the manager's APIReader).
	Reader client.Reader

	mu          sync.Mutex
	byWorkspace map[string]*coalesce.Call[*billingv1.BillingProfile]
}

// Profile returns namespace's BillingProfile as the API server has it, or
// nil when it has none, from a read that started after this call began.
func (l *LiveProfiles) Profile(ctx context.Context, namespace string) (*billingv1.BillingProfile, error) {
	profile, err := l.call(namespace).Next(ctx, namespace)
	// The callers of one read share its answer: each gets its own copy.
	return profile.DeepCopy(), err
}

// call is namespace's coalesced read.
func (l *LiveProfiles) call(namespace string) *coalesce.Call[*billingv1.BillingProfile] {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byWorkspace == nil {
		l.byWorkspace = map[string]*coalesce.Call[*billingv1.BillingProfile]{}
	}
	c, ok := l.byWorkspace[namespace]
	if !ok {
		c = &coalesce.Call[*billingv1.BillingProfile]{Fetch: func(ctx context.Context, ns string) (*billingv1.BillingProfile, error) {
			return WorkspaceProfile(ctx, l.Reader, ns)
		}}
		l.byWorkspace[namespace] = c
	}
	return c
}
