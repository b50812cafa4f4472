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
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// The handlers of closing the books and of the seals over the fakes:
// every branch, and every answer checked against openapi.json.

// octoberEnd is the last second of October 2026 in UTC: the workspace's
// closed_through in the closed workspaces of these tests.
var octoberEnd = time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)

// closedFakeStore is a fake store whose workspace is closed through
// octoberEnd by pclose-oct, holding objs.
func closedFakeStore(objs ...client.Object) *fakeStore {
	s := newFakeStore(objs...)
	s.closedThrough, s.closedBy = octoberEnd, "pclose-oct"
	return s
}

// checkedServe is serve, with the answer validated against openapi.json.
func checkedServe(t *testing.T, h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	w := serve(h, method, path, body)
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(method, "http://127.0.0.1"+path, nil)
	resp := &http.Response{StatusCode: w.Code, Header: w.Header(), Request: req}
	if err := c.check(req, resp, w.Body.Bytes()); err != nil {
		t.Errorf("the answer does not match openapi.json: %v", err)
	}
	return w
}

// unitContract is the contract the unit tests check answers against,
// built once.
var unitContract = sync.OnceValues(newContract)

// fakeSeal is seal seq of fakeWorkspace after previous, holding objs.
func fakeSeal(t *testing.T, seq int64, previous string, objs ...client.Object) *billingv1.LedgerSeal {
	t.Helper()
	var lines [][]byte
	for _, o := range objs {
		line, err := seal.Line(o)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	enc, err := seal.Encode(lines)
	if err != nil {
		t.Fatal(err)
	}
	hash := seal.ChainHash(fakeWorkspace, seq, previous, enc.SHA256)
	return &billingv1.LedgerSeal{
		ObjectMeta: metav1.ObjectMeta{Name: seal.Name(seq), Namespace: fakeWorkspace,
			CreationTimestamp: metav1.NewTime(octoberEnd.Add(time.Hour))},
		Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: previous, Hash: hash, ShortHash: hash[:12],
			Counts:        billingv1.SealCounts{Invoices: 1},
			ClosedThrough: metav1.NewTime(octoberEnd), FirstInvoiceNumber: "INV-000001", LastInvoiceNumber: "INV-000001"},
	}
}

// sealedIn is obj (a copy) as the store serves it from seal name.
func sealedIn[O client.Object](obj O, name string) O {
	out := obj.DeepCopyObject().(O)
	out.SetLabels(map[string]string{billingv1.LabelSealedIn: name})
	return out
}

func namedInvoice(name string) *billingv1.Invoice {
	inv := issuedFakeInvoice(nil, 0)
	inv.Name = name
	return inv
}

func TestCreatePeriodClose(t *testing.T) {
	cases := []struct {
		name        string
		store       *fakeStore
		body        string
		status      int
		code, param string
	}{
		{name: "a through that has not passed is a 409 period_not_ended", store: newFakeStore(),
			body: `{"through":"2999-01"}`, status: 409, code: CodePeriodNotEnded, param: "through"},
		{name: "a day that has not ended is a 409 period_not_ended", store: newFakeStore(),
			body:   `{"through":"` + time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly) + `"}`,
			status: 409, code: CodePeriodNotEnded, param: "through"},
		{name: "the month the workspace is closed through is a 409 already_closed", store: closedFakeStore(),
			body: `{"through":"2026-10"}`, status: 409, code: CodeAlreadyClosed, param: "through"},
		{name: "an earlier day is a 409 already_closed", store: closedFakeStore(),
			body: `{"through":"2026-09-15"}`, status: 409, code: CodeAlreadyClosed, param: "through"},
		{name: "an instant at closed_through is a 409 already_closed", store: closedFakeStore(),
			body: `{"through":"2026-10-31T23:59:59Z"}`, status: 409, code: CodeAlreadyClosed, param: "through"},
		{name: "a through that is no month, day or instant is a 422", store: newFakeStore(),
			body: `{"through":"October"}`, status: 422, code: CodeParameterInvalid, param: "through"},
		{name: "a month 13 is a 422", store: newFakeStore(),
			body: `{"through":"2026-13"}`, status: 422, code: CodeParameterInvalid, param: "through"},
		{name: "a missing through is a 422", store: newFakeStore(), body: `{}`,
			status: 422, code: CodeParameterInvalid, param: "through"},
		{name: "a through that is a number is a 422", store: newFakeStore(), body: `{"through":202610}`,
			status: 422, code: CodeParameterInvalid, param: "through"},
		{name: "an unknown field is a 422", store: newFakeStore(), body: `{"through":"2026-10","by":"me"}`,
			status: 422, code: CodeParameterInvalid, param: "by"},
		{name: "a body that is no JSON is a 422", store: newFakeStore(), body: `{"through":`,
			status: 422, code: CodeParameterInvalid, param: ""},
		{name: "an unknown time zone of the workspace is a 422", store: newFakeStore(&billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: fakeWorkspace},
			Spec:       billingv1.BillingProfileSpec{TimeZone: "Mars/Olympus"}}),
			body: `{"through":"2026-10"}`, status: 422, code: CodeParameterInvalid, param: "through"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClaims{}
			w := checkedServe(t, fakeAdapter(t, tc.store, c), http.MethodPost, "/v1/period_closes", tc.body)
			wantError(t, w, tc.status, tc.code, tc.param)
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}

	t.Run("the already_closed answer names the close that closed the workspace", func(t *testing.T) {
		w := serve(fakeAdapter(t, closedFakeStore(), &fakeClaims{}), http.MethodPost, "/v1/period_closes",
			`{"through":"2026-10"}`)
		if !strings.Contains(w.Body.String(), `\"pclose-oct\"`) || !strings.Contains(w.Body.String(), "2026-10-31T23:59:59Z") {
			t.Errorf("the answer does not name pclose-oct and its moment: %s", w.Body)
		}
	})

	t.Run("a day that has passed answers 201, pending, with the workspace's closed_through", func(t *testing.T) {
		s, c := closedFakeStore(), &fakeClaims{}
		w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/period_closes", `{"through":"2026-11-15"}`)
		pc := decodeAs[apiobject.PeriodClose](t, w, http.StatusCreated)
		if pc.ID != "pclose-1" || pc.Object != "period_close" || pc.Status != "pending" || pc.Through != "2026-11-15" ||
			pc.ClosedThrough != nil || ptr.Deref(pc.WorkspaceClosedThrough, "") != "2026-10-31T23:59:59Z" {
			t.Errorf("got %+v", pc)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/period_closes/pclose-1" {
			t.Errorf("Location %q", loc)
		}
		stored := &billingv1.PeriodClose{}
		if found, _ := s.Get(t.Context(), fakeWorkspace, "pclose-1", stored); !found || stored.Spec.Through != "2026-11-15" {
			t.Errorf("stored %v: %+v", found, stored.Spec)
		}
	})

	t.Run("a workspace never closed answers a null workspace_closed_through", func(t *testing.T) {
		w := checkedServe(t, fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodPost, "/v1/period_closes",
			`{"through":"2026-10-15T12:00:00+02:00"}`)
		pc := decodeAs[apiobject.PeriodClose](t, w, http.StatusCreated)
		if pc.WorkspaceClosedThrough != nil || pc.Through != "2026-10-15T12:00:00+02:00" {
			t.Errorf("got %+v", pc)
		}
	})

	t.Run("a store that cannot be read is a 503", func(t *testing.T) {
		s := newFakeStore()
		s.err = context.DeadlineExceeded
		w := serve(fakeAdapter(t, s, &fakeClaims{}), http.MethodPost, "/v1/period_closes", `{"through":"2026-10"}`)
		wantError(t, w, http.StatusServiceUnavailable, CodeAPIUnavailable, "")
	})
}

func TestGetAndListPeriodCloses(t *testing.T) {
	closed := &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Name: "pclose-oct", Namespace: fakeWorkspace, CreationTimestamp: metav1.NewTime(octoberEnd)},
		Spec:       billingv1.PeriodCloseSpec{Through: "2026-10"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: &metav1.Time{Time: octoberEnd},
			Conditions: []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionTrue, Reason: billingv1.ReasonClosed}}},
	}
	superseded := &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Name: "pclose-sep", Namespace: fakeWorkspace, CreationTimestamp: metav1.NewTime(octoberEnd)},
		Spec:       billingv1.PeriodCloseSpec{Through: "2026-09"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseSuperseded,
			Conditions: []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: billingv1.ReasonAlreadyClosed}}},
	}
	h := fakeAdapter(t, closedFakeStore(closed, superseded), &fakeClaims{})

	t.Run("a close answers with its own and the workspace's closed_through", func(t *testing.T) {
		pc := decodeAs[apiobject.PeriodClose](t, checkedServe(t, h, http.MethodGet, "/v1/period_closes/pclose-oct", ""), 200)
		if pc.Status != "closed" || pc.StatusReason != nil || ptr.Deref(pc.ClosedThrough, "") != "2026-10-31T23:59:59Z" ||
			ptr.Deref(pc.WorkspaceClosedThrough, "") != "2026-10-31T23:59:59Z" {
			t.Errorf("got %+v", pc)
		}
	})
	t.Run("a superseded close says why", func(t *testing.T) {
		pc := decodeAs[apiobject.PeriodClose](t, checkedServe(t, h, http.MethodGet, "/v1/period_closes/pclose-sep", ""), 200)
		if pc.Status != "superseded" || ptr.Deref(pc.StatusReason, "") != "already_closed" || pc.ClosedThrough != nil {
			t.Errorf("got %+v", pc)
		}
	})
	t.Run("an unknown close is a 404", func(t *testing.T) {
		wantError(t, checkedServe(t, h, http.MethodGet, "/v1/period_closes/pclose-x", ""), 404, CodeResourceMissing,
			"period_close_id")
	})
	t.Run("the list is ordered by id and carries the workspace's closed_through", func(t *testing.T) {
		l := decodeAs[apiobject.PeriodCloseList](t, checkedServe(t, h, http.MethodGet, "/v1/period_closes", ""), 200)
		if len(l.Data) != 2 || l.Data[0].ID != "pclose-oct" || l.Data[1].ID != "pclose-sep" || l.HasMore ||
			ptr.Deref(l.ClosedThrough, "") != "2026-10-31T23:59:59Z" {
			t.Errorf("got %+v", l)
		}
	})
	t.Run("a page of one has a cursor to the next", func(t *testing.T) {
		l := decodeAs[apiobject.PeriodCloseList](t, checkedServe(t, h, http.MethodGet, "/v1/period_closes?limit=1", ""), 200)
		if len(l.Data) != 1 || !l.HasMore || l.NextCursor == nil {
			t.Fatalf("got %+v", l)
		}
		next := decodeAs[apiobject.PeriodCloseList](t,
			checkedServe(t, h, http.MethodGet, "/v1/period_closes?limit=1&cursor="+*l.NextCursor, ""), 200)
		if len(next.Data) != 1 || next.Data[0].ID != "pclose-sep" || next.HasMore {
			t.Errorf("got %+v", next)
		}
	})
	t.Run("a workspace never closed lists a null closed_through", func(t *testing.T) {
		l := decodeAs[apiobject.PeriodCloseList](t, checkedServe(t, fakeAdapter(t, newFakeStore(), &fakeClaims{}),
			http.MethodGet, "/v1/period_closes", ""), 200)
		if len(l.Data) != 0 || l.ClosedThrough != nil {
			t.Errorf("got %+v", l)
		}
	})
}

func TestAPaymentInAClosedPeriodIsRefused(t *testing.T) {
	open := &billingv1.InvoiceBalance{AmountRemaining: 3570, PaymentStatus: billingv1.InvoicePaymentOpen}
	cases := []struct {
		name    string
		paidAt  string
		refused bool
	}{
		{"a payment paid at closed_through is refused", "2026-10-31T23:59:59Z", true},
		{"a payment paid before closed_through is refused", "2026-10-01T00:00:00Z", true},
		{"a payment paid at closed_through in another zone is refused", "2026-11-01T00:59:59+01:00", true},
		{"a payment paid a second after closed_through is created", "2026-11-01T00:00:00Z", false},
		{"a payment without paid_at is paid now, which is open", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := closedFakeStore(issuedFakeInvoice(open, 0)), &fakeClaims{}
			body := `{"invoice_id":"inv-1","amount":100}`
			if tc.paidAt != "" {
				body = `{"invoice_id":"inv-1","amount":100,"paid_at":"` + tc.paidAt + `"}`
			}
			w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, "/v1/payments", body)
			if !tc.refused {
				decodeAs[apiobject.Payment](t, w, http.StatusCreated)
				return
			}
			wantError(t, w, http.StatusConflict, CodePeriodClosed, "paid_at")
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}
}

func TestACreditNoteOrPaymentOfASealedInvoiceIsRefused(t *testing.T) {
	paid := &billingv1.InvoiceBalance{AmountPaid: 100, PaymentStatus: billingv1.InvoicePaymentPaid}
	for _, tc := range []struct{ name, path, body string }{
		{"a payment of a sealed invoice is refused", "/v1/payments", `{"invoice_id":"inv-1","amount":100}`},
		{"a credit note of a sealed invoice is refused", "/v1/credit_notes",
			`{"invoice_id":"inv-1","reason":"order_change","full_credit":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := issuedFakeInvoice(paid, 0)
			inv.Labels = map[string]string{billingv1.LabelSealedIn: "seal-000001"}
			s, c := newFakeStore(inv), &fakeClaims{}
			w := checkedServe(t, fakeAdapter(t, s, c), http.MethodPost, tc.path, tc.body)
			wantError(t, w, http.StatusConflict, CodeInvoiceSealed, "invoice_id")
			if !strings.Contains(w.Body.String(), "seal-000001") {
				t.Errorf("the answer does not name the seal: %s", w.Body.String())
			}
			if len(c.requests) != 0 {
				t.Errorf("%d creates were attempted, want none", len(c.requests))
			}
		})
	}
}

func TestSeals(t *testing.T) {
	inv1, inv2 := namedInvoice("inv-1"), namedInvoice("inv-2")
	s1 := fakeSeal(t, 1, billingv1.ZeroHash, inv1)
	s2 := fakeSeal(t, 2, s1.Spec.Hash, inv2)
	h := fakeAdapter(t, newFakeStore(s1, s2, sealedIn(inv1, s1.Name), sealedIn(inv2, s2.Name)), &fakeClaims{})

	t.Run("a seal answers its hashes and counts, not its payload", func(t *testing.T) {
		w := checkedServe(t, h, http.MethodGet, "/v1/seals/seal-000002", "")
		got := decodeAs[apiobject.Seal](t, w, 200)
		if got.ID != "seal-000002" || got.Object != "seal" || got.Sequence != 2 || got.Hash != s2.Spec.Hash ||
			got.PreviousHash != s1.Spec.Hash || got.PayloadSHA256 != s2.Spec.PayloadSHA256 || got.Counts.Invoices != 1 ||
			got.ClosedThrough != "2026-10-31T23:59:59Z" || got.FirstInvoiceNumber != "INV-000001" {
			t.Errorf("got %+v", got)
		}
		if strings.Contains(w.Body.String(), s2.Spec.Payload) {
			t.Error("the answer holds the payload")
		}
	})
	t.Run("an unknown seal is a 404", func(t *testing.T) {
		wantError(t, checkedServe(t, h, http.MethodGet, "/v1/seals/seal-000009", ""), 404, CodeResourceMissing, "seal_id")
		wantError(t, checkedServe(t, h, http.MethodGet, "/v1/seals/seal-000009/payload", ""), 404, CodeResourceMissing,
			"seal_id")
	})
	t.Run("the payload is the gzip as stored, whose SHA-256 uncompressed is payload_sha256", func(t *testing.T) {
		w := checkedServe(t, h, http.MethodGet, "/v1/seals/seal-000001/payload", "")
		if w.Code != 200 || w.Header().Get("Content-Type") != mediaGzip {
			t.Fatalf("%d %q", w.Code, w.Header().Get("Content-Type"))
		}
		stored, _ := seal.Gzip(&s1.Spec)
		if !bytes.Equal(w.Body.Bytes(), stored) {
			t.Error("the payload is not the gzip as stored")
		}
		zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != s1.Spec.PayloadSHA256 {
			t.Error("the payload does not hash to payload_sha256")
		}
	})
	t.Run("the list is in sequence order", func(t *testing.T) {
		l := decodeAs[apiobject.List[apiobject.Seal]](t, checkedServe(t, h, http.MethodGet, "/v1/seals", ""), 200)
		if len(l.Data) != 2 || l.Data[0].ID != "seal-000001" || l.Data[1].ID != "seal-000002" {
			t.Errorf("got %+v", l)
		}
	})
}

func TestVerifySeals(t *testing.T) {
	inv1, inv2, inv3 := namedInvoice("inv-1"), namedInvoice("inv-2"), namedInvoice("inv-3")
	s1 := fakeSeal(t, 1, billingv1.ZeroHash, inv1)
	s2 := fakeSeal(t, 2, s1.Spec.Hash, inv2)
	tampered := s2.DeepCopy()
	tampered.Spec.Payload = fakeSeal(t, 2, s1.Spec.Hash, inv3).Spec.Payload
	relinked := fakeSeal(t, 2, billingv1.ZeroHash, inv2)
	twice := fakeSeal(t, 2, s1.Spec.Hash, inv1)
	gap := fakeSeal(t, 3, s1.Spec.Hash, inv2)
	pay := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-1", Namespace: fakeWorkspace},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 3570, Currency: "EUR"}}
	family := fakeSeal(t, 1, billingv1.ZeroHash, inv1, pay)
	cases := []struct {
		name     string
		objs     []client.Object
		verified bool
		seals    int
		head     string
		broken   apiobject.BrokenLink
	}{
		{name: "no seal verifies with the zero hash as head", verified: true, head: billingv1.ZeroHash},
		{name: "a chain of two verifies with the second's hash as head",
			objs:     []client.Object{s1, s2, sealedIn(inv1, s1.Name), sealedIn(inv2, s2.Name), namedInvoice("inv-3")},
			verified: true, seals: 2, head: s2.Spec.Hash},
		{name: "a payload changed behind the API's back names its seal", objs: []client.Object{s1, tampered}, seals: 2,
			broken: apiobject.BrokenLink{Seal: "seal-000002", Sequence: 2}},
		{name: "a seal linked to the wrong previous hash is broken", objs: []client.Object{s1, relinked}, seals: 2,
			broken: apiobject.BrokenLink{Seal: "seal-000002", Sequence: 2}},
		{name: "a gap in the sequence is broken", objs: []client.Object{s1, gap}, seals: 2,
			broken: apiobject.BrokenLink{Seal: "seal-000002", Sequence: 2}},
		{name: "a record in two seals is broken", objs: []client.Object{s1, twice}, seals: 2,
			broken: apiobject.BrokenLink{Seal: "seal-000002", Sequence: 2}},
		{name: "a family whose records are all served sealed verifies",
			objs:     []client.Object{family, sealedIn(inv1, family.Name), sealedIn(pay, family.Name)},
			verified: true, seals: 1, head: family.Spec.Hash},
		{name: "a live payment a seal holds is a finding", objs: []client.Object{family, sealedIn(inv1, family.Name), pay},
			seals: 1, broken: apiobject.BrokenLink{Seal: "seal-000001", Sequence: 1}},
		{name: "a live record a seal holds is a finding", objs: []client.Object{s1, inv1}, seals: 1,
			broken: apiobject.BrokenLink{Seal: "seal-000001", Sequence: 1}},
		{name: "a record marked sealed in a seal that does not hold it is a finding",
			objs: []client.Object{s1, sealedIn(inv1, s1.Name), sealedIn(inv2, s1.Name)}, seals: 1,
			broken: apiobject.BrokenLink{Seal: "seal-000001", Sequence: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := fakeAdapter(t, newFakeStore(tc.objs...), &fakeClaims{})
			got := decodeAs[apiobject.SealVerification](t, checkedServe(t, h, http.MethodGet, "/v1/seals/verify", ""), 200)
			if got.Verified != tc.verified || got.Seals != tc.seals {
				t.Fatalf("got %+v", got)
			}
			if tc.verified {
				if ptr.Deref(got.Head, "") != tc.head || got.Broken != nil {
					t.Errorf("got %+v, want head %s", got, tc.head)
				}
				return
			}
			if got.Head != nil || got.Broken == nil || got.Broken.Seal != tc.broken.Seal ||
				got.Broken.Sequence != tc.broken.Sequence || got.Broken.Reason == "" {
				t.Errorf("got %+v (%+v), want broken %+v", got, got.Broken, tc.broken)
			}
		})
	}
}
