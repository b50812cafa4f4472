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

package apiobject

import (
	"fmt"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Event is one event of a workspace's event sequence, as GET /v1/events
// answers it.
type Event struct {
	// ID is "evt-<workspace>-<sequence>".
	ID        string    `json:"id"`
	Object    string    `json:"object"`
	Sequence  int64     `json:"sequence"`
	Type      string    `json:"type"`
	CreatedAt string    `json:"created_at"`
	Data      EventData `json:"data"`
}

// EventData holds the object the event is about, as GET answers it: an
// Invoice (every invoice.* event), CreditNote, Payment, PeriodClose,
// LedgerSeal, CreditApplication or Refund; beside it, for
// invoice.reminder_sent the reminder and for invoice.marked_uncollectible
// the write-off.
type EventData struct {
	Object any `json:"object"`
	// Reminder is the reminder an invoice.reminder_sent event is about
	// (its object is the invoice reminded of); absent from other events.
	Reminder *EventReminder `json:"reminder,omitempty"`
	// WriteOff is the write-off an invoice.marked_uncollectible event is
	// about (its object is the invoice written off); absent from other
	// events.
	WriteOff *WriteOff `json:"write_off,omitempty"`
}

// EventReminder is the payment reminder of an invoice.reminder_sent event:
// its days relative to the invoice's due date (negative before it), and
// the Message-ID of the message sent, as the invoice's deliveries show it.
type EventReminder struct {
	Days      int32  `json:"days"`
	MessageID string `json:"message_id"`
}

// EventOf returns the event of sequence and type t of workspace, created
// at createdAt, with data (rendered by EventDataOf).
func EventOf(workspace string, sequence int64, t string, createdAt time.Time, data EventData) Event {
	return Event{
		ID: fmt.Sprintf("evt-%s-%d", workspace, sequence), Object: "event", Sequence: sequence, Type: t,
		CreatedAt: timestamp(createdAt), Data: data,
	}
}

// InvoiceReader reads the invoice of a workspace by name, or nil when it
// cannot be read; rendering a credit note or payment may need it.
type InvoiceReader func(name string) *billingv1.Invoice

// EventDataOf renders the data of the event about obj (a *Invoice,
// *CreditNote, *Payment, *PeriodClose, *LedgerSeal, *CreditApplication,
// *Refund, *WriteOff or *Email of api/v1), its object as GET answers it;
// no object for another kind. Every invoice.* event has the invoice as
// its object, as GET /v1/invoices/{id} answers it now: those recorded on
// the invoice, and the two recorded on another object, which comes beside
// it. invoice.reminder_sent is the event of a reminder's Email: the
// invoice reminded of, with the reminder (data.reminder);
// invoice.marked_uncollectible the event of a WriteOff: the invoice
// written off, with the write-off (data.write_off). Their invoice is read
// with invoice (live or sealed; no object when it cannot be read). A
// period close (period.closed) shows as workspace_closed_through the
// moment the event closed the books through, its own closed_through; a
// seal (ledger.sealed) its name, sequence and hashes. Other records ask
// invoice only when their own status lacks what their representation
// needs (billing.CreditNoteNeedsInvoice, billing.PaymentNeedsInvoice,
// CreditApplicationNeedsInvoice). The adapter's /v1/events and the
// manager's webhooks both render events with it.
func EventDataOf(obj any, invoice InvoiceReader) EventData {
	switch o := obj.(type) {
	case *billingv1.WriteOff:
		return writeOffData(o, invoice)
	case *billingv1.Email:
		return reminderData(o, invoice)
	default:
		return EventData{Object: recordObject(obj, invoice)}
	}
}

// recordObject renders obj, the record an event is about that is its
// data.object itself; nil for another kind.
func recordObject(obj any, invoice InvoiceReader) any {
	switch o := obj.(type) {
	case *billingv1.Invoice:
		return InvoiceOf(o)
	case *billingv1.CreditNote:
		var inv *billingv1.Invoice
		if billing.CreditNoteNeedsInvoice(&o.Status) {
			inv = invoice(o.Spec.InvoiceRef.Name)
		}
		return CreditNoteOf(o, inv)
	case *billingv1.Payment:
		var inv *billingv1.Invoice
		if billing.PaymentNeedsInvoice(o) {
			inv = invoice(o.Spec.InvoiceRef.Name)
		}
		return PaymentOf(o, inv)
	case *billingv1.PeriodClose:
		return PeriodCloseOf(o, closedThroughOfEvent(o))
	case *billingv1.LedgerSeal:
		return SealOf(o)
	case *billingv1.CreditApplication:
		var inv *billingv1.Invoice
		if CreditApplicationNeedsInvoice(o) {
			inv = invoice(o.Spec.InvoiceRef.Name)
		}
		return CreditApplicationOf(o, inv)
	case *billingv1.Refund:
		return RefundOf(o)
	default:
		return nil
	}
}

// writeOffData renders the event of wo, invoice.marked_uncollectible: the
// invoice written off and the write-off.
func writeOffData(wo *billingv1.WriteOff, invoice InvoiceReader) EventData {
	inv := invoice(wo.Spec.InvoiceRef.Name)
	w := WriteOffOf(wo, inv)
	data := EventData{WriteOff: &w}
	if inv != nil {
		data.Object = InvoiceOf(inv)
	}
	return data
}

// reminderData renders the event of e, a reminder's Email,
// invoice.reminder_sent: the invoice it reminds of and the reminder.
func reminderData(e *billingv1.Email, invoice InvoiceReader) EventData {
	r := EventReminder{MessageID: e.Status.MessageID}
	if e.Spec.ReminderDays != nil {
		r.Days = *e.Spec.ReminderDays
	}
	data := EventData{Reminder: &r}
	if e.Spec.InvoiceRef != nil {
		if inv := invoice(e.Spec.InvoiceRef.Name); inv != nil {
			data.Object = InvoiceOf(inv)
		}
	}
	return data
}
