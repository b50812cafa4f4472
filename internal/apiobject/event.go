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

// EventData holds the object the event is about (an Invoice, CreditNote,
// Payment, PeriodClose, LedgerSeal, CreditApplication, Refund or
// WriteOff), as GET answers it, and for invoice.reminder_sent the
// reminder.
type EventData struct {
	Object any `json:"object"`
	// Reminder is the reminder an invoice.reminder_sent event is about
	// (its object is the invoice reminded of); absent from other events.
	Reminder *EventReminder `json:"reminder,omitempty"`
}

// EventReminder is the payment reminder of an invoice.reminder_sent event:
// its days relative to the invoice's due date (negative before it), and
// the Message-ID of the message sent, as the invoice's deliveries show it.
type EventReminder struct {
	Days      int32  `json:"days"`
	MessageID string `json:"message_id"`
}

// reminderObject is what EventObject renders of a reminder's Email: the
// invoice reminded of and the reminder, which EventOf puts in data.object
// and data.reminder.
type reminderObject struct {
	invoice  any
	reminder EventReminder
}

// EventOf returns the event of sequence and type t of workspace, created
// at createdAt, about object (already rendered, by EventObject).
func EventOf(workspace string, sequence int64, t string, createdAt time.Time, object any) Event {
	data := EventData{Object: object}
	if r, ok := object.(reminderObject); ok {
		data = EventData{Object: r.invoice, Reminder: &r.reminder}
	}
	return Event{
		ID: fmt.Sprintf("evt-%s-%d", workspace, sequence), Object: "event", Sequence: sequence, Type: t,
		CreatedAt: timestamp(createdAt), Data: data,
	}
}

// InvoiceReader reads the invoice of a workspace by name, or nil when it
// cannot be read; rendering a credit note or payment may need it.
type InvoiceReader func(name string) *billingv1.Invoice

// EventObject renders the object an event is about (a *Invoice, *CreditNote,
// *Payment, *PeriodClose, *LedgerSeal, *CreditApplication, *Refund,
// *WriteOff or *Email of api/v1) as GET answers it; nil for another kind.
// invoice.reminder_sent is the event of a reminder's Email: it renders as
// the invoice reminded of (read with invoice, live or sealed; nil when it
// cannot be read) with the reminder beside it (EventOf). A period
// close (period.closed) shows as workspace_closed_through the moment the
// event closed the books through, its own closed_through; a seal
// (ledger.sealed) its name, sequence and hashes; invoice.marked_uncollectible
// is about the write-off that made the invoice uncollectible. invoice is
// asked only when the object's own status lacks what its representation
// needs (billing.CreditNoteNeedsInvoice, billing.PaymentNeedsInvoice,
// CreditApplicationNeedsInvoice, WriteOffNeedsInvoice). The adapter's
// /v1/events and the manager's webhooks both render events with it.
func EventObject(obj any, invoice InvoiceReader) any {
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
	case *billingv1.WriteOff:
		var inv *billingv1.Invoice
		if WriteOffNeedsInvoice(o) {
			inv = invoice(o.Spec.InvoiceRef.Name)
		}
		return WriteOffOf(o, inv)
	case *billingv1.Email:
		return reminderOf(o, invoice)
	default:
		return nil
	}
}

// reminderOf renders the event of e, a reminder's Email: the invoice it
// reminds of and the reminder.
func reminderOf(e *billingv1.Email, invoice InvoiceReader) any {
	r := reminderObject{reminder: EventReminder{MessageID: e.Status.MessageID}}
	if e.Spec.ReminderDays != nil {
		r.reminder.Days = *e.Spec.ReminderDays
	}
	if e.Spec.InvoiceRef != nil {
		if inv := invoice(e.Spec.InvoiceRef.Name); inv != nil {
			r.invoice = InvoiceOf(inv)
		}
	}
	return r
}
