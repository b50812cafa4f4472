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
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// WorkspaceProfile returns the workspace's BillingProfile "default", or nil
// when it has none.
func WorkspaceProfile(ctx context.Context, reader client.Reader, namespace string) (*billingv1.BillingProfile, error) {
	profile := &billingv1.BillingProfile{}
	key := types.NamespacedName{Namespace: namespace, Name: billingv1.DefaultBillingProfileName}
	if err := reader.Get(ctx, key, profile); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("getting billing profile %s: %w", key, err)
	}
	return profile, nil
}

// IssuingProfile returns the workspace's BillingProfile for a record about
// to be issued, which freezes what the profile gives it (its number's
// format, its e-mail on issue): the cache's, and when the cache has none,
// the API server's (live; nil: the cache's answer stands). A profile and
// an invoice applied together (`kubectl apply -f` of one manifest, a
// GitOps sync) reach the manager through two watches, and the invoice's
// may come first; without the live read it would be issued as if the
// workspace had no profile. Only a workspace without a profile pays for
// the live reads, which LiveProfiles shares among the records issued at
// the same moment.
func IssuingProfile(ctx context.Context, cache client.Reader, live *LiveProfiles,
	namespace string) (*billingv1.BillingProfile, error) {
	profile, err := WorkspaceProfile(ctx, cache, namespace)
	if err != nil || profile != nil || live == nil {
		return profile, err
	}
	return live.Profile(ctx, namespace)
}
