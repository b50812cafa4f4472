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

import "sigs.k8s.io/controller-runtime/pkg/client"

// This file holds what each kind of record says of itself, once, as
// methods of its type: the events it carries, the invoice it belongs to,
// its customer and whether it is settled. The table of the record kinds
// (internal/recordkind) says the rest: its resource, id prefix, path,
// event types and whether a seal holds it.

// EventCarrier is an object that records events of its workspace's event
// sequence in its status.events: an Invoice, CreditNote, Payment,
// PeriodClose, LedgerSeal, CreditApplication, Refund, WriteOff or Email (a
// reminder's).
//
// +kubebuilder:object:generate=false
type EventCarrier interface {
	client.Object
	// RecordedEvents are the object's status.events, in the order it
	// records them: its own, read them, never change them.
	RecordedEvents() []RecordedEvent
}

// LedgerRecord is a record entered in an invoice's ledger or a customer's
// credit: a CreditNote, Payment, CreditApplication, Refund or WriteOff.
//
// +kubebuilder:object:generate=false
type LedgerRecord interface {
	EventCarrier
	// InvoiceName is the name of the invoice the record belongs to; ""
	// for a record of a customer's credit (a Refund).
	InvoiceName() string
	// CustomerName is the name of the record's customer: as the
	// controller recorded it from the invoice ("" until then), or as the
	// record names it (a Refund's).
	CustomerName() string
}

// Settled is a record whose family can be sealed: an Invoice, CreditNote,
// Payment, PeriodClose or LedgerSeal.
//
// +kubebuilder:object:generate=false
type Settled interface {
	client.Object
	// Settled says whether the record is done changing: a closed
	// PeriodClose, an invoice paid, void or written off, a credit note,
	// payment, credit application, write-off or refund entered with its
	// event or rejected, an e-mail whose delivery ended; a LedgerSeal
	// always.
	Settled() bool
}

// RecordedEvents are the invoice's status.events.
func (in *Invoice) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the credit note's status.events.
func (in *CreditNote) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the payment's status.events.
func (in *Payment) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the period close's status.events.
func (in *PeriodClose) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the seal's status.events.
func (in *LedgerSeal) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the credit application's status.events.
func (in *CreditApplication) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the refund's status.events.
func (in *Refund) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the write-off's status.events.
func (in *WriteOff) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the e-mail's status.events.
func (in *Email) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the schedule's status.events.
func (in *InvoiceSchedule) RecordedEvents() []RecordedEvent { return in.Status.Events }

// RecordedEvents are the bank transaction's status.events.
func (in *BankTransaction) RecordedEvents() []RecordedEvent { return in.Status.Events }

// InvoiceName is the invoice the credit note credits.
func (in *CreditNote) InvoiceName() string { return in.Spec.InvoiceRef.Name }

// CustomerName is the customer the controller recorded.
func (in *CreditNote) CustomerName() string { return in.Status.CustomerName }

// InvoiceName is the invoice the payment pays.
func (in *Payment) InvoiceName() string { return in.Spec.InvoiceRef.Name }

// CustomerName is the customer the controller recorded.
func (in *Payment) CustomerName() string { return in.Status.CustomerName }

// InvoiceName is the invoice the credit is applied to.
func (in *CreditApplication) InvoiceName() string { return in.Spec.InvoiceRef.Name }

// CustomerName is the customer the controller recorded.
func (in *CreditApplication) CustomerName() string { return in.Status.CustomerName }

// InvoiceName is "": a refund pays back a customer's credit.
func (in *Refund) InvoiceName() string { return "" }

// CustomerName is the customer paid back.
func (in *Refund) CustomerName() string { return in.Spec.CustomerRef.Name }

// InvoiceName is the invoice written off.
func (in *WriteOff) InvoiceName() string { return in.Spec.InvoiceRef.Name }

// CustomerName is the customer the controller recorded.
func (in *WriteOff) CustomerName() string { return in.Status.CustomerName }

// Settled says whether the invoice is paid, void or uncollectible (written
// off).
func (in *Invoice) Settled() bool {
	b := in.Status.Balance
	return b != nil && (b.PaymentStatus == InvoicePaymentPaid || b.PaymentStatus == InvoicePaymentVoid ||
		b.PaymentStatus == InvoicePaymentUncollectible)
}

// Settled says whether the credit note is issued with its event, or
// rejected.
func (in *CreditNote) Settled() bool {
	return final(in.Status.Phase, CreditNoteIssued, CreditNoteRejected, in.Status.Events, EventTypeCreditNoteIssued)
}

// Settled says whether the payment is recorded with its event, or invalid.
func (in *Payment) Settled() bool {
	return final(in.Status.Phase, PaymentRecorded, PaymentInvalid, in.Status.Events, EventTypePaymentRecorded)
}

// Settled says whether the period close is closed.
func (in *PeriodClose) Settled() bool { return in.Status.Phase == PeriodCloseClosed }

// Settled says whether the credit application is applied with its event,
// or rejected.
func (in *CreditApplication) Settled() bool {
	return final(in.Status.Phase, CreditApplicationApplied, CreditApplicationRejected, in.Status.Events,
		EventTypeCreditApplied)
}

// Settled says whether the write-off is recorded with its event, or
// rejected.
func (in *WriteOff) Settled() bool {
	return final(in.Status.Phase, WriteOffRecorded, WriteOffRejected, in.Status.Events,
		EventTypeInvoiceMarkedUncollectible)
}

// Settled says whether the refund is recorded with its event, or rejected.
func (in *Refund) Settled() bool {
	return final(in.Status.Phase, RefundRecorded, RefundRejected, in.Status.Events, EventTypeRefundRecorded)
}

// Settled says whether the e-mail's delivery has ended: sent (a reminder
// with its event), failed or skipped.
func (in *Email) Settled() bool {
	switch in.Status.Phase {
	case EmailFailed, EmailSkipped:
		return true
	case EmailSent:
		return in.Spec.Purpose != EmailPurposeReminder || FindEvent(in.Status.Events, EventTypeInvoiceReminderSent) != nil
	}
	return false
}

// final says whether a record in phase is final: settled with its event
// fact among its events (written in the same status patch), or rejected.
func final[P ~string](phase, settled, rejected P, events []RecordedEvent, fact EventType) bool {
	return phase == rejected || (phase == settled && FindEvent(events, fact) != nil)
}

// Settled is true: a seal never changes once made.
func (in *LedgerSeal) Settled() bool { return true }

// SealedRecord is a record a LedgerSeal can hold: its spec and status as
// values of their own types, encoded into the seal's payload as the API
// server stores them.
// +kubebuilder:object:generate=false
type SealedRecord interface {
	SealParts() (spec, status any)
}

// SealParts is the invoice's spec and status.
func (in *Invoice) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the credit note's spec and status.
func (in *CreditNote) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the payment's spec and status.
func (in *Payment) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the credit application's spec and status.
func (in *CreditApplication) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the write-off's spec and status.
func (in *WriteOff) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the refund's spec and status.
func (in *Refund) SealParts() (spec, status any) { return in.Spec, in.Status }

// SealParts is the e-mail's spec and status.
func (in *Email) SealParts() (spec, status any) { return in.Spec, in.Status }
