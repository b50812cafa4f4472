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

package billing

import (
	"fmt"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// LedgerBalance computes an issued invoice's balance afresh from its total
// and its ledger (status.ledger) at now: what its credit notes credited and
// its payments paid, what remains, and whether it is overdue. The invoice,
// credit note and payment reconcilers all write the balance this function
// returns, so they never disagree on it. It returns nil for an invoice that
// is not issued or has no total.
func LedgerBalance(inv *billingv1.Invoice, now time.Time) (*billingv1.InvoiceBalance, error) {
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Total == nil {
		return nil, nil
	}
	var amounts LedgerAmounts
	if ledger := inv.Status.Ledger; ledger != nil {
		amounts = LedgerAmounts{CreditNotes: entryAmounts(ledger.CreditNotes), Payments: entryAmounts(ledger.Payments),
			Applied: entryAmounts(ledger.CreditApplications), WrittenOff: entryAmounts(ledger.WriteOffs)}
	}
	b, err := ComputeLedgerBalance(*inv.Status.Total, amounts)
	if err != nil {
		return nil, fmt.Errorf("computing the balance of invoice %s: %w", inv.Name, err)
	}
	balance := &billingv1.InvoiceBalance{
		AmountCredited:   b.Credited,
		AmountPaid:       b.Paid,
		AmountApplied:    b.Applied,
		AmountWrittenOff: b.WrittenOff,
		AmountRemaining:  b.Remaining,
		AmountOverpaid:   b.Overpaid,
		PaymentStatus:    billingv1.InvoicePaymentStatus(b.Status),
	}
	if inv.Status.DueAt != nil {
		balance.Overdue = Overdue(inv.Status.DueAt.Time, now, b.Remaining)
	}
	return balance, nil
}

// FactUnreachable reports whether an issued invoice that does not carry
// the event of fact t can never reach it: its ledger only grows (credit
// notes, payments, applied credit and write-offs are never taken out), so
// an invoice with something paid or applied is never void again, and one
// with nothing left to pay is never overdue again. An invoice controller
// that reserved invoice.voided or invoice.overdue and lost the race to the
// ledger entry that ends it leaves the reservation behind; the event
// allocator frees it on this answer instead of holding the workspace's
// event feed at its sequence. False for every other fact, and while the
// ledger cannot be read.
func FactUnreachable(inv *billingv1.Invoice, t billingv1.EventType) bool {
	if t != billingv1.EventTypeInvoiceVoided && t != billingv1.EventTypeInvoiceOverdue {
		return false
	}
	b, err := LedgerBalance(inv, time.Time{})
	if err != nil || b == nil {
		return false
	}
	if t == billingv1.EventTypeInvoiceVoided {
		return b.AmountPaid > 0 || b.AmountApplied > 0
	}
	return b.AmountRemaining == 0
}

// entryAmounts is the amount of each ledger entry.
func entryAmounts(entries []billingv1.LedgerEntry) []int64 {
	out := make([]int64, len(entries))
	for i, e := range entries {
		out[i] = e.Amount
	}
	return out
}

// InvoiceBalanceOf is BalanceOf with inv's own total (TotalsOf).
func InvoiceBalanceOf(inv *billingv1.Invoice) *billingv1.InvoiceBalance {
	var total *int64
	if t, ok := TotalsOf(inv, DocumentTaxesOf(inv)); ok {
		total = &t.Total
	}
	return BalanceOf(inv, total)
}

// IssuedBalance is issued invoice inv's balance when it was issued:
// nothing credited, paid, applied or written off, its total (TotalsOf) the
// amount due, open and not overdue. It is nil for an invoice that is not
// issued or whose total cannot be computed.
func IssuedBalance(inv *billingv1.Invoice) *billingv1.InvoiceBalance {
	if inv.EffectivePhase() != billingv1.InvoiceIssued {
		return nil
	}
	t, ok := TotalsOf(inv, DocumentTaxesOf(inv))
	if !ok {
		return nil
	}
	b, err := ComputeLedgerBalance(t.Total, LedgerAmounts{})
	if err != nil {
		return nil
	}
	return &billingv1.InvoiceBalance{AmountRemaining: b.Remaining, PaymentStatus: billingv1.InvoicePaymentStatus(b.Status)}
}

// AsIssued is inv as it was issued: a copy whose ledger is empty and whose
// balance is IssuedBalance, so that no payment, credit note, credit
// application or write-off entered since shows on what is rendered of it.
// Its frozen amounts, parties and dates are inv's own. The copy shares
// memory with inv: read it, never change it.
func AsIssued(inv *billingv1.Invoice) *billingv1.Invoice {
	c := *inv
	c.Status.Ledger = nil
	c.Status.Balance = IssuedBalance(inv)
	return &c
}

// BalanceOf returns inv's balance as the API shows it, total being its
// total (TotalsOf; nil when it cannot be computed): the controller's
// (status.balance) once it has computed it; for an issued invoice it has
// not yet looked at since balances existed, nothing credited or paid and
// the total remaining, not overdue. It is nil until the invoice is
// issued. The result may share memory with inv: read it, never change it.
func BalanceOf(inv *billingv1.Invoice, total *int64) *billingv1.InvoiceBalance {
	if inv.EffectivePhase() != billingv1.InvoiceIssued {
		return nil
	}
	if b := inv.Status.Balance; b != nil {
		return b
	}
	if total == nil {
		return nil
	}
	computed, err := ComputeBalance(*total, nil, nil)
	if err != nil {
		return nil
	}
	return &billingv1.InvoiceBalance{AmountRemaining: computed.Remaining,
		PaymentStatus: billingv1.InvoicePaymentStatus(computed.Status)}
}
