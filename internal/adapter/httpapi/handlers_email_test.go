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
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// The sends over the fakes: every refusal queues nothing, a send queues
// one Email with the spec the manager reads and answers 202 with its
// delivery, a retry with the Idempotency-Key queues none; and the
// deliveries and reminder events as the API renders them, each checked
// against openapi.json.

// mailProfile is a workspace's profile that sends from billing@example.com.
func mailProfile() *billingv1.EmailSettings {
	return &billingv1.EmailSettings{From: "billing@example.com",
		SMTP: billingv1.SMTPServer{Host: "127.0.0.1", Port: 1025, TLS: billingv1.SMTPTLSNone}}
}

// issuedFakeCreditNote is cn-1 of inv-1, issued to cus-acme.
func issuedFakeCreditNote() *billingv1.CreditNote {
	return &billingv1.CreditNote{
		ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: fakeWorkspace,
			CreationTimestamp: metav1.NewTime(time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC))},
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"},
			Reason: "other", FullCredit: true},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Number: "CN-000001",
			CustomerName: "cus-acme", Currency: "EUR"},
	}
}

// sendCase is a send the adapter refuses before queueing anything.
type sendCase struct {
	name        string
	objects     []client.Object
	unmailed    bool // the workspace's profile has no spec.email
	path, body  string
	status      int
	code, param string
}

// runRefusedSends posts each case over a fake store holding its objects,
// and checks the error and that no Email was created.
func runRefusedSends(t *testing.T, cases []sendCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newFakeStore(tc.objects...), &fakeClaims{}
			if !tc.unmailed {
				s.profile.Email = mailProfile()
			}
			w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, tc.path, tc.body)
			wantError(t, w, tc.status, tc.code, tc.param)
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}
}

func TestSendRefusals(t *testing.T) {
	issued, customer := issuedFakeInvoice(nil, 0), acmeCustomer()
	const invoiceSend, noteSend = "/v1/invoices/inv-1/send", "/v1/credit_notes/cn-1/send"
	pendingNote := issuedFakeCreditNote()
	pendingNote.Status = billingv1.CreditNoteStatus{}
	eleven := `{"to":["a0@example.com","a1@example.com","a2@example.com","a3@example.com","a4@example.com",` +
		`"a5@example.com","a6@example.com","a7@example.com","a8@example.com","a9@example.com","a10@example.com"]}`
	runRefusedSends(t, []sendCase{
		{name: "an unknown invoice is a 404 on invoice_id", objects: []client.Object{customer},
			path: "/v1/invoices/inv-x/send", status: 404, code: CodeResourceMissing, param: "invoice_id"},
		{name: "a pending invoice is a 409 not_issued", objects: []client.Object{pendingInvoice(), customer},
			path: invoiceSend, status: 409, code: CodeNotIssued, param: "invoice_id"},
		{name: "an invalid invoice is a 409 not_issued", objects: []client.Object{func() client.Object {
			inv := pendingInvoice()
			inv.Status.Phase = billingv1.InvoiceInvalid
			return inv
		}(), customer}, path: invoiceSend, status: 409, code: CodeNotIssued, param: "invoice_id"},
		{name: "a workspace without e-mail settings is a 409", objects: []client.Object{issued, customer}, unmailed: true,
			path: invoiceSend, status: 409, code: CodeEmailNotConfigured},
		{name: "an address with a display name is a 422 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":["Ada <ada@example.com>"]}`, status: 422, code: CodeParameterInvalid, param: "to"},
		{name: "a string that is no address is a 422 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":["ada@example.com","nobody"]}`, status: 422, code: CodeParameterInvalid, param: "to"},
		{name: "eleven addresses are a 422 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: eleven, status: 422, code: CodeParameterInvalid, param: "to"},
		{name: "an address twice is a 422 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":["ada@example.com","ada@example.com"]}`, status: 422, code: CodeParameterInvalid,
			param: "to"},
		{name: "to as a string is a 400 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":"ada@example.com"}`, status: 400, code: CodeParameterInvalid, param: "to"},
		{name: "an address that is a number is a 400 on to", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":[42]}`, status: 400, code: CodeParameterInvalid, param: "to"},
		{name: "an unknown field is a 400", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"cc":["ada@example.com"]}`, status: 400, code: CodeParameterUnknown, param: "cc"},
		{name: "a body that is not JSON is a 400", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `{"to":[`, status: 400, code: CodeBodyInvalid},
		{name: "a body that is no object is a 400", objects: []client.Object{issued, customer},
			path: invoiceSend, body: `["ada@example.com"]`, status: 400, code: CodeBodyInvalid},
		{name: "the body is read before the invoice", path: "/v1/invoices/inv-x/send", body: `{"to":[`,
			status: 400, code: CodeBodyInvalid},
		{name: "an unknown credit note is a 404 on credit_note_id", objects: []client.Object{issued, customer},
			path: "/v1/credit_notes/cn-x/send", status: 404, code: CodeResourceMissing, param: "credit_note_id"},
		{name: "a pending credit note is a 409 not_issued", objects: []client.Object{issued, customer, pendingNote},
			path: noteSend, status: 409, code: CodeNotIssued, param: "credit_note_id"},
		{name: "a credit note of a workspace without e-mail settings is a 409",
			objects: []client.Object{issued, customer, issuedFakeCreditNote()}, unmailed: true,
			path: noteSend, status: 409, code: CodeEmailNotConfigured},
		{name: "a credit note to a bad address is a 422 on to", objects: []client.Object{issued, customer, issuedFakeCreditNote()},
			path: noteSend, body: `{"to":["@example.com"]}`, status: 422, code: CodeParameterInvalid, param: "to"},
		{name: "an unknown customer's statement is a 404 on customer_id", path: "/v1/customers/cus-x/statement/send",
			status: 404, code: CodeResourceMissing, param: "customer_id"},
		{name: "a statement of a workspace without e-mail settings is a 409", objects: []client.Object{customer},
			unmailed: true, path: "/v1/customers/cus-acme/statement/send", status: 409, code: CodeEmailNotConfigured},
		{name: "a statement from a day that is none is a 400 on from", objects: []client.Object{customer},
			path: "/v1/customers/cus-acme/statement/send?from=2026-02-30", status: 400, code: CodeParameterInvalid,
			param: "from"},
		{name: "a statement to a month is a 400 on to", objects: []client.Object{customer},
			path: "/v1/customers/cus-acme/statement/send?to=2026-11", status: 400, code: CodeParameterInvalid, param: "to"},
		{name: "a statement from after to is a 400 on from", objects: []client.Object{customer},
			path: "/v1/customers/cus-acme/statement/send?from=2026-11-02&to=2026-11-01", status: 400,
			code: CodeParameterInvalid, param: "from"},
		{name: "a statement's unknown query parameter is a 400", objects: []client.Object{customer},
			path: "/v1/customers/cus-acme/statement/send?as_of=2026-11-01", status: 400, code: CodeParameterUnknown,
			param: "as_of"},
		{name: "a statement to a bad address is a 422 on to", objects: []client.Object{customer},
			path: "/v1/customers/cus-acme/statement/send", body: `{"to":["ada"]}`, status: 422, code: CodeParameterInvalid,
			param: "to"},
	})

	t.Run("a body without Content-Type is a 415", func(t *testing.T) {
		s, c := newFakeStore(issued, customer), &fakeClaims{}
		s.profile.Email = mailProfile()
		r := httptest.NewRequest(http.MethodPost, invoiceSend, strings.NewReader(`{"to":["ada@example.com"]}`))
		r.Header.Set("Authorization", "Bearer "+fakeToken)
		w := httptest.NewRecorder()
		fakeAdapter(t, s, c).ServeHTTP(w, r)
		wantError(t, w, http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "Content-Type")
		if len(c.requests) != 0 {
			t.Errorf("%d creates were attempted, want none", len(c.requests))
		}
	})
}

// createdEmail is the Email the fake store holds under name.
func createdEmail(t *testing.T, s *fakeStore, name string) *billingv1.Email {
	t.Helper()
	e := &billingv1.Email{}
	if found, _ := s.Get(t.Context(), fakeWorkspace, name, e); !found {
		t.Fatalf("the store holds no Email %s", name)
	}
	return e
}

func TestSendInvoice(t *testing.T) {
	t.Run("a send without a body answers 202 with the delivery to the customer's e-mail", func(t *testing.T) {
		s, c := newFakeStore(issuedFakeInvoice(nil, 0), acmeCustomer()), &fakeClaims{}
		s.profile.Email = mailProfile()
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices/inv-1/send", "")
		got := decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted)
		if got.ID != "em-1" || got.Object != "delivery" || got.Purpose != "invoice" ||
			strings.Join(got.To, ",") != "billing@acme.example" || got.MessageID != "<uid-1@example.com>" ||
			got.SentAt != nil || got.Attempts != 0 || got.LastError != nil {
			t.Errorf("got %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "" {
			t.Errorf("Location %q, want none: no path reads an Email", loc)
		}
		e := createdEmail(t, s, "em-1")
		if e.Spec.Purpose != billingv1.EmailPurposeInvoice || e.Spec.InvoiceRef == nil || e.Spec.InvoiceRef.Name != "inv-1" ||
			e.Spec.CustomerRef == nil || e.Spec.CustomerRef.Name != "cus-acme" || len(e.Spec.To) != 0 ||
			e.Spec.CreditNoteRef != nil || e.Spec.Statement != nil || e.Spec.ReminderDays != nil {
			t.Errorf("created spec %+v", e.Spec)
		}
		if c.requests[0].Resource != resourceEmails || c.requests[0].Prefix != "em-" {
			t.Errorf("the create's resource and prefix are %q %q", c.requests[0].Resource, c.requests[0].Prefix)
		}
	})

	t.Run("a send to addresses queues them, an empty body and {} are the customer's", func(t *testing.T) {
		s, c := newFakeStore(issuedFakeInvoice(nil, 0), acmeCustomer()), &fakeClaims{}
		s.profile.Email = mailProfile()
		h := fakeAdapter(t, s, c)
		w := checkedServe(t, h, http.MethodPost, "/v1/invoices/inv-1/send",
			`{"to":["ap@acme.example","cfo@acme.example"]}`)
		got := decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted)
		if strings.Join(got.To, ",") != "ap@acme.example,cfo@acme.example" {
			t.Errorf("to %v", got.To)
		}
		if to := createdEmail(t, s, got.ID).Spec.To; strings.Join(to, ",") != "ap@acme.example,cfo@acme.example" {
			t.Errorf("spec.to %v", to)
		}
		// An empty body sent as JSON is {} too.
		r := httptest.NewRequest(http.MethodPost, "/v1/invoices/inv-1/send", http.NoBody)
		r.Header.Set("Authorization", "Bearer "+fakeToken)
		r.Header.Set("Content-Type", "application/json")
		empty := httptest.NewRecorder()
		h.ServeHTTP(empty, r)
		if got := decodeAs[apiobject.QueuedDelivery](t, empty, http.StatusAccepted); strings.Join(got.To, ",") != "billing@acme.example" {
			t.Errorf("an empty JSON body: to %v", got.To)
		}
		for _, body := range []string{`{}`, `{"to":[]}`, `{"to":null}`} {
			got := decodeAs[apiobject.QueuedDelivery](t, checkedServe(t, h, http.MethodPost, "/v1/invoices/inv-1/send", body),
				http.StatusAccepted)
			if strings.Join(got.To, ",") != "billing@acme.example" || len(createdEmail(t, s, got.ID).Spec.To) != 0 {
				t.Errorf("%s: to %v", body, got.To)
			}
		}
	})

	t.Run("an invoice whose customer is gone is sent to its bill-to e-mail", func(t *testing.T) {
		inv := issuedFakeInvoice(nil, 0)
		inv.Status.BillTo = &billingv1.BillTo{Name: "Acme", Email: "old@acme.example"}
		s, c := newFakeStore(inv), &fakeClaims{}
		s.profile.Email = mailProfile()
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices/inv-1/send", "")
		if got := decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted); strings.Join(got.To, ",") != "old@acme.example" {
			t.Errorf("to %v", got.To)
		}
	})

	t.Run("a sealed invoice can be sent again", func(t *testing.T) {
		s, c := newFakeStore(sealedIn(issuedFakeInvoice(nil, 0), "seal-000001"), acmeCustomer()), &fakeClaims{}
		s.profile.Email = mailProfile()
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices/inv-1/send", "")
		decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted)
	})

	t.Run("a retry with the Idempotency-Key answers the first delivery and queues nothing more", func(t *testing.T) {
		s, c := newFakeStore(issuedFakeInvoice(nil, 0), acmeCustomer()), &fakeClaims{}
		s.profile.Email = mailProfile()
		h := fakeAdapter(t, s, c)
		body := `{"to":["ap@acme.example"]}`
		first := serveWithKey(h, "/v1/invoices/inv-1/send", body, "send-1")
		again := serveWithKey(h, "/v1/invoices/inv-1/send", body, "send-1")
		if first.Code != http.StatusAccepted || again.Code != http.StatusAccepted ||
			again.Header().Get(IdempotentReplayedHeader) != "true" || again.Body.String() != first.Body.String() {
			t.Errorf("first %d %s, again %d %v %s", first.Code, first.Body, again.Code, again.Header(), again.Body)
		}
		if c.next != 1 {
			t.Errorf("%d Emails were created, want 1", c.next)
		}
		other := serveWithKey(h, "/v1/invoices/inv-1/send", `{"to":["cfo@acme.example"]}`, "send-1")
		wantError(t, other, http.StatusConflict, CodeIdempotencyReused, IdempotencyKeyHeader)
	})
}

func TestSendCreditNote(t *testing.T) {
	s, c := newFakeStore(issuedFakeInvoice(nil, 0), acmeCustomer(), issuedFakeCreditNote()), &fakeClaims{}
	s.profile.Email = mailProfile()
	w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/credit_notes/cn-1/send", `{}`)
	got := decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted)
	if got.Purpose != "credit_note" || strings.Join(got.To, ",") != "billing@acme.example" ||
		got.MessageID != "<uid-1@example.com>" {
		t.Errorf("got %+v", got)
	}
	e := createdEmail(t, s, got.ID)
	if e.Spec.Purpose != billingv1.EmailPurposeCreditNote || e.Spec.CreditNoteRef == nil ||
		e.Spec.CreditNoteRef.Name != "cn-1" || e.Spec.InvoiceRef != nil || e.Spec.CustomerRef == nil ||
		e.Spec.CustomerRef.Name != "cus-acme" {
		t.Errorf("created spec %+v", e.Spec)
	}
}

func TestSendStatement(t *testing.T) {
	// at is 23:30 UTC on 30 November: already 1 December in Berlin.
	at := time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC)
	send := func(t *testing.T, timeZone, query, body string) (apiobject.QueuedDelivery, *billingv1.Email) {
		t.Helper()
		s, c := newFakeStore(acmeCustomer()), &fakeClaims{}
		s.profile.Email, s.profile.TimeZone = mailProfile(), timeZone
		a, err := New(Deps{Store: s, Claims: c, Authn: fakeAuthn, Authz: allowAll}, Options{RateLimit: -1})
		if err != nil {
			t.Fatal(err)
		}
		a.now = func() time.Time { return at }
		w := checkedServe(t, a.Handler(), http.MethodPost, "/v1/customers/cus-acme/statement/send"+query, body)
		got := decodeAs[apiobject.QueuedDelivery](t, w, http.StatusAccepted)
		return got, createdEmail(t, s, got.ID)
	}
	cases := []struct {
		name, timeZone, query string
		from, to              string
	}{
		{"the default is the last 90 days, today included, in UTC", "", "", "2026-09-02", "2026-11-30"},
		{"today is the workspace's", "Europe/Berlin", "", "2026-09-03", "2026-12-01"},
		{"to alone ends it, the 90th day from its from", "", "?to=2026-10-31", "2026-08-03", "2026-10-31"},
		{"from and to as asked", "", "?from=2026-01-01&to=2026-06-30", "2026-01-01", "2026-06-30"},
		{"one day", "", "?from=2026-11-01&to=2026-11-01", "2026-11-01", "2026-11-01"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := send(t, tc.timeZone, tc.query, "")
			if got.Purpose != "statement" || strings.Join(got.To, ",") != "billing@acme.example" {
				t.Errorf("got %+v", got)
			}
			if e.Spec.Purpose != billingv1.EmailPurposeStatement || e.Spec.CustomerRef == nil ||
				e.Spec.CustomerRef.Name != "cus-acme" || e.Spec.Statement == nil || e.Spec.InvoiceRef != nil {
				t.Fatalf("created spec %+v", e.Spec)
			}
			if *e.Spec.Statement != (billingv1.StatementPeriod{From: tc.from, To: tc.to}) {
				t.Errorf("statement %+v, want %s to %s", *e.Spec.Statement, tc.from, tc.to)
			}
		})
	}
	t.Run("to addresses", func(t *testing.T) {
		got, e := send(t, "", "", `{"to":["ap@acme.example"]}`)
		if strings.Join(got.To, ",") != "ap@acme.example" || strings.Join(e.Spec.To, ",") != "ap@acme.example" {
			t.Errorf("to %v, spec.to %v", got.To, e.Spec.To)
		}
	})
}

func TestDeliveriesAreShown(t *testing.T) {
	sent := metav1.NewTime(time.Date(2026, 11, 24, 10, 0, 0, 0, time.FixedZone("CET", 3600)))
	deliveries := []billingv1.Delivery{
		{Email: "em-1", Purpose: billingv1.EmailPurposeInvoice, To: []string{"billing@acme.example"},
			MessageID: "<u1@example.com>", SentAt: &sent, Attempts: 1},
		{Email: "em-2", Purpose: billingv1.EmailPurposeReminder, To: []string{"billing@acme.example"},
			MessageID: "<u2@example.com>", Attempts: 3, LastError: "421 4.7.0 try again later"},
	}
	// JSON escapes < and > (\u003c, \u003e), as it does in every answer.
	const want = `"deliveries":[{"purpose":"invoice","to":["billing@acme.example"],"message_id":"\u003cu1@example.com\u003e",` +
		`"sent_at":"2026-11-24T09:00:00Z","attempts":1,"last_error":null},{"purpose":"reminder",` +
		`"to":["billing@acme.example"],"message_id":"\u003cu2@example.com\u003e","sent_at":null,"attempts":3,` +
		`"last_error":"421 4.7.0 try again later"}]`
	inv := issuedFakeInvoice(nil, 0)
	inv.Status.Deliveries = deliveries
	cn := issuedFakeCreditNote()
	cn.Status.Deliveries = deliveries[:1]
	cus := acmeCustomer()
	cus.Status.Deliveries = []billingv1.Delivery{{Email: "em-3", Purpose: billingv1.EmailPurposeStatement,
		To: []string{"billing@acme.example"}}}
	h := fakeAdapter(t, newFakeStore(inv, cn, cus, namedInvoice("inv-2")), &fakeClaims{})
	for _, tc := range []struct{ path, want string }{
		{"/v1/invoices/inv-1", want},
		{"/v1/credit_notes/cn-1", `"deliveries":[{"purpose":"invoice","to":["billing@acme.example"],` +
			`"message_id":"\u003cu1@example.com\u003e","sent_at":"2026-11-24T09:00:00Z","attempts":1,"last_error":null}]`},
		{"/v1/customers/cus-acme", `"deliveries":[{"purpose":"statement","to":["billing@acme.example"],` +
			`"message_id":null,"sent_at":null,"attempts":0,"last_error":null}]`},
		{"/v1/invoices/inv-2", `"deliveries":[]`},
	} {
		w := checkedServe(t, h, http.MethodGet, tc.path, "")
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("GET %s: %d %s\nwant it to hold %s", tc.path, w.Code, w.Body, tc.want)
		}
	}
}

// The event of a reminder, as /v1/events answers it and the manager's
// webhooks send it: the invoice reminded of, with the reminder beside it.
func TestTheReminderEventMatchesTheDocument(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	inv := sealedIn(issuedFakeInvoice(&billingv1.InvoiceBalance{AmountRemaining: 3570,
		PaymentStatus: billingv1.InvoicePaymentOpen}, 0), "seal-000001")
	reminder := &billingv1.Email{
		ObjectMeta: metav1.ObjectMeta{Name: "em-9", Namespace: fakeWorkspace},
		Spec: billingv1.EmailSpec{Purpose: billingv1.EmailPurposeReminder, InvoiceRef: &billingv1.InvoiceReference{Name: "inv-1"},
			CustomerRef: &billingv1.CustomerReference{Name: "cus-acme"}, ReminderDays: ptr.To[int32](-3)},
		Status: billingv1.EmailStatus{Phase: billingv1.EmailSent, MessageID: "<u9@example.com>",
			Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypeInvoiceReminderSent, Sequence: 7,
				CreatedAt: metav1.NewTime(at)}}},
	}
	body := webhookBody(t, c, billingv1.EventTypeInvoiceReminderSent, at, reminder, inv)
	var ev struct {
		Type string `json:"type"`
		Data struct {
			Object   apiobject.Invoice       `json:"object"`
			Reminder apiobject.EventReminder `json:"reminder"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "invoice.reminder_sent" || ev.Data.Object.ID != "inv-1" || ptr.Deref(ev.Data.Object.Seal, "") != "seal-000001" ||
		ev.Data.Reminder != (apiobject.EventReminder{Days: -3, MessageID: "<u9@example.com>"}) {
		t.Errorf("got %s", body)
	}
	// Other events carry no reminder.
	plain, err := delivery.EventBody(fakeWorkspace, 8, billingv1.EventTypeInvoiceIssued, at, inv,
		func(string) *billingv1.Invoice { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), `"reminder"`) {
		t.Errorf("an invoice.issued event carries a reminder: %s", plain)
	}
}
