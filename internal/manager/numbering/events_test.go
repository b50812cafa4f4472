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
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// newEventAllocator returns the allocator of the workspaces' event
// sequence, reading the facts' sequences from the objects' status.events.
func newEventAllocator(tb testing.TB) *Allocator {
	tb.Helper()
	return newAllocator(tb, withSequence(billingv1.EventSequenceName), func(o *Options) {
		o.Cached, o.Live = EventReader(k8s), EventReader(k8s)
	})
}

// assignFact asks a for the sequence of inv's fact and fails the test on an error.
func assignFact(tb testing.TB, a *Allocator, inv *billingv1.Invoice, fact billingv1.EventType, after int64) Assignment {
	tb.Helper()
	got, err := a.AssignFact(context.Background(), inv.Namespace, inv.Name, inv.UID, fact, after)
	if err != nil {
		tb.Fatalf("AssignFact(%s, %s): %v", inv.Name, fact, err)
	}
	return got
}

// writeEvent records the event on inv's status, as the controllers do.
func writeEvent(tb testing.TB, inv *billingv1.Invoice, fact billingv1.EventType, got Assignment) {
	tb.Helper()
	inv.Status.Events = append(inv.Status.Events,
		billingv1.RecordedEvent{Type: fact, Sequence: got.Sequence, CreatedAt: metav1.NewTime(got.IssuedAt)})
	if err := k8s.Status().Update(context.Background(), inv); err != nil {
		tb.Fatalf("writing event %s on %s: %v", fact, inv.Name, err)
	}
}

func TestTheFactsOfOneInvoiceEachTakeTheirOwnEventSequenceBindingAcrossARestart(t *testing.T) {
	ns := newWorkspace(t)
	a := newEventAllocator(t)
	inv := createInvoice(t, ns, "a")
	issued := assignFact(t, a, inv, billingv1.EventTypeInvoiceIssued, 0)
	writeEvent(t, inv, billingv1.EventTypeInvoiceIssued, issued)
	paid := assignFact(t, a, inv, billingv1.EventTypeInvoicePaid, issued.Sequence)
	if issued.Sequence != 1 || paid.Sequence != 2 {
		t.Fatalf("issued %d and paid %d, want 1 and 2", issued.Sequence, paid.Sequence)
	}
	// A new allocator (a restarted manager) gives the fact reserved before
	// the crash the same sequence, and asks nothing new of the written one.
	restarted := newEventAllocator(t)
	if again := assignFact(t, restarted, inv, billingv1.EventTypeInvoicePaid, issued.Sequence); again.Sequence != paid.Sequence {
		t.Fatalf("after a restart invoice.paid got %d, want %d", again.Sequence, paid.Sequence)
	}
	writeEvent(t, inv, billingv1.EventTypeInvoicePaid, paid)
	if err := restarted.Trim(context.Background(), ns); err != nil {
		t.Fatalf("Trim: %v", err)
	}
	events := &billingv1.InvoiceSequence{}
	key := types.NamespacedName{Namespace: ns, Name: billingv1.EventSequenceName}
	if err := k8s.Get(context.Background(), key, events); err != nil {
		t.Fatalf("reading the event sequence: %v", err)
	}
	if events.Spec.Next != 3 || len(events.Spec.Reserved) != 0 {
		t.Fatalf("event sequence %+v, want next 3 and an empty journal", events.Spec)
	}
}

func TestAFreedEventSequenceGoesToAFactThatDependsOnNothingBelowIt(t *testing.T) {
	ns := newWorkspace(t)
	a := newEventAllocator(t)
	gone := createInvoice(t, ns, "gone")
	first := assignFact(t, a, gone, billingv1.EventTypeInvoiceIssued, 0)
	kept := createInvoice(t, ns, "kept")
	issued := assignFact(t, a, kept, billingv1.EventTypeInvoiceIssued, 0)
	writeEvent(t, kept, billingv1.EventTypeInvoiceIssued, issued)
	deleteInvoice(t, gone)
	if err := a.Trim(context.Background(), ns); err != nil {
		t.Fatalf("Trim: %v", err)
	}
	// Sequence 1 is free: a fact after sequence 2 cannot take it...
	paid := assignFact(t, a, kept, billingv1.EventTypeInvoicePaid, issued.Sequence)
	if paid.Sequence != 3 {
		t.Fatalf("invoice.paid after %d got %d, want 3", issued.Sequence, paid.Sequence)
	}
	// ...and the next invoice.issued, which depends on nothing, does.
	next := createInvoice(t, ns, "next")
	if got := assignFact(t, a, next, billingv1.EventTypeInvoiceIssued, 0); got.Sequence != first.Sequence {
		t.Fatalf("the next invoice.issued got %d, want the freed %d", got.Sequence, first.Sequence)
	}
}
