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
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Family is an invoice with every credit note and payment that names it
// (spec.invoiceRef.name): what one seal holds whole, never split.
type Family struct {
	Invoice     *billingv1.Invoice
	CreditNotes []*billingv1.CreditNote
	Payments    []*billingv1.Payment
	// Credit is the credit ledger of the invoice's customer (nil: none):
	// an overpaid invoice is sealable only once its customer's credit
	// holds its whole amountOverpaid, which then outlives it.
	Credit *billingv1.CustomerCredit
}

// Sealable reports whether f can leave the live set into a seal of a
// workspace closed through closedThrough (ClosedThrough):
//   - the invoice is Issued, numbered, and was issued (status.issuedAt) at
//     or before closedThrough;
//   - it is settled: its payment_status (BalanceOf, the derived balance)
//     is paid or void, and it carries the matching event (invoice.paid or
//     invoice.voided), so that no event of it is still to come;
//   - every credit note is final: Issued with its credit_note.issued
//     event, or Rejected; every payment is final: Recorded with its
//     payment.recorded event, or Invalid. A Pending one (or one not yet
//     looked at) blocks the family.
//
// Rejected credit notes and Invalid payments go into the seal with their
// invoice: they name it, and once it is sealed nothing would ever take
// them away (the retention policies let the manager delete only what a
// seal holds). A record re-created with a name a seal already holds
// (Invalid, AlreadySealed) is not in any family: the caller leaves it out
// (it is no record of the books, and anyone may delete it).
func Sealable(f Family, closedThrough time.Time) bool {
	inv := f.Invoice
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
		if billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoicePaid) == nil {
			return false
		}
	case billingv1.InvoicePaymentVoid:
		if billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceVoided) == nil {
			return false
		}
	default:
		return false
	}
	if !creditSealable(inv, balance, f.Credit) {
		return false
	}
	return recordsFinal(f)
}

// creditSealable reports whether inv, of balance, is sealable as far as
// money on account goes: applied credit and write-offs are not sealed in
// this version, so such a family stays live
// (docs/ledger.md#money-on-account); and an overpaid invoice waits until
// its customer's credit (credit) holds its whole amountOverpaid.
func creditSealable(inv *billingv1.Invoice, balance *billingv1.InvoiceBalance, credit *billingv1.CustomerCredit) bool {
	if l := inv.Status.Ledger; l != nil && (len(l.CreditApplications) > 0 || len(l.WriteOffs) > 0) {
		return false
	}
	return balance.AmountOverpaid == 0 || CreditHolds(credit, inv, balance.AmountOverpaid)
}

// recordsFinal reports whether every credit note and payment of f is final:
// issued or recorded with its event, rejected or invalid.
func recordsFinal(f Family) bool {
	for _, n := range f.CreditNotes {
		s := &n.Status
		if !final(s.Phase, billingv1.CreditNoteIssued, billingv1.CreditNoteRejected, s.Events, billingv1.EventTypeCreditNoteIssued) {
			return false
		}
	}
	for _, p := range f.Payments {
		s := &p.Status
		if !final(s.Phase, billingv1.PaymentRecorded, billingv1.PaymentInvalid, s.Events, billingv1.EventTypePaymentRecorded) {
			return false
		}
	}
	return true
}

// final reports whether a record in phase is final: settled with its
// event fact among its events, or rejected.
func final[P ~string](phase, settled, rejected P, events []billingv1.RecordedEvent, fact billingv1.EventType) bool {
	return phase == rejected || (phase == settled && billingv1.FindEvent(events, fact) != nil)
}
