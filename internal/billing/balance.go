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
	// PaymentVoid: everything credited and nothing paid, the total above 0.
	PaymentVoid PaymentStatus = "void"
	// PaymentPaid: nothing remains to be paid.
	PaymentPaid PaymentStatus = "paid"
	// PaymentPartiallyPaid: something was paid and something remains.
	PaymentPartiallyPaid PaymentStatus = "partially_paid"
	// PaymentOpen: nothing paid, something remains.
	PaymentOpen PaymentStatus = "open"
)

// ErrBalanceTooLarge is returned when credited plus paid exceeds what an
// int64 holds; each payment is at most MaxTotal, so it takes about a
// thousand payments of that size to one invoice.
var ErrBalanceTooLarge = errors.New("the invoice's credits and payments exceed 2^62 minor units")

// maxBalance bounds credited plus paid: far above any real invoice, far
// below int64's limit, so that sums never wrap.
const maxBalance = 1 << 62

// Balance is an issued invoice's position, derived from its total, its
// issued credit notes and its recorded payments, never set by hand.
type Balance struct {
	Credited  int64
	Paid      int64
	Remaining int64
	Overpaid  int64
	Status    PaymentStatus
}

// ComputeBalance derives the balance of an invoice of total from the
// totals of its issued credit notes and the amounts of its recorded
// payments:
//
//	Remaining = max(0, total - credited - paid)
//	Overpaid  = max(0, credited + paid - total)
//
// and the status, first match wins: void (credited covers the total,
// nothing paid, the total above 0), paid (nothing remains), partially_paid
// (something paid), open. It fails with ErrBalanceTooLarge when the sums
// exceed 2^62, and on a negative input.
func ComputeBalance(total int64, creditNoteTotals, payments []int64) (Balance, error) {
	if total < 0 {
		return Balance{}, errors.New("the total must not be negative")
	}
	var b Balance
	for _, c := range creditNoteTotals {
		if c < 0 {
			return Balance{}, errors.New("a credit note's total must not be negative")
		}
		if b.Credited += c; b.Credited > maxBalance {
			return Balance{}, ErrBalanceTooLarge
		}
	}
	for _, p := range payments {
		if p < 0 {
			return Balance{}, errors.New("a payment's amount must not be negative")
		}
		if b.Paid += p; b.Paid > maxBalance {
			return Balance{}, ErrBalanceTooLarge
		}
	}
	// Each sum is at most 2^62: their sum and differences fit in an int64.
	settled := b.Credited + b.Paid
	b.Remaining = max(0, total-settled)
	b.Overpaid = max(0, settled-total)
	switch {
	case total > 0 && b.Credited >= total && b.Paid == 0:
		b.Status = PaymentVoid
	case b.Remaining == 0:
		b.Status = PaymentPaid
	case b.Paid > 0:
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
