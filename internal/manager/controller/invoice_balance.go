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
	"fmt"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// invoiceBalance computes an issued invoice's balance afresh from its total
// and its ledger (status.ledger) at now: what its credit notes credited and
// its payments paid, what remains, and whether it is overdue. The invoice,
// credit note and payment reconcilers all write the balance this function
// returns, so they never disagree on it. It returns nil for an invoice that
// is not issued or has no total.
func invoiceBalance(inv *billingv1.Invoice, now time.Time) (*billingv1.InvoiceBalance, error) {
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Total == nil {
		return nil, nil
	}
	var credits, payments []int64
	if ledger := inv.Status.Ledger; ledger != nil {
		credits = entryAmounts(ledger.CreditNotes)
		payments = entryAmounts(ledger.Payments)
	}
	b, err := billing.ComputeBalance(*inv.Status.Total, credits, payments)
	if err != nil {
		return nil, fmt.Errorf("computing the balance of invoice %s: %w", inv.Name, err)
	}
	balance := &billingv1.InvoiceBalance{
		AmountCredited:  b.Credited,
		AmountPaid:      b.Paid,
		AmountRemaining: b.Remaining,
		AmountOverpaid:  b.Overpaid,
		PaymentStatus:   billingv1.InvoicePaymentStatus(b.Status),
	}
	if inv.Status.DueAt != nil {
		balance.Overdue = billing.Overdue(inv.Status.DueAt.Time, now, b.Remaining)
	}
	return balance, nil
}

// entryAmounts is the amount of each ledger entry.
func entryAmounts(entries []billingv1.LedgerEntry) []int64 {
	out := make([]int64, len(entries))
	for i, e := range entries {
		out[i] = e.Amount
	}
	return out
}

// overdueMargin is how long after dueAt an invoice is looked at again: it
// is overdue once now is after dueAt.
const overdueMargin = 10 * time.Millisecond

// untilOverdue is how long after now an issued invoice with balance becomes
// overdue, or 0 when it never will by time alone: it is already overdue,
// paid, credited, or has no due date. The invoice reconciler requeues the
// invoice after that long instead of polling every invoice.
func untilOverdue(inv *billingv1.Invoice, balance *billingv1.InvoiceBalance, now time.Time) time.Duration {
	if balance == nil || balance.Overdue || balance.AmountRemaining == 0 || inv.Status.DueAt == nil {
		return 0
	}
	return max(inv.Status.DueAt.Sub(now), 0) + overdueMargin
}
