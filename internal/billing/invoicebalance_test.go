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
	"fmt"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kptr "k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestTheBalanceAnInvoiceShows(t *testing.T) {
	paid := &billingv1.InvoiceBalance{AmountPaid: 4105, PaymentStatus: billingv1.InvoicePaymentPaid}
	for _, tc := range []struct {
		name    string
		invoice func() *billingv1.Invoice
		total   *int64
		want    *billingv1.InvoiceBalance
	}{{
		name: "an invoice that is not issued has none",
		invoice: func() *billingv1.Invoice {
			inv := issuedInvoice(0)
			inv.Status.Phase = billingv1.InvoicePending
			inv.Status.Balance = paid
			return inv
		},
		total: kptr.To[int64](4105),
	}, {
		name:    "an issued invoice the controller has not looked at since balances existed is open for its total",
		invoice: func() *billingv1.Invoice { return issuedInvoice(0) },
		total:   kptr.To[int64](4105),
		want:    &billingv1.InvoiceBalance{AmountRemaining: 4105, PaymentStatus: billingv1.InvoicePaymentOpen},
	}, {
		name:    "an issued invoice without a total has none",
		invoice: func() *billingv1.Invoice { return issuedInvoice(0) },
	}, {
		name: "an issued invoice shows the controller's balance",
		invoice: func() *billingv1.Invoice {
			inv := issuedInvoice(0)
			inv.Status.Balance = paid
			return inv
		},
		total: kptr.To[int64](4105),
		want:  paid,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.BalanceOf(tc.invoice(), tc.total); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BalanceOf() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestAnInvoicesBalanceTakesItsOwnTotal(t *testing.T) {
	open := &billingv1.InvoiceBalance{AmountRemaining: 4105, PaymentStatus: billingv1.InvoicePaymentOpen}
	if got := billing.InvoiceBalanceOf(issuedInvoice(0)); !reflect.DeepEqual(got, open) {
		t.Errorf("InvoiceBalanceOf(issued) = %+v, want %+v", got, open)
	}
	pending := issuedInvoice(0)
	pending.Status.Phase = billingv1.InvoicePending
	if got := billing.InvoiceBalanceOf(pending); got != nil {
		t.Errorf("InvoiceBalanceOf(pending) = %+v, want none", got)
	}
}

func TestAnInvoiceWithoutACurrencyIsInTheDefaultOne(t *testing.T) {
	inv := issuedInvoice(0)
	if got := billing.InvoiceCurrency(inv); got != "EUR" {
		t.Errorf("InvoiceCurrency(EUR invoice) = %q", got)
	}
	inv.Spec.Currency = ""
	if got := billing.InvoiceCurrency(inv); got != billing.DefaultCurrency {
		t.Errorf("InvoiceCurrency(no currency) = %q, want %q", got, billing.DefaultCurrency)
	}
}

func TestTheBalanceOfAnInvoiceIsDerivedFromItsLedger(t *testing.T) {
	due := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	entries := func(amounts ...int64) []billingv1.LedgerEntry {
		out := make([]billingv1.LedgerEntry, len(amounts))
		for i, a := range amounts {
			out[i] = billingv1.LedgerEntry{Name: string(rune('a' + i)), Amount: a}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		ledger *billingv1.InvoiceLedger
		at     time.Time
		want   *billingv1.InvoiceBalance
	}{{
		name: "an invoice without a ledger is open for its total until its due date",
		at:   due,
		want: &billingv1.InvoiceBalance{AmountRemaining: 4105, PaymentStatus: billingv1.InvoicePaymentOpen},
	}, {
		name:   "credit notes and payments add up, and what remains after the due date is overdue",
		ledger: &billingv1.InvoiceLedger{CreditNotes: entries(105), Payments: entries(1000, 2000)},
		at:     due.Add(time.Second),
		want: &billingv1.InvoiceBalance{AmountCredited: 105, AmountPaid: 3000, AmountRemaining: 1000,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid, Overdue: true},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			inv := issuedInvoice(0)
			inv.Status.DueAt = &metav1.Time{Time: due}
			inv.Status.Ledger = tc.ledger
			got, err := billing.LedgerBalance(inv, tc.at)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("LedgerBalance() = %+v, %v, want %+v", got, err, tc.want)
			}
		})
	}
}

func TestALedgerTooLargeHasNoBalance(t *testing.T) {
	inv := issuedInvoice(0)
	inv.Status.Ledger = &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{
		{Name: "a", Amount: 1 << 61}, {Name: "b", Amount: 1 << 61}, {Name: "c", Amount: 1 << 61}}}
	if _, err := billing.LedgerBalance(inv, time.Now()); !errors.Is(err, billing.ErrBalanceTooLarge) {
		t.Errorf("LedgerBalance() error = %v, want ErrBalanceTooLarge", err)
	}
}

func TestAnInvoiceFactIsUnreachableOnlyOnceItsLedgerHasMovedPastIt(t *testing.T) {
	entries := func(amounts ...int64) []billingv1.LedgerEntry {
		out := make([]billingv1.LedgerEntry, 0, len(amounts))
		for i, a := range amounts {
			out = append(out, billingv1.LedgerEntry{Name: fmt.Sprintf("r-%d", i), UID: fmt.Sprintf("uid-%d", i), Amount: a})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		ledger *billingv1.InvoiceLedger
		fact   billingv1.EventType
		want   bool
	}{
		{name: "an open invoice can still be voided", fact: billingv1.EventTypeInvoiceVoided},
		{name: "a fully credited invoice without payments can still be voided",
			ledger: &billingv1.InvoiceLedger{CreditNotes: entries(4105)}, fact: billingv1.EventTypeInvoiceVoided},
		{name: "an invoice with a payment is never voided",
			ledger: &billingv1.InvoiceLedger{Payments: entries(100)}, fact: billingv1.EventTypeInvoiceVoided, want: true},
		{name: "a fully credited invoice paid later is never voided",
			ledger: &billingv1.InvoiceLedger{CreditNotes: entries(4105), Payments: entries(700)},
			fact:   billingv1.EventTypeInvoiceVoided, want: true},
		{name: "an invoice with applied credit is never voided",
			ledger: &billingv1.InvoiceLedger{CreditApplications: entries(100)}, fact: billingv1.EventTypeInvoiceVoided, want: true},
		{name: "an invoice written off in part can still be voided by credit notes",
			ledger: &billingv1.InvoiceLedger{WriteOffs: entries(100)}, fact: billingv1.EventTypeInvoiceVoided},
		{name: "an invoice with something left to pay can still become overdue",
			ledger: &billingv1.InvoiceLedger{Payments: entries(4000)}, fact: billingv1.EventTypeInvoiceOverdue},
		{name: "a paid invoice is never overdue",
			ledger: &billingv1.InvoiceLedger{Payments: entries(4000, 105)}, fact: billingv1.EventTypeInvoiceOverdue, want: true},
		{name: "a voided invoice is never overdue",
			ledger: &billingv1.InvoiceLedger{CreditNotes: entries(4105)}, fact: billingv1.EventTypeInvoiceOverdue, want: true},
		{name: "an invoice written off in whole is never overdue",
			ledger: &billingv1.InvoiceLedger{WriteOffs: entries(4105)}, fact: billingv1.EventTypeInvoiceOverdue, want: true},
		{name: "a paid invoice can still be paid: invoice.paid is never unreachable",
			ledger: &billingv1.InvoiceLedger{Payments: entries(4105)}, fact: billingv1.EventTypeInvoicePaid},
		{name: "a ledger too large to add up answers nothing",
			ledger: &billingv1.InvoiceLedger{Payments: entries(1<<61, 1<<61, 1<<61)}, fact: billingv1.EventTypeInvoiceVoided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := issuedInvoice(0)
			inv.Status.Ledger = tc.ledger
			if got := billing.FactUnreachable(inv, tc.fact); got != tc.want {
				t.Errorf("FactUnreachable(%s) = %v, want %v", tc.fact, got, tc.want)
			}
		})
	}
	pending := issuedInvoice(0)
	pending.Status.Phase = billingv1.InvoicePending
	pending.Status.Ledger = &billingv1.InvoiceLedger{Payments: entries(100)}
	if billing.FactUnreachable(pending, billingv1.EventTypeInvoiceVoided) {
		t.Error("FactUnreachable() of a pending invoice = true, want false: it has no balance to tell")
	}
}

func TestAnInvoiceAsIssuedOwesItsTotalWhateverItsLedgerHoldsSince(t *testing.T) {
	open := &billingv1.InvoiceBalance{AmountRemaining: 4105, PaymentStatus: billingv1.InvoicePaymentOpen}
	entry := func(a int64) []billingv1.LedgerEntry { return []billingv1.LedgerEntry{{Name: "x", Amount: a}} }
	for _, tc := range []struct {
		name   string
		change func(*billingv1.Invoice)
		want   *billingv1.InvoiceBalance
	}{
		{"an invoice nothing has touched owes its total", func(*billingv1.Invoice) {}, open},
		{"a payment, a credit note, applied credit and a write-off since are not there",
			func(inv *billingv1.Invoice) {
				inv.Status.Ledger = &billingv1.InvoiceLedger{Payments: entry(1000), CreditNotes: entry(105),
					CreditApplications: entry(500), WriteOffs: entry(2500)}
				inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 1000, AmountCredited: 105, AmountApplied: 500,
					AmountWrittenOff: 2500, PaymentStatus: billingv1.InvoicePaymentUncollectible}
			}, open},
		{"an overdue invoice was not overdue when it was issued",
			func(inv *billingv1.Invoice) {
				inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: 4105, Overdue: true}
			}, open},
		{"an invoice that is not issued has no balance",
			func(inv *billingv1.Invoice) { inv.Status.Phase = billingv1.InvoiceInvalid }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := issuedInvoice(0)
			tc.change(inv)
			before := inv.DeepCopy()
			got := billing.AsIssued(inv)
			if !reflect.DeepEqual(got.Status.Balance, tc.want) || got.Status.Ledger != nil {
				t.Errorf("AsIssued() balance %+v, ledger %+v, want %+v and no ledger", got.Status.Balance, got.Status.Ledger, tc.want)
			}
			if !reflect.DeepEqual(inv, before) {
				t.Error("AsIssued changed the invoice it was given")
			}
			if *got.Status.Total != 4105 || got.Status.Number != inv.Status.Number {
				t.Error("AsIssued lost the frozen total or number")
			}
		})
	}
}
