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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestWhichFamiliesAreSealable(t *testing.T) {
	closed := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	seq := int64(1)
	invoice := func(issued time.Time, status billingv1.InvoicePaymentStatus, events ...billingv1.EventType) *billingv1.Invoice {
		inv := &billingv1.Invoice{Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: &seq,
			Number: "INV-000001", IssuedAt: &metav1.Time{Time: issued},
			Balance: &billingv1.InvoiceBalance{PaymentStatus: status}}}
		for _, e := range append([]billingv1.EventType{billingv1.EventTypeInvoiceIssued}, events...) {
			inv.Status.Events = append(inv.Status.Events, billingv1.RecordedEvent{Type: e, Sequence: 1})
		}
		return inv
	}
	before := closed.Add(-time.Hour)
	paid := invoice(before, billingv1.InvoicePaymentPaid, billingv1.EventTypeInvoicePaid)
	note := func(phase billingv1.CreditNotePhase, withEvent bool) *billingv1.CreditNote {
		n := &billingv1.CreditNote{Status: billingv1.CreditNoteStatus{Phase: phase}}
		if withEvent {
			n.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeCreditNoteIssued, Sequence: 2}}
		}
		return n
	}
	payment := func(phase billingv1.PaymentPhase, withEvent bool) *billingv1.Payment {
		p := &billingv1.Payment{Status: billingv1.PaymentStatus{Phase: phase}}
		if withEvent {
			p.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePaymentRecorded, Sequence: 3}}
		}
		return p
	}
	pending := paid.DeepCopy()
	pending.Status.Phase = billingv1.InvoicePending
	overpaid := paid.DeepCopy()
	overpaid.Name, overpaid.UID = "inv-1", "uid-1"
	overpaid.Status.Balance.AmountOverpaid = 500
	credit := func(amount int64) *billingv1.CustomerCredit {
		return &billingv1.CustomerCredit{Sources: []billingv1.CreditSource{
			{Invoice: "inv-1", UID: "uid-1", Currency: "USD", Amount: amount}}}
	}
	withLedger := func(ledger billingv1.InvoiceLedger) *billingv1.Invoice {
		inv := paid.DeepCopy()
		inv.Status.Ledger = &ledger
		return inv
	}
	one := []billingv1.LedgerEntry{{Name: "x", UID: "u", Amount: 1}}
	withEvent := func(yes bool, e billingv1.EventType) []billingv1.RecordedEvent {
		if !yes {
			return nil
		}
		return []billingv1.RecordedEvent{{Type: e, Sequence: 4}}
	}
	application := func(name, uid string, phase billingv1.CreditApplicationPhase, event bool) *billingv1.CreditApplication {
		a := &billingv1.CreditApplication{Status: billingv1.CreditApplicationStatus{Phase: phase,
			Events: withEvent(event, billingv1.EventTypeCreditApplied)}}
		a.Name, a.UID = name, types.UID(uid)
		return a
	}
	writeOff := func(name, uid string, phase billingv1.WriteOffPhase, event bool) *billingv1.WriteOff {
		w := &billingv1.WriteOff{Status: billingv1.WriteOffStatus{Phase: phase,
			Events: withEvent(event, billingv1.EventTypeInvoiceMarkedUncollectible)}}
		w.Name, w.UID = name, types.UID(uid)
		return w
	}
	email := func(purpose billingv1.EmailPurpose, phase billingv1.EmailPhase, event bool) *billingv1.Email {
		return &billingv1.Email{Spec: billingv1.EmailSpec{Purpose: purpose}, Status: billingv1.EmailStatus{Phase: phase,
			Events: withEvent(event, billingv1.EventTypeInvoiceReminderSent)}}
	}
	writtenOff := invoice(before, billingv1.InvoicePaymentUncollectible)
	writtenOff.Status.Ledger = &billingv1.InvoiceLedger{WriteOffs: one}
	for _, tc := range []struct {
		name   string
		family Family
		want   bool
	}{
		{"a paid invoice issued before the close is", Family{Invoice: paid}, true},
		{"a paid invoice issued at the close's last instant is", Family{Invoice: invoice(closed, billingv1.InvoicePaymentPaid, billingv1.EventTypeInvoicePaid)}, true},
		{"a paid invoice issued after the close is not", Family{Invoice: invoice(closed.Add(time.Second), billingv1.InvoicePaymentPaid, billingv1.EventTypeInvoicePaid)}, false},
		{"a void invoice with its event is", Family{Invoice: invoice(before, billingv1.InvoicePaymentVoid, billingv1.EventTypeInvoiceVoided)}, true},
		{"a paid invoice whose invoice.paid is still to come is not", Family{Invoice: invoice(before, billingv1.InvoicePaymentPaid)}, false},
		{"an open invoice is not", Family{Invoice: invoice(before, billingv1.InvoicePaymentOpen)}, false},
		{"a partially paid invoice is not", Family{Invoice: invoice(before, billingv1.InvoicePaymentPartiallyPaid)}, false},
		{"an invoice not issued is not", Family{Invoice: pending}, false},
		{"no invoice is not", Family{}, false},
		{"issued and rejected credit notes and recorded and invalid payments are final",
			Family{Invoice: paid, Members: []billingv1.Settled{note(billingv1.CreditNoteIssued, true), note(billingv1.CreditNoteRejected, false),
				payment(billingv1.PaymentRecorded, true), payment(billingv1.PaymentInvalid, false)}}, true},
		{"a pending credit note blocks", Family{Invoice: paid, Members: []billingv1.Settled{note(billingv1.CreditNotePending, false)}}, false},
		{"a credit note not yet looked at blocks", Family{Invoice: paid, Members: []billingv1.Settled{note("", false)}}, false},
		{"an issued credit note without its event blocks", Family{Invoice: paid, Members: []billingv1.Settled{note(billingv1.CreditNoteIssued, false)}}, false},
		{"a pending payment blocks", Family{Invoice: paid, Members: []billingv1.Settled{payment(billingv1.PaymentPending, false)}}, false},
		{"an overpaid invoice whose credit its customer holds is", Family{Invoice: overpaid, Credit: credit(500)}, true},
		{"an overpaid invoice whose credit its customer does not hold yet is not", Family{Invoice: overpaid}, false},
		{"an overpaid invoice whose customer holds less of its credit is not", Family{Invoice: overpaid, Credit: credit(400)}, false},
		{"an invoice with credit applied to it is, with its applied credit application",
			Family{Invoice: withLedger(billingv1.InvoiceLedger{CreditApplications: one}),
				Members: []billingv1.Settled{application("x", "u", billingv1.CreditApplicationApplied, true)}}, true},
		{"an invoice whose ledger names a credit application the family lacks is not",
			Family{Invoice: withLedger(billingv1.InvoiceLedger{CreditApplications: one})}, false},
		{"an invoice whose ledger names another object of its credit application's name is not",
			Family{Invoice: withLedger(billingv1.InvoiceLedger{CreditApplications: one}),
				Members: []billingv1.Settled{application("x", "other", billingv1.CreditApplicationApplied, true)}}, false},
		{"a pending credit application blocks",
			Family{Invoice: paid, Members: []billingv1.Settled{application("y", "v", billingv1.CreditApplicationPending, false)}}, false},
		{"an applied credit application without its event blocks",
			Family{Invoice: withLedger(billingv1.InvoiceLedger{CreditApplications: one}),
				Members: []billingv1.Settled{application("x", "u", billingv1.CreditApplicationApplied, false)}}, false},
		{"a rejected credit application goes with its invoice",
			Family{Invoice: paid, Members: []billingv1.Settled{application("y", "v", billingv1.CreditApplicationRejected, false)}}, true},
		{"an invoice written off and recovered is, with its write-off",
			Family{Invoice: withLedger(billingv1.InvoiceLedger{WriteOffs: one}),
				Members: []billingv1.Settled{writeOff("x", "u", billingv1.WriteOffRecorded, true)}}, true},
		{"an uncollectible invoice is, with its recorded write-off", Family{Invoice: writtenOff,
			Members: []billingv1.Settled{writeOff("x", "u", billingv1.WriteOffRecorded, true)}}, true},
		{"an uncollectible invoice whose write-off is not in the family is not", Family{Invoice: writtenOff}, false},
		{"an uncollectible invoice whose write-off has not its event yet is not", Family{Invoice: writtenOff,
			Members: []billingv1.Settled{writeOff("x", "u", billingv1.WriteOffRecorded, false)}}, false},
		{"sent, failed and skipped e-mails go with their invoice", Family{Invoice: paid, Members: []billingv1.Settled{
			email(billingv1.EmailPurposeInvoice, billingv1.EmailSent, false), email(billingv1.EmailPurposeInvoice, billingv1.EmailFailed, false),
			email(billingv1.EmailPurposeReminder, billingv1.EmailSkipped, false), email(billingv1.EmailPurposeReminder, billingv1.EmailSent, true)}}, true},
		{"a family holding an e-mail still being delivered is not (the sealer leaves such an e-mail out)", Family{Invoice: paid, Members: []billingv1.Settled{
			email(billingv1.EmailPurposeInvoice, billingv1.EmailPending, false)}}, false},
		{"a sent reminder without its event blocks", Family{Invoice: paid, Members: []billingv1.Settled{
			email(billingv1.EmailPurposeReminder, billingv1.EmailSent, false)}}, false},
		{"a recorded payment without its event blocks", Family{Invoice: paid, Members: []billingv1.Settled{payment(billingv1.PaymentRecorded, false)}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sealable(tc.family, closed); got != tc.want {
				t.Errorf("Sealable = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWhichRecordsOfNoFamilyAreSealable(t *testing.T) {
	closed := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	at := func(t time.Time) *metav1.Time { return &metav1.Time{Time: t} }
	in, after := closed.Add(-time.Hour), closed.Add(time.Hour)
	refund := func(phase billingv1.RefundPhase, refundedAt, recordedAt *metav1.Time, event bool) *billingv1.Refund {
		rf := &billingv1.Refund{Spec: billingv1.RefundSpec{RefundedAt: refundedAt},
			Status: billingv1.RefundStatus{Phase: phase, RecordedAt: recordedAt}}
		if event {
			rf.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeRefundRecorded, Sequence: 9}}
		}
		rf.CreationTimestamp = metav1.Time{Time: in}
		return rf
	}
	email := func(purpose billingv1.EmailPurpose, phase billingv1.EmailPhase, sentAt *metav1.Time) *billingv1.Email {
		em := &billingv1.Email{Spec: billingv1.EmailSpec{Purpose: purpose}, Status: billingv1.EmailStatus{Phase: phase, SentAt: sentAt}}
		em.CreationTimestamp = metav1.Time{Time: in}
		return em
	}
	for _, tc := range []struct {
		name   string
		record billingv1.Settled
		sealed bool
		want   bool
	}{
		{"a recorded refund dated in the closed period is", refund(billingv1.RefundRecorded, at(in), at(after), true), false, true},
		{"a recorded refund dated after the close is not", refund(billingv1.RefundRecorded, at(after), at(after), true), false, false},
		{"a recorded refund without a date is dated when it was made", refund(billingv1.RefundRecorded, nil, at(after), true), false, true},
		{"a recorded refund without its event is not", refund(billingv1.RefundRecorded, at(in), at(in), false), false, false},
		{"a pending refund is not", refund(billingv1.RefundPending, at(in), nil, false), false, false},
		{"a rejected refund dated in the closed period is", refund(billingv1.RefundRejected, at(in), nil, false), false, true},
		{"a statement sent in the closed period is", email(billingv1.EmailPurposeStatement, billingv1.EmailSent, at(in)), false, true},
		{"a statement sent after the close is not", email(billingv1.EmailPurposeStatement, billingv1.EmailSent, at(after)), false, false},
		{"a statement still being sent is not", email(billingv1.EmailPurposeStatement, billingv1.EmailPending, nil), false, false},
		{"an invoice's e-mail whose invoice is live goes with its family instead", email(billingv1.EmailPurposeInvoice, billingv1.EmailSent, at(in)), false, false},
		{"an invoice's e-mail whose invoice is sealed is", email(billingv1.EmailPurposeInvoice, billingv1.EmailFailed, nil), true, true},
		{"an invoice is no record of no family", &billingv1.Invoice{}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LooseSealable(tc.record, closed, tc.sealed); got != tc.want {
				t.Errorf("LooseSealable = %v, want %v", got, tc.want)
			}
		})
	}
}
