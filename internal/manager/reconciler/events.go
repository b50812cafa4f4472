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

package reconciler

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
)

// The workspace's event sequence (docs/events.md): each fact about an
// invoice, credit note or payment takes a sequence of the workspace's
// "events" series once, and the sequence is written on the status of the
// object the fact is about (status.events), in the same status patch as
// the fact itself where the fact is the controller's own write (an
// invoice's number, a credit note's number, a payment recorded), else by
// the invoice reconciler as soon as it observes the fact (paid, voided,
// overdue). A fact asks for its sequence only once the facts it depends on
// carry theirs, and names the highest of them (after), so an event never
// comes before them.

// EventNumberer hands out the sequences of the workspace's event sequence:
// numbering.Allocator's AssignFact, on the allocator whose Sequence is
// billingv1.EventSequenceName.
type EventNumberer interface {
	AssignFact(ctx context.Context, namespace, name string, uid types.UID,
		fact billingv1.EventType, after int64) (numbering.Assignment, error)
}

// RetryEvents is how long an invoice waits for the credit notes and
// payments of its ledger to carry their events before its invoice.paid or
// invoice.voided takes a sequence.
const RetryEvents = 250 * time.Millisecond

// withEvent returns events with the event of type t at the assignment's
// sequence and time, unless events already hold one of type t.
func withEvent(events []billingv1.RecordedEvent, t billingv1.EventType, a numbering.Assignment) []billingv1.RecordedEvent {
	if billingv1.FindEvent(events, t) != nil {
		return events
	}
	out := make([]billingv1.RecordedEvent, 0, len(events)+1)
	out = append(out, events...)
	return append(out, billingv1.RecordedEvent{Type: t, Sequence: a.Sequence, CreatedAt: metav1.NewTime(a.IssuedAt)})
}

// RecordFact returns events with obj's event of type t, which comes after
// the event sequence after, as numberer assigns it: binding to obj's name
// and uid, so a retry gets the same one.
func RecordFact(ctx context.Context, numberer EventNumberer, obj client.Object, t billingv1.EventType, after int64,
	events []billingv1.RecordedEvent) ([]billingv1.RecordedEvent, error) {
	assignment, err := numberer.AssignFact(ctx, obj.GetNamespace(), obj.GetName(), obj.GetUID(), t, after)
	if err != nil {
		return events, fmt.Errorf("assigning the %s event: %w", t, err)
	}
	return withEvent(events, t, assignment), nil
}

// EventSequence is the sequence of the event of type t in events, or 0.
func EventSequence(events []billingv1.RecordedEvent, t billingv1.EventType) int64 {
	if e := billingv1.FindEvent(events, t); e != nil {
		return e.Sequence
	}
	return 0
}

// InvoiceFactsDue returns the facts an invoice with status has reached
// whose events it does not carry yet, in the order they take sequences:
// invoice.issued once it is numbered, then invoice.voided, invoice.paid
// and invoice.overdue as its balance says. Each fact is recorded once:
// an invoice paid, voided or overdue once keeps its event when its balance
// changes again.
func InvoiceFactsDue(status *billingv1.InvoiceStatus) []billingv1.EventType {
	if status.Phase != billingv1.InvoiceIssued || status.Sequence == nil {
		return nil
	}
	reached := []billingv1.EventType{billingv1.EventTypeInvoiceIssued}
	if b := status.Balance; b != nil {
		switch b.PaymentStatus {
		case billingv1.InvoicePaymentVoid:
			reached = append(reached, billingv1.EventTypeInvoiceVoided)
		case billingv1.InvoicePaymentPaid:
			reached = append(reached, billingv1.EventTypeInvoicePaid)
		case billingv1.InvoicePaymentPartiallyPaid, billingv1.InvoicePaymentOpen, billingv1.InvoicePaymentUncollectible:
			// An invoice written off carries no fact of its own: the
			// write-off's invoice.marked_uncollectible is it.
		}
		if b.Overdue {
			reached = append(reached, billingv1.EventTypeInvoiceOverdue)
		}
	}
	var due []billingv1.EventType
	for _, t := range reached {
		if billingv1.FindEvent(status.Events, t) == nil {
			due = append(due, t)
		}
	}
	return due
}

// DependsOnLedger reports whether fact t is caused by the invoice's credit
// notes and payments, whose events must come first.
func DependsOnLedger(t billingv1.EventType) bool {
	return t == billingv1.EventTypeInvoicePaid || t == billingv1.EventTypeInvoiceVoided
}
