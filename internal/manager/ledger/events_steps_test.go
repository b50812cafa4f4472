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

package ledger

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestAPaymentIsRecordedWithItsEventAfterItsInvoicesIssuedEvent(t *testing.T) {
	g := NewWithT(t)
	payment := builder.Payment("ns", "pay-1", "inv-1", 1_000)
	payment.UID = "uid-pay-1"
	inv := issuedInvoice(41_650, managertest.Now.Add(24*time.Hour), nil)
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(5)}
	c := ledgerClient(payment, inv)
	events := &managertest.CountingEvents{Next: 6}
	r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, events)}

	_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Payment{}
	g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.PaymentRecorded))
	g.Expect(reconciler.EventSequence(got.Status.Events, billingv1.EventTypePaymentRecorded)).To(Equal(int64(6)))
	g.Expect(events.Calls).To(Equal([]managertest.FactCall{{Name: "pay-1", Fact: billingv1.EventTypePaymentRecorded, After: 5}}))
}

func TestAPaymentWaitsForItsInvoicesIssuedEventBeforeItIsRecorded(t *testing.T) {
	g := NewWithT(t)
	payment := builder.Payment("ns", "pay-1", "inv-1", 1_000)
	payment.UID = "uid-pay-1"
	c := ledgerClient(payment, issuedInvoice(41_650, managertest.Now.Add(24*time.Hour), nil))
	events := &managertest.CountingEvents{Next: 1}
	r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, events)}

	_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Payment{}
	g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).NotTo(Equal(billingv1.PaymentRecorded), "recorded before its invoice's invoice.issued")
	g.Expect(events.Calls).To(BeEmpty())
	inv := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, inv)).To(Succeed())
	g.Expect(inv.Status.Ledger.Payments).To(HaveLen(1), "entered in the ledger all the same")
}

func TestAPaymentRecordedBeforeEventsTakesItsEventAndKeepsItsRecord(t *testing.T) {
	g := NewWithT(t)
	payment := builder.Payment("ns", "pay-1", "inv-1", 1_000)
	payment.UID = "uid-pay-1"
	recordedAt := metav1.NewTime(managertest.Now.Add(-time.Hour))
	payment.Status = billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded, RecordedAt: &recordedAt}
	inv := issuedInvoice(41_650, managertest.Now.Add(24*time.Hour),
		&billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{{Name: "pay-1", UID: "uid-pay-1", Amount: 1_000}}})
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(2)}
	c := ledgerClient(payment, inv)
	events := &managertest.CountingEvents{Next: 3}
	r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, events)}

	_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Payment{}
	g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
	g.Expect(reconciler.EventSequence(got.Status.Events, billingv1.EventTypePaymentRecorded)).To(Equal(int64(3)))
	g.Expect(got.Status.RecordedAt.Time).To(BeTemporally("==", recordedAt.Time))
	after := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, after)).To(Succeed())
	g.Expect(after.Status.Ledger.Payments).To(HaveLen(1), "not entered twice")
}

func TestAnInvoicePaidTakesItsEventOnlyAfterEveryPaymentOfItsLedgerHasOne(t *testing.T) {
	g := NewWithT(t)
	inv := issuedInvoice(1_000, managertest.Now.Add(24*time.Hour), &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{
		{Name: "pay-1", UID: "uid-pay-1", Amount: 400}, {Name: "pay-2", UID: "uid-pay-2", Amount: 600}}})
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(1)}
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 1_000, PaymentStatus: billingv1.InvoicePaymentPaid}
	first := builder.Payment("ns", "pay-1", "inv-1", 400)
	first.UID = "uid-pay-1"
	first.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePaymentRecorded, Sequence: 7}}
	second := builder.Payment("ns", "pay-2", "inv-1", 600)
	second.UID = "uid-pay-2"
	c := ledgerClient(first, second)
	events := &managertest.CountingEvents{Next: 9}
	r := &InvoiceReconciler{Client: c, Events: events}

	waiting, err := r.recordEvents(context.Background(), inv.DeepCopy())
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(waiting).To(BeTrue(), "pay-2 has no event yet")
	g.Expect(events.Calls).To(BeEmpty())

	second.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePaymentRecorded, Sequence: 8,
		CreatedAt: metav1.NewTime(managertest.Now)}}
	g.Expect(c.Status().Update(context.Background(), second)).To(Succeed())
	paid := inv.DeepCopy()
	waiting, err = r.recordEvents(context.Background(), paid)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(waiting).To(BeFalse())
	g.Expect(events.Calls).To(Equal([]managertest.FactCall{{Name: "inv-1", Fact: billingv1.EventTypeInvoicePaid, After: 8}}))
	g.Expect(reconciler.EventSequence(paid.Status.Events, billingv1.EventTypeInvoicePaid)).To(Equal(int64(9)))
}

func TestAnInvoiceVoidedAndPaidLaterTakesInvoicePaidAfterItsVoidedEvent(t *testing.T) {
	g := NewWithT(t)
	// invoice.voided took a freed sequence (12) above the payment's (8):
	// invoice.paid comes after both all the same.
	inv := issuedInvoice(1_000, managertest.Now.Add(24*time.Hour), &billingv1.InvoiceLedger{
		CreditNotes: []billingv1.LedgerEntry{{Name: "cn-1", UID: "uid-cn-1", Amount: 1_000}},
		Payments:    []billingv1.LedgerEntry{{Name: "pay-1", UID: "uid-pay-1", Amount: 400}}})
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(1),
		{Type: billingv1.EventTypeInvoiceVoided, Sequence: 12, CreatedAt: metav1.NewTime(managertest.Now)}}
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountCredited: 1_000, AmountPaid: 400, AmountOverpaid: 400,
		PaymentStatus: billingv1.InvoicePaymentPaid}
	note := builder.CreditNote("ns", "cn-1", "inv-1", builder.WithCreditedAmount(0, 1_000))
	note.UID = "uid-cn-1"
	note.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeCreditNoteIssued, Sequence: 5}}
	payment := builder.Payment("ns", "pay-1", "inv-1", 400)
	payment.UID = "uid-pay-1"
	payment.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePaymentRecorded, Sequence: 8}}
	events := &managertest.CountingEvents{Next: 13}
	r := &InvoiceReconciler{Client: ledgerClient(note, payment), Events: events}

	waiting, err := r.recordEvents(context.Background(), inv)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(waiting).To(BeFalse())
	g.Expect(events.Calls).To(Equal([]managertest.FactCall{{Name: "inv-1", Fact: billingv1.EventTypeInvoicePaid, After: 12}}))
}

// enteredCreditNote is a credit note of inv-1 entered in its ledger before
// a crash, and that invoice, issued with invoice.issued at 3.
func enteredCreditNote() (*billingv1.CreditNote, *billingv1.Invoice) {
	note := builder.CreditNote("ns", "cn-1", "inv-1", builder.WithCreditedAmount(0, 1_000))
	note.UID = "uid-cn-1"
	note.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNotePending, Total: ptr.To(int64(1_190)),
		Subtotal: ptr.To(int64(1_000)), TaxTotal: ptr.To(int64(190))}
	inv := creditableInvoice(&billingv1.InvoiceLedger{
		CreditNotes:   []billingv1.LedgerEntry{{Name: "cn-1", UID: "uid-cn-1", Amount: 1_190}},
		CreditedLines: []billingv1.CreditedLine{{Net: 1_000}, {}},
	})
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(3)}
	return note, inv
}

func TestACreditNoteIsIssuedWithItsNumberAndItsEventAfterItsInvoicesIssuedEvent(t *testing.T) {
	g := NewWithT(t)
	note, inv := enteredCreditNote()
	c := ledgerClient(note, inv)
	events := &managertest.CountingEvents{Next: 4}
	r := &CreditNoteReconciler{Parts: ledgerParts(c, managertest.Now, events),
		Numbers: &managertest.FixedNumbers{Assignment: numbering.Assignment{Sequence: 1, IssuedAt: managertest.Now}}}

	_, err := r.Reconcile(context.Background(), managertest.Request("cn-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.CreditNote{}
	g.Expect(c.Get(context.Background(), managertest.Request("cn-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.CreditNoteIssued))
	g.Expect(got.Status.Number).To(Equal("CN-000001"))
	g.Expect(reconciler.EventSequence(got.Status.Events, billingv1.EventTypeCreditNoteIssued)).To(Equal(int64(4)))
	g.Expect(events.Calls).To(Equal([]managertest.FactCall{{Name: "cn-1", Fact: billingv1.EventTypeCreditNoteIssued, After: 3}}))
}

func TestACreditNoteIssuedBeforeEventsKeepsItsNumberAndTakesItsEvent(t *testing.T) {
	g := NewWithT(t)
	note, inv := enteredCreditNote()
	issuedAt := metav1.NewTime(managertest.Now.Add(-time.Hour))
	note.Status.Phase, note.Status.Sequence, note.Status.Number, note.Status.IssuedAt =
		billingv1.CreditNoteIssued, ptr.To(int64(12)), "CN-000012", &issuedAt
	c := ledgerClient(note, inv)
	numbers := &managertest.FixedNumbers{Assignment: numbering.Assignment{Sequence: 99, IssuedAt: managertest.Now}}
	events := &managertest.CountingEvents{Next: 4}
	r := &CreditNoteReconciler{Parts: ledgerParts(c, managertest.Now, events), Numbers: numbers}

	_, err := r.Reconcile(context.Background(), managertest.Request("cn-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.CreditNote{}
	g.Expect(c.Get(context.Background(), managertest.Request("cn-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Number).To(Equal("CN-000012"))
	g.Expect(numbers.Calls).To(BeZero(), "a numbered credit note asks for no number")
	g.Expect(reconciler.EventSequence(got.Status.Events, billingv1.EventTypeCreditNoteIssued)).To(Equal(int64(4)))
}
