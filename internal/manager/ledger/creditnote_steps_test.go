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
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// ledgerClient is a fake client holding objs, with the status subresources
// of invoices, credit notes and payments.
func ledgerClient(objs ...client.Object) client.Client {
	return fake.NewClientBuilder().WithScheme(testScheme).WithObjects(objs...).
		WithStatusSubresource(&billingv1.Invoice{}, &billingv1.CreditNote{}, &billingv1.Payment{}).Build()
}

// ledgerParts are the parts of a ledger reconciler working with c, at
// the time at, with events.
func ledgerParts(c client.Client, at time.Time, events reconciler.EventNumberer) Parts {
	return Parts{Client: c, APIReader: c, Clock: clocktesting.NewFakePassiveClock(at), Events: events}
}

// After a crash between entering a credit note in the ledger and issuing
// it, the next reconcile issues it with the amounts on its status and
// enters nothing twice.
func TestCreditNoteEnteredBeforeACrashIsIssuedWithoutEnteringItAgain(t *testing.T) {
	g := NewWithT(t)
	note := builder.CreditNote("ns", "cn-1", "inv-1", builder.WithCreditedAmount(0, 1_000))
	note.UID = "uid-cn-1"
	note.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNotePending, Total: ptr.To(int64(1_190)),
		Subtotal: ptr.To(int64(1_000)), TaxTotal: ptr.To(int64(190))}
	ledger := &billingv1.InvoiceLedger{
		CreditNotes:   []billingv1.LedgerEntry{{Name: "cn-1", UID: "uid-cn-1", Amount: 1_190}},
		CreditedLines: []billingv1.CreditedLine{{Net: 1_000}, {}},
	}
	inv := creditableInvoice(ledger)
	inv.Namespace = "ns"
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(1)}
	c := ledgerClient(note, inv)
	numbers := &managertest.FixedNumbers{Assignment: numbering.Assignment{Sequence: 1, IssuedAt: managertest.Now}}
	r := &CreditNoteReconciler{Parts: ledgerParts(c, managertest.Now, &managertest.CountingEvents{Next: 2}), Numbers: numbers}

	_, err := r.Reconcile(context.Background(), managertest.Request("cn-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.CreditNote{}
	g.Expect(c.Get(context.Background(), managertest.Request("cn-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.CreditNoteIssued))
	g.Expect(got.Status.Number).To(Equal("CN-000001"))
	g.Expect(got.Status.Total).To(HaveValue(Equal(int64(1_190))))
	after := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, after)).To(Succeed())
	g.Expect(after.Status.Ledger).To(Equal(ledger))
}

// A credit note of an invoice that is not issued waits (Reconciling) and
// takes no number.
func TestCreditNoteWaitsForItsInvoiceToBeIssued(t *testing.T) {
	g := NewWithT(t)
	note := builder.CreditNote("ns", "cn-1", "inv-1", builder.WithFullCredit())
	c := ledgerClient(note, managertest.InvoiceInPhase("ns", "inv-1", "acme", billingv1.InvoiceInvalid))
	numbers := &managertest.FixedNumbers{}
	events := &managertest.CountingEvents{Next: 1}
	r := &CreditNoteReconciler{Parts: ledgerParts(c, managertest.Now.Add(time.Minute), events), Numbers: numbers}
	_, err := r.Reconcile(context.Background(), managertest.Request("cn-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.CreditNote{}
	g.Expect(c.Get(context.Background(), managertest.Request("cn-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.CreditNotePending))
	g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReconciling, metav1.ConditionTrue,
		billingv1.ReasonInvoiceNotIssued))
	g.Expect(numbers.Calls).To(BeZero())
	g.Expect(events.Calls).To(BeEmpty())
}

// A payment entered before a crash is recorded once, with the same split.
func TestPaymentEnteredBeforeACrashIsRecordedWithoutEnteringItAgain(t *testing.T) {
	g := NewWithT(t)
	payment := builder.Payment("ns", "pay-1", "inv-1", 50_000)
	payment.UID = "uid-pay-1"
	ledger := &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{{Name: "pay-1", UID: "uid-pay-1", Amount: 50_000}}}
	inv := creditableInvoice(ledger)
	inv.Namespace = "ns"
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(1)}
	c := ledgerClient(payment, inv)
	r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, &managertest.CountingEvents{Next: 2})}
	_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Payment{}
	g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.PaymentRecorded))
	g.Expect(got.Status.AppliedAmount).To(HaveValue(Equal(int64(41_650))))
	g.Expect(got.Status.OverpaidAmount).To(HaveValue(Equal(int64(50_000 - 41_650))))
	after := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, after)).To(Succeed())
	g.Expect(after.Status.Ledger).To(Equal(ledger))
}

func TestLedgerReconcilersNeedTheirParts(t *testing.T) {
	reader := fake.NewClientBuilder().WithScheme(testScheme).Build()
	numbers, events := &managertest.FixedNumbers{}, &managertest.CountingEvents{}
	for _, tc := range []struct {
		name  string
		setup func() error
		want  error
	}{
		{"a credit note reconciler without a clock is refused",
			func() error {
				return (&CreditNoteReconciler{Parts: Parts{APIReader: reader, Events: events}, Numbers: numbers}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoClock},
		{"a credit note reconciler without an allocator is refused",
			func() error {
				return (&CreditNoteReconciler{Parts: Parts{APIReader: reader, Clock: clock.RealClock{}, Events: events}}).SetupWithManager(nil, 0)
			}, errNoNumbers},
		{"a credit note reconciler without an API reader is refused",
			func() error {
				return (&CreditNoteReconciler{Parts: Parts{Clock: clock.RealClock{}, Events: events}, Numbers: numbers}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoAPIReader},
		{"a credit note reconciler without an event allocator is refused",
			func() error {
				return (&CreditNoteReconciler{Parts: Parts{APIReader: reader, Clock: clock.RealClock{}}, Numbers: numbers}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoEvents},
		{"a payment reconciler without a clock is refused",
			func() error {
				return (&PaymentReconciler{Parts: Parts{APIReader: reader, Events: events}}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoClock},
		{"a payment reconciler without an API reader is refused",
			func() error {
				return (&PaymentReconciler{Parts: Parts{Clock: clock.RealClock{}, Events: events}}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoAPIReader},
		{"a payment reconciler without an event allocator is refused",
			func() error {
				return (&PaymentReconciler{Parts: Parts{APIReader: reader, Clock: clock.RealClock{}}}).SetupWithManager(nil, 0)
			}, reconciler.ErrNoEvents},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.setup()).To(MatchError(tc.want))
		})
	}
}

// A payment of an invoice whose ledger is full stalls instead of failing
// the invoice's status patch again and again.
func TestPaymentOfAnInvoiceWithAFullLedgerStalls(t *testing.T) {
	g := NewWithT(t)
	ledger := &billingv1.InvoiceLedger{Payments: make([]billingv1.LedgerEntry, billingv1.MaxLedgerEntries)}
	for i := range ledger.Payments {
		ledger.Payments[i] = billingv1.LedgerEntry{Name: fmt.Sprintf("p-%d", i), UID: fmt.Sprintf("u-%d", i), Amount: 1}
	}
	inv := creditableInvoice(ledger)
	inv.Namespace = "ns"
	payment := builder.Payment("ns", "pay-1", "inv-1", 1_000)
	c := ledgerClient(payment, inv)
	r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, &managertest.CountingEvents{Next: 1})}
	_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Payment{}
	g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(billingv1.PaymentPending))
	g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
		billingv1.ReasonLedgerFull))
}
