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

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The events of a workspace: one gapless sequence 1, 2, 3, ... shared by
// its invoices, credit notes and payments, assigned to each fact once, in
// the order the facts became final. An event is not an object of its own:
// its sequence is recorded in status.events of the object it is about, and
// the HTTP API derives the event from that object (docs/events.md).

// EventSequenceName is the name of the InvoiceSequence that holds a
// workspace's event sequence.
const EventSequenceName = "events"

// EventType is a fact about an invoice, credit note or payment that takes
// a sequence in the workspace's event sequence.
// +kubebuilder:validation:Enum=invoice.issued;invoice.paid;invoice.voided;invoice.overdue;credit_note.issued;payment.recorded;period.closed;ledger.sealed;credit.applied;refund.recorded;invoice.marked_uncollectible;invoice.reminder_sent;invoice_schedule.completed;invoice_schedule.stalled;bank_transaction.matched;bank_transaction.unmatched
type EventType string

const (
	// EventTypeInvoiceIssued is an invoice taking its number.
	EventTypeInvoiceIssued EventType = EventInvoiceIssued
	// EventTypeInvoicePaid is an invoice's payment status becoming paid,
	// through a payment or a credit note.
	EventTypeInvoicePaid EventType = "invoice.paid"
	// EventTypeInvoiceVoided is an invoice's payment status becoming void.
	EventTypeInvoiceVoided EventType = "invoice.voided"
	// EventTypeInvoiceOverdue is an invoice becoming overdue.
	EventTypeInvoiceOverdue EventType = "invoice.overdue"
	// EventTypeCreditNoteIssued is a credit note taking its number.
	EventTypeCreditNoteIssued EventType = "credit_note.issued"
	// EventTypePaymentRecorded is a payment being recorded.
	EventTypePaymentRecorded EventType = "payment.recorded"
	// EventTypePeriodClosed is a PeriodClose moving the workspace's
	// closed_through forward.
	EventTypePeriodClosed EventType = "period.closed"
	// EventTypeLedgerSealed is a LedgerSeal joining the workspace's hash
	// chain.
	EventTypeLedgerSealed EventType = "ledger.sealed"
	// EventTypeCreditApplied is a CreditApplication entering its invoice's
	// ledger: some of the customer's credit applied to the invoice.
	EventTypeCreditApplied EventType = "credit.applied"
	// EventTypeRefundRecorded is a Refund being recorded: money paid back
	// to the customer out of its credit.
	EventTypeRefundRecorded EventType = "refund.recorded"
	// EventTypeInvoiceMarkedUncollectible is a WriteOff entering its
	// invoice's ledger: what remained of the invoice written off.
	EventTypeInvoiceMarkedUncollectible EventType = "invoice.marked_uncollectible"
	// EventTypeInvoiceReminderSent is a payment reminder about an invoice
	// accepted by the SMTP server; the event is the reminder's Email's.
	EventTypeInvoiceReminderSent EventType = "invoice.reminder_sent"
	// EventTypeInvoiceScheduleCompleted is an InvoiceSchedule reaching its
	// end: every period issued or skipped.
	EventTypeInvoiceScheduleCompleted EventType = "invoice_schedule.completed"
	// EventTypeInvoiceScheduleStalled is an InvoiceSchedule stalling for
	// the first time: it issues nothing until what its Stalled condition
	// names is mended. Later stalls show in its conditions only.
	EventTypeInvoiceScheduleStalled EventType = "invoice_schedule.stalled"
	// EventTypeBankTransactionMatched is a BankTransaction matched to the
	// invoice it pays, by the controller or by hand; its Payment records
	// payment.recorded as every payment does.
	EventTypeBankTransactionMatched EventType = "bank_transaction.matched"
	// EventTypeBankTransactionUnmatched is a credit no rule matched: a
	// person has to match it.
	EventTypeBankTransactionUnmatched EventType = "bank_transaction.unmatched"
)

// RecordedEvent is one event about the object whose status holds it.
type RecordedEvent struct {
	// type is the fact.
	// +required
	Type EventType `json:"type"`

	// sequence is the event's place in the workspace's event sequence,
	// 1 or more.
	// +required
	// +kubebuilder:validation:Minimum=1
	Sequence int64 `json:"sequence"`

	// createdAt is when the event's sequence was assigned. Times never
	// decrease along the sequence.
	// +required
	CreatedAt metav1.Time `json:"createdAt"`
}

// FindEvent returns the event of type t in events, or nil.
func FindEvent(events []RecordedEvent, t EventType) *RecordedEvent {
	for i := range events {
		if events[i].Type == t {
			return &events[i]
		}
	}
	return nil
}
