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

// Family is an invoice with every record that names it: its credit notes,
// payments, credit applications and write-offs (spec.invoiceRef.name), and
// the e-mails that sent it, its reminders or its credit notes whose
// delivery has ended (an e-mail still being tried never holds its invoice
// back: it is sealed later, LooseSealable). A seal holds a family whole,
// never split.
//
// A credit application names one invoice, the one it pays; the credit it
// spends is the customer's (customer.status.credit), not another
// invoice's, so it belongs to that one family. The invoice whose
// overpayment gave the credit is sealed on its own once the customer's
// ledger holds its whole amountOverpaid (Credit).
type Family struct {
	Invoice *billingv1.Invoice
	// Members are the records that name the invoice, of any kind a seal
	// holds, each final once it is Settled (billingv1.Settled).
	Members []billingv1.Settled
	// Credit is the credit ledger of the invoice's customer (nil: none):
	// an overpaid invoice is sealable only once its customer's credit
	// holds its whole amountOverpaid, which then outlives it.
	Credit *billingv1.CustomerCredit
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
	if balance.AmountOverpaid != 0 && !CreditHolds(f.Credit, inv, balance.AmountOverpaid) {
		return false
	}
	if !ledgerComplete(f) {
		return false
	}
	for _, m := range f.Members {
		if !m.Settled() {
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

// ledgerComplete reports whether every record f's invoice's ledger names
// (status.ledger: credit notes, payments, credit applications, write-offs)
// is among f's members, the same object (uid; a uid names one object of
// any kind). An uncollectible invoice's ledger names its write-offs, so
// they are sealed with it.
func ledgerComplete(f Family) bool {
	l := f.Invoice.Status.Ledger
	if l == nil {
		return f.Invoice.Status.Balance == nil ||
			f.Invoice.Status.Balance.PaymentStatus != billingv1.InvoicePaymentUncollectible
	}
	uids := make(map[string]bool, len(f.Members))
	for _, m := range f.Members {
		uids[string(m.GetUID())] = true
	}
	for _, entries := range [][]billingv1.LedgerEntry{l.CreditNotes, l.Payments, l.CreditApplications, l.WriteOffs} {
		for _, e := range entries {
			if !uids[e.UID] {
				return false
			}
		}
	}
	return true
}

// LooseSealable reports whether obj, a record that belongs to no family, can
// leave the live set into the next seal of a workspace closed through
// closedThrough:
//   - a refund once it is final (Settled) and dated (RefundDate: the
//     date a statement shows it at) in the closed period;
//   - an e-mail once it is final and was sent (status.sentAt, else when it
//     was made) in the closed period, and either it sends a statement, or
//     the record it sent is sealed already (sealed: it was made, or its
//     delivery ended, after its invoice's family was sealed); an e-mail of
//     a live invoice or credit note goes with its family instead.
func LooseSealable(obj billingv1.Settled, closedThrough time.Time, sealed bool) bool {
	if !obj.Settled() {
		return false
	}
	at := obj.GetCreationTimestamp().Time
	switch r := obj.(type) {
	case *billingv1.Refund:
		at = RefundDate(r)
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
