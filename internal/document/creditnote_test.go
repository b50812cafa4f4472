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
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// issuedCreditNote is an issued credit note of one unit of the invoice of
// issued(), and 50.00 of its second line.
func issuedCreditNote() *billingv1.CreditNote {
	inv := issued()
	at := metav1.NewTime(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC))
	return &billingv1.CreditNote{
		ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: "demo"},
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Reason: "order_change",
			Memo: "One hour less than invoiced."},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Number: "CN-000007", Sequence: ptr.To[int64](7),
			IssuedAt: &at, Currency: "USD", InvoiceNumber: inv.Status.Number, InvoiceIssuedAt: inv.Status.IssuedAt,
			Lines: []billingv1.CreditNoteLineStatus{
				{InvoiceLine: 0, Description: "Consulting, November", Quantity: ptr.To(billingv1.Units(1)), Amount: 15000},
				{InvoiceLine: 1, Description: "Support plan", Amount: 5000},
			},
			Subtotal: ptr.To[int64](20000), TaxTotal: ptr.To[int64](0), Total: ptr.To[int64](20000),
			BillTo: inv.Status.BillTo, Issuer: inv.Status.Issuer},
	}
}

func TestTheCreditNoteDocumentsShowWhatTheyCredit(t *testing.T) {
	want := []string{"Credit note", "CN-000007", "Nov 30, 2026", "Credits invoice", "DEMO-000001", "Nov 23, 2026",
		"Order change", "One hour less than invoiced.", "Consulting, November", "Support plan", "$150.00",
		"$50.00", "$200.00", "Acme Corporation"}
	cases := []struct {
		name   string
		render func(*billingv1.CreditNote, Options) ([]byte, error)
		text   func(*testing.T, []byte) string
	}{
		{"the HTML page shows the credit note, its invoice and its lines", CreditNoteHTML, htmlText},
		{"the PDF shows the credit note, its invoice and its lines", CreditNotePDF, pdfText},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := tc.render(issuedCreditNote(), Options{Footer: footer})
			if err != nil {
				t.Fatal(err)
			}
			text := tc.text(t, doc)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("the document does not contain %q; it is:\n%s", w, text)
				}
			}
		})
	}
}

func TestAPendingCreditNoteHasNoDocument(t *testing.T) {
	cn := issuedCreditNote()
	cn.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNotePending}
	if _, err := CreditNoteHTML(cn, Options{}); !errors.Is(err, ErrCreditNoteNotIssued) {
		t.Errorf("HTML: %v, want ErrCreditNoteNotIssued", err)
	}
	if got := CreditNoteFilename(issuedCreditNote(), "pdf"); got != "CN-000007.pdf" {
		t.Errorf("filename %q", got)
	}
}
