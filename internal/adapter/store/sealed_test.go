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

package store

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// Sealed records served as if live (sealed.go), against fakes.

// sealOf makes seal seq of workspace ws holding objs, as the manager
// does (internal/seal).
func sealOf(t *testing.T, seq int64, previous string, objs ...client.Object) *billingv1.LedgerSeal {
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
	hash := seal.ChainHash("ws", seq, previous, enc.SHA256)
	return &billingv1.LedgerSeal{
		ObjectMeta: metav1.ObjectMeta{Name: seal.Name(seq), Namespace: "ws", UID: "uid-seal"},
		Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: previous, Hash: hash, ShortHash: hash[:12]},
	}
}

// issued returns an issued invoice of acme with a payment status and
// the sequence seq, its invoice.issued event at event sequence event.
func issued(name string, status billingv1.InvoicePaymentStatus, seq, event int64) *billingv1.Invoice {
	inv := invoice(name, "acme")
	inv.Status.Phase = billingv1.InvoiceIssued
	inv.Status.Sequence = ptr.To(seq)
	inv.Status.Balance = &billingv1.InvoiceBalance{PaymentStatus: status}
	inv.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeInvoiceIssued, event)}
	return inv
}

func labelled(obj client.Object, sealName string) client.Object {
	obj = obj.DeepCopyObject().(client.Object)
	obj.SetLabels(map[string]string{billingv1.LabelSealedIn: sealName})
	return obj
}

// deliverSeal has the LedgerSeal informer deliver ls.
func (f *fixture) deliverSeal(t *testing.T, ls *billingv1.LedgerSeal) {
	t.Helper()
	f.cached(t, ls)
}

// goneLive deletes obj from the cache and has the informer say so.
func (f *fixture) goneLive(t *testing.T, obj client.Object) {
	t.Helper()
	f.deleted(t, obj)
	f.informer(t, obj).Delete(obj)
}

func getInvoice(t *testing.T, f *fixture, name string) (*billingv1.Invoice, bool) {
	t.Helper()
	inv := &billingv1.Invoice{}
	found, err := f.store.Get(t.Context(), "ws", name, inv)
	if err != nil {
		t.Fatal(err)
	}
	return inv, found
}

func invoicePage(t *testing.T, f *fixture, sel Selection) string {
	t.Helper()
	page, _, err := typedPage[billingv1.Invoice](t.Context(), f.store, sel, "", 50)
	if err != nil {
		t.Fatal(err)
	}
	return names(page)
}

func TestASealedRecordIsServedOnceWithItsSealsLabelBeforeAndAfterItsOriginalIsDeleted(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	a, b, c := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1), issued("inv-b", billingv1.InvoicePaymentPaid, 2, 2),
		issued("inv-c", billingv1.InvoicePaymentOpen, 3, 3)
	for _, inv := range []*billingv1.Invoice{a, b, c} {
		f.cached(t, inv)
	}
	f.deliverSeal(t, sealOf(t, 1, billingv1.ZeroHash, a, b))

	for _, step := range []string{"while the originals are live", "once they are labelled", "once they are deleted"} {
		switch step {
		case "once they are labelled":
			for _, inv := range []*billingv1.Invoice{a, b} {
				f.informer(t, inv).Update(inv, labelled(inv, "seal-000001"))
			}
		case "once they are deleted":
			for _, inv := range []*billingv1.Invoice{a, b} {
				gone := labelled(inv, "seal-000001")
				f.goneLive(t, gone)
			}
		}
		got, found := getInvoice(t, f, "inv-b")
		if !found || got.Labels[billingv1.LabelSealedIn] != "seal-000001" || got.Status.Number != b.Status.Number {
			t.Fatalf("%s: get = %v, %v; want inv-b with label seal-000001", step, got.Labels, found)
		}
		if got := invoicePage(t, f, Selection{Namespace: "ws"}); got != "inv-a,inv-b,inv-c" {
			t.Errorf("%s: workspace page = %s; want each once", step, got)
		}
		if got := invoicePage(t, f, Selection{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentPaid}); got != "inv-a,inv-b" {
			t.Errorf("%s: acme's paid = %s; want inv-a,inv-b", step, got)
		}
		if _, found := getInvoice(t, f, "inv-c"); !found {
			t.Errorf("%s: the live invoice is not found", step)
		}
	}
}

func TestADeletedLabelledOriginalIsServedUntilItsSealArrivesAndThenFromIt(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	a := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1)
	f.cached(t, a)
	f.goneLive(t, labelled(a, "seal-000001"))

	got, found := getInvoice(t, f, "inv-a")
	if !found || got.Labels[billingv1.LabelSealedIn] != "seal-000001" {
		t.Fatalf("get before the seal = %v, %v; want the last live state with its label", got.Labels, found)
	}
	if got := invoicePage(t, f, Selection{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentPaid}); got != "inv-a" {
		t.Errorf("acme's paid before the seal = %s; want inv-a", got)
	}
	feed, _, err := f.store.Feed(t.Context(), "ws", 0, 10)
	if err != nil || len(feed) != 1 {
		t.Fatalf("feed before the seal = %d, %v; want inv-a", len(feed), err)
	}
	readsBefore := f.liveReads.Load()

	f.deliverSeal(t, sealOf(t, 1, billingv1.ZeroHash, a))
	got, found = getInvoice(t, f, "inv-a")
	if !found || got.Labels[billingv1.LabelSealedIn] != "seal-000001" || got.ResourceVersion != "" {
		t.Fatalf("get after the seal = %v, %v; want the sealed record", got.ObjectMeta, found)
	}
	if got := invoicePage(t, f, Selection{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentPaid}); got != "inv-a" {
		t.Errorf("acme's paid after the seal = %s; want inv-a", got)
	}
	if f.liveReads.Load() != readsBefore {
		t.Error("a sealed record was read from the API server")
	}
}

func TestAnOriginalDeletedWithoutTheLabelLeavesEveryList(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	inv := invoice("inv-a", "acme")
	f.cached(t, inv)
	f.goneLive(t, inv)
	if got := invoicePage(t, f, Selection{Namespace: "ws"}); got != "" {
		t.Errorf("page = %s; want none", got)
	}
	if _, found := getInvoice(t, f, "inv-a"); found {
		t.Error("a deleted invoice is found")
	}
}

func TestFiltersSelectSealedCreditNotesAndPaymentsAsLiveOnes(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	inv := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1)
	note := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-a", Namespace: "ws"},
		Spec:   billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, CustomerName: "acme"}}
	pay := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-a", Namespace: "ws"},
		Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 100},
		Status: billingv1.PaymentStatus{CustomerName: "acme"}}
	livePay := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-b", Namespace: "ws"},
		Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 1},
		Status: billingv1.PaymentStatus{CustomerName: "acme"}}
	f.cached(t, livePay)
	f.deliverSeal(t, sealOf(t, 1, billingv1.ZeroHash, inv, note, pay))

	for _, tc := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Namespace: "ws", InvoiceID: "inv-a"}, "pay-a,pay-b"},
		{Selection{Namespace: "ws", CustomerID: "acme"}, "pay-a,pay-b"},
		{Selection{Namespace: "ws", CustomerID: "globex"}, ""},
	} {
		page, _, err := typedPage[billingv1.Payment](t.Context(), f.store, tc.sel, "", 10)
		if err != nil || names(page) != tc.want {
			t.Errorf("payments of %s = %s, %v; want %s", tc.sel.key(), names(page), err, tc.want)
		}
	}
	for _, tc := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Namespace: "ws", InvoiceID: "inv-a", CreditNotePhase: billingv1.CreditNoteIssued}, "cn-a"},
		{Selection{Namespace: "ws", CustomerID: "acme"}, "cn-a"},
		{Selection{Namespace: "ws", CreditNotePhase: billingv1.CreditNotePending}, ""},
	} {
		page, _, err := typedPage[billingv1.CreditNote](t.Context(), f.store, tc.sel, "", 10)
		if err != nil || names(page) != tc.want {
			t.Errorf("credit notes of %s = %s, %v; want %s", tc.sel.key(), names(page), err, tc.want)
		}
	}
	for _, tc := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Namespace: "ws", Phase: billingv1.InvoiceIssued}, "inv-a"},
		{Selection{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentOpen}, ""},
		{Selection{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentPaid}, "inv-a"},
	} {
		if got := invoicePage(t, f, tc.sel); got != tc.want {
			t.Errorf("invoices of %s = %s; want %s", tc.sel.key(), got, tc.want)
		}
	}
	page, more, err := typedPage[billingv1.Payment](t.Context(), f.store, Selection{Namespace: "ws"}, "pay-a", 1)
	if err != nil || names(page) != "pay-b" || more {
		t.Errorf("the page after the sealed pay-a = %s, %v, %v; want pay-b, the last", names(page), more, err)
	}
}

func TestTheFeedAndTheEventsWalkSealedAndLiveRecordsInSequenceOrder(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	a := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1)
	b := issued("inv-b", billingv1.InvoicePaymentPaid, 2, 2)
	c := issued("inv-c", billingv1.InvoicePaymentOpen, 3, 5)
	note := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-a", Namespace: "ws"},
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, CustomerName: "acme",
			Events: []billingv1.RecordedEvent{recorded(billingv1.EventTypeCreditNoteIssued, 3)}}}
	closed := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Name: "close-1", Namespace: "ws"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed,
			Events: []billingv1.RecordedEvent{recorded(billingv1.EventTypePeriodClosed, 4)}}}
	for _, o := range []client.Object{a, b, c, note} {
		f.cached(t, o)
	}
	f.cached(t, closed)
	ls := sealOf(t, 1, billingv1.ZeroHash, a, note, b)
	ls.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeLedgerSealed, 6)}
	f.deliverSeal(t, ls)
	for _, o := range []client.Object{a, b, note} {
		f.goneLive(t, labelled(o, ls.Name))
	}

	feed, more, err := f.store.Feed(t.Context(), "ws", 0, 10)
	if err != nil || names(feed) != "inv-a,inv-b,inv-c" || more {
		t.Fatalf("feed = %s, %v, %v; want inv-a,inv-b,inv-c", names(feed), more, err)
	}
	if feed[0].Labels[billingv1.LabelSealedIn] != ls.Name || feed[2].Labels[billingv1.LabelSealedIn] != "" {
		t.Errorf("feed labels = %v, %v; want the seal's on inv-a only", feed[0].Labels, feed[2].Labels)
	}
	page, last, more, err := f.store.Events(t.Context(), "ws", 0, 10, nil)
	want := "1:invoice.issued:inv-a,2:invoice.issued:inv-b,3:credit_note.issued:cn-a," +
		"4:period.closed:close-1,5:invoice.issued:inv-c,6:ledger.sealed:seal-000001"
	if err != nil || eventsOf(page) != want || last != 6 || more {
		t.Fatalf("events = %s, %d, %v, %v; want %s", eventsOf(page), last, more, err, want)
	}
	sealed, ok := page[1].Object.(*billingv1.Invoice)
	if !ok || sealed.Labels[billingv1.LabelSealedIn] != ls.Name {
		t.Errorf("the sealed invoice's event object = %#v; want it with the seal's label", page[1].Object)
	}
}

func TestAGetThatMissesLooksInSealsNotDeliveredYet(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	a := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1)
	first := sealOf(t, 1, billingv1.ZeroHash, issued("inv-0", billingv1.InvoicePaymentPaid, 0, 0))
	f.deliverSeal(t, first)
	second := sealOf(t, 2, first.Spec.Hash, a)
	// The manager made seal 2 and deleted inv-a; the informer has
	// delivered neither.
	f.createdLive(t, second)

	got, found := getInvoice(t, f, "inv-a")
	if !found || got.Labels[billingv1.LabelSealedIn] != second.Name {
		t.Fatalf("get = %v, %v; want inv-a from seal 2", got.Labels, found)
	}
	if got := invoicePage(t, f, Selection{Namespace: "ws"}); got != "inv-0,inv-a" {
		t.Errorf("page = %s; want the records of both seals", got)
	}
	reads := f.liveReads.Load()
	if _, found := getInvoice(t, f, "inv-z"); found {
		t.Error("a name no seal holds is found")
	}
	// The invoice, then seal 3, which does not exist.
	if n := f.liveReads.Load() - reads; n != 2 {
		t.Errorf("a get of a missing name read the API server %d times; want 2", n)
	}
}

func TestASealThatDoesNotVerifyServesNothing(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	ls := sealOf(t, 1, billingv1.ZeroHash, issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1))
	other := sealOf(t, 1, billingv1.ZeroHash, issued("inv-b", billingv1.InvoicePaymentPaid, 1, 1))
	ls.Spec.Payload = other.Spec.Payload
	f.deliverSeal(t, ls)
	if got := invoicePage(t, f, Selection{Namespace: "ws"}); got != "" {
		t.Errorf("page = %s; want none from a seal whose payload does not match its hash", got)
	}
	second := sealOf(t, 2, "1111111111111111111111111111111111111111111111111111111111111111",
		issued("inv-c", billingv1.InvoicePaymentPaid, 2, 2))
	good := sealOf(t, 1, billingv1.ZeroHash, issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1))
	good.Name, good.UID = "seal-000001", "uid-other"
	f.informer(t, ls).Update(ls, good)
	f.deliverSeal(t, second)
	if got := invoicePage(t, f, Selection{Namespace: "ws"}); got != "inv-a" {
		t.Errorf("page = %s; want inv-a alone: seal 2 does not link to seal 1", got)
	}
}

func TestClosedThroughAndSeals(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	at := func(s string) *metav1.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &metav1.Time{Time: tm}
	}
	if _, _, ok, err := f.store.ClosedThrough(t.Context(), "ws"); ok || err != nil {
		t.Fatalf("a workspace without closes is closed: %v, %v", ok, err)
	}
	for _, c := range []*billingv1.PeriodClose{
		{ObjectMeta: metav1.ObjectMeta{Name: "close-a", Namespace: "ws"},
			Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: at("2026-09-30T23:59:59Z")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "close-b", Namespace: "ws"},
			Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: at("2026-10-31T23:59:59Z")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "close-c", Namespace: "ws"},
			Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodClosePending, ClosedThrough: at("2026-11-30T23:59:59Z")}},
	} {
		f.cached(t, c)
	}
	through, name, ok, err := f.store.ClosedThrough(t.Context(), "ws")
	if err != nil || !ok || name != "close-b" || !through.Equal(at("2026-10-31T23:59:59Z").Time) {
		t.Errorf("ClosedThrough = %s, %s, %v, %v; want close-b's", through, name, ok, err)
	}
	closes, _, err := typedPage[billingv1.PeriodClose](t.Context(), f.store, Selection{Namespace: "ws"}, "close-a", 10)
	if err != nil || names(closes) != "close-b,close-c" {
		t.Errorf("closes after close-a = %s, %v", names(closes), err)
	}

	first := sealOf(t, 1, billingv1.ZeroHash, issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1))
	second := sealOf(t, 2, first.Spec.Hash, issued("inv-b", billingv1.InvoicePaymentPaid, 2, 2))
	f.createdLive(t, second)
	f.createdLive(t, first)
	got, err := f.store.Seals(t.Context(), "ws")
	if err != nil || len(got) != 2 || got[0].Name != first.Name || got[1].Name != second.Name {
		t.Fatalf("Seals = %v, %v; want both in sequence order", got, err)
	}
	if _, err := seal.VerifyChain(got, nil); err != nil {
		t.Errorf("the chain read back does not verify: %v", err)
	}
	f.deliverSeal(t, first)
	ls := &billingv1.LedgerSeal{}
	if found, err := f.store.Get(t.Context(), "ws", first.Name, ls); !found || err != nil || ls.Spec.Hash != first.Spec.Hash {
		t.Errorf("get of a seal = %v, %v", found, err)
	}
}

func TestTheLastPageReadFromTheAPIServerMergesTheSealedRecords(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	api := f.apiServer(t, "100")
	f.start(t)
	a := issued("inv-01", billingv1.InvoicePaymentPaid, 1, 1)
	c := issued("inv-03", billingv1.InvoicePaymentPaid, 3, 3)
	for i, inv := range []*billingv1.Invoice{a, c} {
		f.cachedAt(t, inv, []string{"1", "2"}[i])
	}
	f.deliverSeal(t, sealOf(t, 1, billingv1.ZeroHash, a, c))
	for _, inv := range []*billingv1.Invoice{a, c} {
		f.goneLive(t, labelled(inv, "seal-000001"))
	}
	f.cachedAt(t, invoice("inv-02", "acme"), "3")
	f.createdLive(t, invoice("inv-02", "acme"))
	// Created through another replica: in the API server only.
	f.createdLive(t, invoice("inv-04", "acme"))
	for _, k := range f.store.kinds {
		k.barrier.timeout = 20 * time.Millisecond
	}
	time.Sleep(50 * time.Millisecond)

	for _, tc := range []struct {
		sel   Selection
		after string
		limit int
		want  string
		more  bool
	}{
		{Selection{Namespace: "ws"}, "", 10, "inv-01,inv-02,inv-03,inv-04", false},
		{Selection{Namespace: "ws"}, "inv-01", 2, "inv-02,inv-03", true},
		{Selection{Namespace: "ws"}, "inv-02", 2, "inv-03,inv-04", false},
		{Selection{Namespace: "ws", CustomerID: "acme"}, "", 10, "inv-01,inv-02,inv-03,inv-04", false},
		{Selection{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentPaid}, "", 10, "inv-01,inv-03", false},
	} {
		page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, tc.sel, tc.after, tc.limit)
		if err != nil || names(page) != tc.want || more != tc.more {
			t.Errorf("%s after %q = %s, %v, %v; want %s, %v", tc.sel.key(), tc.after, names(page), more, err,
				tc.want, tc.more)
		}
	}
	if api.objectLists.Load() == 0 {
		t.Error("no page was read from the API server")
	}
}

func TestAnOriginalWhoseLabelTheInformerMissedStaysServedOnceItsSealArrived(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	a := issued("inv-a", billingv1.InvoicePaymentPaid, 1, 1)
	f.cached(t, a)
	f.deliverSeal(t, sealOf(t, 1, billingv1.ZeroHash, a))
	// The informer missed the label (a relist found the original gone,
	// and its last known state is unlabelled).
	f.goneLive(t, a)

	if got, found := getInvoice(t, f, "inv-a"); !found || got.Labels[billingv1.LabelSealedIn] != "seal-000001" {
		t.Fatalf("get = %v, %v; want the sealed record", got.Labels, found)
	}
	if got := invoicePage(t, f, Selection{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentPaid}); got != "inv-a" {
		t.Errorf("paid = %s; want inv-a", got)
	}
	feed, _, err := f.store.Feed(t.Context(), "ws", 0, 10)
	if err != nil || names(feed) != "inv-a" {
		t.Errorf("feed = %s, %v; want inv-a", names(feed), err)
	}
	page, _, _, err := f.store.Events(t.Context(), "ws", 0, 10, nil)
	if err != nil || eventsOf(page) != "1:invoice.issued:inv-a" {
		t.Errorf("events = %s, %v", eventsOf(page), err)
	}
}
