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
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// The contract checker must reject responses that do not match
// openapi.json; otherwise validating the suite's responses proves nothing.
func TestContractRejectsResponsesThatDoNotMatchTheDocument(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	const customer = `{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","email":"ada@example.com","address":null,"tax_id":null,"electronic_address":null,"preferred_locale":null,"credit_balance":[],"deliveries":[],"created_at":"2026-11-21T07:00:00Z"}`
	const untaxed = `"items":[{"description":"x","quantity":1,"amount":2,"tax":null}],` +
		`"subtotal":2,"tax_breakdown":[],"tax_total":0,"total":2`
	const taxed = `"items":[{"description":"x","quantity":1,"amount":100,"tax":{"category":"S","rate":"19","exemption_reason":null}},` +
		`{"description":"y","quantity":1,"amount":100,"tax":{"category":"Z","rate":"0","exemption_reason":null}}],"subtotal":200,` +
		`"tax_breakdown":[{"category":"S","rate":"19","taxable_amount":100,"tax_amount":19,"exemption_reason":null},` +
		`{"category":"Z","rate":"0","taxable_amount":100,"tax_amount":0,"exemption_reason":null}],"tax_total":19,"total":219`
	withItems := func(items, fields string) string {
		return `{"id":"inv-1","object":"invoice","workspace":"demo","customer_id":"cus-1","currency":"USD",` +
			items + `,` + fields + `,"created_at":"2026-11-21T07:00:00Z","seal":null,"deliveries":[]}`
	}
	invoice := func(fields string) string { return withItems(untaxed, fields) }
	const unsettled = `"amount_credited":null,"amount_paid":null,"amount_applied":null,"amount_written_off":null,` +
		`"amount_remaining":null,"amount_overpaid":null,` +
		`"payment_status":null,"overdue":null`
	const pending = `"status":"pending","status_reason":null,"number":null,"sequence":null,"issued_at":null,"due_at":null,` +
		`"buyer_reference":null,"purchase_order":null,"supply_date":null,"bill_to":null,"issuer":null,"payment_account":null,"payment_reference":null,` + unsettled
	const issued = `"status":"issued","status_reason":null,"number":"INV-000042","sequence":42,` +
		`"issued_at":"2026-11-21T07:00:00Z",` +
		`"due_at":"2026-12-21T07:00:00Z","bill_to":{"name":"Ada","email":"ada@example.com","address":{"line1":null,` +
		`"line2":null,"city":"Berlin","postal_code":null,"state":null,"country":"DE"},"tax_id":"DE1",` +
		`"electronic_address":{"scheme":"9930","value":"DE1"}},"buyer_reference":"04011000-12345-34","purchase_order":null,` +
		`"supply_date":"2026-11-20",` +
		`"issuer":{"name":"Example GmbH","email":null,"address":null,"tax_id":null,"legal_registration_id":"HRB 1",` +
		`"contact":{"name":"AR","phone":null,"email":null},"electronic_address":null},` +
		`"payment_account":{"iban":"DE02120300000000202051","bic":null,"account_name":"Example GmbH"},"payment_reference":"RF29INV000042","amount_credited":0,"amount_paid":500,` +
		`"amount_applied":0,"amount_written_off":0,"amount_remaining":0,"amount_overpaid":0,"payment_status":"paid","overdue":false`
	badRequest := `{"error":{"type":"invalid_request_error","code":"parameter_invalid","message":"m","param":"limit","request_id":"r1"}}`
	hdr := func(kv ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"r1"}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				h.Del(kv[i])
			} else {
				h.Set(kv[i], kv[i+1])
			}
		}
		return h
	}
	cases := []struct {
		name   string
		method string
		path   string
		status int
		header http.Header
		body   string
		valid  bool
	}{
		{"a customer is valid", "GET", "/v1/customers/cus-1", 200, hdr(), customer, true},
		{"a 400 error is valid", "GET", "/v1/customers", 400, hdr(), badRequest, true},
		{"a created customer with its Location is valid", "POST", "/v1/customers", 201,
			hdr("Location", "/v1/customers/cus-1"), customer, true},
		{"a customer with an address is valid", "GET", "/v1/customers/cus-1", 200, hdr(),
			`{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","email":"ada@example.com","address":{"line1":"x",` +
				`"line2":null,"city":null,"postal_code":null,"state":null,"country":"GB"},"tax_id":"GB1",` +
				`"electronic_address":{"scheme":"0088","value":"4035811991021"},"preferred_locale":"de-CH","credit_balance":[],"deliveries":[],"created_at":"2026-11-21T07:00:00Z"}`, true},
		{"a customer with an electronic address scheme of letters is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			strings.Replace(customer, `"electronic_address":null`, `"electronic_address":{"scheme":"GLN","value":"1"}`, 1), false},
		{"a customer without address and tax_id is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			`{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","email":"ada@example.com","created_at":"2026-11-21T07:00:00Z"}`, false},
		{"a customer with a lower-case country is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			strings.Replace(customer, `"address":null`, `"address":{"line1":null,"line2":null,"city":null,"postal_code":null,"state":null,"country":"de"}`, 1), false},
		{"a pending invoice is valid", "GET", "/v1/invoices/inv-1", 200, hdr(), invoice(pending), true},
		{"an issued invoice is valid", "GET", "/v1/invoices/inv-1", 200, hdr(), invoice(issued), true},
		{"an issued invoice without its balance is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(issued, `"amount_paid":500,`, "", 1)), false},
		{"an unknown payment_status is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(issued, `"payment_status":"paid"`, `"payment_status":"settled"`, 1)), false},
		{"an invalid invoice with its reason is valid", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(strings.Replace(pending, "pending", "invalid", 1), `"status_reason":null`, `"status_reason":"customer_not_found"`, 1)), true},
		{"a sealed invoice is valid", "GET", "/v1/invoices/inv-1", 200, hdr(),
			strings.Replace(invoice(issued), `"seal":null`, `"seal":"seal-000001"`, 1), true},
		{"an invoice without seal is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			strings.Replace(invoice(issued), `,"seal":null`, "", 1), false},
		{"a seal that is no seal's name is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			strings.Replace(invoice(issued), `"seal":null`, `"seal":"s1"`, 1), false},
		{"an invoice already sealed is valid", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(strings.Replace(pending, "pending", "invalid", 1), `"status_reason":null`, `"status_reason":"already_sealed"`, 1)), true},
		{"an invoice without number is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(pending, `"number":null,`, "", 1)), false},
		{"an invoice without sequence is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(pending, `"sequence":null,`, "", 1)), false},
		{"a sequence of 0 is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(issued, `"sequence":42`, `"sequence":0`, 1)), false},
		{"a number with too few digits is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(issued, "INV-000042", "INV-42", 1)), false},
		{"an invoice with taxes is valid", "GET", "/v1/invoices/inv-1", 200, hdr(), withItems(taxed, pending), true},
		{"an invoice invalid for want of tax ids is valid", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(strings.Replace(pending, "pending", "invalid", 1), `"status_reason":null`, `"status_reason":"tax_id_required"`, 1)), true},
		{"an invoice without tax_breakdown is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			withItems(strings.Replace(untaxed, `"tax_breakdown":[],`, "", 1), pending), false},
		{"an item without tax is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			withItems(strings.Replace(untaxed, `,"tax":null`, "", 1), pending), false},
		{"a rate not in its shortest form is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			withItems(strings.Replace(taxed, `"rate":"19"`, `"rate":"19.00"`, 1), pending), false},
		{"a rate as a number is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			withItems(strings.Replace(taxed, `"rate":"19"`, `"rate":19`, 1), pending), false},
		{"an unknown tax category is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			withItems(strings.Replace(taxed, `"category":"Z"`, `"category":"X"`, 1), pending), false},
		{"an unknown status_reason is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(pending, `"status_reason":null`, `"status_reason":"other"`, 1)), false},
		{"a due_at not in UTC is not", "GET", "/v1/invoices/inv-1", 200, hdr(),
			invoice(strings.Replace(issued, "2026-12-21T07:00:00Z", "2026-12-21T08:00:00+01:00", 1)), false},
		{"an HTML document is valid", "GET", "/v1/invoices/inv-1/document", 200,
			hdr("Content-Type", "text/html; charset=utf-8", "Content-Disposition", "inline; filename=INV-000042.html"),
			"<!DOCTYPE html>", true},
		{"a PDF document is valid", "GET", "/v1/invoices/inv-1/document", 200,
			hdr("Content-Type", "application/pdf", "Content-Disposition", "inline; filename=INV-000042.pdf"), "%PDF-1.7", true},
		{"a document without Content-Disposition is not", "GET", "/v1/invoices/inv-1/document", 200,
			hdr("Content-Type", "application/pdf"), "%PDF-1.7", false},
		{"a document of another media type is not", "GET", "/v1/invoices/inv-1/document", 200,
			hdr("Content-Type", "image/png", "Content-Disposition", "inline; filename=INV-000042.png"), "png", false},
		{"a 409 invoice_not_issued is valid", "GET", "/v1/invoices/inv-1/document", 409, hdr(),
			`{"error":{"type":"invalid_request_error","code":"invoice_not_issued","message":"m","param":"invoice_id","request_id":"r1"}}`, true},
		{"a 409 of another code is not", "GET", "/v1/invoices/inv-1/document", 409, hdr(),
			`{"error":{"type":"invalid_request_error","code":"idempotency_key_reused","message":"m","request_id":"r1"}}`, false},
		{"a customer without e-mail is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			`{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","created_at":"2026-11-21T07:00:00Z"}`, false},
		{"a customer with an extra field is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			`{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","email":"a@b","created_at":"2026-11-21T07:00:00Z","x":1}`, false},
		{"a created_at not in UTC is not", "GET", "/v1/customers/cus-1", 200, hdr(),
			`{"id":"cus-1","object":"customer","workspace":"demo","name":"Ada","email":"a@b","created_at":"2026-11-21T07:00:00+01:00"}`, false},
		{"a 201 without Location is not", "POST", "/v1/customers", 201, hdr(), customer, false},
		{"a response without Request-Id is not", "GET", "/v1/customers/cus-1", 200, hdr("Request-Id", ""), customer, false},
		{"an undocumented status is not", "GET", "/v1/customers/cus-1", 418, hdr(), badRequest, false},
		{"a 400 of type api_error is not", "GET", "/v1/customers", 400, hdr(),
			`{"error":{"type":"api_error","code":"parameter_invalid","message":"m","request_id":"r1"}}`, false},
		{"a 401 without WWW-Authenticate is not", "GET", "/v1/customers", 401, hdr(),
			`{"error":{"type":"authentication_error","code":"token_invalid","message":"m","request_id":"r1"}}`, false},
		{"a 503 without Retry-After is not", "GET", "/v1/customers", 503, hdr(),
			`{"error":{"type":"api_error","code":"api_unavailable","message":"m","request_id":"r1"}}`, false},
		{"a 503 with Retry-After is", "GET", "/v1/customers", 503, hdr("Retry-After", "1"),
			`{"error":{"type":"api_error","code":"api_unavailable","message":"m","request_id":"r1"}}`, true},
		{"an unknown path answered 200 is not", "GET", "/v2/customers", 200, hdr(), customer, false},
		{"an unknown path answered path_unknown is", "GET", "/v2/customers", 404, hdr(),
			`{"error":{"type":"invalid_request_error","code":"path_unknown","message":"m","request_id":"r1"}}`, true},
		{"a 405 without Allow is not", "DELETE", "/v1/customers", 405, hdr(),
			`{"error":{"type":"invalid_request_error","code":"method_not_allowed","message":"m","request_id":"r1"}}`, false},
		{"a 405 with Allow is", "DELETE", "/v1/customers", 405, hdr("Allow", "GET, HEAD, POST"),
			`{"error":{"type":"invalid_request_error","code":"method_not_allowed","message":"m","request_id":"r1"}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1"+tc.path, nil)
			resp := &http.Response{StatusCode: tc.status, Header: tc.header, Request: req}
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

// The body of a webhook delivery, as the manager makes it
// (delivery.EventBody) from an issued invoice, matches the document's Event,
// the schema of every webhook and of GET /v1/events; and the checker
// refuses a body that does not.
func TestTheWebhookEventMatchesTheDocument(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	seq := int64(42)
	issuedAt := metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	dueAt := metav1.NewTime(issuedAt.AddDate(0, 0, 30))
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "inv-01", CreationTimestamp: issuedAt},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "cus-01"},
			Currency:    "EUR",
			Items: []billingv1.LineItem{
				{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000, Tax: builder.StandardTax("19")},
				{Description: "Books", Quantity: billingv1.Units(1), Amount: 2000, Tax: builder.StandardTax("7.00")},
			},
		},
		Status: billingv1.InvoiceStatus{
			Phase: billingv1.InvoiceIssued, Number: "DEMO-000042", Sequence: &seq, IssuedAt: &issuedAt, DueAt: &dueAt,
			BillTo: &billingv1.BillTo{Name: "Ada", Email: "ada@example.com",
				Address: &billingv1.Address{City: "Berlin", Country: "DE"}, TaxID: "DE1"},
			Issuer: &billingv1.Issuer{Name: "Example GmbH"},
		},
	}
	body, err := delivery.EventBody("demo", 57, billingv1.EventTypeInvoiceIssued, issuedAt.Time, inv,
		func(string) *billingv1.Invoice { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.checkWebhookEvent(body); err != nil {
		t.Fatalf("the webhook event does not match openapi.json: %v", err)
	}
	if want := `"tax_breakdown":[{"category":"S","rate":"19","taxable_amount":45000,"tax_amount":8550,"exemption_reason":null},` +
		`{"category":"S","rate":"7","taxable_amount":2000,"tax_amount":140,"exemption_reason":null}],"tax_total":8690,"total":55690`; !strings.Contains(string(body), want) {
		t.Errorf("the webhook event %s does not carry the taxes %s", body, want)
	}
	wrong := strings.Replace(string(body), `"type":"invoice.issued"`, `"type":"invoice.created"`, 1)
	if err := c.checkWebhookEvent([]byte(wrong)); err == nil {
		t.Fatal("the checker accepted an event of another type")
	}
}

// The document has one webhook per event type, named for it, and each
// names the Event schema as its body: a WebhookEndpoint may subscribe to
// any of them.
func TestTheDocumentDescribesAWebhookForEveryEventType(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name, item := range c.model.Webhooks.FromOldest() {
		names = append(names, name)
		body := item.Post.RequestBody.Content.GetOrZero("application/json")
		if body == nil || body.Schema.GetReference() != "#/components/schemas/Event" {
			t.Errorf("webhook %s does not send the Event schema", name)
		}
	}
	want := make([]string, len(eventTypes))
	for i, typ := range eventTypes {
		want[i] = string(typ)
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("the document's webhooks are %v, want one per event type %v", names, want)
	}
}
