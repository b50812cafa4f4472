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

package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// waitForClose waits until pc is in phase and returns it.
func waitForClose(pc *billingv1.PeriodClose, phase billingv1.PeriodClosePhase) *billingv1.PeriodClose {
	GinkgoHelper()
	current := &billingv1.PeriodClose{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pc), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(phase))
	}).Should(Succeed())
	return current
}

// endOfDay is the last second of the day of t in loc.
func endOfDay(t time.Time, loc *time.Location) time.Time {
	local := t.In(loc)
	return time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, loc).Add(-time.Second)
}

var _ = Describe("PeriodClose controller", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("closes the books through a second ago, with the workspace's next event", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.Events).To(ContainElement(HaveField("Sequence", int64(1))))

		through := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
		pc := builder.PeriodClose(ns, "now", through.Format(time.RFC3339))
		create(pc)
		closed := waitForClose(pc, billingv1.PeriodCloseClosed)
		Expect(closed.Status.ClosedThrough.Time).To(BeTemporally("==", through))
		Expect(closed.Status.ClosedAt).NotTo(BeNil())
		Expect(closed.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonClosed))
		Expect(closed.Status.Events).To(ConsistOf(And(
			HaveField("Type", billingv1.EventTypePeriodClosed), HaveField("Sequence", int64(2)))))
	})

	It("closes a month and a day in the workspace's time zone", func() {
		auckland, err := time.LoadLocation("Pacific/Auckland")
		Expect(err).NotTo(HaveOccurred())
		create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithTimeZone("Pacific/Auckland")))
		local := time.Now().In(auckland)
		lastMonth := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, auckland).AddDate(0, -1, 0)
		yesterday := local.AddDate(0, 0, -1)

		month := builder.PeriodClose(ns, "month", lastMonth.Format("2006-01"))
		create(month)
		Expect(waitForClose(month, billingv1.PeriodCloseClosed).Status.ClosedThrough.Time).To(
			BeTemporally("==", time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, auckland).Add(-time.Second)))

		day := builder.PeriodClose(ns, "day", yesterday.Format(time.DateOnly))
		create(day)
		Expect(waitForClose(day, billingv1.PeriodCloseClosed).Status.ClosedThrough.Time).To(
			BeTemporally("==", endOfDay(yesterday, auckland)))
	})

	It("keeps a close of a moment to come Pending and closes it once the moment has passed", func() {
		through := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second)
		pc := builder.PeriodClose(ns, "soon", through.Format(time.RFC3339))
		create(pc)
		pending := waitForClose(pc, billingv1.PeriodClosePending)
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pc), pending)).To(Succeed())
			g.Expect(pending.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReconciling, metav1.ConditionTrue,
				billingv1.ReasonPeriodNotEnded))
		}).Should(Succeed())
		Expect(pending.Status.Events).To(BeEmpty())
		closed := waitForClose(pc, billingv1.PeriodCloseClosed)
		Expect(closed.Status.ClosedAt.Time).To(BeTemporally(">", through))
		Expect(closed.Status.ClosedThrough.Time).To(BeTemporally("==", through))
	})

	It("supersedes a later close of an earlier moment, and stalls on an invalid through", func() {
		oct := builder.PeriodClose(ns, "oct", "2020-10")
		create(oct)
		waitForClose(oct, billingv1.PeriodCloseClosed)

		sep := builder.PeriodClose(ns, "sep", "2020-09")
		bad := builder.PeriodClose(ns, "bad", "2020-13")
		create(sep, bad)
		superseded := waitForClose(sep, billingv1.PeriodCloseSuperseded)
		Expect(superseded.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
			billingv1.ReasonAlreadyClosed))
		Expect(superseded.Status.Conditions).To(ContainElement(HaveField("Message", ContainSubstring(`PeriodClose "oct"`))))
		Expect(superseded.Status.ClosedThrough).To(BeNil())
		Expect(superseded.Status.Events).To(BeEmpty())
		invalid := waitForClose(bad, billingv1.PeriodCloseInvalid)
		Expect(invalid.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
			billingv1.ReasonInvalidThrough))

		By("a close of a later moment still moving the books forward")
		nov := builder.PeriodClose(ns, "nov", "2020-11")
		create(nov)
		waitForClose(nov, billingv1.PeriodCloseClosed)
		Consistently(func(g Gomega) {
			for _, pc := range []*billingv1.PeriodClose{oct, superseded, invalid} {
				current := &billingv1.PeriodClose{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pc), current)).To(Succeed())
				g.Expect(current.Status.Phase).To(Equal(map[string]billingv1.PeriodClosePhase{
					"oct": billingv1.PeriodCloseClosed, "sep": billingv1.PeriodCloseSuperseded,
					"bad": billingv1.PeriodCloseInvalid}[pc.Name]))
			}
		}).Should(Succeed())
	})

	It("never records a payment dated in the closed span, and records one dated after it", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		through := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
		pc := builder.PeriodClose(ns, "now", through.Format(time.RFC3339))
		create(pc)
		waitForClose(pc, billingv1.PeriodCloseClosed)
		before := getInvoice(Default, inv)

		late := builder.Payment(ns, "late", "inv-1", 4_000, builder.WithPaidAt(metav1.NewTime(through.Add(-time.Hour))))
		create(late)
		Eventually(func(g Gomega) {
			current := &billingv1.Payment{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(late), current)).To(Succeed())
			g.Expect(current.Status.Phase).To(Equal(billingv1.PaymentInvalid))
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
				billingv1.ReasonPeriodClosed))
			g.Expect(current.Status.Conditions).To(ContainElement(HaveField("Message",
				ContainSubstring("closed_through "+through.Format(time.RFC3339)))))
			g.Expect(current.Status.Events).To(BeEmpty())
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			current := getInvoice(g, inv)
			g.Expect(current.Status.Ledger).To(Equal(before.Status.Ledger))
			g.Expect(current.Status.Balance).To(Equal(before.Status.Balance))
		}).Should(Succeed())

		onTime := builder.Payment(ns, "on-time", "inv-1", 4_000)
		create(onTime)
		recorded := waitForPayment(onTime)
		Expect(recorded.Status.AppliedAmount).To(HaveValue(Equal(int64(4_000))))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountPaid).To(Equal(int64(4_000)))
		})
	})

	It("closes the latest due month automatically as auto-YYYY-MM", func() {
		create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithCloseMonthsAfterDays(1)))
		month, _ := sealing.AutoCloseDue(1, time.UTC, time.Now())
		auto := builder.PeriodClose(ns, "auto-"+month.Format("2006-01"), "")
		closed := waitForClose(auto, billingv1.PeriodCloseClosed)
		Expect(closed.Spec.Through).To(Equal(month.Format("2006-01")))
		Expect(closed.Status.ClosedThrough.Time).To(BeTemporally("==", month.AddDate(0, 1, 0).Add(-time.Second)))
		Consistently(func(g Gomega) {
			closes := &billingv1.PeriodCloseList{}
			g.Expect(k8sClient.List(ctx, closes, client.InNamespace(ns))).To(Succeed())
			g.Expect(closes.Items).To(HaveLen(1), "only the latest due month, never back-filled")
		}).Should(Succeed())
	})
})
