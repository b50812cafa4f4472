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
	"github.com/invoicing-dev/invoicing/internal/recordkind"
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
// LedgerSeal, CreditApplication, Refund, InvoiceSchedule or BankTransaction;
// beside it, for
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
// *Refund, *WriteOff, *Email, *InvoiceSchedule or *BankTransaction of
// api/v1), its object
// as GET answers it;
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
	render, ok := eventData[recordkind.Of(obj)]
	if !ok {
		return EventData{}
	}
	return render(obj, invoice)
}

// eventData renders the data of the event about an object of each kind of
// internal/recordkind that carries events.
var eventData = map[*recordkind.Kind]func(obj any, invoice InvoiceReader) EventData{
	&recordkind.Invoice:    eventObject(func(inv *billingv1.Invoice, _ InvoiceReader) any { return InvoiceOf(inv) }),
	&recordkind.CreditNote: eventObject(creditNoteObject),
	&recordkind.Payment:    eventObject(paymentObject),
	&recordkind.PeriodClose: eventObject(func(pc *billingv1.PeriodClose, _ InvoiceReader) any {
		return PeriodCloseOf(pc, closedThroughOfEvent(pc))
	}),
	&recordkind.LedgerSeal:        eventObject(func(s *billingv1.LedgerSeal, _ InvoiceReader) any { return SealOf(s) }),
	&recordkind.CreditApplication: eventObject(creditApplicationObject),
	&recordkind.Refund:            eventObject(func(rf *billingv1.Refund, _ InvoiceReader) any { return RefundOf(rf) }),
	&recordkind.WriteOff:          eventDataOf(writeOffData),
	&recordkind.Email:             eventDataOf(reminderData),
	&recordkind.InvoiceSchedule: eventObject(func(s *billingv1.InvoiceSchedule, _ InvoiceReader) any {
		return InvoiceScheduleOf(s)
	}),
	&recordkind.BankTransaction: eventObject(func(t *billingv1.BankTransaction, _ InvoiceReader) any {
		return BankTransactionOf(t)
	}),
}

// eventDataOf is render of an object of its type O; no data for another.
func eventDataOf[O any](render func(O, InvoiceReader) EventData) func(any, InvoiceReader) EventData {
	return func(obj any, invoice InvoiceReader) EventData {
		o, ok := obj.(O)
		if !ok {
			return EventData{}
		}
		return render(o, invoice)
	}
}

// eventObject is the event data of a record that is its data.object
// itself, rendered by render.
func eventObject[O any](render func(O, InvoiceReader) any) func(any, InvoiceReader) EventData {
	return eventDataOf(func(o O, invoice InvoiceReader) EventData { return EventData{Object: render(o, invoice)} })
}

// creditNoteObject renders cn, with its invoice when it needs it.
func creditNoteObject(cn *billingv1.CreditNote, invoice InvoiceReader) any {
	var inv *billingv1.Invoice
	if billing.CreditNoteNeedsInvoice(&cn.Status) {
		inv = invoice(cn.Spec.InvoiceRef.Name)
	}
	return CreditNoteOf(cn, inv)
}

// paymentObject renders p, with its invoice when it needs it.
func paymentObject(p *billingv1.Payment, invoice InvoiceReader) any {
	var inv *billingv1.Invoice
	if billing.PaymentNeedsInvoice(p) {
		inv = invoice(p.Spec.InvoiceRef.Name)
	}
	return PaymentOf(p, inv)
}

// creditApplicationObject renders ca, with its invoice when it needs it.
func creditApplicationObject(ca *billingv1.CreditApplication, invoice InvoiceReader) any {
	var inv *billingv1.Invoice
	if CreditApplicationNeedsInvoice(ca) {
		inv = invoice(ca.Spec.InvoiceRef.Name)
	}
	return CreditApplicationOf(ca, inv)
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
