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

package document

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestTheDocumentsShowWhatWasPaidOnceAPaymentIsRecorded(t *testing.T) {
	paid := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 50000, AmountRemaining: 18050,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	unpaid := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: 68050, PaymentStatus: billingv1.InvoicePaymentOpen}
	}
	cases := []struct {
		name   string
		inv    *billingv1.Invoice
		shown  bool
		render func(*billingv1.Invoice, Options) ([]byte, error)
		text   func(*testing.T, []byte) string
	}{
		{"an HTML document with a payment shows it and what remains", issued(paid), true, HTML, htmlText},
		{"a PDF with a payment shows it and what remains", issued(paid), true, PDF, pdfText},
		{"an HTML document without payment shows neither", issued(unpaid), false, HTML, htmlText},
		{"a PDF without payment shows neither", issued(unpaid), false, PDF, pdfText},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := tc.render(tc.inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := tc.text(t, doc)
			for _, want := range []string{"Amount paid", "$500.00", "Amount remaining", "$180.50"} {
				if strings.Contains(text, want) != tc.shown {
					t.Errorf("contains %q: %v, want %v; the text is:\n%s", want, !tc.shown, tc.shown, text)
				}
			}
		})
	}
}

func htmlText(_ *testing.T, doc []byte) string { return string(doc) }

func TestTheDocumentsShowCreditNotesAndCreditAppliedButNeverAWriteOff(t *testing.T) {
	const iban = "DE89 3704 0044 0532 0130 00"
	writtenOff := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountApplied: 10000, AmountWrittenOff: 58050,
			PaymentStatus: billingv1.InvoicePaymentUncollectible}
	}
	onlyWrittenOff := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountWrittenOff: 68050,
			PaymentStatus: billingv1.InvoicePaymentUncollectible}
	}
	applied := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountApplied: 10000, AmountRemaining: 58050,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	credited := func(inv *billingv1.Invoice) {
		inv.Status.Ledger = &billingv1.InvoiceLedger{CreditNotes: []billingv1.LedgerEntry{
			{Name: "cn-1", UID: "uid-1", Amount: 20000}, {Name: "cn-2", UID: "uid-2", Amount: 5000}}}
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountCredited: 25000, AmountPaid: 10000, AmountRemaining: 33050,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	paidInFull := func(inv *billingv1.Invoice) {
		inv.Status.Ledger = &billingv1.InvoiceLedger{CreditNotes: []billingv1.LedgerEntry{
			{Name: "cn-1", UID: "uid-1", Amount: 20000}}}
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountCredited: 20000, AmountPaid: 48050,
			PaymentStatus: billingv1.InvoicePaymentPaid}
	}
	note := func(name, uid, number string) *billingv1.CreditNote {
		cn := &billingv1.CreditNote{}
		cn.Name, cn.UID, cn.Status.Number = name, types.UID(uid), number
		return cn
	}
	numbered := Options{CreditNotes: []*billingv1.CreditNote{note("cn-2", "uid-2", "CN-000008"),
		note("cn-1", "uid-1", "CN-000007")}}
	cases := []struct {
		name          string
		inv           *billingv1.Invoice
		opts          Options
		want, notWant []string
	}{
		{"a write-off is not shown: what it wrote off still remains, and the bank details stay",
			issued(sampleAccount, writtenOff), Options{},
			[]string{"Credit applied", "$100.00", "Amount remaining", "$580.50", iban},
			[]string{"Written off", "Amount paid", "$0.00"}},
		{"an invoice only written off shows its total as the customer owes it, nothing settled",
			issued(sampleAccount, onlyWrittenOff), Options{},
			[]string{"Total", "$680.50", iban},
			[]string{"Written off", "Amount remaining", "$0.00"}},
		{"credit applied and nothing written off shows the credit and what remains",
			issued(sampleAccount, applied), Options{},
			[]string{"Credit applied", "$100.00", "Amount remaining", "$580.50", iban},
			[]string{"Written off", "Amount paid"}},
		{"the credit notes that reduced the invoice are listed by number and amount, in the ledger's order",
			issued(sampleAccount, credited), numbered,
			[]string{"Credit note CN-000007", "$200.00", "Credit note CN-000008", "$50.00", "Amount paid", "$100.00",
				"Amount remaining", "$330.50", iban},
			[]string{"cn-1", "cn-2"}},
		{"a credit note the caller did not give is named by its name",
			issued(sampleAccount, credited), Options{},
			[]string{"Credit note cn-1", "$200.00", "Credit note cn-2", "$50.00"}, nil},
		{"an invoice with nothing left to pay has no bank transfer block",
			issued(sampleAccount, paidInFull), numbered,
			[]string{"Credit note CN-000007", "$200.00", "Amount paid", "$480.50", "Amount remaining", "$0.00"},
			[]string{"Payment by bank transfer", "PAYMENT BY BANK TRANSFER", "IBAN", iban, "Reference"}},
	}
	for _, tc := range cases {
		for name, render := range map[string]struct {
			render func(*billingv1.Invoice, Options) ([]byte, error)
			text   func(*testing.T, []byte) string
		}{"HTML": {HTML, htmlText}, "PDF": {PDF, pdfText}} {
			t.Run(tc.name+" ("+name+")", func(t *testing.T) {
				doc, err := render.render(tc.inv, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				text := render.text(t, doc)
				rest := text
				for _, want := range tc.want {
					i := strings.Index(rest, want)
					if i < 0 {
						t.Errorf("does not contain %q in the order %q; the text is:\n%s", want, tc.want, text)
						break
					}
					rest = rest[i+len(want):]
				}
				for _, not := range tc.notWant {
					if strings.Contains(text, not) {
						t.Errorf("contains %q; the text is:\n%s", not, text)
					}
				}
			})
		}
	}
}
