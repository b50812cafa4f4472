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
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// These stories run the allocator against the real API server. Each works in
// a workspace of its own.

func TestConcurrentCallersOnTwoReplicasGetExactlyOneToNWithoutDuplicateOrGap(t *testing.T) {
	ns := newWorkspace(t)
	replicas := []*Allocator{newAllocator(t), newAllocator(t)}
	const invoices, workers = 240, 24

	var mu sync.Mutex
	assigned := map[string]int64{}
	errs := make(chan error, invoices)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			a := replicas[w%len(replicas)]
			for i := w; i < invoices; i += workers {
				inv := createInvoice(t, ns, fmt.Sprintf("inv-%03d", i))
				got, err := a.Assign(context.Background(), ns, inv.Name, inv.UID)
				if err != nil {
					errs <- fmt.Errorf("Assign(%s): %w", inv.Name, err)
					return
				}
				if err := writeNumber(inv, got.Sequence); err != nil {
					errs <- fmt.Errorf("writing %s: %w", inv.Name, err)
					return
				}
				mu.Lock()
				assigned[inv.Name] = got.Sequence
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	written := writtenSequences(t, ns)
	sequences := make([]int64, 0, len(written))
	for name, seq := range written {
		if assigned[name] != seq {
			t.Errorf("invoice %s carries %d but was assigned %d", name, seq, assigned[name])
		}
		sequences = append(sequences, seq)
	}
	slices.Sort(sequences)
	for i, seq := range sequences {
		if seq != int64(i+1) {
			t.Fatalf("sorted sequences break at index %d: got %d, want %d (all: %v)", i, seq, i+1, sequences)
		}
	}
	if len(sequences) != invoices {
		t.Fatalf("%d invoices carry a number, want %d", len(sequences), invoices)
	}

	if err := replicas[0].Trim(context.Background(), ns); err != nil {
		t.Fatalf("Trim: %v", err)
	}
	state := sequenceOf(t, ns)
	if state.Spec.Next != invoices+1 || len(state.Spec.Reserved) != 0 {
		t.Fatalf("after Trim the sequence has next %d and %d reservations, want next %d and none",
			state.Spec.Next, len(state.Spec.Reserved), invoices+1)
	}
}

func TestTheSameInvoiceAskedTwiceGetsTheSameNumberWithoutAWrite(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	inv := createInvoice(t, ns, "inv-a")

	first := assign(t, a, inv)
	version := sequenceOf(t, ns).ResourceVersion
	second := assign(t, a, inv)

	if first != second {
		t.Fatalf("second Assign = %+v, want the first one %+v", second, first)
	}
	if first.Sequence != 1 {
		t.Fatalf("the first invoice of a workspace got %d, want 1", first.Sequence)
	}
	if got := sequenceOf(t, ns).ResourceVersion; got != version {
		t.Fatalf("asking again wrote the sequence (resourceVersion %s -> %s)", version, got)
	}
}

func TestACrashBetweenReserveAndWriteGivesTheSameInvoiceTheSameNumber(t *testing.T) {
	ns := newWorkspace(t)
	first, second := createInvoice(t, ns, "inv-first"), createInvoice(t, ns, "inv-second")

	before := newAllocator(t)
	reservedFirst, reservedSecond := assign(t, before, first), assign(t, before, second)
	// The replica dies here: nothing is written on the invoices, and its
	// memory is gone. A new replica starts.
	after := newAllocator(t)

	if got := assign(t, after, second); got != reservedSecond {
		t.Fatalf("after the crash the second invoice got %+v, want %+v", got, reservedSecond)
	}
	if got := assign(t, after, first); got != reservedFirst {
		t.Fatalf("after the crash the first invoice got %+v, want %+v", got, reservedFirst)
	}
	if got := assign(t, after, createInvoice(t, ns, "inv-third")); got.Sequence != 3 {
		t.Fatalf("the next invoice after the crash got %d, want 3", got.Sequence)
	}
}

func TestAReservedInvoiceDeletedBeforeItsNumberWasWrittenGivesItsSequenceToTheNextInvoice(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	deleted, kept := createInvoice(t, ns, "inv-deleted"), createInvoice(t, ns, "inv-kept")
	orphan := assign(t, a, deleted)
	mustWriteNumber(t, kept, assign(t, a, kept).Sequence)
	deleteInvoice(t, deleted)

	if err := a.Trim(context.Background(), ns); err != nil {
		t.Fatalf("Trim: %v", err)
	}
	next := createInvoice(t, ns, "inv-next")
	got := assign(t, a, next)
	if got != orphan {
		t.Fatalf("the next invoice got %+v, want the orphaned %+v (sequence and issue time)", got, orphan)
	}
	mustWriteNumber(t, next, got.Sequence)
	if got := assign(t, a, createInvoice(t, ns, "inv-after")); got.Sequence != 3 {
		t.Fatalf("the invoice after got %d, want 3", got.Sequence)
	}
	if written := writtenSequences(t, ns); len(written) != 2 || written["inv-next"] != 1 || written["inv-kept"] != 2 {
		t.Fatalf("written numbers = %v, want inv-next 1 and inv-kept 2", written)
	}
}

func TestAnInvoiceCreatedAgainUnderADeletedInvoicesNameIsANewInvoice(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	deleted := createInvoice(t, ns, "inv-a")
	old := assign(t, a, deleted)
	deleteInvoice(t, deleted)
	again := createInvoice(t, ns, "inv-a")

	// The old invoice can never take its sequence, so it is free, and the
	// new invoice, the next to ask, takes it: bound to the new UID.
	got := assign(t, a, again)
	if got.Sequence != old.Sequence {
		t.Fatalf("the new invoice got %d, want the freed %d", got.Sequence, old.Sequence)
	}
	reserved := sequenceOf(t, ns).Spec.Reserved
	if len(reserved) != 1 || reserved[0].UID != string(again.UID) {
		t.Fatalf("journal = %+v, want one entry for UID %s", reserved, again.UID)
	}
	mustWriteNumber(t, again, got.Sequence)
	if got := assign(t, a, createInvoice(t, ns, "inv-b")); got.Sequence != 2 {
		t.Fatalf("the next invoice got %d, want 2", got.Sequence)
	}
}

func TestAStaleRequestForANumberedInvoiceDoesNotLeaveAGap(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	inv := createInvoice(t, ns, "inv-a")
	stale := inv.DeepCopy() // what a reconcile with an old cache still sees
	mustWriteNumber(t, inv, assign(t, a, inv).Sequence)
	if err := a.Trim(context.Background(), ns); err != nil {
		t.Fatalf("Trim: %v", err)
	}

	// The cache has the number by now: the stale request reserves nothing
	// and is told to read the invoice again.
	if _, err := a.Assign(context.Background(), stale.Namespace, stale.Name, stale.UID); !errors.Is(err, ErrStale) {
		t.Fatalf("the stale request: %v, want ErrStale", err)
	}
	if got := assign(t, a, createInvoice(t, ns, "inv-b")); got.Sequence != 2 {
		t.Fatalf("the next invoice got %d, want 2", got.Sequence)
	}
}

func TestWorkspacesAreNumberedIndependently(t *testing.T) {
	first, second := newWorkspace(t), newWorkspace(t)
	a := newAllocator(t)
	for i := range 3 {
		for _, ns := range []string{first, second} {
			got := assign(t, a, createInvoice(t, ns, fmt.Sprintf("inv-%d", i)))
			if got.Sequence != int64(i+1) {
				t.Fatalf("invoice %d of workspace %s got %d, want %d", i, ns, got.Sequence, i+1)
			}
		}
	}
}

func TestAFullJournalRefusesNewInvoicesUntilNumbersAreWritten(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t, withMaxReserved(2))
	first, second, third := createInvoice(t, ns, "inv-1"), createInvoice(t, ns, "inv-2"), createInvoice(t, ns, "inv-3")
	mustWriteNumber(t, first, assign(t, a, first).Sequence)
	assign(t, a, second)
	// The first number is written but its entry is only trimmed by the
	// next reservation: the journal holds two entries.
	if _, err := a.Assign(context.Background(), ns, third.Name, third.UID); err != nil {
		t.Fatalf("Assign with a written entry to trim: %v", err)
	}
	fourth := createInvoice(t, ns, "inv-4")
	if _, err := a.Assign(context.Background(), ns, fourth.Name, fourth.UID); !errors.Is(err, ErrJournalFull) {
		t.Fatalf("Assign on a full journal: %v, want ErrJournalFull", err)
	}
	if got := assign(t, a, second); got.Sequence != 2 {
		t.Fatalf("an invoice the full journal names got %d, want 2", got.Sequence)
	}
}

func TestIssueTimesNeverGoBackAlongTheSequenceWhenReplicasClocksDisagree(t *testing.T) {
	ns := newWorkspace(t)
	now := time.Now().UTC().Truncate(time.Second)
	ahead := newAllocator(t, withClock(func() time.Time { return now.Add(time.Hour) }))
	behind := newAllocator(t, withClock(func() time.Time { return now }))

	first := assign(t, ahead, createInvoice(t, ns, "inv-1"))
	second := assign(t, behind, createInvoice(t, ns, "inv-2"))
	if second.Sequence != first.Sequence+1 || second.IssuedAt.Before(first.IssuedAt) {
		t.Fatalf("sequence %d issued at %s follows sequence %d issued at %s", second.Sequence, second.IssuedAt,
			first.Sequence, first.IssuedAt)
	}
}

func TestAnInvoiceWithoutNamespaceNameOrUIDIsRefused(t *testing.T) {
	a := newAllocator(t)
	for _, tc := range []struct{ name, ns, invoice, uid string }{
		{name: "no namespace", invoice: "inv-a", uid: "u"},
		{name: "no name", ns: "ns", uid: "u"},
		{name: "no UID", ns: "ns", invoice: "inv-a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := a.Assign(context.Background(), tc.ns, tc.invoice, typesUID(tc.uid)); !errors.Is(err, ErrInvalidInvoice) {
				t.Fatalf("Assign: %v, want ErrInvalidInvoice", err)
			}
		})
	}
}

func TestACallerThatStopsWaitingStillLeavesABindingReservation(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	inv := createInvoice(t, ns, "inv-a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Assign(ctx, ns, inv.Name, inv.UID); !errors.Is(err, context.Canceled) {
		t.Fatalf("Assign with a cancelled context: %v, want context.Canceled", err)
	}
	if got := assign(t, newAllocator(t), inv); got.Sequence != 1 {
		t.Fatalf("the invoice got %d, want 1", got.Sequence)
	}
	if got := assign(t, a, createInvoice(t, ns, "inv-b")); got.Sequence != 2 {
		t.Fatalf("the next invoice got %d, want 2", got.Sequence)
	}
}

func TestTheAPIServerRefusesAnInvoiceSequenceThatBreaksItsInvariants(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t)
	assign(t, a, createInvoice(t, ns, "inv-a"))
	assign(t, a, createInvoice(t, ns, "inv-b"))

	cases := []struct {
		name   string
		change func(*billingv1.InvoiceSequenceSpec)
		want   string
	}{
		{name: "next going back", change: func(s *billingv1.InvoiceSequenceSpec) { s.Next = 2 },
			want: "next never decreases"},
		{name: "a reservation at or above next", change: func(s *billingv1.InvoiceSequenceSpec) {
			s.Reserved = append(s.Reserved, billingv1.SequenceReservation{Sequence: 3, IssuedAt: s.Reserved[0].IssuedAt})
		}, want: "every reserved sequence is below next"},
		{name: "one sequence reserved twice", change: func(s *billingv1.InvoiceSequenceSpec) {
			s.Reserved = append(s.Reserved, billingv1.SequenceReservation{Sequence: 1, Invoice: "inv-c", UID: "c",
				IssuedAt: s.Reserved[0].IssuedAt})
		}, want: "Duplicate value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seq := sequenceOf(t, ns)
			tc.change(&seq.Spec)
			err := k8s.Update(context.Background(), seq)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Update: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func TestThePeriodicTrimFreesTheSequenceOfADeletedInvoiceByItself(t *testing.T) {
	ns := newWorkspace(t)
	a := newAllocator(t, func(o *Options) { o.TrimInterval = 100 * time.Millisecond })
	deleted := createInvoice(t, ns, "inv-deleted")
	assign(t, a, deleted)
	deleteInvoice(t, deleted)

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- a.Start(ctx) }()
	defer func() {
		cancel()
		if err := <-stopped; err != nil {
			t.Errorf("Start: %v", err)
		}
	}()

	deadline := time.Now().Add(10 * time.Second)
	for {
		reserved := sequenceOf(t, ns).Spec.Reserved
		if len(reserved) == 1 && reserved[0].Invoice == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("journal = %+v, want the deleted invoice's sequence free", reserved)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := assign(t, a, createInvoice(t, ns, "inv-next")); got.Sequence != 1 {
		t.Fatalf("the next invoice got %d, want the freed 1", got.Sequence)
	}
}
