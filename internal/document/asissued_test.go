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
	"bytes"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file checks an invoice rendered as it was issued (Options.AsIssued):
// the same bytes whatever its ledger holds since.

// settledLater is the invoice twoRates (EUR 1,346.77) after a payment, a
// credit note, applied credit and a write-off.
func settledLater() *billingv1.Invoice {
	inv := twoRates()
	entry := func(a int64) []billingv1.LedgerEntry { return []billingv1.LedgerEntry{{Name: "x", Amount: a}} }
	inv.Status.Ledger = &billingv1.InvoiceLedger{Payments: entry(50000), CreditNotes: entry(1000),
		CreditApplications: entry(2000), WriteOffs: entry(81677)}
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 50000, AmountCredited: 1000, AmountApplied: 2000,
		AmountWrittenOff: 81677, PaymentStatus: billingv1.InvoicePaymentUncollectible, Overdue: true}
	return inv
}

func TestAnInvoiceAsIssuedIsTheSameBytesWhateverHappenedSince(t *testing.T) {
	for _, r := range []struct {
		format string
		render func(*billingv1.Invoice, Options) ([]byte, error)
	}{{"HTML", HTML}, {"PDF", PDF}, {"Factur-X", FacturX}} {
		for _, tc := range []struct {
			name  string
			later *billingv1.Invoice
		}{
			{"paid, credited, applied and written off since", settledLater()},
			{"not yet looked at by the balance controller", func() *billingv1.Invoice {
				inv := twoRates()
				inv.Status.Balance = nil
				return inv
			}()},
		} {
			t.Run("The "+r.format+" of an invoice as issued is the same when it was "+tc.name, func(t *testing.T) {
				opts := Options{AsIssued: true, Footer: footer}
				atIssue, err := r.render(twoRates(), opts)
				if err != nil {
					t.Fatal(err)
				}
				later, err := r.render(tc.later, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(atIssue, later) {
					t.Error("the rendering as issued changed with what happened since")
				}
			})
		}
	}
}

func TestAnInvoiceAsIssuedShowsNoSettlementAndTheCurrentOneDoes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		asIssued bool
		render   func(*billingv1.Invoice, Options) ([]byte, error)
		text     func(*testing.T, []byte) string
	}{
		{"an HTML document as issued shows the total alone", true, HTML, htmlText},
		{"a PDF as issued shows the total alone", true, PDF, pdfText},
		{"an HTML document as it stands shows the payment", false, HTML, htmlText},
		{"a PDF as it stands shows the payment", false, PDF, pdfText},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := tc.render(settledLater(), Options{AsIssued: tc.asIssued})
			if err != nil {
				t.Fatal(err)
			}
			text := tc.text(t, doc)
			if !strings.Contains(text, "1,346.77") {
				t.Errorf("no total in\n%s", text)
			}
			if got := strings.Contains(text, "Amount paid"); got == tc.asIssued {
				t.Errorf("shows the payment: %v, want %v; the text is:\n%s", got, !tc.asIssued, text)
			}
		})
	}
}
