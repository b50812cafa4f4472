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
	"math/rand/v2"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// Benchmarks of a restart's intake of seals and of pages of sealed
// records, over seals of families like the million-invoice measurement's
// (docs/performance.md): an issued invoice with its items, taxes, parties
// and ledger, paid in full by one payment.

const (
	benchSeals     = 20
	benchFamilies  = 2666
	benchCustomers = 50
	benchLiveNames = 5000
)

// benchFamily is family i of the benchmark's history: an invoice paid in
// full and its payment, both settled.
func benchFamily(i int) (*billingv1.Invoice, *billingv1.Payment) {
	name := fmt.Sprintf("inv-%010d", i)
	cus := fmt.Sprintf("cus-%03d", i%benchCustomers)
	at := metav1.Unix(1_700_000_000+int64(i)*60, 0)
	rate := "19"
	tax := &billingv1.Tax{Category: billingv1.TaxStandard, Rate: &rate}
	address := &billingv1.Address{Line1: "1 Example Street"}
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ws", UID: types.UID("uid-00000000-0000-0000-0000-" + name[4:]),
			CreationTimestamp: at, Labels: map[string]string{"billing.invoicing.dev/customer": cus}},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: cus}, Currency: "EUR",
			Items: []billingv1.LineItem{
				{Description: "Consulting, March", Amount: 120000, Tax: tax},
				{Description: "Travel expenses", Amount: 8050, Tax: tax},
			}},
		Status: billingv1.InvoiceStatus{
			Phase: billingv1.InvoiceIssued, Total: ptr.To[int64](152380), Subtotal: ptr.To[int64](128050),
			TaxTotal: ptr.To[int64](24330),
			TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: billingv1.TaxStandard, Rate: &rate,
				TaxableAmount: 128050, TaxAmount: 24330}},
			Items:    []billingv1.InvoiceItemStatus{{Tax: tax}, {Tax: tax}},
			BillTo:   &billingv1.BillTo{Name: "Ada Lovelace Ltd", Email: "billing@ada.example", Address: address},
			IssuedAt: &at, DueAt: &at, Sequence: ptr.To(int64(i + 1)), Number: fmt.Sprintf("INV-%06d", i+1),
			Issuer: &billingv1.Issuer{Name: "Invoicing Example GmbH", Email: "ar@example.com", Address: address,
				TaxID: "DE123456789"},
			Conditions: []metav1.Condition{
				{Type: "Issued", Status: metav1.ConditionTrue, Reason: "Issued", LastTransitionTime: at,
					Message: "The invoice was issued."},
				{Type: "Valid", Status: metav1.ConditionTrue, Reason: "Valid", LastTransitionTime: at,
					Message: "The invoice is valid."},
			},
			Ledger: &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{
				{Name: "pay-" + name[4:], UID: "uid-pay-" + name[4:], Amount: 152380}}},
			Balance: &billingv1.InvoiceBalance{AmountPaid: 152380, PaymentStatus: billingv1.InvoicePaymentPaid},
			Events: []billingv1.RecordedEvent{
				{Type: billingv1.EventTypeInvoiceIssued, Sequence: int64(3*i + 1), CreatedAt: at},
				{Type: billingv1.EventTypeInvoicePaid, Sequence: int64(3*i + 3), CreatedAt: at},
			},
		},
	}
	pay := &billingv1.Payment{
		ObjectMeta: metav1.ObjectMeta{Name: "pay-" + name[4:], Namespace: "ws", UID: types.UID("uid-pay-" + name[4:]),
			CreationTimestamp: at},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: name}, Amount: 152380,
			Currency: "EUR", PaidAt: &at},
		Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded, CustomerName: cus, Currency: "EUR",
			Conditions: []metav1.Condition{{Type: "Recorded", Status: metav1.ConditionTrue, Reason: "Recorded",
				LastTransitionTime: at, Message: "The payment was entered in its invoice's ledger."}},
			Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypePaymentRecorded, Sequence: int64(3*i + 2),
				CreatedAt: at}}},
	}
	return inv, pay
}

// benchHistory makes n seals of workspace ws of families families each,
// chained, as the manager seals them.
func benchHistory(b *testing.B, n, families int) []*billingv1.LedgerSeal {
	b.Helper()
	seals := make([]*billingv1.LedgerSeal, 0, n)
	previous := billingv1.ZeroHash
	for s := range n {
		lines := make([][]byte, 0, 2*families)
		for i := s * families; i < (s+1)*families; i++ {
			inv, pay := benchFamily(i)
			for _, o := range []client.Object{inv, pay} {
				line, err := seal.Line(o)
				if err != nil {
					b.Fatal(err)
				}
				lines = append(lines, line)
			}
		}
		enc, err := seal.Encode(lines)
		if err != nil {
			b.Fatal(err)
		}
		seq := int64(s + 1)
		hash := seal.ChainHash("ws", seq, previous, enc.SHA256)
		seals = append(seals, &billingv1.LedgerSeal{
			ObjectMeta: metav1.ObjectMeta{Name: seal.Name(seq), Namespace: "ws", UID: "uid-seal"},
			Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
				PreviousHash: previous, Hash: hash, ShortHash: hash[:12]},
		})
		previous = hash
	}
	return seals
}

// restartingStore is a store as a restart makes it before the seals
// arrive: every kind's informer store in place (empty here), and, when
// liveFirst, the live invoices' names in their sets (addLive).
func restartingStore(b *testing.B, liveFirst bool) *Store {
	b.Helper()
	f := newFixture(b)
	for _, k := range f.store.kinds {
		k.indexer = toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, nil)
	}
	if liveFirst {
		addLive(f.store, nil)
	}
	return f.store
}

// addLive puts benchLiveNames live invoices' names into their sets: in
// order, names that sort after every sealed one (order nil); or in the
// order order gives (a permutation), as a watch delivers them after the
// seals, names that fall among the sealed ones', as a workspace's open
// invoices' do among its settled ones'.
func addLive(s *Store, order []int) {
	k := s.byKind[&recordkind.Invoice]
	for i := range benchLiveNames {
		name := fmt.Sprintf("inv-9%09d", i)
		if order != nil {
			i = order[i]
			name = fmt.Sprintf("inv-%010d-open", i*benchSeals*benchFamilies/benchLiveNames)
		}
		live := invoice(name, fmt.Sprintf("cus-%03d", i%benchCustomers))
		k.names.add(live.Name, k.sets(live)...)
	}
}

// BenchmarkTakingInSeals takes benchSeals seals of benchFamilies families
// into a fresh store, as its LedgerSeal informer's initial list does at a
// restart, until the store would report synced: with the live invoices'
// names in their sets first, and taken in after the seals in any order.
func BenchmarkTakingInSeals(b *testing.B) {
	seals := benchHistory(b, benchSeals, benchFamilies)
	records := benchSeals * benchFamilies * 2
	shuffled := rand.New(rand.NewPCG(1, 2)).Perm(benchLiveNames)
	for _, liveFirst := range []bool{true, false} {
		b.Run(fmt.Sprintf("live names first=%t", liveFirst), func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				s := restartingStore(b, liveFirst)
				b.StartTimer()
				for _, ls := range seals {
					s.takeSeal(ls)
				}
				if !liveFirst {
					addLive(s, shuffled)
				}
				finishIntake(s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*records), "ns/record")
		})
	}
}

// BenchmarkReadingPagesOfSealedInvoices reads pages of 100 of a
// workspace's paid invoices and of one customer's, all sealed, walking
// the first 30 pages of each again and again, as the million
// measurement's reads do: with the store's cache of decoded records, and
// without it (every record decoded on each read).
func BenchmarkReadingPagesOfSealedInvoices(b *testing.B) {
	seals := benchHistory(b, benchSeals, benchFamilies)
	for _, cached := range []bool{true, false} {
		s := restartingStore(b, true)
		if !cached {
			for _, k := range s.kinds {
				if k.overlay != nil {
					k.overlay.decoded = nil
				}
			}
		}
		for _, ls := range seals {
			s.takeSeal(ls)
		}
		finishIntake(s)
		s.synced.Store(true)
		close(s.syncedCh)
		for _, sel := range []Selection{
			{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentPaid},
			{Namespace: "ws", CustomerID: "cus-007"},
		} {
			b.Run(fmt.Sprintf("%s cached=%t", sel.key(), cached), func(b *testing.B) {
				readPages(b, s, sel)
			})
		}
	}
}

// readPages reads pages of sel of 100 invoices, starting again after 30
// or at the last.
func readPages(b *testing.B, s *Store, sel Selection) {
	b.ReportAllocs()
	after := ""
	for i := 0; b.Loop(); i++ {
		if i%30 == 0 {
			after = ""
		}
		page, more, err := s.Page(b.Context(), &recordkind.Invoice, sel, after, 100)
		if err != nil || len(page) == 0 {
			b.Fatal(err, len(page))
		}
		after = page[len(page)-1].GetName()
		if !more {
			after = ""
		}
	}
}
