/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package store

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Profile is what handlers use of a workspace's BillingProfile "default";
// the zero Profile when the workspace has none.
type Profile struct {
	// Footer is the profile's footer, "" when it has none. An invoice's
	// status does not keep the footer, so a document shows the current one.
	Footer string
	// DefaultTax is the tax of every line of an invoice that has none of
	// its own (spec.defaultTax), nil when the profile has none. A create
	// writes it into the invoice's lines, so that the total it answers is
	// the total the invoice is issued with.
	DefaultTax *billingv1.Tax
}

// Profile reads workspace ns's BillingProfile "default". It is read from
// the API server, not a cache, so that a create takes the default tax in
// force when it is sent; with the adapter's own identity (after the caller
// was authorized for the invoice); and with a list and a field selector on
// the name, because the adapter's ClusterRole allows list (the
// controller's watch), not get, on billingprofiles.
func (s *Store) Profile(ctx context.Context, ns string) (Profile, error) {
	var list billingv1.BillingProfileList
	if err := s.live.List(ctx, &list, client.InNamespace(ns),
		client.MatchingFields{"metadata.name": billingv1.DefaultBillingProfileName}); err != nil {
		return Profile{}, err
	}
	for _, p := range list.Items {
		if p.Name == billingv1.DefaultBillingProfileName {
			return Profile{Footer: p.Spec.Footer, DefaultTax: p.Spec.DefaultTax.DeepCopy()}, nil
		}
	}
	return Profile{}, nil
}
