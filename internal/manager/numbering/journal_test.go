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

package numbering

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestFateOf(t *testing.T) {
	entry := billingv1.SequenceReservation{Sequence: 7, Invoice: "inv-a", UID: "uid-a"}
	cases := []struct {
		name          string
		state         InvoiceState
		found         bool
		authoritative bool
		want          fate
	}{
		{name: "an invoice without a number keeps its reservation",
			state: InvoiceState{UID: "uid-a"}, found: true, want: pending},
		{name: "an invoice carrying the reserved sequence has it written",
			state: InvoiceState{UID: "uid-a", Sequence: 7}, found: true, want: written},
		{name: "an invoice carrying another sequence can never take the reserved one",
			state: InvoiceState{UID: "uid-a", Sequence: 3}, found: true, want: gone},
		{name: "an invoice of the same name with another UID means the reserved one was deleted",
			state: InvoiceState{UID: "uid-b"}, found: true, want: gone},
		{name: "an invoice the cache does not have may still be on its way",
			found: false, authoritative: false, want: pending},
		{name: "an invoice the API server does not have is deleted",
			found: false, authoritative: true, want: gone},
		{name: "the API server's answer about a present invoice is read like the cache's",
			state: InvoiceState{UID: "uid-a", Sequence: 7}, found: true, authoritative: true, want: written},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := fateOf(entry, tc.state, tc.found, tc.authoritative); got != tc.want {
				t.Fatalf("fateOf = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPlanAssignments(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) metav1.Time { return metav1.NewTime(t0.Add(d)) }
	atPtr := func(d time.Duration) *metav1.Time { tm := at(d); return &tm }
	entry := func(seq int64, invoice string, issued time.Duration) billingv1.SequenceReservation {
		uid := ""
		if invoice != "" {
			uid = "uid-" + invoice
		}
		return billingv1.SequenceReservation{Sequence: seq, Invoice: invoice, UID: uid, IssuedAt: at(issued)}
	}
	inv := func(name string) Invoice { return Invoice{Name: name, UID: types.UID("uid-" + name)} }
	fact := func(name string, t billingv1.EventType, after int64) Invoice {
		return Invoice{Name: name, UID: types.UID("uid-" + name), Fact: t, After: after}
	}
	factEntry := func(seq int64, name string, t billingv1.EventType, issued time.Duration) billingv1.SequenceReservation {
		e := entry(seq, name, issued)
		e.Fact = t
		return e
	}
	key := func(seq int64, invoice string) entryKey {
		return entryKey{sequence: seq, invoice: invoice, uid: "uid-" + invoice}
	}

	cases := []struct {
		name         string
		current      billingv1.InvoiceSequenceSpec
		fates        map[entryKey]fate
		asking       []Invoice
		now          time.Duration
		maxReserved  int
		want         billingv1.InvoiceSequenceSpec
		wantChanged  bool
		wantAssigned map[Invoice]Assignment
		wantFull     []Invoice
	}{
		{
			name:    "the first invoices of a workspace get 1, 2 and 3 in the order they asked",
			current: billingv1.InvoiceSequenceSpec{Next: 1},
			asking:  []Invoice{inv("a"), inv("b"), inv("c")},
			want: billingv1.InvoiceSequenceSpec{Next: 4, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0), entry(2, "b", 0), entry(3, "c", 0)}},
			wantChanged: true,
			wantAssigned: map[Invoice]Assignment{
				inv("a"): {1, t0}, inv("b"): {2, t0}, inv("c"): {3, t0}},
		},
		{
			name: "an invoice already in the journal gets its sequence again and nothing changes",
			current: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(-time.Minute), Reserved: []billingv1.SequenceReservation{
				entry(2, "b", -time.Minute)}},
			asking: []Invoice{inv("b"), inv("b")},
			want: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(-time.Minute), Reserved: []billingv1.SequenceReservation{
				entry(2, "b", -time.Minute)}},
			wantAssigned: map[Invoice]Assignment{inv("b"): {2, t0.Add(-time.Minute)}},
		},
		{
			name: "an invoice of the same name but another UID is another invoice",
			current: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0)}},
			asking: []Invoice{{Name: "a", UID: "uid-a2"}},
			want: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0), {Sequence: 2, Invoice: "a", UID: "uid-a2", IssuedAt: at(0)}}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{{Name: "a", UID: "uid-a2"}: {2, t0}},
		},
		{
			name: "written entries are trimmed while new invoices are reserved",
			current: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0), entry(2, "b", 0)}},
			fates:  map[entryKey]fate{key(1, "a"): written, key(2, "b"): pending},
			asking: []Invoice{inv("c")},
			now:    time.Second,
			want: billingv1.InvoiceSequenceSpec{Next: 4, LastIssuedAt: atPtr(time.Second), Reserved: []billingv1.SequenceReservation{
				entry(2, "b", 0), entry(3, "c", time.Second)}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{inv("c"): {3, t0.Add(time.Second)}},
		},
		{
			name: "the sequence of a gone invoice goes to the next invoice with its issue time, lowest first",
			current: billingv1.InvoiceSequenceSpec{Next: 4, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(3, "c", 0), entry(1, "a", -time.Second), entry(2, "b", 0)}},
			fates:  map[entryKey]fate{key(3, "c"): gone, key(1, "a"): gone},
			asking: []Invoice{inv("d"), inv("e"), inv("f")},
			now:    time.Minute,
			want: billingv1.InvoiceSequenceSpec{Next: 5, LastIssuedAt: atPtr(time.Minute), Reserved: []billingv1.SequenceReservation{
				entry(1, "d", -time.Second), entry(2, "b", 0), entry(3, "e", 0), entry(4, "f", time.Minute)}},
			wantChanged: true,
			wantAssigned: map[Invoice]Assignment{
				inv("d"): {1, t0.Add(-time.Second)}, inv("e"): {3, t0}, inv("f"): {4, t0.Add(time.Minute)}},
		},
		{
			name: "a freed sequence nobody asks for stays free in the journal",
			current: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0)}},
			fates: map[entryKey]fate{key(1, "a"): gone},
			want: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "", 0)}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{},
		},
		{
			name:    "issue times never go back along the sequence when the clock does",
			current: billingv1.InvoiceSequenceSpec{Next: 8, LastIssuedAt: atPtr(time.Hour)},
			asking:  []Invoice{inv("h")},
			now:     0,
			want: billingv1.InvoiceSequenceSpec{Next: 9, LastIssuedAt: atPtr(time.Hour), Reserved: []billingv1.SequenceReservation{
				entry(8, "h", time.Hour)}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{inv("h"): {8, t0.Add(time.Hour)}},
		},
		{
			name:    "issue times are whole seconds, as the API stores them",
			current: billingv1.InvoiceSequenceSpec{Next: 1},
			asking:  []Invoice{inv("a")},
			now:     1500 * time.Millisecond,
			want: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(time.Second), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", time.Second)}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{inv("a"): {1, t0.Add(time.Second)}},
		},
		{
			name: "a full journal refuses new invoices but still answers those it names",
			current: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0), entry(2, "b", 0)}},
			asking:      []Invoice{inv("c"), inv("a")},
			maxReserved: 2,
			want: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "a", 0), entry(2, "b", 0)}},
			wantAssigned: map[Invoice]Assignment{inv("a"): {1, t0}},
			wantFull:     []Invoice{inv("c")},
		},
		{
			name:    "each fact of one object takes its own sequence, and asks again for the same one",
			current: billingv1.InvoiceSequenceSpec{Next: 1},
			asking: []Invoice{
				fact("a", billingv1.EventTypeInvoiceIssued, 0), fact("a", billingv1.EventTypeInvoicePaid, 1),
				fact("a", billingv1.EventTypeInvoiceIssued, 0)},
			want: billingv1.InvoiceSequenceSpec{Next: 3, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				factEntry(1, "a", billingv1.EventTypeInvoiceIssued, 0), factEntry(2, "a", billingv1.EventTypeInvoicePaid, 0)}},
			wantChanged: true,
			wantAssigned: map[Invoice]Assignment{
				fact("a", billingv1.EventTypeInvoiceIssued, 0): {1, t0}, fact("a", billingv1.EventTypeInvoicePaid, 0): {2, t0}},
		},
		{
			name: "a fact takes no freed sequence at or below the facts it depends on, and a fact without any takes it",
			current: billingv1.InvoiceSequenceSpec{Next: 4, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(2, "", -time.Second)}},
			asking: []Invoice{fact("p", billingv1.EventTypePaymentRecorded, 3), fact("b", billingv1.EventTypeInvoiceIssued, 0)},
			now:    time.Minute,
			want: billingv1.InvoiceSequenceSpec{Next: 5, LastIssuedAt: atPtr(time.Minute), Reserved: []billingv1.SequenceReservation{
				factEntry(2, "b", billingv1.EventTypeInvoiceIssued, -time.Second), factEntry(4, "p", billingv1.EventTypePaymentRecorded, time.Minute)}},
			wantChanged: true,
			wantAssigned: map[Invoice]Assignment{
				fact("p", billingv1.EventTypePaymentRecorded, 0): {4, t0.Add(time.Minute)},
				fact("b", billingv1.EventTypeInvoiceIssued, 0):   {2, t0.Add(-time.Second)}},
		},
		{
			name: "a freed fact's sequence loses its fact with its object",
			current: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				factEntry(1, "a", billingv1.EventTypeInvoiceOverdue, 0)}},
			fates: map[entryKey]fate{{sequence: 1, invoice: "a", uid: "uid-a", fact: billingv1.EventTypeInvoiceOverdue}: gone},
			want: billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{
				entry(1, "", 0)}},
			wantChanged:  true,
			wantAssigned: map[Invoice]Assignment{},
		},
		{
			name:        "the last journal entry trimmed leaves no list behind",
			current:     billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0), Reserved: []billingv1.SequenceReservation{entry(1, "a", 0)}},
			fates:       map[entryKey]fate{key(1, "a"): written},
			want:        billingv1.InvoiceSequenceSpec{Next: 2, LastIssuedAt: atPtr(0)},
			wantChanged: true, wantAssigned: map[Invoice]Assignment{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			maxReserved := tc.maxReserved
			if maxReserved == 0 {
				maxReserved = billingv1.MaxSequenceReservations
			}
			before := tc.current.DeepCopy()
			got := planAssignments(tc.current, tc.fates, tc.asking, t0.Add(tc.now), maxReserved)
			if !equality.Semantic.DeepEqual(got.spec, tc.want) {
				t.Errorf("spec =\n%+v\nwant\n%+v", got.spec, tc.want)
			}
			if got.changed != tc.wantChanged {
				t.Errorf("changed = %v, want %v", got.changed, tc.wantChanged)
			}
			if !sameAssignments(got.assigned, tc.wantAssigned) {
				t.Errorf("assigned = %v, want %v", got.assigned, tc.wantAssigned)
			}
			if !equality.Semantic.DeepEqual(got.full, tc.wantFull) {
				t.Errorf("full = %v, want %v", got.full, tc.wantFull)
			}
			if !equality.Semantic.DeepEqual(&tc.current, before) {
				t.Errorf("planAssignments changed its input: %+v", tc.current)
			}
		})
	}
}

// sameAssignments compares two assignment maps, issue times by instant.
func sameAssignments(a, b map[Invoice]Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for inv, x := range a {
		y, ok := b[inv]
		if !ok || x.Sequence != y.Sequence || !x.IssuedAt.Equal(y.IssuedAt) {
			return false
		}
	}
	return true
}
