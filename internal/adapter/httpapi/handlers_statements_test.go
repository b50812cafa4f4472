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
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// The handlers of statements and of the receivables aging over the fakes,
// at a fixed now in a workspace in Berlin: defaults, negotiation, every
// refusal, and every answer checked against openapi.json.

// statementNow is the adapter's now in these tests: 26 November 2026,
// 23:30 UTC, already 27 November in Berlin.
var statementNow = time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC)

// statementAdapter is an adapter over s whose clock says statementNow.
func statementAdapter(t *testing.T, s *fakeStore) http.Handler {
	t.Helper()
	a, err := New(Deps{Store: s, Claims: &fakeClaims{}, Authn: fakeAuthn, Authz: allowAll}, Options{RateLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	a.now = func() time.Time { return statementNow }
	return a.Handler()
}

// acceptServe is checkedServe of a GET with an Accept header.
func acceptServe(t *testing.T, h http.Handler, path, accept string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("Authorization", "Bearer "+fakeToken)
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+path, nil)
	resp := &http.Response{StatusCode: w.Code, Header: w.Header(), Request: req}
	if err := c.check(req, resp, w.Body.Bytes()); err != nil {
		t.Errorf("the answer does not match openapi.json: %v", err)
	}
	return w
}

// accountObjects are a Berlin workspace's profile, customers cus-acme and
// cus-idle, and cus-acme's records: inv-1 (EUR 100.00) issued on 1
// September and due on 1 October, paid 40.00 on 20 November; inv-2 (EUR
// 50.00) issued on 25 November, due 25 December; cus-idle's inv-3, fully
// credited.
func accountObjects() []client.Object {
	at := func(month time.Month, day int) *metav1.Time {
		return &metav1.Time{Time: time.Date(2026, month, day, 9, 0, 0, 0, time.UTC)}
	}
	inv := func(name, customer string, total int64, issued, due *metav1.Time) *billingv1.Invoice {
		return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: fakeWorkspace},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: customer}, Currency: "EUR",
				Items: []billingv1.LineItem{{Description: "Support", Quantity: billingv1.Units(1), Amount: total}}},
			Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-" + name, Total: ptr.To(total),
				IssuedAt: issued, DueAt: due}}
	}
	idle := acmeCustomer()
	idle.Name, idle.Spec.Name = "cus-idle", "Idle"
	return []client.Object{
		&billingv1.BillingProfile{ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName,
			Namespace: fakeWorkspace}, Spec: billingv1.BillingProfileSpec{TimeZone: "Europe/Berlin"}},
		acmeCustomer(), idle,
		inv("inv-1", "cus-acme", 10_000, at(9, 1), at(10, 1)),
		inv("inv-2", "cus-acme", 5_000, at(11, 25), at(12, 25)),
		inv("inv-3", "cus-idle", 7_000, at(11, 2), at(12, 2)),
		&billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-1", Namespace: fakeWorkspace},
			Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 4_000,
				PaidAt: at(11, 20)}, Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded, CustomerName: "cus-acme"}},
		&billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: fakeWorkspace},
			Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-3"}},
			Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Number: "CN-000001", IssuedAt: at(11, 3),
				Total: ptr.To[int64](7_000), CustomerName: "cus-idle"}},
	}
}

func TestAStatementDefaultsToTheLast90DaysToTodayInTheWorkspacesTimeZone(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	st := decodeAs[apiobject.Statement](t, acceptServe(t, h, "/v1/customers/cus-acme/statement", ""), http.StatusOK)
	if st.From != "2026-08-30" || st.To != "2026-11-27" || st.TimeZone != "Europe/Berlin" {
		t.Errorf("from %s to %s in %s, want 2026-08-30 to 2026-11-27 in Europe/Berlin", st.From, st.To, st.TimeZone)
	}
	if len(st.Currencies) != 1 {
		t.Fatalf("currencies %+v, want EUR alone", st.Currencies)
	}
	eur := st.Currencies[0]
	if eur.OpeningBalance != 0 || eur.ClosingBalance != 11_000 || len(eur.Rows) != 3 {
		t.Errorf("opening %d closing %d rows %+v, want 0, 11000 and three rows", eur.OpeningBalance, eur.ClosingBalance, eur.Rows)
	}
	sum := eur.OpeningBalance
	for _, r := range eur.Rows {
		sum += r.Amount
	}
	if sum != eur.ClosingBalance {
		t.Errorf("the rows add up to %d, the closing balance is %d", sum, eur.ClosingBalance)
	}
	// inv-1 is 57 days past due, inv-2 not yet due.
	if eur.Aging.Days31To60 != 6_000 || eur.Aging.Current != 5_000 || eur.Aging.Total != 11_000 {
		t.Errorf("aging %+v, want 6000 in 31_60 and 5000 current", eur.Aging)
	}
}

func TestAStatementOverARangeStartsFromItsOpeningBalance(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	st := decodeAs[apiobject.Statement](t,
		acceptServe(t, h, "/v1/customers/cus-acme/statement?from=2026-11-01&to=2026-11-24", ""), http.StatusOK)
	eur := st.Currencies[0]
	if eur.OpeningBalance != 10_000 || eur.ClosingBalance != 6_000 || len(eur.Rows) != 1 || eur.Rows[0].Type != "payment" ||
		eur.Rows[0].Date != "2026-11-20" || eur.Rows[0].Balance != 6_000 {
		t.Errorf("got %+v, want 10000, the payment, then 6000", eur)
	}
}

func TestAStatementIsAnsweredAsHTMLOrPDFByAccept(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	for _, tc := range []struct{ accept, media, start string }{
		{"", "application/json", `{"object":"statement"`},
		{"*/*", "application/json", `{"object":"statement"`},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html; charset=utf-8", "<!DOCTYPE html>"},
		{"application/pdf", "application/pdf", "%PDF-"},
		{"application/json, application/pdf;q=0.5", "application/json", `{"object":"statement"`},
	} {
		w := acceptServe(t, h, "/v1/customers/cus-acme/statement", tc.accept)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != tc.media || !strings.HasPrefix(w.Body.String(), tc.start) {
			t.Errorf("Accept %q: %d %s %.20q, want %s", tc.accept, w.Code, w.Header().Get("Content-Type"), w.Body, tc.media)
		}
		if !strings.Contains(w.Header().Get("Vary"), "Accept") {
			t.Errorf("Accept %q: no Vary: Accept", tc.accept)
		}
	}
}

func TestAStatementRefusesWhatItCannotAnswer(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	for _, tc := range []struct {
		query, code, param string
		status             int
	}{
		{"?from=2026-11-31", CodeParameterInvalid, "from", 400},
		{"?to=27.11.2026", CodeParameterInvalid, "to", 400},
		{"?from=2026-11-20&to=2026-11-19", CodeParameterInvalid, "from", 400},
		{"?to=2026-11-28", CodeParameterInvalid, "to", 400},
		{"?from=2026-11-01&from=2026-11-02", CodeParameterInvalid, "from", 400},
		{"?as_of=2026-11-01", CodeParameterUnknown, "as_of", 400},
	} {
		wantError(t, acceptServe(t, h, "/v1/customers/cus-acme/statement"+tc.query, ""), tc.status, tc.code, tc.param)
	}
	wantError(t, acceptServe(t, h, "/v1/customers/cus-nobody/statement", ""), 404, CodeResourceMissing, "customer_id")
}

func TestTheAgingListsTheCustomersWithSomethingOpen(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	list := decodeAs[apiobject.List[apiobject.Aging]](t,
		acceptServe(t, h, "/v1/reports/receivables_aging?as_of=2026-11-21", ""), http.StatusOK)
	// cus-idle's invoice was credited on 3 November; inv-2 is not issued yet.
	if len(list.Data) != 1 || list.Data[0].CustomerID != "cus-acme" || list.Data[0].AsOf != "2026-11-21" {
		t.Fatalf("data %+v, want cus-acme alone", list.Data)
	}
	if c := list.Data[0].Currencies; len(c) != 1 || c[0].Days31To60 != 6_000 || c[0].Total != 6_000 {
		t.Errorf("currencies %+v, want 6000 31 to 60 days past due", c)
	}
	before := decodeAs[apiobject.List[apiobject.Aging]](t,
		acceptServe(t, h, "/v1/reports/receivables_aging?as_of=2026-11-02", ""), http.StatusOK)
	if len(before.Data) != 2 || before.Data[1].CustomerID != "cus-idle" || before.Data[1].Currencies[0].Current != 7_000 {
		t.Errorf("on 2 November, data %+v, want cus-idle's invoice current too", before.Data)
	}
}

func TestTheAgingAsCSVIsTheSameRowsWithAHeaderAndALinkToTheNextPage(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	const page = "/v1/reports/receivables_aging?as_of=2026-11-02&limit=1"
	list := decodeAs[apiobject.List[apiobject.Aging]](t, acceptServe(t, h, page, ""), http.StatusOK)
	w := acceptServe(t, h, page, "text/csv")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("%d %s, want CSV", w.Code, w.Header().Get("Content-Type"))
	}
	rows, err := csv.NewReader(bytes.NewReader(w.Body.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := append([][]string{apiobject.AgingCSVHeader}, apiobject.AgingCSVRecords(&list.Data[0])...)
	if len(rows) != len(want) || strings.Join(rows[1], ",") != strings.Join(want[1], ",") ||
		strings.Join(rows[0], ",") != strings.Join(want[0], ",") {
		t.Errorf("CSV %q, want %q", rows, want)
	}
	link := w.Header().Get("Link")
	if !list.HasMore || list.NextCursor == nil || !strings.Contains(link, url.QueryEscape(*list.NextCursor)) {
		t.Fatalf("Link %q, want the next page after %v", link, list.NextCursor)
	}
	next := strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
	rest := decodeAs[apiobject.List[apiobject.Aging]](t, acceptServe(t, h, next, ""), http.StatusOK)
	if len(rest.Data) != 1 || rest.Data[0].CustomerID != "cus-idle" || rest.HasMore {
		t.Errorf("the next page %+v, want cus-idle alone, the last", rest)
	}
}

func TestTheAgingRefusesADayThatIsNotOneOrHasNotEnded(t *testing.T) {
	h := statementAdapter(t, newFakeStore(accountObjects()...))
	for _, q := range []string{"?as_of=2026-02-29", "?as_of=2026-11-28", "?as_of=yesterday"} {
		wantError(t, acceptServe(t, h, "/v1/reports/receivables_aging"+q, ""), 400, CodeParameterInvalid, "as_of")
	}
	wantError(t, acceptServe(t, h, "/v1/reports/receivables_aging?customer_id=cus-acme", ""), 400,
		CodeParameterUnknown, "customer_id")
	// Today in Berlin is 27 November: its end is accepted.
	decodeAs[apiobject.List[apiobject.Aging]](t, acceptServe(t, h, "/v1/reports/receivables_aging?as_of=2026-11-27", ""),
		http.StatusOK)
}
