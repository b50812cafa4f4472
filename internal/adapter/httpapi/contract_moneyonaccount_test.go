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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// Credit applications, refunds and write-offs as the adapter renders them
// match openapi.json in each of their states, their errors are documented
// where they are answered and refused elsewhere, and their events, as the
// manager's webhooks send them, match the document's Event.

// moneyFixtures are a credit application, a refund and a write-off of
// inv-1 and cus-acme, pending, and the same entered or rejected.
type moneyFixtures struct {
	pendingApp, appliedApp, rejectedApp           *billingv1.CreditApplication
	pendingRefund, recordedRefund, rejectedRefund *billingv1.Refund
	pendingOff, recordedOff, rejectedOff          *billingv1.WriteOff
}

func newMoneyFixtures() moneyFixtures {
	created := metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	entered := metav1.NewTime(created.Add(time.Second))
	rejected := func(reason string) []metav1.Condition {
		return []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason}}
	}
	var f moneyFixtures
	f.pendingApp = &billingv1.CreditApplication{ObjectMeta: metav1.ObjectMeta{Name: "capp-1", Namespace: fakeWorkspace,
		CreationTimestamp: created}, Spec: billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"},
		Amount: 500, Currency: "EUR"}}
	f.appliedApp = f.pendingApp.DeepCopy()
	f.appliedApp.Status = billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, CustomerName: "cus-acme",
		Currency: "EUR", AppliedAt: &entered, Events: []billingv1.RecordedEvent{
			{Type: billingv1.EventTypeCreditApplied, Sequence: 7, CreatedAt: entered}}}
	f.rejectedApp = f.pendingApp.DeepCopy()
	f.rejectedApp.Status = billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationRejected,
		CustomerName: "cus-acme", Currency: "EUR", Conditions: rejected(billingv1.ReasonExceedsCredit)}
	f.pendingRefund = &billingv1.Refund{ObjectMeta: metav1.ObjectMeta{Name: "rf-1", Namespace: fakeWorkspace,
		CreationTimestamp: created}, Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: "cus-acme"},
		Amount: 100, Currency: "EUR", Method: "bank_transfer", Reference: "RF18"}}
	f.recordedRefund = f.pendingRefund.DeepCopy()
	f.recordedRefund.Status = billingv1.RefundStatus{Phase: billingv1.RefundRecorded, Currency: "EUR", RecordedAt: &entered}
	f.rejectedRefund = f.pendingRefund.DeepCopy()
	f.rejectedRefund.Status = billingv1.RefundStatus{Phase: billingv1.RefundRejected, Conditions: rejected(billingv1.ReasonExceedsCredit)}
	f.pendingOff = &billingv1.WriteOff{ObjectMeta: metav1.ObjectMeta{Name: "wo-1", Namespace: fakeWorkspace,
		CreationTimestamp: created}, Spec: billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"},
		Reason: "The customer went bankrupt."}}
	f.recordedOff = f.pendingOff.DeepCopy()
	f.recordedOff.Status = billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, CustomerName: "cus-acme", Currency: "EUR",
		Amount: ptr.To[int64](3570), RecordedAt: &entered}
	f.rejectedOff = f.pendingOff.DeepCopy()
	f.rejectedOff.Status = billingv1.WriteOffStatus{Phase: billingv1.WriteOffRejected, CustomerName: "cus-acme", Currency: "EUR",
		Conditions: rejected(billingv1.ReasonNothingRemaining)}
	return f
}

func TestMoneyOnAccountMatchesTheDocument(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	f := newMoneyFixtures()
	inv := issuedFakeInvoice(nil, 0)
	render := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	body := func(code, param string) string {
		return `{"error":{"type":"invalid_request_error","code":"` + code + `","message":"m","param":"` + param +
			`","request_id":"r1"}}`
	}
	credited := acmeCustomer()
	credited.Status.Credit = &billingv1.CustomerCredit{Sources: []billingv1.CreditSource{
		{Invoice: "inv-0", UID: "u0", Currency: "USD", Amount: 250}, {Invoice: "inv-9", UID: "u9", Currency: "EUR", Amount: 1500}}}
	uncollectible := issuedFakeInvoice(&billingv1.InvoiceBalance{AmountWrittenOff: 3570,
		PaymentStatus: billingv1.InvoicePaymentUncollectible}, 0)
	cases := []struct {
		name, method, path string
		status             int
		body               string
		valid              bool
	}{
		{"a pending credit application is valid", "GET", "/v1/credit_applications/capp-1", 200,
			render(apiobject.CreditApplicationOf(f.pendingApp, inv)), true},
		{"an applied credit application is valid", "GET", "/v1/credit_applications/capp-1", 200,
			render(apiobject.CreditApplicationOf(f.appliedApp, nil)), true},
		{"a rejected credit application is valid", "GET", "/v1/credit_applications/capp-1", 200,
			render(apiobject.CreditApplicationOf(f.rejectedApp, nil)), true},
		{"a credit application of an unknown status is not", "GET", "/v1/credit_applications/capp-1", 200,
			strings.Replace(render(apiobject.CreditApplicationOf(f.appliedApp, nil)), `"applied"`, `"recorded"`, 1), false},
		{"a list of credit applications is valid", "GET", "/v1/credit_applications", 200,
			render(apiobject.List[apiobject.CreditApplication]{Object: "list",
				Data: []apiobject.CreditApplication{apiobject.CreditApplicationOf(f.appliedApp, nil)}}), true},
		{"a pending refund is valid", "GET", "/v1/refunds/rf-1", 200, render(apiobject.RefundOf(f.pendingRefund)), true},
		{"a recorded refund is valid", "GET", "/v1/refunds/rf-1", 200, render(apiobject.RefundOf(f.recordedRefund)), true},
		{"a rejected refund is valid", "GET", "/v1/refunds/rf-1", 200, render(apiobject.RefundOf(f.rejectedRefund)), true},
		{"a refund without refunded_at is not", "GET", "/v1/refunds/rf-1", 200,
			strings.Replace(render(apiobject.RefundOf(f.pendingRefund)), `"refunded_at":"2026-11-23T09:30:00Z",`, "", 1), false},
		{"a list of refunds is valid", "GET", "/v1/refunds", 200,
			render(apiobject.List[apiobject.Refund]{Object: "list", Data: []apiobject.Refund{apiobject.RefundOf(f.recordedRefund)}}), true},
		{"a pending write-off is valid", "GET", "/v1/write_offs/wo-1", 200, render(apiobject.WriteOffOf(f.pendingOff, inv)), true},
		{"a recorded write-off is valid", "GET", "/v1/write_offs/wo-1", 200, render(apiobject.WriteOffOf(f.recordedOff, nil)), true},
		{"a rejected write-off is valid", "GET", "/v1/write_offs/wo-1", 200, render(apiobject.WriteOffOf(f.rejectedOff, nil)), true},
		{"a list of write-offs is valid", "GET", "/v1/write_offs", 200,
			render(apiobject.List[apiobject.WriteOff]{Object: "list", Data: []apiobject.WriteOff{apiobject.WriteOffOf(f.recordedOff, nil)}}), true},
		{"a customer with credit is valid", "GET", "/v1/customers/cus-acme", 200, render(apiobject.CustomerOf(credited)), true},
		{"a customer without credit_balance is not", "GET", "/v1/customers/cus-acme", 200,
			strings.Replace(render(apiobject.CustomerOf(acmeCustomer())), `"credit_balance":[],`, "", 1), false},
		{"an uncollectible invoice is valid", "GET", "/v1/invoices/inv-1", 200, render(apiobject.InvoiceOf(uncollectible)), true},
		{"a 422 amount_exceeds_credit of a credit application is valid", "POST", "/v1/credit_applications", 422,
			body(CodeExceedsCredit, "amount"), true},
		{"a 422 amount_exceeds_remaining of a credit application is valid", "POST", "/v1/credit_applications", 422,
			body(CodeExceedsRemaining, "amount"), true},
		{"a 409 invoice_sealed of a credit application is valid", "POST", "/v1/credit_applications", 409,
			body(CodeInvoiceSealed, "invoice_id"), true},
		{"a 409 invoice_not_open of a credit application is not", "POST", "/v1/credit_applications", 409,
			body(CodeInvoiceNotOpen, "invoice_id"), false},
		{"a 422 amount_exceeds_credit of a refund is valid", "POST", "/v1/refunds", 422, body(CodeExceedsCredit, "amount"), true},
		{"a 409 period_closed of a refund is valid", "POST", "/v1/refunds", 409, body(CodePeriodClosed, "refunded_at"), true},
		{"a 422 amount_exceeds_remaining of a refund is not", "POST", "/v1/refunds", 422,
			body(CodeExceedsRemaining, "amount"), false},
		{"a 409 invoice_not_open of a write-off is valid", "POST", "/v1/write_offs", 409, body(CodeInvoiceNotOpen, "invoice_id"), true},
		{"a 409 invoice_not_issued of a write-off is valid", "POST", "/v1/write_offs", 409,
			body(CodeInvoiceNotIssued, "invoice_id"), true},
		{"a 422 amount_exceeds_credit of a write-off is not", "POST", "/v1/write_offs", 422, body(CodeExceedsCredit, "amount"), false},
		{"a 422 amount_exceeds_credit of a payment is not", "POST", "/v1/payments", 422, body(CodeExceedsCredit, "amount"), false},
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"r1"}}
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

// The webhook bodies of credit.applied, refund.recorded and
// invoice.marked_uncollectible, as the manager makes them
// (delivery.EventBody), match the document's Event and carry their object:
// the record itself, or for invoice.marked_uncollectible the invoice with
// the write-off beside it.
func TestTheEventsOfMoneyOnAccountMatchTheDocument(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	f := newMoneyFixtures()
	at := time.Date(2026, 11, 23, 9, 30, 1, 0, time.UTC)
	written := issuedFakeInvoice(&billingv1.InvoiceBalance{AmountWrittenOff: 3570,
		PaymentStatus: billingv1.InvoicePaymentUncollectible}, 0)
	for _, tc := range []struct {
		name string
		typ  billingv1.EventType
		obj  any
		want []string
	}{
		{"credit.applied carries the credit application", billingv1.EventTypeCreditApplied, f.appliedApp,
			[]string{`"data":{"object":{"id":"capp-1","object":"credit_application","invoice_id":"inv-1","customer_id":"cus-acme","amount":500`}},
		{"refund.recorded carries the refund", billingv1.EventTypeRefundRecorded, f.recordedRefund,
			[]string{`"data":{"object":{"id":"rf-1","object":"refund","customer_id":"cus-acme","amount":100`}},
		{"invoice.marked_uncollectible carries the invoice, and the write-off with what it wrote off",
			billingv1.EventTypeInvoiceMarkedUncollectible, f.recordedOff, []string{
				`"data":{"object":{"id":"inv-1","object":"invoice"`, `"payment_status":"uncollectible"`,
				`"write_off":{"id":"wo-1","object":"write_off","invoice_id":"inv-1","customer_id":"cus-acme","amount":3570`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := webhookBody(t, c, tc.typ, at, tc.obj, written)
			for _, want := range append(tc.want, `"type":"`+string(tc.typ)+`"`) {
				if !strings.Contains(string(body), want) {
					t.Errorf("%s does not hold %s", body, want)
				}
			}
		})
	}
}
