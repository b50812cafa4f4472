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
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// liveProfileTimeout bounds one live read of a workspace's profile, which
// runs for every caller that joined it, whatever their own deadlines.
const liveProfileTimeout = 30 * time.Second

// LiveProfiles reads workspaces' BillingProfiles from the API server for
// IssuingProfile, one read for many callers: a caller is answered by a
// read that started after it asked, so the read sees every profile
// created before the caller's record reached the manager's cache, and
// the callers that ask while a read is under way share the next one. A
// burst of invoices in a workspace without a profile then costs about two
// GETs, not one per invoice.
type LiveProfiles struct {
	// Reader reads from the API server (the manager's APIReader).
	Reader client.Reader

	mu     sync.Mutex
	rounds map[string]*profileRound // by namespace
}

// profileRound is one live read of a workspace's profile and the callers
// waiting for it.
type profileRound struct {
	next    *profileRound // the round that starts when this one ends
	waiters int           // the callers it answers
	done    chan struct{}
	profile *billingv1.BillingProfile
	err     error
}

// Profile returns namespace's BillingProfile as the API server has it, or
// nil when it has none, from a read that started after this call began.
func (l *LiveProfiles) Profile(ctx context.Context, namespace string) (*billingv1.BillingProfile, error) {
	r := l.join(namespace)
	select {
	case <-r.done:
		if r.profile == nil {
			return nil, r.err
		}
		return r.profile.DeepCopy(), r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// join returns the round that will answer a caller asking now: the one
// that starts next in namespace, started at once when none is running.
func (l *LiveProfiles) join(namespace string) *profileRound {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rounds == nil {
		l.rounds = map[string]*profileRound{}
	}
	running := l.rounds[namespace]
	if running == nil {
		r := &profileRound{done: make(chan struct{}), waiters: 1}
		l.rounds[namespace] = r
		go l.read(namespace, r)
		return r
	}
	if running.next == nil {
		running.next = &profileRound{done: make(chan struct{})}
	}
	running.next.waiters++
	return running.next
}

// read runs round r, then each round that gathered behind the one before,
// until none did.
func (l *LiveProfiles) read(namespace string, r *profileRound) {
	for r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), liveProfileTimeout)
		r.profile, r.err = WorkspaceProfile(ctx, l.Reader, namespace)
		cancel()
		l.mu.Lock()
		next := r.next
		if next == nil {
			delete(l.rounds, namespace)
		} else {
			l.rounds[namespace] = next
		}
		l.mu.Unlock()
		close(r.done)
		r = next
	}
}
