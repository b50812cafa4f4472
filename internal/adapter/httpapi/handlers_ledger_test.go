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
	"net/http"
	"testing"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// The create handlers of credit notes and payments over the fakes: what
// they check against the invoice before creating anything.

// issuedFakeInvoice is inv-1 issued: 2 x 1500 EUR at 19%, total 3570,
// with balance b (nil: none yet) and credited net of its line.
func issuedFakeInvoice(b *billingv1.InvoiceBalance, credited int64) *billingv1.Invoice {
	inv := pendingInvoice()
	inv.Spec.Items[0].Tax = &billingv1.Tax{Category: "S", Rate: ptr.To("19")}
	inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000001",
		Subtotal: ptr.To[int64](3000), TaxTotal: ptr.To[int64](570), Total: ptr.To[int64](3570),
		TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: "S", Rate: ptr.To("19"), TaxableAmount: 3000, TaxAmount: 570}},
		Balance:      b}
	if credited > 0 {
		inv.Status.Ledger = &billingv1.InvoiceLedger{
			CreditedLines:  []billingv1.CreditedLine{{Net: credited, Quantity: billingv1.Units(credited / 1500)}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: credited, TaxAmount: credited * 19 / 100}},
		}
	}
	return inv
}

func TestCreateCreditNote(t *testing.T) {
	cases := []struct {
		name        string
		invoice     *billingv1.Invoice
		body        string
		status      int
		code, param string
	}{
		{name: "an unknown invoice is a 422 on invoice_id", body: `{"invoice_id":"inv-x","reason":"other","full_credit":true}`,
			status: 422, code: CodeResourceMissing, param: "invoice_id"},
		{name: "a pending invoice is a 409", invoice: pendingInvoice(),
			body: `{"invoice_id":"inv-1","reason":"other","full_credit":true}`, status: 409, code: CodeInvoiceNotIssued, param: "invoice_id"},
		{name: "a fully credited invoice is a 409 for a full credit", invoice: issuedFakeInvoice(nil, 3000),
			body: `{"invoice_id":"inv-1","reason":"other","full_credit":true}`, status: 409, code: CodeInvoiceFullyCredited, param: "invoice_id"},
		{name: "a fully credited invoice is a 409 for lines too", invoice: issuedFakeInvoice(nil, 3000),
			body:   `{"invoice_id":"inv-1","reason":"other","lines":[{"invoice_line":0,"amount":1}]}`,
			status: 409, code: CodeInvoiceFullyCredited, param: "invoice_id"},
		{name: "a second line above what is left is a 422 on its quantity", invoice: issuedFakeInvoice(nil, 1500),
			body:   `{"invoice_id":"inv-1","reason":"other","lines":[{"invoice_line":0,"amount":1},{"invoice_line":0,"quantity":1}]}`,
			status: 422, code: CodeExceedsCreditable, param: "lines[1].quantity"},
		{name: "an amount above the line's net is a 422 on its amount", invoice: issuedFakeInvoice(nil, 0),
			body:   `{"invoice_id":"inv-1","reason":"other","lines":[{"invoice_line":0,"amount":3001}]}`,
			status: 422, code: CodeExceedsCreditable, param: "lines[0].amount"},
		{name: "an invoice_line the invoice has not is a 422 parameter_invalid", invoice: issuedFakeInvoice(nil, 0),
			body:   `{"invoice_id":"inv-1","reason":"other","lines":[{"invoice_line":1,"amount":1}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].invoice_line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newFakeStore(), &fakeClaims{}
			if tc.invoice != nil {
				s.put(tc.invoice)
			}
			w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/credit_notes", tc.body)
			wantError(t, w, tc.status, tc.code, tc.param)
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}

	t.Run("a credit note answers 201, pending, with the amounts it will be issued with", func(t *testing.T) {
		s, c := newFakeStore(issuedFakeInvoice(nil, 1500)), &fakeClaims{}
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/credit_notes",
			`{"invoice_id":"inv-1","reason":"order_change","memo":"one hour less","full_credit":true}`)
		cn := decodeAs[apiobject.CreditNote](t, w, http.StatusCreated)
		if cn.ID != "cn-1" || cn.Object != "credit_note" || cn.Status != "pending" || cn.CustomerID != "cus-acme" ||
			ptr.Deref(cn.Currency, "") != "EUR" || ptr.Deref(cn.InvoiceNumber, "") != "INV-000001" || ptr.Deref(cn.Memo, "") != "one hour less" {
			t.Errorf("got %+v", cn)
		}
		if ptr.Deref(cn.Subtotal, 0) != 1500 || ptr.Deref(cn.TaxTotal, 0) != 285 || ptr.Deref(cn.Total, 0) != 1785 ||
			len(cn.Lines) != 1 || cn.Lines[0].Description != "Support" || cn.Number != nil {
			t.Errorf("amounts %v %v %v, lines %+v", cn.Subtotal, cn.TaxTotal, cn.Total, cn.Lines)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/credit_notes/cn-1" {
			t.Errorf("Location %q", loc)
		}
	})
}

func TestCreatePayment(t *testing.T) {
	open := &billingv1.InvoiceBalance{AmountRemaining: 3570, PaymentStatus: billingv1.InvoicePaymentOpen}
	cases := []struct {
		name        string
		invoice     *billingv1.Invoice
		body        string
		status      int
		code, param string
	}{
		{name: "an unknown invoice is a 422 on invoice_id", body: `{"invoice_id":"inv-x","amount":1}`,
			status: 422, code: CodeResourceMissing, param: "invoice_id"},
		{name: "a pending invoice is a 409", invoice: pendingInvoice(), body: `{"invoice_id":"inv-1","amount":1}`,
			status: 409, code: CodeInvoiceNotIssued, param: "invoice_id"},
		{name: "a void invoice is a 409", invoice: issuedFakeInvoice(&billingv1.InvoiceBalance{AmountCredited: 3570,
			PaymentStatus: billingv1.InvoicePaymentVoid}, 3000), body: `{"invoice_id":"inv-1","amount":1}`,
			status: 409, code: CodeInvoiceVoid, param: "invoice_id"},
		{name: "another currency is a 422 on currency", invoice: issuedFakeInvoice(open, 0),
			body: `{"invoice_id":"inv-1","amount":1,"currency":"USD"}`, status: 422, code: CodeCurrencyMismatch, param: "currency"},
		{name: "an amount above what remains is a 422 on amount", invoice: issuedFakeInvoice(open, 0),
			body: `{"invoice_id":"inv-1","amount":3571}`, status: 422, code: CodeExceedsRemaining, param: "amount"},
		{name: "an invoice issued before balances is open for its total", invoice: issuedFakeInvoice(nil, 0),
			body: `{"invoice_id":"inv-1","amount":3571}`, status: 422, code: CodeExceedsRemaining, param: "amount"},
		{name: "a paid invoice takes no more", invoice: issuedFakeInvoice(&billingv1.InvoiceBalance{AmountPaid: 3570,
			PaymentStatus: billingv1.InvoicePaymentPaid}, 0), body: `{"invoice_id":"inv-1","amount":1}`,
			status: 422, code: CodeExceedsRemaining, param: "amount"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newFakeStore(), &fakeClaims{}
			if tc.invoice != nil {
				s.put(tc.invoice)
			}
			w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/payments", tc.body)
			wantError(t, w, tc.status, tc.code, tc.param)
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}

	t.Run("a payment answers 201, pending, in the invoice's currency", func(t *testing.T) {
		s, c := newFakeStore(issuedFakeInvoice(open, 0)), &fakeClaims{}
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/payments",
			`{"invoice_id":"inv-1","amount":3570,"currency":"eur","method":"card","reference":"R1"}`)
		p := decodeAs[apiobject.Payment](t, w, http.StatusCreated)
		if p.ID != "pay-1" || p.Object != "payment" || p.Status != "pending" || p.Currency != "EUR" || p.Amount != 3570 ||
			p.Method != "card" || ptr.Deref(p.Reference, "") != "R1" || p.CustomerID != "cus-acme" || p.AppliedAmount != nil {
			t.Errorf("got %+v", p)
		}
		stored := &billingv1.Payment{}
		if found, _ := s.Get(t.Context(), fakeWorkspace, "pay-1", stored); !found || stored.Spec.Currency != "EUR" {
			t.Errorf("stored %v: %+v", found, stored.Spec)
		}
	})
}
