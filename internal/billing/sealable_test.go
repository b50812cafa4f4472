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
			Family{Invoice: paid, CreditNotes: []*billingv1.CreditNote{note(billingv1.CreditNoteIssued, true), note(billingv1.CreditNoteRejected, false)},
				Payments: []*billingv1.Payment{payment(billingv1.PaymentRecorded, true), payment(billingv1.PaymentInvalid, false)}}, true},
		{"a pending credit note blocks", Family{Invoice: paid, CreditNotes: []*billingv1.CreditNote{note(billingv1.CreditNotePending, false)}}, false},
		{"a credit note not yet looked at blocks", Family{Invoice: paid, CreditNotes: []*billingv1.CreditNote{note("", false)}}, false},
		{"an issued credit note without its event blocks", Family{Invoice: paid, CreditNotes: []*billingv1.CreditNote{note(billingv1.CreditNoteIssued, false)}}, false},
		{"a pending payment blocks", Family{Invoice: paid, Payments: []*billingv1.Payment{payment(billingv1.PaymentPending, false)}}, false},
		{"an overpaid invoice whose credit its customer holds is", Family{Invoice: overpaid, Credit: credit(500)}, true},
		{"an overpaid invoice whose credit its customer does not hold yet is not", Family{Invoice: overpaid}, false},
		{"an overpaid invoice whose customer holds less of its credit is not", Family{Invoice: overpaid, Credit: credit(400)}, false},
		{"an invoice with credit applied to it stays live", Family{Invoice: withLedger(billingv1.InvoiceLedger{CreditApplications: one})}, false},
		{"an invoice written off and recovered stays live", Family{Invoice: withLedger(billingv1.InvoiceLedger{WriteOffs: one})}, false},
		{"a recorded payment without its event blocks", Family{Invoice: paid, Payments: []*billingv1.Payment{payment(billingv1.PaymentRecorded, false)}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sealable(tc.family, closed); got != tc.want {
				t.Errorf("Sealable = %v, want %v", got, tc.want)
			}
		})
	}
}
