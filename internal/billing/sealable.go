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

package billing

import (
	"slices"
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Family is an invoice with every record that names it: its credit notes,
// payments, credit applications and write-offs (spec.invoiceRef.name), and
// the e-mails that sent it, its reminders or its credit notes. A seal holds
// a family whole, never split.
//
// A credit application names one invoice, the one it pays; the credit it
// spends is the customer's (customer.status.credit), not another
// invoice's, so it belongs to that one family. The invoice whose
// overpayment gave the credit is sealed on its own once the customer's
// ledger holds its whole amountOverpaid (Credit).
type Family struct {
	Invoice            *billingv1.Invoice
	CreditNotes        []*billingv1.CreditNote
	Payments           []*billingv1.Payment
	CreditApplications []*billingv1.CreditApplication
	WriteOffs          []*billingv1.WriteOff
	Emails             []*billingv1.Email
	// Credit is the credit ledger of the invoice's customer (nil: none):
	// an overpaid invoice is sealable only once its customer's credit
	// holds its whole amountOverpaid, which then outlives it.
	Credit *billingv1.CustomerCredit
}

// Add puts obj, a record that names f's invoice, into f; false for a kind
// a family does not hold.
func (f *Family) Add(obj billingv1.EventCarrier) bool {
	switch r := obj.(type) {
	case *billingv1.CreditNote:
		f.CreditNotes = append(f.CreditNotes, r)
	case *billingv1.Payment:
		f.Payments = append(f.Payments, r)
	case *billingv1.CreditApplication:
		f.CreditApplications = append(f.CreditApplications, r)
	case *billingv1.WriteOff:
		f.WriteOffs = append(f.WriteOffs, r)
	case *billingv1.Email:
		f.Emails = append(f.Emails, r)
	default:
		return false
	}
	return true
}

// Members returns f's records but its invoice, in a seal's order: credit
// notes, payments, credit applications, write-offs, then e-mails, each
// kind by name.
func (f *Family) Members() []billingv1.EventCarrier {
	var out []billingv1.EventCarrier
	out = appendByName(out, f.CreditNotes)
	out = appendByName(out, f.Payments)
	out = appendByName(out, f.CreditApplications)
	out = appendByName(out, f.WriteOffs)
	return appendByName(out, f.Emails)
}

// appendByName appends records to out, sorted by name.
func appendByName[T billingv1.EventCarrier](out []billingv1.EventCarrier, records []T) []billingv1.EventCarrier {
	sorted := slices.Clone(records)
	slices.SortFunc(sorted, func(a, b T) int { return strings.Compare(a.GetName(), b.GetName()) })
	for _, r := range sorted {
		out = append(out, r)
	}
	return out
}

// Sealable reports whether f can leave the live set into a seal of a
// workspace closed through closedThrough (ClosedThrough):
//   - the invoice is Issued, numbered, and was issued (status.issuedAt) at
//     or before closedThrough;
//   - it is settled, so that no event of it is still to come: its
//     payment_status (BalanceOf, the derived balance) is paid or void with
//     the matching event (invoice.paid or invoice.voided), or
//     uncollectible (written off, each write-off carrying
//     invoice.marked_uncollectible);
//   - an overpaid invoice's customer holds its whole amountOverpaid as
//     credit;
//   - every record its ledger names (status.ledger) is in f, the same
//     object (uid): none is missing from what is sealed;
//   - every record of f is final (recordFinal). A pending one (or one not
//     yet looked at) blocks the family.
//
// Rejected, Invalid, Failed and Skipped records go into the seal with their
// invoice: they name it, and once it is sealed nothing would ever take
// them away (the retention policies let the manager delete only what a
// seal holds). A record re-created with a name a seal already holds
// (AlreadySealed) is not in any family: the caller leaves it out (it is
// no record of the books, and anyone may delete it).
//
// A written-off invoice that is sealed is closed for good: a payment that
// names it later is refused (InvoiceSealed), and money recovered on it is
// booked in the open period (docs/ledger.md#what-a-seal-holds).
func Sealable(f Family, closedThrough time.Time) bool {
	inv := f.Invoice
	if !InvoiceSealable(inv, closedThrough) {
		return false
	}
	balance := BalanceOf(inv, nil)
	if balance.PaymentStatus == billingv1.InvoicePaymentUncollectible && len(f.WriteOffs) == 0 {
		return false
	}
	if balance.AmountOverpaid != 0 && !CreditHolds(f.Credit, inv, balance.AmountOverpaid) {
		return false
	}
	if !ledgerComplete(f) {
		return false
	}
	for _, r := range f.Members() {
		if !recordFinal(r) {
			return false
		}
	}
	return true
}

// InvoiceSealable reports whether inv itself, without the records that
// name it, is sealable in a workspace closed through closedThrough:
// issued, numbered, issued in the closed period, and paid or void with its
// event, or uncollectible (Sealable's first two points).
func InvoiceSealable(inv *billingv1.Invoice, closedThrough time.Time) bool {
	if inv == nil || inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Sequence == nil ||
		inv.Status.Number == "" || inv.Status.IssuedAt == nil || !InClosedPeriod(inv.Status.IssuedAt.Time, closedThrough) {
		return false
	}
	balance := BalanceOf(inv, nil)
	if balance == nil {
		return false
	}
	switch balance.PaymentStatus {
	case billingv1.InvoicePaymentPaid:
		return billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoicePaid) != nil
	case billingv1.InvoicePaymentVoid:
		return billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceVoided) != nil
	case billingv1.InvoicePaymentUncollectible:
		return true
	}
	return false
}

// ledgerComplete reports whether every record f's invoice's ledger names is
// in f with the uid the ledger has.
func ledgerComplete(f Family) bool {
	l := f.Invoice.Status.Ledger
	if l == nil {
		return true
	}
	return entriesIn(l.CreditNotes, f.CreditNotes) && entriesIn(l.Payments, f.Payments) &&
		entriesIn(l.CreditApplications, f.CreditApplications) && entriesIn(l.WriteOffs, f.WriteOffs)
}

// entriesIn reports whether every entry names one of records, by name and
// uid.
func entriesIn[T billingv1.EventCarrier](entries []billingv1.LedgerEntry, records []T) bool {
	for _, e := range entries {
		if !slices.ContainsFunc(records, func(r T) bool { return r.GetName() == e.Name && string(r.GetUID()) == e.UID }) {
			return false
		}
	}
	return true
}

// LooseSealable reports whether obj, a record that belongs to no family, can
// leave the live set into the next seal of a workspace closed through
// closedThrough:
//   - a refund once it is final (recordFinal) and dated (spec.refundedAt,
//     else when it was recorded, else when it was made) in the closed
//     period;
//   - an e-mail once it is final and was sent (status.sentAt, else when it
//     was made) in the closed period, and either it sends a statement, or
//     the record it sent is sealed already (sealed: it was made or settled
//     after its invoice's family was sealed); an e-mail of a live invoice
//     or credit note goes with its family instead.
func LooseSealable(obj billingv1.EventCarrier, closedThrough time.Time, sealed bool) bool {
	if !recordFinal(obj) {
		return false
	}
	at := obj.GetCreationTimestamp().Time
	switch r := obj.(type) {
	case *billingv1.Refund:
		if r.Spec.RefundedAt != nil {
			at = r.Spec.RefundedAt.Time
		} else if r.Status.RecordedAt != nil {
			at = r.Status.RecordedAt.Time
		}
	case *billingv1.Email:
		if r.Status.SentAt != nil {
			at = r.Status.SentAt.Time
		}
		if r.Spec.Purpose != billingv1.EmailPurposeStatement && !sealed {
			return false
		}
	default:
		return false
	}
	return InClosedPeriod(at, closedThrough)
}

// recordFinal reports whether a record other than an invoice will never
// change again: entered in the books with its event (a credit note issued,
// a payment recorded, credit applied, a refund recorded, a write-off
// recorded, a reminder sent), rejected, or an e-mail's delivery ended
// (Sent, Failed or Skipped).
func recordFinal(obj billingv1.EventCarrier) bool {
	switch r := obj.(type) {
	case *billingv1.CreditNote:
		return final(r.Status.Phase, billingv1.CreditNoteIssued, billingv1.CreditNoteRejected, r.Status.Events,
			billingv1.EventTypeCreditNoteIssued)
	case *billingv1.Payment:
		return final(r.Status.Phase, billingv1.PaymentRecorded, billingv1.PaymentInvalid, r.Status.Events,
			billingv1.EventTypePaymentRecorded)
	case *billingv1.CreditApplication:
		return final(r.Status.Phase, billingv1.CreditApplicationApplied, billingv1.CreditApplicationRejected,
			r.Status.Events, billingv1.EventTypeCreditApplied)
	case *billingv1.WriteOff:
		return final(r.Status.Phase, billingv1.WriteOffRecorded, billingv1.WriteOffRejected, r.Status.Events,
			billingv1.EventTypeInvoiceMarkedUncollectible)
	case *billingv1.Refund:
		return final(r.Status.Phase, billingv1.RefundRecorded, billingv1.RefundRejected, r.Status.Events,
			billingv1.EventTypeRefundRecorded)
	case *billingv1.Email:
		switch r.Status.Phase {
		case billingv1.EmailFailed, billingv1.EmailSkipped:
			return true
		case billingv1.EmailSent:
			return r.Spec.Purpose != billingv1.EmailPurposeReminder ||
				billingv1.FindEvent(r.Status.Events, billingv1.EventTypeInvoiceReminderSent) != nil
		}
	}
	return false
}

// final reports whether a record in phase is final: settled with its
// event fact among its events, or rejected.
func final[P ~string](phase, settled, rejected P, events []billingv1.RecordedEvent, fact billingv1.EventType) bool {
	return phase == rejected || (phase == settled && billingv1.FindEvent(events, fact) != nil)
}
