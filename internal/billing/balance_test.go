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

package billing_test

import (
	"errors"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestComputeBalance(t *testing.T) {
	for _, tc := range []struct {
		name     string
		total    int64
		credited []int64
		paid     []int64
		want     billing.Balance
	}{
		{"an invoice without credit notes or payments is open", 10_000, nil, nil,
			billing.Balance{Remaining: 10_000, Status: billing.PaymentOpen}},
		{"a payment of part makes it partially paid", 10_000, nil, []int64{4_000},
			billing.Balance{Paid: 4_000, Remaining: 6_000, Status: billing.PaymentPartiallyPaid}},
		{"payments of the whole make it paid", 10_000, nil, []int64{4_000, 6_000},
			billing.Balance{Paid: 10_000, Status: billing.PaymentPaid}},
		{"a full credit without payment makes it void", 10_000, []int64{10_000}, nil,
			billing.Balance{Credited: 10_000, Status: billing.PaymentVoid}},
		{"a partial credit and a payment of the rest make it paid", 10_000, []int64{3_000}, []int64{7_000},
			billing.Balance{Credited: 3_000, Paid: 7_000, Status: billing.PaymentPaid}},
		{"a full credit after a payment makes it paid, and the payment is owed back", 10_000, []int64{10_000}, []int64{2_500},
			billing.Balance{Credited: 10_000, Paid: 2_500, Overpaid: 2_500, Status: billing.PaymentPaid}},
		{"two payments that each cover the total overpay it by one", 10_000, nil, []int64{10_000, 10_000},
			billing.Balance{Paid: 20_000, Overpaid: 10_000, Status: billing.PaymentPaid}},
		{"a partial credit leaves it open", 10_000, []int64{2_000}, nil,
			billing.Balance{Credited: 2_000, Remaining: 8_000, Status: billing.PaymentOpen}},
		{"an invoice of 0 is paid, not void", 0, nil, nil,
			billing.Balance{Status: billing.PaymentPaid}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := billing.ComputeBalance(tc.total, tc.credited, tc.paid)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ComputeBalance = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestComputeBalanceRefusesWhatDoesNotFit(t *testing.T) {
	many := make([]int64, 1_000)
	for i := range many {
		many[i] = billing.MaxTotal
	}
	if _, err := billing.ComputeBalance(billing.MaxTotal, nil, many); !errors.Is(err, billing.ErrBalanceTooLarge) {
		t.Errorf("a thousand payments of 2^53-1: %v, want ErrBalanceTooLarge", err)
	}
	if _, err := billing.ComputeBalance(billing.MaxTotal, many, nil); !errors.Is(err, billing.ErrBalanceTooLarge) {
		t.Errorf("a thousand credit notes of 2^53-1: %v, want ErrBalanceTooLarge", err)
	}
	for _, tc := range []struct {
		name            string
		total           int64
		credited, paids []int64
	}{
		{"a negative total", -1, nil, nil},
		{"a negative credit note", 1, []int64{-1}, nil},
		{"a negative payment", 1, nil, []int64{-1}},
	} {
		if _, err := billing.ComputeBalance(tc.total, tc.credited, tc.paids); err == nil {
			t.Errorf("%s: want an error", tc.name)
		}
	}
}

func TestOverdue(t *testing.T) {
	due := time.Date(2026, time.December, 7, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		now       time.Time
		remaining int64
		want      bool
	}{
		{"before its due time an invoice is not overdue", due.Add(-time.Second), 100, false},
		{"at its due time it is not yet overdue", due, 100, false},
		{"after its due time with something remaining it is overdue", due.Add(time.Second), 100, true},
		{"after its due time with nothing remaining it is not overdue", due.Add(time.Hour), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.Overdue(due, tc.now, tc.remaining); got != tc.want {
				t.Errorf("Overdue = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestComputeLedgerBalanceWithAppliedCreditAndWriteOffs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		total  int64
		ledger billing.LedgerAmounts
		want   billing.Balance
	}{
		{"credit applied to part makes it partially paid", 10_000, billing.LedgerAmounts{Applied: []int64{3_000}},
			billing.Balance{Applied: 3_000, Remaining: 7_000, Status: billing.PaymentPartiallyPaid}},
		{"credit applied to the whole makes it paid", 10_000, billing.LedgerAmounts{Applied: []int64{4_000, 6_000}},
			billing.Balance{Applied: 10_000, Status: billing.PaymentPaid}},
		{"a full credit note after applied credit gives the credit back as overpaid, and it is paid, not void",
			10_000, billing.LedgerAmounts{CreditNotes: []int64{10_000}, Applied: []int64{4_000}},
			billing.Balance{Credited: 10_000, Applied: 4_000, Overpaid: 4_000, Status: billing.PaymentPaid}},
		{"a write-off of what remains makes it uncollectible with nothing remaining", 10_000,
			billing.LedgerAmounts{Payments: []int64{3_000}, WrittenOff: []int64{7_000}},
			billing.Balance{Paid: 3_000, WrittenOff: 7_000, Status: billing.PaymentUncollectible}},
		{"a later payment recovers the write-off first", 10_000,
			billing.LedgerAmounts{Payments: []int64{3_000, 5_000}, WrittenOff: []int64{7_000}},
			billing.Balance{Paid: 8_000, WrittenOff: 2_000, Status: billing.PaymentUncollectible}},
		{"payments of the whole recover all of it and make it paid", 10_000,
			billing.LedgerAmounts{Payments: []int64{3_000, 7_000}, WrittenOff: []int64{7_000}},
			billing.Balance{Paid: 10_000, Status: billing.PaymentPaid}},
		{"a payment beyond the write-off overpays it", 10_000,
			billing.LedgerAmounts{Payments: []int64{3_000, 9_000}, WrittenOff: []int64{7_000}},
			billing.Balance{Paid: 12_000, Overpaid: 2_000, Status: billing.PaymentPaid}},
		{"a credit note after a write-off takes its place", 10_000,
			billing.LedgerAmounts{CreditNotes: []int64{10_000}, WrittenOff: []int64{10_000}},
			billing.Balance{Credited: 10_000, Status: billing.PaymentVoid}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := billing.ComputeLedgerBalance(tc.total, tc.ledger)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ComputeLedgerBalance = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestComputeLedgerBalanceRefusesANegativeApplicationOrWriteOff(t *testing.T) {
	for _, l := range []billing.LedgerAmounts{{Applied: []int64{-1}}, {WrittenOff: []int64{-1}}} {
		if _, err := billing.ComputeLedgerBalance(100, l); err == nil {
			t.Errorf("ComputeLedgerBalance(%+v) accepted a negative amount", l)
		}
	}
}
