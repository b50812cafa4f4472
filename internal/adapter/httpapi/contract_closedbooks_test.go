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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// The errors of closing the books are documented where they are answered,
// and the checker refuses them elsewhere.
func TestTheErrorsOfClosedBooksMatchTheDocument(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	body := func(code, param string) string {
		return `{"error":{"type":"invalid_request_error","code":"` + code + `","message":"m","param":"` + param +
			`","request_id":"r1"}}`
	}
	cases := []struct {
		name, method, path string
		status             int
		body               string
		valid              bool
	}{
		{"a 409 period_not_ended of a close is valid", "POST", "/v1/period_closes", 409,
			body(CodePeriodNotEnded, "through"), true},
		{"a 409 already_closed of a close is valid", "POST", "/v1/period_closes", 409, body(CodeAlreadyClosed, "through"), true},
		{"a 422 parameter_invalid of a close is valid", "POST", "/v1/period_closes", 422,
			body(CodeParameterInvalid, "through"), true},
		{"a 422 parameter_missing of a close is not", "POST", "/v1/period_closes", 422,
			body(CodeParameterMissing, "through"), false},
		{"a 409 period_closed of a payment is valid", "POST", "/v1/payments", 409, body(CodePeriodClosed, "paid_at"), true},
		{"a 409 period_closed of an invoice is not", "POST", "/v1/invoices", 409, body(CodePeriodClosed, "paid_at"), false},
		{"a 409 already_closed of a payment is not", "POST", "/v1/payments", 409, body(CodeAlreadyClosed, "paid_at"), false},
		{"a verdict without its count is not", "GET", "/v1/seals/verify", 200, `{"verified":true}`, false},
		{"a broken verdict is valid", "GET", "/v1/seals/verify", 200,
			`{"verified":false,"seals":2,"broken":{"seal":"seal-000002","sequence":2,"reason":"r"}}`, true},
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

// The webhook bodies of period.closed and ledger.sealed, as the manager
// makes them (delivery.EventBody), match the document's Event.
func TestTheEventsOfClosedBooksMatchTheDocument(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	at := metav1.NewTime(time.Date(2026, 11, 5, 6, 0, 0, 0, time.UTC))
	oct := metav1.NewTime(time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC))
	pc := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Name: "pclose-oct", Namespace: "demo", CreationTimestamp: at},
		Spec:   billingv1.PeriodCloseSpec{Through: "2026-10"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: &oct, ClosedAt: &at}}
	hash := strings.Repeat("ab", 32)
	s := &billingv1.LedgerSeal{ObjectMeta: metav1.ObjectMeta{Name: "seal-000001", Namespace: "demo", CreationTimestamp: at},
		Spec: billingv1.LedgerSealSpec{Sequence: 1, Payload: "H4sI", PayloadSHA256: hash, PreviousHash: billingv1.ZeroHash,
			Hash: hash, ShortHash: hash[:12], Counts: billingv1.SealCounts{Invoices: 3, CreditNotes: 1, Payments: 2},
			ClosedThrough: oct, FirstInvoiceNumber: "DEMO-000001", LastInvoiceNumber: "DEMO-000003"}}
	for _, tc := range []struct {
		name string
		typ  billingv1.EventType
		obj  any
		want string
	}{
		{"period.closed carries closed_through", billingv1.EventTypePeriodClosed, pc,
			`"closed_through":"2026-10-31T23:59:59Z"`},
		{"ledger.sealed carries the seal's name, sequence and hash", billingv1.EventTypeLedgerSealed, s,
			`"id":"seal-000001","object":"seal","workspace":"demo","sequence":1,"hash":"` + hash + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := delivery.EventBody("demo", 9, tc.typ, at.Time, tc.obj, func(string) *billingv1.Invoice { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if err := c.checkWebhookEvent(body); err != nil {
				t.Fatalf("the webhook event does not match openapi.json: %v", err)
			}
			if !strings.Contains(string(body), tc.want) || !strings.Contains(string(body), `"type":"`+string(tc.typ)+`"`) {
				t.Errorf("%s does not hold %s", body, tc.want)
			}
		})
	}
}
