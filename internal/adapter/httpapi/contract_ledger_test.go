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

package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// Credit notes and payments as the adapter renders them match
// openapi.json, in each of their states; and the checker refuses what does
// not.
func TestCreditNotesAndPaymentsMatchTheDocument(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	created := metav1.Unix(1_800_000_000, 0)
	inv := issuedFakeInvoice(nil, 0)
	pendingNote := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: fakeWorkspace, CreationTimestamp: created},
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Reason: "other",
			Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: ptr.To(billingv1.Units(1))}}}}
	issuedNote := pendingNote.DeepCopy()
	issuedNote.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Number: "CN-000001",
		Sequence: ptr.To[int64](1), IssuedAt: &created, CustomerName: "cus-acme", Currency: "EUR", InvoiceNumber: "INV-000001",
		Lines: []billingv1.CreditNoteLineStatus{{InvoiceLine: 0, Description: "Support", Quantity: ptr.To(billingv1.Units(1)),
			Amount: 1500, Tax: inv.Spec.Items[0].Tax}},
		Subtotal: ptr.To[int64](1500), TaxTotal: ptr.To[int64](285), Total: ptr.To[int64](1785),
		TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: "S", Rate: ptr.To("19"), TaxableAmount: 1500, TaxAmount: 285}},
		BillTo:       &billingv1.BillTo{Name: "Acme", Email: "billing@acme.example"}}
	rejectedNote := pendingNote.DeepCopy()
	rejectedNote.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteRejected, Conditions: []metav1.Condition{
		{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: "ExceedsCreditable"}}}
	payment := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-1", Namespace: fakeWorkspace, CreationTimestamp: created},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 100, Currency: "EUR"}}
	recorded := payment.DeepCopy()
	recorded.Status = billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded, CustomerName: "cus-acme",
		AppliedAmount: ptr.To[int64](100), OverpaidAmount: ptr.To[int64](0)}
	render := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"r1"}}
	cases := []struct {
		name, method, path string
		status             int
		body               string
		valid              bool
	}{
		{"a pending credit note with its computed amounts is valid", "GET", "/v1/credit_notes/cn-1", 200,
			render(apiobject.CreditNoteOf(pendingNote, inv)), true},
		{"a pending credit note whose invoice is gone is valid", "GET", "/v1/credit_notes/cn-1", 200,
			render(apiobject.CreditNoteOf(pendingNote, nil)), true},
		{"an issued credit note is valid", "GET", "/v1/credit_notes/cn-1", 200, render(apiobject.CreditNoteOf(issuedNote, nil)), true},
		{"a rejected credit note is valid", "GET", "/v1/credit_notes/cn-1", 200, render(apiobject.CreditNoteOf(rejectedNote, nil)), true},
		{"a list of credit notes is valid", "GET", "/v1/credit_notes", 200,
			render(apiobject.List[apiobject.CreditNote]{Object: "list", Data: []apiobject.CreditNote{apiobject.CreditNoteOf(issuedNote, nil)}}), true},
		{"a credit note of an unknown reason is not", "GET", "/v1/credit_notes/cn-1", 200,
			strings.Replace(render(apiobject.CreditNoteOf(issuedNote, nil)), `"reason":"other"`, `"reason":"whim"`, 1), false},
		{"a pending payment is valid", "GET", "/v1/payments/pay-1", 200, render(apiobject.PaymentOf(payment, inv)), true},
		{"a recorded payment is valid", "GET", "/v1/payments/pay-1", 200, render(apiobject.PaymentOf(recorded, nil)), true},
		{"a payment without applied_amount is not", "GET", "/v1/payments/pay-1", 200,
			strings.Replace(render(apiobject.PaymentOf(recorded, nil)), `"applied_amount":100,`, "", 1), false},
		{"a 409 invoice_fully_credited is valid", "POST", "/v1/credit_notes", 409,
			`{"error":{"type":"invalid_request_error","code":"invoice_fully_credited","message":"m","param":"invoice_id","request_id":"r1"}}`, true},
		{"a 422 amount_exceeds_creditable is valid", "POST", "/v1/credit_notes", 422,
			`{"error":{"type":"invalid_request_error","code":"amount_exceeds_creditable","message":"m","param":"lines[1].quantity","request_id":"r1"}}`, true},
		{"a 409 credit_note_not_issued of a document is valid", "GET", "/v1/credit_notes/cn-1/document", 409,
			`{"error":{"type":"invalid_request_error","code":"credit_note_not_issued","message":"m","param":"credit_note_id","request_id":"r1"}}`, true},
		{"a 409 invoice_void is valid", "POST", "/v1/payments", 409,
			`{"error":{"type":"invalid_request_error","code":"invoice_void","message":"m","param":"invoice_id","request_id":"r1"}}`, true},
		{"a 422 currency_mismatch is valid", "POST", "/v1/payments", 422,
			`{"error":{"type":"invalid_request_error","code":"currency_mismatch","message":"m","param":"currency","request_id":"r1"}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1"+tc.path, nil)
			resp := &http.Response{StatusCode: tc.status, Header: hdr, Request: req}
			err := c.check(req, resp, []byte(tc.body))
			if tc.valid && err != nil {
				t.Errorf("want valid, got %v", err)
			}
			if !tc.valid && err == nil {
				t.Error("want a mismatch, got none")
			}
		})
	}
}
