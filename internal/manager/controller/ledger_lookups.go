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

package controller

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// errNoAPIReader is SetupWithManager's error for a reconciler that needs
// an APIReader and has none.
var errNoAPIReader = errors.New("the reconciler needs an APIReader")

// liveIssuedInvoice reads the invoice named name straight from the API
// server. A credit note or payment waits while it is missing or not issued
// (numbered): waiting then says why, with the reason of its Reconciling
// condition; once says what happens when it is issued ("the payment is
// recorded once it is").
func liveIssuedInvoice(ctx context.Context, reader client.Reader, namespace, name, once string) (
	inv *billingv1.Invoice, waiting *creditVerdict, err error) {
	inv = &billingv1.Invoice{}
	key := types.NamespacedName{Namespace: namespace, Name: name}
	if err := reader.Get(ctx, key, inv); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &creditVerdict{billingv1.ReasonInvoiceNotFound,
				fmt.Sprintf("Invoice %q does not exist in namespace %q; waiting for it", name, namespace)}, nil
		}
		return nil, nil, fmt.Errorf("getting invoice %s: %w", key, err)
	}
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Sequence == nil || inv.Status.Total == nil {
		return nil, &creditVerdict{billingv1.ReasonInvoiceNotIssued,
			fmt.Sprintf("Invoice %q is not issued yet; %s", name, once)}, nil
	}
	return inv, nil, nil
}

// workspaceProfile returns the workspace's BillingProfile "default", or nil
// when it has none.
func workspaceProfile(ctx context.Context, reader client.Reader, namespace string) (*billingv1.BillingProfile, error) {
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
