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
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func getPeriodClose(g Gomega, c client.Client, name string) *billingv1.PeriodClose {
	pc := &billingv1.PeriodClose{}
	g.Expect(c.Get(context.Background(), managertest.Request(name).NamespacedName, pc)).To(Succeed())
	return pc
}

// A close of a period that has not ended waits, and closes with its event
// once the clock has passed its end.
func TestACloseOfTheFutureWaitsAndClosesOnceTheClockPassesItsEnd(t *testing.T) {
	g := NewWithT(t)
	pc := builder.PeriodClose("ns", "mar", "2026-03")
	pc.UID = "uid-mar"
	c := managertest.ClosesClient(pc)
	clk := clocktesting.NewFakePassiveClock(managertest.Now) // 2026-03-01 09:30 UTC
	events := &managertest.CountingEvents{Next: 7}
	r := &sealing.PeriodCloseReconciler{Client: c, APIReader: c, Clock: clk, Events: events}

	result, err := r.Reconcile(context.Background(), managertest.Request("mar"))
	g.Expect(err).NotTo(HaveOccurred())
	end := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	g.Expect(result.RequeueAfter).To(Equal(end.Sub(managertest.Now)))
	got := getPeriodClose(g, c, "mar")
	g.Expect(got.Status.Phase).To(Equal(billingv1.PeriodClosePending))
	g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReconciling, metav1.ConditionTrue,
		billingv1.ReasonPeriodNotEnded))
	g.Expect(events.Calls).To(BeEmpty())

	clk.SetTime(end)
	result, err = r.Reconcile(context.Background(), managertest.Request("mar"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(result.RequeueAfter).To(BeZero())
	got = getPeriodClose(g, c, "mar")
	g.Expect(got.Status.Phase).To(Equal(billingv1.PeriodCloseClosed))
	g.Expect(got.Status.ClosedThrough.Time).To(BeTemporally("==", end.Add(-time.Second)))
	g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonClosed))
	g.Expect(got.Status.Events).To(ConsistOf(HaveField("Sequence", int64(7))))
	g.Expect(events.Calls).To(ConsistOf(managertest.FactCall{Name: "mar", Fact: billingv1.EventTypePeriodClosed}))

	// Final: reconciled again, it asks for nothing and changes nothing.
	_, err = r.Reconcile(context.Background(), managertest.Request("mar"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(events.Calls).To(HaveLen(1))
	g.Expect(getPeriodClose(g, c, "mar").Status).To(Equal(got.Status))
}

// A close the cache still shows Pending, but that the API server holds
// Closed, takes no second event.
func TestACloseClosedBehindAStaleCacheTakesNoSecondEvent(t *testing.T) {
	g := NewWithT(t)
	pc := builder.PeriodClose("ns", "jan", "2026-01")
	cache := managertest.ClosesClient(pc.DeepCopy())
	pc.Status = billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed,
		Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypePeriodClosed, Sequence: 3}}}
	live := managertest.ClosesClient(pc)
	events := &managertest.CountingEvents{Next: 4}
	r := &sealing.PeriodCloseReconciler{Client: cache, APIReader: live, Clock: clocktesting.NewFakePassiveClock(managertest.Now), Events: events}
	_, err := r.Reconcile(context.Background(), managertest.Request("jan"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(events.Calls).To(BeEmpty())
}

// A close whose moment is already closed by another close takes no event.
func TestASupersededCloseTakesNoEvent(t *testing.T) {
	g := NewWithT(t)
	closed := builder.ClosedPeriodClose("ns", "feb", metav1.NewTime(time.Date(2026, 2, 28, 23, 59, 59, 0, time.UTC)))
	c := managertest.ClosesClient(closed, builder.PeriodClose("ns", "jan", "2026-01"))
	events := &managertest.CountingEvents{Next: 1}
	r := &sealing.PeriodCloseReconciler{Client: c, APIReader: c, Clock: clocktesting.NewFakePassiveClock(managertest.Now), Events: events}
	_, err := r.Reconcile(context.Background(), managertest.Request("jan"))
	g.Expect(err).NotTo(HaveOccurred())
	got := getPeriodClose(g, c, "jan")
	g.Expect(got.Status.Phase).To(Equal(billingv1.PeriodCloseSuperseded))
	g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
		billingv1.ReasonAlreadyClosed))
	g.Expect(events.Calls).To(BeEmpty())
}

func TestPaymentsInAClosedPeriod(t *testing.T) {
	closedThrough := time.Date(2026, 2, 28, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		paidAt    time.Time
		entered   bool
		wantPhase billingv1.PaymentPhase
	}{
		{name: "a payment paid at the closed moment is Invalid and never entered",
			paidAt: closedThrough, wantPhase: billingv1.PaymentInvalid},
		{name: "a payment paid the second after is recorded",
			paidAt: closedThrough.Add(time.Second), wantPhase: billingv1.PaymentRecorded},
		{name: "a payment entered before the books closed is recorded",
			paidAt: closedThrough.Add(-time.Hour), entered: true, wantPhase: billingv1.PaymentRecorded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			payment := builder.Payment("ns", "pay-1", "inv-1", 1_000, builder.WithPaidAt(metav1.NewTime(tc.paidAt)))
			payment.UID = "uid-pay-1"
			var ledger *billingv1.InvoiceLedger
			if tc.entered {
				ledger = &billingv1.InvoiceLedger{Payments: []billingv1.LedgerEntry{{Name: "pay-1", UID: "uid-pay-1", Amount: 1_000}}}
			}
			inv := issuedInvoice(41_650, managertest.Now.Add(24*time.Hour), ledger)
			inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(5)}
			c := managertest.ClosesClient(payment, inv, builder.ClosedPeriodClose("ns", "feb", metav1.NewTime(closedThrough)))
			events := &managertest.CountingEvents{Next: 6}
			r := &PaymentReconciler{Parts: ledgerParts(c, managertest.Now, events)}

			_, err := r.Reconcile(context.Background(), managertest.Request("pay-1"))
			g.Expect(err).NotTo(HaveOccurred())
			got := &billingv1.Payment{}
			g.Expect(c.Get(context.Background(), managertest.Request("pay-1").NamespacedName, got)).To(Succeed())
			g.Expect(got.Status.Phase).To(Equal(tc.wantPhase))
			after := &billingv1.Invoice{}
			g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, after)).To(Succeed())
			if tc.wantPhase == billingv1.PaymentRecorded {
				g.Expect(after.Status.Ledger.Payments).To(HaveLen(1))
				return
			}
			g.Expect(got.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
				billingv1.ReasonPeriodClosed))
			g.Expect(got.Status.Conditions).To(ContainElement(HaveField("Message",
				ContainSubstring("closed_through 2026-02-28T23:59:59Z"))))
			g.Expect(after.Status.Ledger).To(Equal(inv.Status.Ledger))
			g.Expect(events.Calls).To(BeEmpty())

			// Invalid is final: reconciled again, nothing changes.
			_, err = r.Reconcile(context.Background(), managertest.Request("pay-1"))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(events.Calls).To(BeEmpty())
		})
	}
}
