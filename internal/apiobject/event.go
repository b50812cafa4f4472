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
// WriteOff), as GET answers it.
type EventData struct {
	Object any `json:"object"`
}

// EventOf returns the event of sequence and type t of workspace, created
// at createdAt, about object (already rendered).
func EventOf(workspace string, sequence int64, t string, createdAt time.Time, object any) Event {
	return Event{
		ID: fmt.Sprintf("evt-%s-%d", workspace, sequence), Object: "event", Sequence: sequence, Type: t,
		CreatedAt: timestamp(createdAt), Data: EventData{Object: object},
	}
}

// InvoiceReader reads the invoice of a workspace by name, or nil when it
// cannot be read; rendering a credit note or payment may need it.
type InvoiceReader func(name string) *billingv1.Invoice

// EventObject renders the object an event is about (a *Invoice, *CreditNote,
// *Payment, *PeriodClose, *LedgerSeal, *CreditApplication, *Refund or
// *WriteOff of api/v1) as GET answers it; nil for another kind. A period
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
	default:
		return nil
	}
}
