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

package sealing

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// everyKindSealed is one record of each kind a seal holds, each with a
// uid and events, and fields the index does not read beside them.
func everyKindSealed() []client.Object {
	inv := managertest.IssuedWithSequence("ns", "inv-1", 7)
	inv.Spec.CustomerRef.Name = "acme"
	inv.Spec.PurchaseOrder = `a "quoted" {order}]`
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(10),
		managertest.RecordedAt(billingv1.EventTypeInvoicePaid, 12)}
	events := func(t billingv1.EventType, seq int64) []billingv1.RecordedEvent {
		return []billingv1.RecordedEvent{managertest.RecordedAt(t, seq)}
	}
	pay := builder.Payment("ns", "pay-1", "inv-1", 100)
	pay.Status.CustomerName, pay.Status.Events = "acme", events(billingv1.EventTypePaymentRecorded, 11)
	cn := builder.CreditNote("ns", "cn-1", "inv-1", builder.WithFullCredit())
	cn.Status.Events = events(billingv1.EventTypeCreditNoteIssued, 13)
	capp := builder.CreditApplication("ns", "capp-1", "inv-1", 50)
	capp.Status.Events = events(billingv1.EventTypeCreditApplied, 14)
	rf := builder.Refund("ns", "rf-1", "acme", 20, "EUR")
	rf.Status.Events = events(billingv1.EventTypeRefundRecorded, 15)
	wo := builder.WriteOff("ns", "wo-1", "inv-1", "uncollectible")
	wo.Status.Events = events(billingv1.EventTypeInvoiceMarkedUncollectible, 16)
	em := builder.Email("ns", "em-1", builder.WithInvoiceRef("inv-1"))
	em.Status.Events = events(billingv1.EventTypeInvoiceReminderSent, 17)
	objs := []client.Object{inv, pay, cn, capp, rf, wo, em}
	for i, o := range objs {
		o.SetUID(types.UID(fmt.Sprintf("uid-%d", i)))
	}
	return objs
}

// spelled is what the index reads of a record: its kind, name and uid,
// its events' types and sequences, and an invoice's customer, sequence
// and invoice.issued event.
func spelled(r seal.Record) string {
	_, _, events := billing.RecordedEvents(r.Object)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s events", r.Kind, r.Object.GetName(), r.Object.GetUID())
	for _, e := range events {
		fmt.Fprintf(&b, " %s@%d", e.Type, e.Sequence)
	}
	if inv, ok := r.Object.(*billingv1.Invoice); ok {
		fmt.Fprintf(&b, " customer %s issued %d sequence", inv.Spec.CustomerRef.Name,
			reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued))
		if inv.Status.Sequence != nil {
			fmt.Fprintf(&b, " %d", *inv.Status.Sequence)
		}
	}
	return b.String()
}

func TestTheSealIndexReadsOfEachRecordWhatTheWholeRecordSays(t *testing.T) {
	sl, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(managertest.Now), everyKindSealed()...)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := seal.ReadLink(sl, billingv1.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	indexed, err := indexedRecords(sl, billingv1.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	if len(indexed) != len(whole) || len(whole) != len(everyKindSealed()) {
		t.Fatalf("%d records indexed, %d decoded whole, %d sealed", len(indexed), len(whole), len(everyKindSealed()))
	}
	for i := range whole {
		got, want := spelled(indexed[i]), spelled(whole[i])
		if got != want {
			t.Errorf("record %d:\nindexed %s\nwhole   %s", i+1, got, want)
		}
		if !strings.Contains(want, "uid-") || !strings.Contains(want, "@") {
			t.Errorf("record %d has no uid or no event to compare: %s", i+1, want)
		}
	}
}

func TestASealThatDoesNotVerifyBreaksTheWorkspaceAndLeavesNothingIndexed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(*billingv1.LedgerSeal)
	}{
		{"a payload changed after it was hashed", func(sl *billingv1.LedgerSeal) { sl.Spec.Hash = strings.Repeat("0", 64) }},
		{"the wrong previous hash", func(sl *billingv1.LedgerSeal) { sl.Spec.PreviousHash = strings.Repeat("1", 64) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sl, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(managertest.Now), everyKindSealed()...)
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(sl)
			ws := newSealedWorkspace()
			if err := ws.add(sl); err == nil || ws.broken == nil {
				t.Fatalf("the seal was taken in: %v", err)
			}
			if len(ws.records) != 0 || len(ws.seals) != 0 {
				t.Errorf("a broken seal left %d records and %d seals", len(ws.records), len(ws.seals))
			}
		})
	}
}

// BenchmarkReadingASealForTheIndex reads a seal of 1,000 families (an
// issued invoice and its payment) as the index did, every record decoded
// whole, and as it does, only the fields it keeps: side by side, per
// record.
func BenchmarkReadingASealForTheIndex(b *testing.B) {
	const families = 1_000
	objs := make([]client.Object, 0, 2*families)
	for i := range families {
		inv := managertest.IssuedWithSequence("ns", fmt.Sprintf("inv-%05d", i), int64(i+1))
		inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(int64(2*i + 1))}
		pay := builder.Payment("ns", fmt.Sprintf("pay-%05d", i), inv.Name, 100)
		pay.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, int64(2*i+2))}
		objs = append(objs, inv, pay)
	}
	sl, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(managertest.Now), objs...)
	if err != nil {
		b.Fatal(err)
	}
	for _, read := range []struct {
		name string
		read func(*billingv1.LedgerSeal, string) ([]seal.Record, error)
	}{{"decoded whole", seal.ReadLink}, {"index fields", indexedRecords}} {
		b.Run(read.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := read.read(sl, billingv1.ZeroHash); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(objs)), "ns/record")
		})
	}
}
