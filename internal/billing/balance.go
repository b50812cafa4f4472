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
	"errors"
	"time"
)

// PaymentStatus is where an issued invoice is in being settled.
type PaymentStatus string

// The payment statuses, in the order Balance decides them: the first that
// applies wins.
const (
	// PaymentVoid: everything credited and nothing paid or applied, the
	// total above 0.
	PaymentVoid PaymentStatus = "void"
	// PaymentUncollectible: something written off that no payment has
	// recovered yet.
	PaymentUncollectible PaymentStatus = "uncollectible"
	// PaymentPaid: nothing remains to be paid.
	PaymentPaid PaymentStatus = "paid"
	// PaymentPartiallyPaid: something was paid (or credit applied) and
	// something remains.
	PaymentPartiallyPaid PaymentStatus = "partially_paid"
	// PaymentOpen: nothing paid, something remains.
	PaymentOpen PaymentStatus = "open"
)

// ErrBalanceTooLarge is returned when a sum of the ledger exceeds what an
// int64 holds; each record is at most MaxTotal, so it takes about a
// thousand records of that size to one invoice.
var ErrBalanceTooLarge = errors.New("the invoice's credits and payments exceed 2^62 minor units")

// maxBalance bounds each sum of the ledger: far above any real invoice, far
// below int64's limit, so that sums never wrap.
const maxBalance = 1 << 62

// Balance is an issued invoice's position, derived from its total and its
// ledger, never set by hand.
type Balance struct {
	Credited   int64
	Paid       int64
	Applied    int64
	WrittenOff int64
	Remaining  int64
	Overpaid   int64
	Status     PaymentStatus
}

// LedgerAmounts are the amounts of an invoice's ledger, by kind of record.
type LedgerAmounts struct {
	// CreditNotes are the issued credit notes' totals.
	CreditNotes []int64
	// Payments are the recorded payments' amounts.
	Payments []int64
	// Applied are the applied credit applications' amounts.
	Applied []int64
	// WrittenOff are what each write-off wrote off when it was entered.
	WrittenOff []int64
}

// ComputeBalance derives the balance of an invoice of total from the
// totals of its issued credit notes and the amounts of its recorded
// payments (ComputeLedgerBalance with no credit applied or written off).
func ComputeBalance(total int64, creditNoteTotals, payments []int64) (Balance, error) {
	return ComputeLedgerBalance(total, LedgerAmounts{CreditNotes: creditNoteTotals, Payments: payments})
}

// ComputeLedgerBalance derives the balance of an invoice of total from its
// ledger (docs/ledger.md#how-balances-are-derived):
//
//   - settled = credited + paid + applied; open = max(0, total - settled);
//   - writtenOff = min(the write-offs, open): a payment after a write-off
//     recovers it first;
//   - remaining = open - writtenOff; overpaid = max(0, settled - total);
//   - status, the first that applies: void (credited >= total > 0, nothing
//     paid or applied), uncollectible (writtenOff > 0), paid (nothing
//     remains), partially_paid (something paid or applied), open.
func ComputeLedgerBalance(total int64, l LedgerAmounts) (Balance, error) {
	if total < 0 {
		return Balance{}, errors.New("the total must not be negative")
	}
	var b Balance
	var writeOffs int64
	for _, sum := range []struct {
		into    *int64
		amounts []int64
		what    string
	}{
		{&b.Credited, l.CreditNotes, "a credit note's total"},
		{&b.Paid, l.Payments, "a payment's amount"},
		{&b.Applied, l.Applied, "an applied credit's amount"},
		{&writeOffs, l.WrittenOff, "a write-off's amount"},
	} {
		for _, a := range sum.amounts {
			if a < 0 {
				return Balance{}, errors.New(sum.what + " must not be negative")
			}
			if *sum.into += a; *sum.into > maxBalance {
				return Balance{}, ErrBalanceTooLarge
			}
		}
	}
	// Each sum is at most 2^62 and there are three: settled fits in an
	// int64, as do the differences below.
	settled := b.Credited + b.Paid + b.Applied
	open := max(0, total-settled)
	b.WrittenOff = min(writeOffs, open)
	b.Remaining = open - b.WrittenOff
	b.Overpaid = max(0, settled-total)
	switch {
	case total > 0 && b.Credited >= total && b.Paid == 0 && b.Applied == 0:
		b.Status = PaymentVoid
	case b.WrittenOff > 0:
		b.Status = PaymentUncollectible
	case b.Remaining == 0:
		b.Status = PaymentPaid
	case b.Paid > 0 || b.Applied > 0:
		b.Status = PaymentPartiallyPaid
	default:
		b.Status = PaymentOpen
	}
	return b, nil
}

// Overdue reports whether an invoice due at dueAt with remaining to pay
// is overdue at now: its due time has passed and something remains.
func Overdue(dueAt, now time.Time, remaining int64) bool {
	return remaining > 0 && now.After(dueAt)
}
