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
	"cmp"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file holds the pure part of the allocator: what a new InvoiceSequence
// spec is, given the current one, what is known of the invoices its journal
// names, and the invoices asking for a sequence. It does no I/O.

// Invoice is one invoice asking for a sequence. The UID tells an invoice
// apart from one deleted and created again under the same name. In a
// workspace's event sequence an "invoice" is any object (invoice, credit
// note or payment) and Fact says which of its events asks: one object takes
// one sequence per fact.
type Invoice struct {
	Name string
	UID  types.UID
	// Fact is the event asking, in the event sequence; empty otherwise.
	Fact billingv1.EventType
	// After is the highest sequence of the facts this one depends on (0:
	// none). It takes no free entry at or below After, so that an event
	// never comes before the events it depends on. It is not part of the
	// invoice's identity.
	After int64
}

// id is inv without After: what identifies it in the journal.
func (inv Invoice) id() Invoice {
	inv.After = 0
	return inv
}

// Assignment is the sequence an invoice gets and the issue time (in UTC,
// whole seconds) that goes with it. Both are final: the caller writes them
// on the invoice as they are.
type Assignment struct {
	Sequence int64
	IssuedAt time.Time
}

// fate is what is known for sure about the invoice a journal entry names.
type fate int

const (
	// pending: the invoice may still take the entry's sequence; keep it.
	pending fate = iota
	// written: the invoice's status carries the entry's sequence; the
	// entry's work is done and it is trimmed.
	written
	// gone: the invoice can never take the entry's sequence (it was deleted,
	// or carries another sequence); the sequence is freed for the next one.
	gone
)

// InvoiceState is what a reader sees of an invoice: its UID and the sequence
// written on its status (0 while none is).
type InvoiceState struct {
	UID      types.UID
	Sequence int64
}

// fateOf decides an entry's fate from what a reader returned for its
// invoice. Only facts that can never be undone free a sequence: a UID other
// than the entry's (the invoice was deleted; UIDs are never reused), another
// sequence on the invoice (numbers never change once written), or, when the
// reader is authoritative (the API server, not a cache that may lag), no
// invoice at all.
func fateOf(entry billingv1.SequenceReservation, state InvoiceState, found, authoritative bool) fate {
	switch {
	case !found && authoritative:
		return gone
	case !found:
		return pending
	case string(state.UID) != entry.UID:
		return gone
	case state.Sequence == entry.Sequence:
		return written
	case state.Sequence != 0:
		return gone
	default:
		return pending
	}
}

// entryKey identifies a journal entry and the invoice it names, so that a
// fate learnt about one entry is never applied to another.
type entryKey struct {
	sequence int64
	invoice  string
	uid      string
	fact     billingv1.EventType
}

func keyOf(entry billingv1.SequenceReservation) entryKey {
	return entryKey{sequence: entry.Sequence, invoice: entry.Invoice, uid: entry.UID, fact: entry.Fact}
}

// plan is the outcome of planAssignments.
type plan struct {
	// spec is the new spec; changed says whether it differs from the old.
	spec    billingv1.InvoiceSequenceSpec
	changed bool
	// assigned holds each asking invoice's assignment; full lists those that
	// got none because the journal is full.
	assigned map[Invoice]Assignment
	full     []Invoice
}

// planAssignments computes the next InvoiceSequence spec from the current
// one:
//  1. entries whose fate is written are trimmed, entries whose fate is gone
//     become free (they keep their sequence and issue time, and lose their
//     invoice);
//  2. an asking invoice that the journal already names gets its entry again;
//  3. any other asking invoice takes the lowest free entry above its After,
//     else a new entry with sequence next (next then advances), issued at
//     the later of now and lastIssuedAt, while the journal has room for it.
//
// Every sequence below next stays either in the journal or written on an
// invoice, and no sequence is in the journal twice: no gap, no duplicate.
func planAssignments(current billingv1.InvoiceSequenceSpec, fates map[entryKey]fate, asking []Invoice,
	now time.Time, maxReserved int) plan {
	out := plan{spec: *current.DeepCopy(), assigned: make(map[Invoice]Assignment, len(asking))}
	spec := &out.spec

	reserved := spec.Reserved[:0]
	for _, entry := range spec.Reserved {
		if entry.Invoice == "" {
			reserved = append(reserved, entry)
			continue
		}
		switch fates[keyOf(entry)] {
		case written:
			out.changed = true
			continue
		case gone:
			entry.Invoice, entry.UID, entry.Fact = "", "", ""
			out.changed = true
		case pending:
		}
		reserved = append(reserved, entry)
	}
	spec.Reserved = reserved
	slices.SortFunc(spec.Reserved, func(a, b billingv1.SequenceReservation) int {
		return cmp.Compare(a.Sequence, b.Sequence)
	})

	issuedAt := metav1.NewTime(now.UTC().Truncate(time.Second))
	if spec.LastIssuedAt != nil && spec.LastIssuedAt.After(issuedAt.Time) {
		issuedAt = *spec.LastIssuedAt.DeepCopy()
	}
	bound := make(map[Invoice]int, len(spec.Reserved))
	var free []int // indexes of free entries, lowest sequence first
	for i, entry := range spec.Reserved {
		if entry.Invoice == "" {
			free = append(free, i)
		} else {
			bound[Invoice{Name: entry.Invoice, UID: types.UID(entry.UID), Fact: entry.Fact}] = i
		}
	}
	for _, asker := range asking {
		inv := asker.id()
		if _, done := out.assigned[inv]; done {
			continue
		}
		if i, ok := bound[inv]; ok {
			out.assigned[inv] = Assignment{Sequence: spec.Reserved[i].Sequence, IssuedAt: spec.Reserved[i].IssuedAt.UTC()}
			continue
		}
		if j := firstFreeAbove(spec.Reserved, free, asker.After); j >= 0 {
			i := free[j]
			free = slices.Delete(free, j, j+1)
			spec.Reserved[i].Invoice, spec.Reserved[i].UID, spec.Reserved[i].Fact = inv.Name, string(inv.UID), inv.Fact
			out.assigned[inv] = Assignment{Sequence: spec.Reserved[i].Sequence, IssuedAt: spec.Reserved[i].IssuedAt.UTC()}
			out.changed = true
			continue
		}
		if len(spec.Reserved) >= maxReserved {
			out.full = append(out.full, inv)
			continue
		}
		spec.Reserved = append(spec.Reserved, billingv1.SequenceReservation{
			Sequence: spec.Next, Invoice: inv.Name, UID: string(inv.UID), Fact: inv.Fact, IssuedAt: issuedAt,
		})
		out.assigned[inv] = Assignment{Sequence: spec.Next, IssuedAt: issuedAt.UTC()}
		spec.Next++
		spec.LastIssuedAt = issuedAt.DeepCopy()
		out.changed = true
	}
	if len(spec.Reserved) == 0 {
		spec.Reserved = nil
	}
	return out
}

// firstFreeAbove returns the index in free (indexes of free entries of
// reserved, lowest sequence first) of the first entry whose sequence is
// above after, or -1 when there is none.
func firstFreeAbove(reserved []billingv1.SequenceReservation, free []int, after int64) int {
	for j, i := range free {
		if reserved[i].Sequence > after {
			return j
		}
	}
	return -1
}
