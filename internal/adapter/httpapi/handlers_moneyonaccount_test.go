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

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// The handlers of credit applications, refunds and write-offs over the
// fakes: what they check against the customer's credit and the invoice's
// balance before creating anything, and every answer checked against
// openapi.json.

// creditedCustomer is cus-acme with credit: one source of each amount, an
// overpaid invoice of its own.
func creditedCustomer(credit ...billingv1.CurrencyAmount) *billingv1.Customer {
	c := acmeCustomer()
	c.Status.Credit = &billingv1.CustomerCredit{}
	for i, a := range credit {
		c.Status.Credit.Sources = append(c.Status.Credit.Sources, billingv1.CreditSource{
			Invoice: "inv-old-" + a.Currency, UID: "uid-" + a.Currency + string(rune('a'+i)),
			Currency: a.Currency, Amount: a.Amount})
	}
	return c
}

// carriedCustomer is cus-acme with 120 EUR of credit: 100 carried from
// entries folded once their records were sealed, a source of 50 and a
// use of 30.
func carriedCustomer() *billingv1.Customer {
	c := creditedCustomer(eur(50))
	c.Status.Credit.Carried = []billingv1.CarriedCredit{{Currency: "EUR", Amount: 100, EventSequence: 7}}
	c.Status.Credit.Uses = []billingv1.CreditUse{{Kind: billingv1.CreditUseRefund, Name: "rf-0", UID: "u",
		Currency: "EUR", Amount: 30}}
	c.Status.Credit.FoldedThrough = 1
	return c
}

// eur and usd are amounts of credit.
func eur(amount int64) billingv1.CurrencyAmount {
	return billingv1.CurrencyAmount{Currency: "EUR", Amount: amount}
}
func usd(amount int64) billingv1.CurrencyAmount {
	return billingv1.CurrencyAmount{Currency: "USD", Amount: amount}
}

// paidFakeInvoice is inv-1 issued (total 3570 EUR) with paid entered in its
// ledger, and the balance that derives from it.
func paidFakeInvoice(paid int64) *billingv1.Invoice {
	inv := issuedFakeInvoice(nil, 0)
	inv.Status.Ledger = &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{{Name: "pay-1", UID: "u1", Amount: paid}}}
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: paid, AmountRemaining: max(0, 3570-paid),
		AmountOverpaid: max(0, paid-3570), PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	return inv
}

// writtenOffFakeInvoice is inv-1 issued (total 3570 EUR), all of it written
// off: uncollectible.
func writtenOffFakeInvoice() *billingv1.Invoice {
	inv := issuedFakeInvoice(&billingv1.InvoiceBalance{AmountWrittenOff: 3570,
		PaymentStatus: billingv1.InvoicePaymentUncollectible}, 0)
	inv.Status.Ledger = &billingv1.InvoiceLedger{WriteOffs: []billingv1.LedgerEntry{{Name: "wo-1", UID: "u1", Amount: 3570}}}
	return inv
}

// refusedCase is a create the adapter refuses before creating anything.
type refusedCase struct {
	name        string
	objects     []client.Object
	closed      bool
	body        string
	status      int
	code, param string
}

// runRefused posts each case's body to path over a fake store holding its
// objects, and checks the error and that no create was attempted.
func runRefused(t *testing.T, path string, cases []refusedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newFakeStore(tc.objects...), &fakeClaims{}
			if tc.closed {
				s.closedThrough, s.closedBy = octoberEnd, "pclose-oct"
			}
			w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, path, tc.body)
			wantError(t, w, tc.status, tc.code, tc.param)
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}
}

func TestCreateCreditApplication(t *testing.T) {
	issued := issuedFakeInvoice(nil, 0)
	runRefused(t, "/v1/credit_applications", []refusedCase{
		{name: "an unknown invoice is a 422 on invoice_id", objects: []client.Object{creditedCustomer(eur(5000))},
			body: `{"invoice_id":"inv-x","amount":1}`, status: 422, code: CodeResourceMissing, param: "invoice_id"},
		{name: "a pending invoice is a 409", objects: []client.Object{pendingInvoice(), creditedCustomer(eur(5000))},
			body: `{"invoice_id":"inv-1","amount":1}`, status: 409, code: CodeInvoiceNotIssued, param: "invoice_id"},
		{name: "a sealed invoice is a 409", objects: []client.Object{sealedIn(issued, "seal-000001"), creditedCustomer(eur(5000))},
			body: `{"invoice_id":"inv-1","amount":1}`, status: 409, code: CodeInvoiceSealed, param: "invoice_id"},
		{name: "a customer without credit is a 422 on amount", objects: []client.Object{issued, acmeCustomer()},
			body: `{"invoice_id":"inv-1","amount":1}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "credit in another currency than the invoice's does not count",
			objects: []client.Object{issued, creditedCustomer(usd(5000))},
			body:    `{"invoice_id":"inv-1","amount":1}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "an amount above the credit is a 422 on amount", objects: []client.Object{issued, creditedCustomer(eur(100))},
			body: `{"invoice_id":"inv-1","amount":101}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "the credit spent by earlier uses is not available", objects: []client.Object{issued, func() client.Object {
			c := creditedCustomer(eur(500))
			c.Status.Credit.Uses = []billingv1.CreditUse{{Kind: billingv1.CreditUseRefund, Name: "rf-1", UID: "u",
				Currency: "EUR", Amount: 400}}
			return c
		}()}, body: `{"invoice_id":"inv-1","amount":101}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "an invoice whose customer is gone has no credit to apply", objects: []client.Object{issued},
			body: `{"invoice_id":"inv-1","amount":1}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "an amount above what remains is a 422 on amount",
			objects: []client.Object{paidFakeInvoice(3000), creditedCustomer(eur(5000))},
			body:    `{"invoice_id":"inv-1","amount":571}`, status: 422, code: CodeExceedsRemaining, param: "amount"},
		{name: "a written-off invoice leaves nothing to apply credit to",
			objects: []client.Object{writtenOffFakeInvoice(), creditedCustomer(eur(5000))},
			body:    `{"invoice_id":"inv-1","amount":1}`, status: 422, code: CodeExceedsRemaining, param: "amount"},
		{name: "an amount is required", objects: []client.Object{issued, creditedCustomer(eur(5000))},
			body: `{"invoice_id":"inv-1"}`, status: 422, code: CodeParameterMissing, param: "amount"},
		{name: "an amount of 0 is refused", objects: []client.Object{issued, creditedCustomer(eur(5000))},
			body: `{"invoice_id":"inv-1","amount":0}`, status: 422, code: CodeParameterInvalid, param: "amount"},
	})

	t.Run("a credit application answers 201, pending, in the invoice's currency", func(t *testing.T) {
		s, c := newFakeStore(paidFakeInvoice(3000), creditedCustomer(eur(500), usd(9000))), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/credit_applications",
			`{"invoice_id":"inv-1","amount":500}`)
		got := decodeAs[apiobject.CreditApplication](t, w, http.StatusCreated)
		if got.ID != "capp-1" || got.Object != "credit_application" || got.Status != "pending" || got.InvoiceID != "inv-1" ||
			got.CustomerID != "cus-acme" || got.Currency != "EUR" || got.Amount != 500 || got.StatusReason != nil ||
			got.AppliedAt != nil {
			t.Errorf("got %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/credit_applications/capp-1" {
			t.Errorf("Location %q", loc)
		}
		created := &billingv1.CreditApplication{}
		if found, _ := s.Get(t.Context(), fakeWorkspace, "capp-1", created); !found {
			t.Fatal("the store does not hold the credit application")
		}
		if created.Spec.InvoiceRef.Name != "inv-1" || created.Spec.Amount != 500 || created.Spec.Currency != "EUR" {
			t.Errorf("created spec %+v", created.Spec)
		}
		if c.requests[0].Resource != resourceCreditApplications {
			t.Errorf("the Idempotency-Key's resource is %q", c.requests[0].Resource)
		}
	})
}

func TestCreateRefund(t *testing.T) {
	runRefused(t, "/v1/refunds", []refusedCase{
		{name: "an unknown customer is a 422 on customer_id",
			body: `{"customer_id":"cus-x","amount":1,"currency":"EUR"}`, status: 422, code: CodeResourceMissing, param: "customer_id"},
		{name: "a customer without credit is a 422 on amount", objects: []client.Object{acmeCustomer()},
			body: `{"customer_id":"cus-acme","amount":1,"currency":"EUR"}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "credit in another currency does not count", objects: []client.Object{creditedCustomer(usd(5000))},
			body: `{"customer_id":"cus-acme","amount":1,"currency":"EUR"}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "an amount above the credit is a 422 on amount", objects: []client.Object{creditedCustomer(eur(100), eur(50))},
			body: `{"customer_id":"cus-acme","amount":151,"currency":"eur"}`, status: 422, code: CodeExceedsCredit, param: "amount"},
		{name: "a refunded_at in a closed period is a 409 on refunded_at", objects: []client.Object{creditedCustomer(eur(100))},
			closed: true, body: `{"customer_id":"cus-acme","amount":1,"currency":"EUR","refunded_at":"2026-10-31T23:59:59Z"}`,
			status: 409, code: CodePeriodClosed, param: "refunded_at"},
		{name: "a currency is required", objects: []client.Object{creditedCustomer(eur(100))},
			body: `{"customer_id":"cus-acme","amount":1}`, status: 422, code: CodeParameterMissing, param: "currency"},
		{name: "the credit carried across seals counts, with the sources less the uses, and no more",
			objects: []client.Object{carriedCustomer()},
			body:    `{"customer_id":"cus-acme","amount":121,"currency":"EUR"}`, status: 422, code: CodeExceedsCredit, param: "amount"},
	})

	t.Run("the credit carried across seals can be refunded", func(t *testing.T) {
		s, c := closedFakeStore(carriedCustomer()), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/refunds",
			`{"customer_id":"cus-acme","amount":120,"currency":"EUR"}`)
		if got := decodeAs[apiobject.Refund](t, w, http.StatusCreated); got.Amount != 120 || got.Status != "pending" {
			t.Errorf("got %+v", got)
		}
	})

	t.Run("a refund answers 201, pending, refunded when it was created", func(t *testing.T) {
		s, c := closedFakeStore(creditedCustomer(eur(100), eur(50))), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/refunds",
			`{"customer_id":"cus-acme","amount":150,"currency":"EUR","method":"bank_transfer","reference":"RF18"}`)
		got := decodeAs[apiobject.Refund](t, w, http.StatusCreated)
		if got.ID != "rf-1" || got.Object != "refund" || got.Status != "pending" || got.CustomerID != "cus-acme" ||
			got.Amount != 150 || got.Currency != "EUR" || got.Method != "bank_transfer" || ptr.Deref(got.Reference, "") != "RF18" ||
			got.RefundedAt != got.CreatedAt || got.RecordedAt != nil || got.StatusReason != nil {
			t.Errorf("got %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/refunds/rf-1" {
			t.Errorf("Location %q", loc)
		}
	})

	t.Run("a refund dated after the closed period is accepted", func(t *testing.T) {
		s, c := closedFakeStore(creditedCustomer(eur(100))), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/refunds",
			`{"customer_id":"cus-acme","amount":100,"currency":"EUR","refunded_at":"2026-11-01T00:00:00Z"}`)
		got := decodeAs[apiobject.Refund](t, w, http.StatusCreated)
		if got.RefundedAt != "2026-11-01T00:00:00Z" {
			t.Errorf("refunded_at %q", got.RefundedAt)
		}
	})
}

func TestCreateWriteOff(t *testing.T) {
	issued := issuedFakeInvoice(nil, 0)
	runRefused(t, "/v1/write_offs", []refusedCase{
		{name: "an unknown invoice is a 422 on invoice_id",
			body: `{"invoice_id":"inv-x","reason":"bad debt"}`, status: 422, code: CodeResourceMissing, param: "invoice_id"},
		{name: "a pending invoice is a 409", objects: []client.Object{pendingInvoice()},
			body: `{"invoice_id":"inv-1","reason":"bad debt"}`, status: 409, code: CodeInvoiceNotIssued, param: "invoice_id"},
		{name: "a sealed invoice is a 409", objects: []client.Object{sealedIn(issued, "seal-000001")},
			body: `{"invoice_id":"inv-1","reason":"bad debt"}`, status: 409, code: CodeInvoiceSealed, param: "invoice_id"},
		{name: "a paid invoice is not open", objects: []client.Object{paidFakeInvoice(3570)},
			body: `{"invoice_id":"inv-1","reason":"bad debt"}`, status: 409, code: CodeInvoiceNotOpen, param: "invoice_id"},
		{name: "an invoice written off already is not open", objects: []client.Object{writtenOffFakeInvoice()},
			body: `{"invoice_id":"inv-1","reason":"bad debt"}`, status: 409, code: CodeInvoiceNotOpen, param: "invoice_id"},
		{name: "a fully credited invoice is not open", objects: []client.Object{func() client.Object {
			inv := issuedFakeInvoice(nil, 0)
			inv.Status.Ledger = &billingv1.InvoiceLedger{CreditNotes: []billingv1.LedgerEntry{{Name: "cn-1", UID: "u", Amount: 3570}}}
			return inv
		}()}, body: `{"invoice_id":"inv-1","reason":"bad debt"}`, status: 409, code: CodeInvoiceNotOpen, param: "invoice_id"},
		{name: "a reason is required", objects: []client.Object{issued},
			body: `{"invoice_id":"inv-1"}`, status: 422, code: CodeParameterMissing, param: "reason"},
	})

	t.Run("a write-off answers 201, pending, with its amount null until it is recorded", func(t *testing.T) {
		s, c := newFakeStore(paidFakeInvoice(3000)), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/write_offs",
			`{"invoice_id":"inv-1","reason":"The customer went bankrupt."}`)
		got := decodeAs[apiobject.WriteOff](t, w, http.StatusCreated)
		if got.ID != "wo-1" || got.Object != "write_off" || got.Status != "pending" || got.InvoiceID != "inv-1" ||
			got.CustomerID != "cus-acme" || got.Currency != "EUR" || got.Amount != nil ||
			got.Reason != "The customer went bankrupt." || got.RecordedAt != nil {
			t.Errorf("got %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/write_offs/wo-1" {
			t.Errorf("Location %q", loc)
		}
	})
}

func TestAPaymentRecoversWhatWasWrittenOff(t *testing.T) {
	t.Run("a payment of what was written off is accepted", func(t *testing.T) {
		s, c := newFakeStore(writtenOffFakeInvoice()), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/payments", `{"invoice_id":"inv-1","amount":3570}`)
		decodeAs[apiobject.Payment](t, w, http.StatusCreated)
	})
	t.Run("a payment above what was written off is a 422 on amount", func(t *testing.T) {
		s, c := newFakeStore(writtenOffFakeInvoice()), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/payments", `{"invoice_id":"inv-1","amount":3571}`)
		wantError(t, w, http.StatusUnprocessableEntity, CodeExceedsRemaining, "amount")
	})
}

func TestReadMoneyOnAccount(t *testing.T) {
	pendingApp := &billingv1.CreditApplication{}
	pendingApp.Name, pendingApp.Namespace = "capp-1", fakeWorkspace
	pendingApp.Spec = billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 5}
	refund := &billingv1.Refund{}
	refund.Name, refund.Namespace = "rf-1", fakeWorkspace
	refund.Spec = billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: "cus-acme"}, Amount: 5, Currency: "EUR"}
	writeOff := &billingv1.WriteOff{}
	writeOff.Name, writeOff.Namespace = "wo-1", fakeWorkspace
	writeOff.Spec = billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Reason: "bad debt"}
	h := fakeAdapter(t, newFakeStore(issuedFakeInvoice(nil, 0), pendingApp, refund, writeOff), &fakeClaims{})

	t.Run("a pending credit application takes its customer and currency from its invoice", func(t *testing.T) {
		got := decodeAs[apiobject.CreditApplication](t, checkedServe(t, h, http.MethodGet, "/v1/credit_applications/capp-1", ""),
			http.StatusOK)
		if got.CustomerID != "cus-acme" || got.Currency != "EUR" || got.Status != "pending" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("a pending write-off takes its customer and currency from its invoice", func(t *testing.T) {
		got := decodeAs[apiobject.WriteOff](t, checkedServe(t, h, http.MethodGet, "/v1/write_offs/wo-1", ""), http.StatusOK)
		if got.CustomerID != "cus-acme" || got.Currency != "EUR" || got.Amount != nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("a refund is read by its id", func(t *testing.T) {
		got := decodeAs[apiobject.Refund](t, checkedServe(t, h, http.MethodGet, "/v1/refunds/rf-1", ""), http.StatusOK)
		if got.ID != "rf-1" || got.Method != "other" {
			t.Errorf("got %+v", got)
		}
	})
	for _, tc := range []struct{ path, param string }{
		{"/v1/credit_applications/capp-x", "credit_application_id"},
		{"/v1/refunds/rf-x", "refund_id"},
		{"/v1/write_offs/wo-x", "write_off_id"},
	} {
		t.Run("an unknown id of "+tc.param+" is a 404", func(t *testing.T) {
			wantError(t, checkedServe(t, h, http.MethodGet, tc.path, ""), http.StatusNotFound, CodeResourceMissing, tc.param)
		})
	}
	for _, tc := range []struct {
		name, path string
		want       string
	}{
		{"the credit applications are listed", "/v1/credit_applications?invoice_id=inv-1&customer_id=cus-acme", "capp-1"},
		{"the refunds are listed", "/v1/refunds?customer_id=cus-acme", "rf-1"},
		{"the write-offs are listed", "/v1/write_offs?invoice_id=inv-1", "wo-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := decodeAs[apiobject.List[map[string]any]](t, checkedServe(t, h, http.MethodGet, tc.path, ""), http.StatusOK)
			if len(list.Data) != 1 || list.Data[0]["id"] != tc.want {
				t.Errorf("got %+v", list)
			}
		})
	}
	t.Run("refunds have no invoice_id filter", func(t *testing.T) {
		wantError(t, checkedServe(t, h, http.MethodGet, "/v1/refunds?invoice_id=inv-1", ""),
			http.StatusBadRequest, CodeParameterUnknown, "invoice_id")
	})
	t.Run("an empty invoice_id filter is refused", func(t *testing.T) {
		wantError(t, checkedServe(t, h, http.MethodGet, "/v1/write_offs?invoice_id=", ""),
			http.StatusBadRequest, CodeParameterInvalid, "invoice_id")
	})
	t.Run("the invoices are listed by payment_status uncollectible", func(t *testing.T) {
		checkedServe(t, h, http.MethodGet, "/v1/invoices?payment_status=uncollectible", "")
	})
}

// serveWithKey is a POST served with an Idempotency-Key.
func serveWithKey(h http.Handler, path, body, key string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+fakeToken)
	r.Header.Set(IdempotencyKeyHeader, key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestARetryThatItsOwnFirstAttemptMadeFailTheChecksIsReplayed(t *testing.T) {
	cases := []struct {
		name, path, body string
		before, after    client.Object
		status           int
		refusal, param   string
	}{
		{name: "a write-off retried once the invoice is written off", path: "/v1/write_offs",
			body: `{"invoice_id":"inv-1","reason":"bad debt"}`, before: issuedFakeInvoice(nil, 0),
			after: writtenOffFakeInvoice(), status: 409, refusal: CodeInvoiceNotOpen, param: "invoice_id"},
		{name: "a payment retried once the invoice is paid", path: "/v1/payments",
			body: `{"invoice_id":"inv-1","amount":3570}`, before: issuedFakeInvoice(nil, 0),
			after: paidFakeInvoice(3570), status: 422, refusal: CodeExceedsRemaining, param: "amount"},
		{name: "a refund retried once the credit is spent", path: "/v1/refunds",
			body: `{"customer_id":"cus-acme","amount":100,"currency":"EUR"}`, before: creditedCustomer(eur(100)),
			after: acmeCustomer(), status: 422, refusal: CodeExceedsCredit, param: "amount"},
		{name: "a credit application retried once the credit is applied", path: "/v1/credit_applications",
			body: `{"invoice_id":"inv-1","amount":100}`, before: creditedCustomer(eur(100)),
			after: acmeCustomer(), status: 422, refusal: CodeExceedsCredit, param: "amount"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newFakeStore(issuedFakeInvoice(nil, 0), tc.before), &fakeClaims{}
			h := fakeAdapter(t, s, c)
			first := serveWithKey(h, tc.path, tc.body, "key-1")
			if first.Code != http.StatusCreated {
				t.Fatalf("first attempt: %d %s", first.Code, first.Body)
			}
			s.put(tc.after)
			again := serveWithKey(h, tc.path, tc.body, "key-1")
			if again.Code != http.StatusCreated || again.Header().Get(IdempotentReplayedHeader) != "true" ||
				again.Header().Get("Location") != first.Header().Get("Location") {
				t.Errorf("retry: %d %v %s; want the first object, replayed", again.Code, again.Header(), again.Body)
			}
			// Another key is another request, which the checks refuse.
			wantError(t, serveWithKey(h, tc.path, tc.body, "key-2"), tc.status, tc.refusal, tc.param)
		})
	}
}
