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

package banking

import (
	"errors"
	"testing"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// issued is an issued invoice numbered number in currency with remaining
// left to pay of its total.
func issued(name, number, currency string, total, remaining int64) *billingv1.Invoice {
	inv := builder.Invoice("ws", name, builder.WithCurrency(currency), builder.WithItem("x", 1, total))
	inv.Status.Phase, inv.Status.Number, inv.Status.Total = billingv1.InvoiceIssued, number, ptr.To(total)
	inv.Status.PaymentReference = banktransfer.Reference(number)
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: remaining, AmountPaid: total - remaining}
	return inv
}

// workspace looks invoices up by key, as the cache's index and filter do.
func workspace(invoices ...*billingv1.Invoice) invoicesByKey {
	return func(key string) ([]*billingv1.Invoice, error) {
		var out []*billingv1.Invoice
		for _, inv := range invoices {
			if banktransfer.InvoiceKey(inv.Status.Number) == key {
				out = append(out, inv)
			}
		}
		return out, nil
	}
}

func credit(amount int64, change func(*billingv1.BankEntry)) *billingv1.BankEntry {
	e := &billingv1.BankEntry{Account: "DE02120300000000202051", BookingDate: "2026-11-20", Amount: amount,
		Currency: "EUR", CreditDebit: billingv1.Credit}
	if change != nil {
		change(e)
	}
	return e
}

func TestDecideMatchesEachCreditOnceByTheRulesOfTheDocs(t *testing.T) {
	inv42 := issued("inv-42", "INV-000042", "EUR", 119_00, 119_00)
	inv43 := issued("inv-43", "INV-000043", "EUR", 50_00, 20_00)
	chf := issued("inv-44", "INV-000044", "CHF", 10_00, 10_00)
	other := issued("inv-x", "OTHER-000042", "EUR", 119_00, 119_00) // another prefix, the same digits
	ws := workspace(inv42, inv43, chf, other)
	cases := []struct {
		name    string
		entry   *billingv1.BankEntry
		closed  bool
		phase   billingv1.BankTransactionPhase
		reason  billingv1.BankMatchReason
		how     billingv1.BankMatchedBy
		invoice *billingv1.Invoice
	}{
		{"a structured reference matches its invoice whatever the amount",
			credit(5_00, func(e *billingv1.BankEntry) { e.StructuredReferences = []string{inv42.Status.PaymentReference} }),
			false, billingv1.BankTransactionMatched, "", billingv1.MatchedByReference, inv42},
		{"a reference in printed groups in the text matches",
			credit(200_00, func(e *billingv1.BankEntry) {
				e.RemittanceText = "Payment " + banktransfer.Group(inv43.Status.PaymentReference) + " thanks"
			}),
			false, billingv1.BankTransactionMatched, "", billingv1.MatchedByReference, inv43},
		{"an invoice number with the amount that remains matches",
			credit(20_00, func(e *billingv1.BankEntry) { e.RemittanceText = "Invoice INV-000043." }),
			false, billingv1.BankTransactionMatched, "", billingv1.MatchedByNumberAndAmount, inv43},
		{"an invoice number with another amount does not match",
			credit(19_99, func(e *billingv1.BankEntry) { e.RemittanceText = "Invoice INV-000043" }),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonNoMatch, "", nil},
		{"a typo in the number matches nothing",
			credit(119_00, func(e *billingv1.BankEntry) { e.RemittanceText = "Invoice INV-00042" }),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonNoMatch, "", nil},
		{"a reference whose check digits fail is not read as one",
			credit(119_00, func(e *billingv1.BankEntry) { e.StructuredReferences = []string{"RF00INV000042"} }),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonNoMatch, "", nil},
		{"a reference to an invoice in another currency is a mismatch",
			credit(10_00, func(e *billingv1.BankEntry) { e.StructuredReferences = []string{chf.Status.PaymentReference} }),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonCurrencyMismatch, "", nil},
		{"two references to two invoices are ambiguous",
			credit(10_00, func(e *billingv1.BankEntry) {
				e.StructuredReferences = []string{inv42.Status.PaymentReference, inv43.Status.PaymentReference}
			}),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonAmbiguous, "", nil},
		{"a credit booked in a closed period stays unmatched",
			credit(119_00, func(e *billingv1.BankEntry) { e.StructuredReferences = []string{inv42.Status.PaymentReference} }),
			true, billingv1.BankTransactionUnmatched, billingv1.BankReasonPeriodClosed, "", nil},
		{"a debit is ignored",
			credit(119_00, func(e *billingv1.BankEntry) {
				e.CreditDebit, e.StructuredReferences = billingv1.Debit, []string{inv42.Status.PaymentReference}
			}),
			false, billingv1.BankTransactionIgnored, billingv1.BankReasonDebit, "", nil},
		{"a reversal is ignored",
			credit(119_00, func(e *billingv1.BankEntry) { e.Reversal = true }),
			false, billingv1.BankTransactionIgnored, billingv1.BankReasonReversal, "", nil},
		{"a credit that names nothing is unmatched",
			credit(1_00, func(e *billingv1.BankEntry) { e.RemittanceText = "Thank you" }),
			false, billingv1.BankTransactionUnmatched, billingv1.BankReasonNoMatch, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := decide(c.entry, c.closed, ws)
			if err != nil {
				t.Fatal(err)
			}
			if v.phase != c.phase || v.reason != c.reason || v.how != c.how || v.invoice != c.invoice {
				t.Errorf("decide = %s %q %q %v (%s), want %s %q %q %v", v.phase, v.reason, v.how, name(v.invoice),
					v.message, c.phase, c.reason, c.how, name(c.invoice))
			}
			if v.message == "" {
				t.Error("the verdict says nothing to people")
			}
		})
	}
}

func TestDecideReturnsTheLookupsError(t *testing.T) {
	boom := errors.New("cache down")
	_, err := decide(credit(1, func(e *billingv1.BankEntry) { e.RemittanceText = "INV-000042" }), false,
		func(string) ([]*billingv1.Invoice, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func name(inv *billingv1.Invoice) string {
	if inv == nil {
		return "<none>"
	}
	return inv.Name
}
