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

func TestTheDocumentsShowCreditAppliedAndWhatWasWrittenOff(t *testing.T) {
	settled := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountApplied: 10000, AmountWrittenOff: 58050,
			PaymentStatus: billingv1.InvoicePaymentUncollectible}
	}
	applied := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountApplied: 10000, AmountRemaining: 58050,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	cases := []struct {
		name          string
		inv           *billingv1.Invoice
		want, notWant []string
		render        func(*billingv1.Invoice, Options) ([]byte, error)
		text          func(*testing.T, []byte) string
	}{
		{"an HTML document shows the credit applied and the amount written off, and no payment",
			issued(settled), []string{"Credit applied", "$100.00", "Written off", "$580.50", "Amount remaining", "$0.00"},
			[]string{"Amount paid"}, HTML, htmlText},
		{"a PDF shows the credit applied and the amount written off, and no payment",
			issued(settled), []string{"Credit applied", "$100.00", "Written off", "$580.50", "Amount remaining", "$0.00"},
			[]string{"Amount paid"}, PDF, pdfText},
		{"a PDF with credit applied and nothing written off shows only the credit and what remains",
			issued(applied), []string{"Credit applied", "$100.00", "Amount remaining", "$580.50"},
			[]string{"Written off", "Amount paid"}, PDF, pdfText},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := tc.render(tc.inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := tc.text(t, doc)
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("does not contain %q; the text is:\n%s", want, text)
				}
			}
			for _, not := range tc.notWant {
				if strings.Contains(text, not) {
					t.Errorf("contains %q; the text is:\n%s", not, text)
				}
			}
		})
	}
}
