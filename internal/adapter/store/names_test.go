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
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestNameIndexPages(t *testing.T) {
	x := newNameIndex()
	for _, n := range []string{"d", "a", "c", "b", "e", "c"} {
		x.add(n, "ws", "ws/acme")
	}
	x.add("z", "other")
	cases := []struct {
		set, after string
		n          int
		want       string
	}{
		{"ws", "", 2, "ab"},
		{"ws", "b", 2, "cd"},
		{"ws", "d", 2, "e"},
		{"ws", "bb", 10, "cde"},
		{"ws", "e", 1, ""},
		{"ws", "", 5, "abcde"},
		{"ws/acme", "a", 100, "bcde"},
		{"other", "", 100, "z"},
		{"none", "", 100, ""},
	}
	for _, tc := range cases {
		if got := strings.Join(x.after(tc.set, tc.after, tc.n), ""); got != tc.want {
			t.Errorf("after(%q, %q, %d) = %q; want %q", tc.set, tc.after, tc.n, got, tc.want)
		}
	}
	x.remove("c", "ws")
	x.remove("q", "ws")
	if got := strings.Join(x.after("ws", "", 10), ""); got != "abde" {
		t.Errorf("after removing c: %q; want abde", got)
	}
	if got := strings.Join(x.after("ws/acme", "", 10), ""); got != "abcde" {
		t.Errorf("removing from one set changed another: %q", got)
	}
	x.remove("z", "other")
	if _, ok := x.sets["other"]; ok {
		t.Error("an emptied set is kept")
	}
}

func TestNameIndexServesARememberedObjectUntilTheInformerDeliversIt(t *testing.T) {
	x := newNameIndex()
	now := time.Unix(1_800_000_000, 0)
	inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "inv-b", Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}}}
	x.add("inv-a", "ws")
	x.remember(inv, invoiceSets(inv), now, time.Minute)

	if got := strings.Join(x.after("ws", "", 10), ","); got != "inv-a,inv-b" {
		t.Errorf("the workspace lists %q; want inv-a,inv-b", got)
	}
	if got := strings.Join(x.after(Selection{Namespace: "ws", CustomerID: "acme"}.key(), "", 10), ","); got != "inv-b" {
		t.Errorf("the customer's invoices are %q; want inv-b", got)
	}
	if p, ok := x.pendingObject("ws", "inv-b"); !ok || p != inv {
		t.Fatalf("pendingObject = %v, %v; want the created invoice", p, ok)
	}

	// The informer delivers it: the cache serves it from now on.
	handler := x.handler(invoiceSets)
	handler.OnAdd(inv, false)
	if _, ok := x.pendingObject("ws", "inv-b"); ok {
		t.Error("still pending after the informer delivered it")
	}
	if got := strings.Join(x.after("ws", "", 10), ","); got != "inv-a,inv-b" {
		t.Errorf("after delivery the workspace lists %q", got)
	}
}

func TestNameIndexMovesARememberedInvoiceDeliveredAlreadyIssued(t *testing.T) {
	x := newNameIndex()
	inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "inv-b", Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}}}
	x.remember(inv, invoiceSets(inv), time.Unix(1_800_000_000, 0), time.Minute)
	pending := Selection{Namespace: "ws", Phase: billingv1.InvoicePending}.key()
	if got := strings.Join(x.after(pending, "", 10), ","); got != "inv-b" {
		t.Fatalf("pending = %q; want inv-b", got)
	}

	issued := inv.DeepCopy()
	issued.Status.Phase = billingv1.InvoiceIssued
	x.handler(invoiceSets).OnAdd(issued, false)
	for _, sel := range []Selection{
		{Namespace: "ws", Phase: billingv1.InvoicePending}, {Namespace: "ws", CustomerID: "acme", Phase: billingv1.InvoicePending},
	} {
		if got := x.after(sel.key(), "", 10); len(got) != 0 {
			t.Errorf("%s still lists %v", sel.key(), got)
		}
	}
	for _, sel := range []Selection{
		{Namespace: "ws"}, {Namespace: "ws", CustomerID: "acme"}, {Namespace: "ws", Phase: billingv1.InvoiceIssued},
		{Namespace: "ws", CustomerID: "acme", Phase: billingv1.InvoiceIssued},
	} {
		if got := strings.Join(x.after(sel.key(), "", 10), ","); got != "inv-b" {
			t.Errorf("%s lists %q; want inv-b", sel.key(), got)
		}
	}
}

func TestNameIndexLeavesAnObjectTheInformerDeliveredFirstToTheCache(t *testing.T) {
	x := newNameIndex()
	cus := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "cus-a", Namespace: "ws"}}
	x.handler(customerSets).OnAdd(cus, false)
	x.remember(cus, customerSets(cus), time.Now(), time.Minute)
	if _, ok := x.pendingObject("ws", "cus-a"); ok {
		t.Error("an object the informer already delivered was kept pending")
	}
}

func TestNameIndexForgetsAPendingObjectTheInformerNeverDelivers(t *testing.T) {
	x := newNameIndex()
	now := time.Unix(1_800_000_000, 0)
	gone := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "cus-gone", Namespace: "ws"}}
	x.remember(gone, customerSets(gone), now, time.Minute)
	// Deleted before the watch showed it: the informer shows neither.
	later := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "cus-later", Namespace: "ws"}}
	x.remember(later, customerSets(later), now.Add(2*time.Minute), time.Minute)
	if _, ok := x.pendingObject("ws", "cus-gone"); ok {
		t.Error("a pending object outlived its TTL")
	}
	if got := strings.Join(x.after("ws", "", 10), ","); got != "cus-later" {
		t.Errorf("the workspace lists %q; want cus-later", got)
	}
	// A deletion the informer delivers settles a pending object too.
	x.handler(customerSets).OnDelete(later)
	if _, ok := x.pendingObject("ws", "cus-later"); ok || len(x.after("ws", "", 10)) != 0 {
		t.Error("a deleted object is still pending or listed")
	}
}

// BenchmarkNameIndexPage reads a page of 100 names out of 100,000.
func BenchmarkNameIndexPage(b *testing.B) {
	x := newNameIndex()
	for i := range 100_000 {
		x.add(fmt.Sprintf("inv-%08d", i), "ws")
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		after := fmt.Sprintf("inv-%08d", (i*997)%99_000)
		if len(x.after("ws", after, 100)) != 100 {
			b.Fatal("short page")
		}
		i++
	}
}

func TestMergeNamesKeepsASetSortedAndEachNameOnce(t *testing.T) {
	for _, tc := range []struct {
		name       string
		names, add []string
		want       []string
	}{
		{"names after the last are appended", []string{"a", "b"}, []string{"d", "c"}, []string{"a", "b", "c", "d"}},
		{"older names merge in before later ones", []string{"a", "m", "z"}, []string{"n", "b", "y"},
			[]string{"a", "b", "m", "n", "y", "z"}},
		{"a name held already is not added again", []string{"a", "c"}, []string{"c", "b", "b"}, []string{"a", "b", "c"}},
		{"an empty set takes the names sorted", nil, []string{"b", "a"}, []string{"a", "b"}},
		{"names all held change nothing", []string{"a", "b"}, []string{"b", "a"}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeNames(tc.names, tc.add); !slices.Equal(got, tc.want) {
				t.Fatalf("mergeNames(%q, %q) = %q, want %q", tc.names, tc.add, got, tc.want)
			}
		})
	}
}

func TestMoveAllMovesEveryNameAsMoveDoesOneAtATime(t *testing.T) {
	seed := func() *nameIndex {
		x := newNameIndex()
		x.add("inv-3", "ws", "ws/open")
		x.add("inv-9", "ws", "ws/open")
		return x
	}
	moves := []nameMove{
		{name: "inv-3", from: []string{"ws", "ws/open"}, to: []string{"ws", "ws/paid"}}, // a live original
		{name: "inv-1", to: []string{"ws", "ws/paid"}},                                  // gone already
		{name: "inv-2", to: []string{"ws", "ws/void"}},
	}
	one, all := seed(), seed()
	for _, m := range moves {
		one.move(m.name, m.from, m.to)
	}
	all.moveAll(moves)
	for _, set := range []string{"ws", "ws/open", "ws/paid", "ws/void"} {
		if got, want := all.after(set, "", 10), one.after(set, "", 10); !slices.Equal(got, want) {
			t.Errorf("set %s holds %q after moveAll, %q after move", set, got, want)
		}
	}
	for set, want := range map[string][]string{"ws": {"inv-1", "inv-2", "inv-3", "inv-9"}, "ws/open": {"inv-9"},
		"ws/paid": {"inv-1", "inv-3"}, "ws/void": {"inv-2"}} {
		if got := all.after(set, "", 10); !slices.Equal(got, want) {
			t.Errorf("set %s holds %q, want %q", set, got, want)
		}
	}
}

// BenchmarkTakingASealIntoASetWithLaterNames is a restart's case: the
// live invoices (the newest names) are in the set before the seals'.
func BenchmarkTakingASealIntoASetWithLaterNames(b *testing.B) {
	for _, batched := range []bool{false, true} {
		b.Run(fmt.Sprintf("batched=%t", batched), func(b *testing.B) {
			for range b.N {
				x := newNameIndex()
				for i := range 10_000 {
					x.add(fmt.Sprintf("inv-9%06d", i), "ws")
				}
				for s := range 20 { // 20 seals of 2,700 older names
					moves := make([]nameMove, 2_700)
					for i := range moves {
						moves[i] = nameMove{name: fmt.Sprintf("inv-1%06d", s*2_700+i), to: []string{"ws"}}
					}
					if batched {
						x.moveAll(moves)
						continue
					}
					for _, m := range moves {
						x.move(m.name, m.from, m.to)
					}
				}
			}
		})
	}
}
