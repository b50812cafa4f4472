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
	"cmp"
	"slices"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// A customer's account over time (docs/api.md#statements): its records,
// each at the date the ledger gives it, and what they make of the account
// at any moment. The statement and the receivables aging are both read
// from here, so they never disagree.
//
// The date of each record:
//
//   - an invoice: status.issuedAt, when it took its number (its
//     invoice.issued event carries the same instant);
//   - a credit note: status.issuedAt;
//   - a payment: spec.paidAt, else when it was created (the date a closed
//     period is checked against);
//   - a refund: spec.refundedAt, else when it was created (likewise);
//   - a credit application: status.appliedAt;
//   - a write-off: status.recordedAt.
//
// A record counts once it is final (an invoice or credit note issued, a
// payment, refund or write-off recorded, a credit application applied)
// and dated, and a record of an invoice only with that invoice among the
// records.

// Records are the records of one customer's account, or of a workspace's,
// live and sealed alike. They are read, never changed.
type Records struct {
	Invoices           []*billingv1.Invoice
	CreditNotes        []*billingv1.CreditNote
	Payments           []*billingv1.Payment
	CreditApplications []*billingv1.CreditApplication
	Refunds            []*billingv1.Refund
	WriteOffs          []*billingv1.WriteOff
}

// EntryType is the kind of a record in a customer's account, as a
// statement's row names it.
type EntryType string

// The types of entry, in the order entries at the same instant are listed.
const (
	EntryInvoice           EntryType = "invoice"
	EntryCreditNote        EntryType = "credit_note"
	EntryPayment           EntryType = "payment"
	EntryCreditApplication EntryType = "credit_application" //nolint:gosec // a record's type, not a credential
	EntryWriteOff          EntryType = "write_off"
	// EntryWriteOffReversal is the part of earlier write-offs of an invoice
	// that a later payment or credit note settled instead: the receivable
	// comes back before the payment or credit note takes it away, as an
	// accountant books a recovered bad debt.
	EntryWriteOffReversal EntryType = "write_off_reversal"
	EntryRefund           EntryType = "refund"
)

// entryOrder is the order of entries of the same instant.
var entryOrder = map[EntryType]int{EntryInvoice: 0, EntryCreditNote: 1, EntryWriteOffReversal: 2, EntryPayment: 3,
	EntryCreditApplication: 4, EntryWriteOff: 5, EntryRefund: 6}

// entry is one final, dated record of an account.
type entry struct {
	typ  EntryType
	name string
	// number is the invoice's or credit note's number, "" for the others.
	number string
	// invoice is the invoice the record is about, nil for a refund.
	invoice  *billingv1.Invoice
	customer string
	currency string
	at       time.Time
	// amount is the record's own amount, at least 0: the invoice's or
	// credit note's total, the payment's, credit application's or refund's
	// amount, what the write-off wrote off.
	amount int64
}

// PaymentDate is the date of a payment: spec.paidAt, else when it was
// created.
func PaymentDate(p *billingv1.Payment) time.Time {
	if p.Spec.PaidAt != nil {
		return p.Spec.PaidAt.Time
	}
	return p.CreationTimestamp.Time
}

// RefundDate is the date of a refund: spec.refundedAt, else when it was
// created.
func RefundDate(rf *billingv1.Refund) time.Time {
	if rf.Spec.RefundedAt != nil {
		return rf.Spec.RefundedAt.Time
	}
	return rf.CreationTimestamp.Time
}

// issuedTotal is an issued invoice's total and whether it has one.
func issuedTotal(inv *billingv1.Invoice) (int64, bool) {
	if inv.EffectivePhase() != billingv1.InvoiceIssued || inv.Status.IssuedAt == nil {
		return 0, false
	}
	if inv.Status.Total != nil {
		return *inv.Status.Total, true
	}
	t, ok := TotalsOf(inv, DocumentTaxesOf(inv))
	return t.Total, ok
}

// entries returns the final, dated records of recs in date order (then by
// type and name, so that the order is the same on every call).
func entries(recs *Records) []entry {
	invoices := map[string]*billingv1.Invoice{}
	var out []entry
	for _, inv := range recs.Invoices {
		total, ok := issuedTotal(inv)
		if !ok {
			continue
		}
		invoices[inv.Name] = inv
		out = append(out, entry{typ: EntryInvoice, name: inv.Name, number: inv.Status.Number, invoice: inv,
			customer: inv.Spec.CustomerRef.Name, currency: InvoiceCurrency(inv), at: inv.Status.IssuedAt.Time, amount: total})
	}
	// of adds a record of invoice name, when that invoice is issued.
	of := func(typ EntryType, name, number, invoice string, at time.Time, amount int64) {
		if inv, ok := invoices[invoice]; ok {
			out = append(out, entry{typ: typ, name: name, number: number, invoice: inv,
				customer: inv.Spec.CustomerRef.Name, currency: InvoiceCurrency(inv), at: at, amount: amount})
		}
	}
	for _, cn := range recs.CreditNotes {
		if st := &cn.Status; st.Phase == billingv1.CreditNoteIssued && st.IssuedAt != nil && st.Total != nil {
			of(EntryCreditNote, cn.Name, st.Number, cn.Spec.InvoiceRef.Name, st.IssuedAt.Time, *st.Total)
		}
	}
	for _, p := range recs.Payments {
		if p.Status.Phase == billingv1.PaymentRecorded {
			of(EntryPayment, p.Name, "", p.Spec.InvoiceRef.Name, PaymentDate(p), p.Spec.Amount)
		}
	}
	for _, ca := range recs.CreditApplications {
		if st := &ca.Status; st.Phase == billingv1.CreditApplicationApplied && st.AppliedAt != nil {
			of(EntryCreditApplication, ca.Name, "", ca.Spec.InvoiceRef.Name, st.AppliedAt.Time, ca.Spec.Amount)
		}
	}
	for _, wo := range recs.WriteOffs {
		if st := &wo.Status; st.Phase == billingv1.WriteOffRecorded && st.RecordedAt != nil && st.Amount != nil {
			of(EntryWriteOff, wo.Name, "", wo.Spec.InvoiceRef.Name, st.RecordedAt.Time, *st.Amount)
		}
	}
	for _, rf := range recs.Refunds {
		if rf.Status.Phase == billingv1.RefundRecorded {
			out = append(out, entry{typ: EntryRefund, name: rf.Name, customer: rf.Spec.CustomerRef.Name,
				currency: rf.Spec.Currency, at: RefundDate(rf), amount: rf.Spec.Amount})
		}
	}
	slices.SortFunc(out, func(a, b entry) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(entryOrder[a.typ], entryOrder[b.typ]), cmp.Compare(a.name, b.name))
	})
	return out
}

// position is one invoice's ledger as far as an account has been read.
type position struct {
	invoice *billingv1.Invoice
	// total is the invoice's total once its issue has been read, else 0.
	total int64
	// issued is whether its issue has been read.
	issued  bool
	amounts LedgerAmounts
}

// balance is what the ledger read so far makes of the invoice.
func (p *position) balance() (Balance, error) {
	return ComputeLedgerBalance(p.total, p.amounts)
}

// owedOf is what an invoice of total whose ledger balance is b adds to its
// customer's balance: its total less what was credited, paid, applied and
// written off (negative when it is overpaid). A credit application's
// amount is taken here and given back by the customer's credit, so that
// it moves credit and changes no balance.
func owedOf(total int64, b Balance) int64 {
	return total - b.Credited - b.Paid - b.Applied - b.WrittenOff
}

// enter adds e, a record of p's invoice, to p.
func (p *position) enter(e entry) {
	switch e.typ {
	case EntryInvoice:
		p.total, p.issued = e.amount, true
	case EntryCreditNote:
		p.amounts.CreditNotes = append(p.amounts.CreditNotes, e.amount)
	case EntryPayment:
		p.amounts.Payments = append(p.amounts.Payments, e.amount)
	case EntryCreditApplication:
		p.amounts.Applied = append(p.amounts.Applied, e.amount)
	case EntryWriteOff:
		p.amounts.WrittenOff = append(p.amounts.WrittenOff, e.amount)
	}
}

// account is a customer's account (or a workspace's) read in date order.
type account struct {
	positions map[string]*position
	// taken is, per customer and currency, the credit applications and
	// refunds read so far: what was taken from the customer's credit.
	taken map[[2]string]int64
}

// newAccount returns an account with nothing read.
func newAccount() *account {
	return &account{positions: map[string]*position{}, taken: map[[2]string]int64{}}
}

// enter reads e and returns its effect on its customer's balance, and the
// part of it that reverses earlier write-offs of its invoice (0 but for a
// payment or credit note that settles what was written off).
func (a *account) enter(e entry) (effect, reversal int64, err error) {
	if e.invoice == nil { // a refund: money paid out of the customer's credit
		a.taken[[2]string{e.customer, e.currency}] += e.amount
		return e.amount, 0, nil
	}
	p := a.positions[e.invoice.Name]
	if p == nil {
		p = &position{invoice: e.invoice}
		a.positions[e.invoice.Name] = p
	}
	before, err := p.balance()
	if err != nil {
		return 0, 0, err
	}
	owedBefore := owedOf(p.total, before)
	p.enter(e)
	after, err := p.balance()
	if err != nil {
		return 0, 0, err
	}
	effect = owedOf(p.total, after) - owedBefore
	if e.typ == EntryCreditApplication {
		a.taken[[2]string{e.customer, e.currency}] += e.amount
		effect += e.amount
	}
	if e.typ != EntryWriteOff {
		reversal = before.WrittenOff - after.WrittenOff
	}
	return effect, reversal, nil
}

// credit is customer's credit in currency: what its invoices were overpaid
// less what was applied and refunded. It is negative only when a refund is
// dated before the overpayment it paid back.
func (a *account) credit(customer, currency string) (int64, error) {
	overpaid, err := a.sumOfInvoices(customer, currency, func(_ *position, b Balance) int64 { return b.Overpaid })
	if err != nil {
		return 0, err
	}
	return overpaid - a.taken[[2]string{customer, currency}], nil
}

// sumOfInvoices is the sum of of over customer's invoices in currency,
// each with its balance as read so far.
func (a *account) sumOfInvoices(customer, currency string, of func(p *position, b Balance) int64) (int64, error) {
	var sum int64
	for _, p := range a.positions {
		if p.invoice.Spec.CustomerRef.Name != customer || InvoiceCurrency(p.invoice) != currency {
			continue
		}
		b, err := p.balance()
		if err != nil {
			return 0, err
		}
		sum += of(p, b)
	}
	return sum, nil
}
