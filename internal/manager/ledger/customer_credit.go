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

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// The steps every user of a customer's credit (credit applications and
// refunds) takes on the customer's credit ledger (status.credit). Each
// write is one status patch of the customer with an optimistic lock, so
// that two uses entered at the same moment never spend the same credit:
// the second patch conflicts, and its record is checked again against the
// new ledger (docs/ledger.md#money-on-account).

// liveCustomer reads the customer named name straight from the API server;
// waiting says why a record waits while it is missing.
func liveCustomer(ctx context.Context, reader client.Reader, namespace, name string) (
	customer *billingv1.Customer, waiting *reconciler.Verdict, err error) {
	customer = &billingv1.Customer{}
	waiting, err = liveGet(ctx, reader, namespace, name, customer, "Customer", billingv1.ReasonCustomerNotFound)
	if waiting != nil || err != nil {
		return nil, waiting, err
	}
	return customer, nil, nil
}

// creditShort says why customer's credit cannot pay for use, or nil: its
// credit in the use's currency is less than the use's amount
// (ExceedsCredit), or its ledger holds as many uses as it can
// (CreditLedgerFull). what names the record in the message.
func creditShort(customer *billingv1.Customer, use billingv1.CreditUse, what string) (
	verdict *reconciler.Verdict, final bool) {
	if available := billing.AvailableCredit(customer, use.Currency); available < use.Amount {
		return &reconciler.Verdict{Reason: billingv1.ReasonExceedsCredit, Message: fmt.Sprintf(
			"The %s of %d %s exceeds customer %q's credit of %d %s when it was entered",
			what, use.Amount, use.Currency, customer.Name, available, use.Currency)}, true
	}
	if customer.Status.Credit != nil && len(customer.Status.Credit.Uses) >= billingv1.MaxCreditEntries {
		return &reconciler.Verdict{Reason: billingv1.ReasonCreditLedgerFull, Message: fmt.Sprintf(
			"Customer %q's credit ledger holds %d uses, the most it can", customer.Name, billingv1.MaxCreditEntries)}, false
	}
	return nil, false
}

// enterUse enters use into customer's credit ledger, with the balance
// recomputed, in one status patch with an optimistic lock.
func enterUse(ctx context.Context, c client.Client, customer *billingv1.Customer, use billingv1.CreditUse) error {
	before := customer.DeepCopy()
	customer.Status.Credit = billing.WithUse(customer.Status.Credit, use)
	if _, err := reconciler.PatchStatus(ctx, c, before, customer, client.MergeFromWithOptimisticLock{}); err != nil {
		return fmt.Errorf("entering %s %s in customer %s's credit: %w", use.Kind, use.Name, customer.Name, err)
	}
	return nil
}

// releaseUse takes use back out of customer's credit ledger: the hold of a
// credit application that did not fit its invoice, given back before the
// application is rejected.
func releaseUse(ctx context.Context, c client.Client, customer *billingv1.Customer, use billingv1.CreditUse) error {
	before := customer.DeepCopy()
	customer.Status.Credit = billing.WithoutUse(customer.Status.Credit, use.Kind, use.Name, use.UID)
	if _, err := reconciler.PatchStatus(ctx, c, before, customer, client.MergeFromWithOptimisticLock{}); err != nil {
		return fmt.Errorf("releasing %s %s from customer %s's credit: %w", use.Kind, use.Name, customer.Name, err)
	}
	return nil
}
