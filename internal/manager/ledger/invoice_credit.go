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

package ledger

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
)

// creditOnIssueSuffix ends the name of the CreditApplication the
// controller makes for an invoice issued with applyCreditOnIssue.
const creditOnIssueSuffix = "-credit"

// applyCreditOnIssue creates, for inv being issued now under profile with
// spec.applyCreditOnIssue, a CreditApplication of the customer's available
// credit in the invoice's currency up to its total
// (docs/ledger.md#money-on-account). It is created before the invoice's
// status is patched Issued, under a name derived from the invoice's, so a
// retry after a crash or a conflict finds it and makes no second one; it
// waits until the invoice is issued, and the credit application reconciler
// checks it against the credit and the invoice as for any other.
func (r *InvoiceReconciler) applyCreditOnIssue(ctx context.Context, inv *billingv1.Invoice,
	customer *billingv1.Customer, profile *billingv1.BillingProfile) error {
	if profile == nil || profile.Spec.ApplyCreditOnIssue == nil || !*profile.Spec.ApplyCreditOnIssue ||
		customer == nil || inv.Status.Total == nil {
		return nil
	}
	currency := billing.InvoiceCurrency(inv)
	amount := min(billing.AvailableCredit(customer, currency), *inv.Status.Total)
	if amount <= 0 {
		return nil
	}
	capp := &billingv1.CreditApplication{
		ObjectMeta: metav1.ObjectMeta{Namespace: inv.Namespace, Name: mailing.DerivedName(inv.Name, creditOnIssueSuffix)},
		Spec: billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name},
			Amount: amount, Currency: currency},
	}
	if err := r.Create(ctx, capp); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("applying customer %s's credit to invoice %s: %w", customer.Name, inv.Name, err)
	}
	logf.FromContext(ctx).V(1).Info("Applying the customer's credit on issue", "creditApplication", capp.Name,
		"amount", amount, "currency", currency)
	return nil
}
