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
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// finishIntake ends a benchmark's intake as the store's sync does: the
// names deferred while warming are merged.
func finishIntake(s *Store) { s.mergeDeferredNames() }

// sealedKinds are the sealed records the index-field tests take in: one
// of each kind a seal holds, every field the indexes read set, and
// others beside.
func sealedKinds() []client.Object {
	inv, pay := benchFamily(7)
	inv.Labels[billingv1.LabelSchedule] = "isch-monthly"
	inv.Status.Balance.Overdue = true
	inv.Status.Balance.PaymentStatus = billingv1.InvoicePaymentPartiallyPaid
	unpaid, _ := benchFamily(8)
	unpaid.Status.Balance = nil // an invoice issued before balances: its total decides
	pending, _ := benchFamily(9)
	pending.Status.Phase = ""
	pending.Status.Sequence = nil
	at := metav1.Unix(1_800_000_000, 0)
	events := []billingv1.RecordedEvent{{Type: billingv1.EventTypeCreditApplied, Sequence: 41, CreatedAt: at}}
	return []client.Object{inv, pay, unpaid, pending,
		&billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: "ws"},
			Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Reason: "a \"quoted\" {reason}"},
			Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, CustomerName: "cus-007",
				Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypeCreditNoteIssued, Sequence: 40, CreatedAt: at}}}},
		&billingv1.CreditApplication{ObjectMeta: metav1.ObjectMeta{Name: "capp-1", Namespace: "ws"},
			Spec:   billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}},
			Status: billingv1.CreditApplicationStatus{CustomerName: "cus-007", Events: events}},
		&billingv1.Refund{ObjectMeta: metav1.ObjectMeta{Name: "rf-1", Namespace: "ws"},
			Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: "cus-007"}},
			Status: billingv1.RefundStatus{Events: []billingv1.RecordedEvent{
				{Type: billingv1.EventTypeRefundRecorded, Sequence: 42, CreatedAt: at}}}},
		&billingv1.WriteOff{ObjectMeta: metav1.ObjectMeta{Name: "wo-1", Namespace: "ws"},
			Spec: billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}},
			Status: billingv1.WriteOffStatus{CustomerName: "cus-007", Events: []billingv1.RecordedEvent{
				{Type: billingv1.EventTypeInvoiceMarkedUncollectible, Sequence: 43, CreatedAt: at}}}},
		&billingv1.Email{ObjectMeta: metav1.ObjectMeta{Name: "em-1", Namespace: "ws"},
			Spec: billingv1.EmailSpec{InvoiceRef: &billingv1.InvoiceReference{Name: inv.Name}},
			Status: billingv1.EmailStatus{Events: []billingv1.RecordedEvent{
				{Type: billingv1.EventTypeInvoiceReminderSent, Sequence: 44, CreatedAt: at}}}},
	}
}

// indexed spells what the indexes make of obj of kind k: its sets, its
// invoice sequence and its events' types and sequences.
func indexed(k *kind, obj client.Object) string {
	_, seq := sequenceOf(obj)
	_, name, events := recordedEvents(obj)
	var spelled []string
	for _, e := range events {
		spelled = append(spelled, fmt.Sprintf("%s@%d", e.Type, e.Sequence))
	}
	return fmt.Sprintf("%s/%s sets %v sequence %d events %v", obj.GetNamespace(), name, k.sets(obj), seq, spelled)
}

func TestTheIndexesMakeOfASealedRecordsFieldsWhatTheyMakeOfTheWholeRecord(t *testing.T) {
	s := New(nil, nil, Options{})
	for _, obj := range sealedKinds() {
		line, err := seal.Line(obj)
		if err != nil {
			t.Fatal(err)
		}
		records, err := seal.Records(line)
		if err != nil {
			t.Fatal(err)
		}
		whole := records[0].Object
		k := s.kinds[reflect.TypeOf(whole)]
		fields, err := seal.Indexed(recordkind.Of(whole), line)
		if err != nil {
			t.Fatalf("%s: %v", obj.GetName(), err)
		}
		if got, want := indexed(k, fields), indexed(k, whole); got != want {
			t.Errorf("from the fields: %s\nfrom the record: %s", got, want)
		}
	}
}

func TestTheScannerReadsTheFieldsWhateverSurroundsThem(t *testing.T) {
	for _, tc := range []struct {
		name, line, want string
	}{
		{"white space between every token",
			` { "kind" : "Payment" , "metadata" : { "name" : "pay-1" , "namespace" : "ws" } , "spec" : { "invoiceRef" : { "name" : "inv-1" } } , "status" : { "customerName" : "cus-1" , "events" : [ { "type" : "payment.recorded" , "sequence" : 7 } ] } } `,
			`ws/pay-1 sets [ws ws|invoice=inv-1 ws/cus-1 ws/cus-1|invoice=inv-1] sequence 0 events [payment.recorded@7]`},
		{"brackets, quotes and escapes in the strings skipped",
			`{"metadata":{"name":"pay-1","namespace":"ws","annotations":{"a":"}]\"{["}},"spec":{"method":"x\\\"}","invoiceRef":{"name":"inv-1"}},"status":{"customerName":"cus-1"}}`,
			`ws/pay-1 sets [ws ws|invoice=inv-1 ws/cus-1 ws/cus-1|invoice=inv-1] sequence 0 events []`},
		{"an escaped name and key",
			`{"metadata":{"n\u0061me":"pay-\u0031","namespace":"ws"},"spec":{"invoiceRef":null},"status":{"events":null}}`,
			`ws/pay-1 sets [ws] sequence 0 events []`},
		{"the last of a key given twice",
			`{"metadata":{"name":"pay-0","name":"pay-1","namespace":"ws"},"status":{"customerName":"cus-1"}}`,
			`ws/pay-1 sets [ws ws/cus-1] sequence 0 events []`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(nil, nil, Options{})
			obj, err := seal.Indexed(&recordkind.Payment, []byte(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			if got := indexed(s.kinds[reflect.TypeOf(obj)], obj); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			var whole billingv1.Payment
			if err := json.Unmarshal([]byte(tc.line), &whole); err != nil {
				t.Fatal(err)
			}
			if got, want := indexed(s.kinds[reflect.TypeOf(obj)], obj), indexed(s.kinds[reflect.TypeOf(obj)], &whole); got != want {
				t.Errorf("encoding/json reads %s", want)
			}
		})
	}
}

func TestALineThatIsNotAnObjectIsAnError(t *testing.T) {
	for _, line := range []string{``, `[]`, `{"metadata":`, `{"metadata":{"name":"a"}`, `{"a" 1}`, `{"a":"b}`, `{"a":1 "b":2}`} {
		if _, err := seal.Indexed(&recordkind.Payment, []byte(line)); err == nil {
			t.Errorf("%q: no error", line)
		}
	}
}

func TestChunksCoverEveryRecordInWholeBlocks(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 2}, {1, 1}, {1000, 2}, {5332, 2}, {5332, 8}, {5333, 3}, {100000, 1}} {
		next := 0
		for i, c := range chunks(tc.n, tc.workers) {
			if c.from != next || c.to <= c.from || (c.to != tc.n && (c.to-c.from)%blockRecords != 0) {
				t.Errorf("%d records, %d workers: chunk %d is %v", tc.n, tc.workers, i, c)
			}
			next = c.to
		}
		if next != tc.n {
			t.Errorf("%d records, %d workers: the chunks end at %d", tc.n, tc.workers, next)
		}
	}
}

func TestAnIndexThatDefersItsMergesAnswersAsOneThatMergesAtOnce(t *testing.T) {
	steps := []func(x *nameIndex){
		func(x *nameIndex) { x.add("inv-5", "ws", "ws/open") },
		func(x *nameIndex) {
			x.moveAll([]nameMove{{name: "inv-3", to: []string{"ws", "ws/paid"}}, {name: "inv-1", to: []string{"ws"}}})
		},
		func(x *nameIndex) {
			x.moveAll([]nameMove{{name: "inv-5", from: []string{"ws", "ws/open"}, to: []string{"ws", "ws/paid"}}})
		},
		func(x *nameIndex) { x.moveAll([]nameMove{{name: "inv-2", to: []string{"ws", "ws/paid"}}}) },
		func(x *nameIndex) { x.remove("inv-2", "ws/paid") },
		func(x *nameIndex) { x.moveAll([]nameMove{{name: "inv-3", to: []string{"ws", "ws/paid"}}}) },
		func(x *nameIndex) { x.add("inv-0", "ws") },
		func(x *nameIndex) { x.add("inv-6", "ws", "ws/open") },
		func(x *nameIndex) { x.remove("inv-0", "ws") },
		func(x *nameIndex) { x.moveAll([]nameMove{{name: "inv-4", to: []string{"ws", "ws/void"}}}) },
	}
	eager, deferring := newNameIndex(), newNameIndex()
	deferring.deferMerges()
	for i, step := range steps {
		step(eager)
		step(deferring)
		if i%2 == 1 { // a read between some steps merges its set's deferred names only
			if got, want := deferring.after("ws/paid", "", 10), eager.after("ws/paid", "", 10); !slices.Equal(got, want) {
				t.Errorf("after step %d, ws/paid holds %q, want %q", i, got, want)
			}
		}
	}
	deferring.mergeDeferred()
	for _, set := range []string{"ws", "ws/open", "ws/paid", "ws/void"} {
		if got, want := deferring.after(set, "", 10), eager.after(set, "", 10); !slices.Equal(got, want) {
			t.Errorf("set %s holds %q, want %q", set, got, want)
		}
	}
	if len(deferring.unsorted) != 0 || deferring.deferring {
		t.Errorf("still deferring: %v", deferring.unsorted)
	}
}

func TestAWarmingIndexMergesANameThatSortsBeforeItsSetsLastOnlyWhenTheSetIsRead(t *testing.T) {
	x := newNameIndex()
	x.deferMerges()
	x.add("inv-5", "ws")
	x.add("inv-7", "ws")
	x.add("inv-6", "ws")
	x.add("inv-1", "ws")
	if got := x.unsorted["ws"]; !slices.Equal(got, []string{"inv-6", "inv-1"}) {
		t.Errorf("the names deferred are %q, want the two that sort before inv-7", got)
	}
	x.remove("inv-6", "ws")
	if got, want := x.after("ws", "", 10), []string{"inv-1", "inv-5", "inv-7"}; !slices.Equal(got, want) {
		t.Errorf("ws holds %q, want %q", got, want)
	}
}

func TestTheSealedRecordsReadLastStayDecodedUpToTheLimit(t *testing.T) {
	var lines [][]byte
	for i := range 4 {
		inv, _ := benchFamily(i)
		line, err := seal.Line(inv)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	blocks, err := compressBlocks(lines)
	if err != nil {
		t.Fatal(err)
	}
	refs := make([]*sealedRef, len(lines))
	for i := range refs {
		refs[i] = &sealedRef{block: blocks[i], index: i, seal: "seal-000001"}
	}
	c := newDecodedRecords(2)
	read := func(i int) client.Object {
		t.Helper()
		obj, err := c.record(refs[i])
		if err != nil {
			t.Fatal(err)
		}
		if obj.GetName() != fmt.Sprintf("inv-%010d", i) || sealedIn(obj) != "seal-000001" {
			t.Fatalf("record %d reads as %s in %q", i, obj.GetName(), sealedIn(obj))
		}
		return obj
	}
	first := read(0)
	read(1)
	if read(0) != first {
		t.Error("a record read again was decoded again")
	}
	read(2) // evicts 1, read least recently
	if _, kept := c.get(refs[1]); kept {
		t.Error("the record read least recently stayed")
	}
	if _, kept := c.get(refs[0]); !kept {
		t.Error("a record read recently was evicted")
	}
	c.forget(refs[0])
	if read(0) == first {
		t.Error("a forgotten record was served from the cache")
	}
	if newDecodedRecords(-1) != nil {
		t.Error("a negative limit keeps records")
	}
}
