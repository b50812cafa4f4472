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

package reliability

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

var _ = Describe("The controller killed during a burst of payments, credit applications and refunds", func() {
	It("leaves every customer's credit equal to what its records imply, enters each record once, never spends "+
		"more than there is, and keeps the event sequence gapless", func() {
		ws := newWorkspace("money")
		// Four customers, each with a source invoice of 1,000 paid 5,000
		// before the burst (4,000 of credit) and four target invoices of
		// 1,000. The burst adds, per customer and round, a credit
		// application of 600 to a target (round r to target r%4: the
		// targets 0 and 1 are asked 1,200, so one of their two must be
		// rejected if both are reached), a refund of 500, and every other
		// round another payment of 400 on the source. 5,200 of credit
		// against 6,600 asked: some must be rejected for the credit.
		const (
			customers = 4
			targets   = 4
			rounds    = 6
			total     = 1000
		)
		customerName := func(c int) string { return fmt.Sprintf("payer-%d", c) }
		source := func(c int) string { return fmt.Sprintf("src-%d", c) }
		target := func(c, t int) string { return fmt.Sprintf("tgt-%d-%d", c, t) }
		By("issuing the invoices and overpaying each source")
		for c := range customers {
			Expect(k8s.Create(ctx, builder.Customer(ws, customerName(c)))).To(Succeed())
			awaitFinalizer(ws, customerName(c))
			Expect(k8s.Create(ctx, builder.Invoice(ws, source(c), builder.WithCustomer(customerName(c)),
				builder.WithItem("Work", 1, total)))).To(Succeed())
			for t := range targets {
				Expect(k8s.Create(ctx, builder.Invoice(ws, target(c, t), builder.WithCustomer(customerName(c)),
					builder.WithItem("Work", 1, total)))).To(Succeed())
			}
			Expect(k8s.Create(ctx, builder.Payment(ws, fmt.Sprintf("pay-%d-first", c), source(c), 5*total))).To(Succeed())
		}
		Eventually(func(g Gomega) {
			for c := range customers {
				customer := &billingv1.Customer{}
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: customerName(c)}, customer)).To(Succeed())
				g.Expect(customer.Status.Credit).NotTo(BeNil())
				g.Expect(customer.Status.Credit.Balance).To(ConsistOf(
					billingv1.CurrencyAmount{Currency: "USD", Amount: 4 * total}))
			}
		}).WithTimeout(time.Minute).Should(Succeed())

		By("creating applications, refunds and payments in a burst while the manager is killed and restarted twice")
		var made atomic.Int32
		burstDone := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(burstDone)
			for r := range rounds {
				for c := range customers {
					Expect(k8s.Create(ctx, builder.CreditApplication(ws, fmt.Sprintf("capp-%d-%d", c, r),
						target(c, r%targets), 600))).To(Succeed())
					Expect(k8s.Create(ctx, builder.Refund(ws, fmt.Sprintf("rf-%d-%d", c, r), customerName(c),
						500, "USD"))).To(Succeed())
					made.Add(2)
					if r%2 == 1 {
						Expect(k8s.Create(ctx, builder.Payment(ws, fmt.Sprintf("pay-%d-%d", c, r), source(c),
							400))).To(Succeed())
						made.Add(1)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
		Eventually(made.Load).Should(BeNumerically(">=", 10))
		manager.kill()
		GinkgoWriter.Printf("Killed the manager after %d records\n", made.Load())
		Eventually(made.Load).Should(BeNumerically(">=", 30))
		manager = startManager()
		time.Sleep(300 * time.Millisecond)
		manager.kill()
		GinkgoWriter.Printf("Killed the restarted manager after %d records\n", made.Load())
		time.Sleep(500 * time.Millisecond)
		manager = startManager()
		Eventually(burstDone).WithTimeout(time.Minute).Should(BeClosed())

		By("waiting until every record is final")
		var capps billingv1.CreditApplicationList
		var refunds billingv1.RefundList
		var payments billingv1.PaymentList
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &capps, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(capps.Items).To(HaveLen(customers * rounds))
			for _, a := range capps.Items {
				g.Expect(a.Status.Phase).To(BeElementOf(billingv1.CreditApplicationApplied,
					billingv1.CreditApplicationRejected), "credit application %s", a.Name)
			}
			g.Expect(k8s.List(ctx, &refunds, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(refunds.Items).To(HaveLen(customers * rounds))
			for _, rf := range refunds.Items {
				g.Expect(rf.Status.Phase).To(BeElementOf(billingv1.RefundRecorded, billingv1.RefundRejected),
					"refund %s", rf.Name)
			}
			g.Expect(k8s.List(ctx, &payments, crclient.InNamespace(ws))).To(Succeed())
			for _, p := range payments.Items {
				g.Expect(p.Status.Phase).To(Equal(billingv1.PaymentRecorded), "payment %s", p.Name)
				g.Expect(p.Status.Events).To(HaveLen(1), "payment %s", p.Name)
			}
		}).WithTimeout(2 * time.Minute).Should(Succeed())

		By("checking each rejection's reason and that every applied or recorded record carries one event")
		appliedTo := map[string][]string{} // invoice → uids of its applied credit applications
		usesOf := map[string][]string{}    // customer → uids of its applied applications and recorded refunds
		spentBy := map[string]int64{}      // customer → what they spent
		for _, a := range capps.Items {
			ready := meta.FindStatusCondition(a.Status.Conditions, billingv1.ConditionReady)
			Expect(ready).NotTo(BeNil(), "credit application %s", a.Name)
			if a.Status.Phase == billingv1.CreditApplicationRejected {
				Expect(ready.Reason).To(BeElementOf(billingv1.ReasonExceedsCredit, billingv1.ReasonExceedsRemaining),
					"credit application %s", a.Name)
				Expect(a.Status.Events).To(BeEmpty(), "rejected credit application %s", a.Name)
				continue
			}
			Expect(eventTypes(a.Status.Events)).To(ConsistOf(billingv1.EventTypeCreditApplied), "credit application %s", a.Name)
			appliedTo[a.Spec.InvoiceRef.Name] = append(appliedTo[a.Spec.InvoiceRef.Name], string(a.UID))
			usesOf[a.Status.CustomerName] = append(usesOf[a.Status.CustomerName], string(a.UID))
			spentBy[a.Status.CustomerName] += a.Spec.Amount
		}
		for _, rf := range refunds.Items {
			ready := meta.FindStatusCondition(rf.Status.Conditions, billingv1.ConditionReady)
			Expect(ready).NotTo(BeNil(), "refund %s", rf.Name)
			if rf.Status.Phase == billingv1.RefundRejected {
				Expect(ready.Reason).To(Equal(billingv1.ReasonExceedsCredit), "refund %s", rf.Name)
				Expect(rf.Status.Events).To(BeEmpty(), "rejected refund %s", rf.Name)
				continue
			}
			Expect(eventTypes(rf.Status.Events)).To(ConsistOf(billingv1.EventTypeRefundRecorded), "refund %s", rf.Name)
			usesOf[rf.Spec.CustomerRef.Name] = append(usesOf[rf.Spec.CustomerRef.Name], string(rf.UID))
			spentBy[rf.Spec.CustomerRef.Name] += rf.Spec.Amount
		}

		// 6,600 asked of 5,200 per customer: whatever the interleaving, some
		// of each customer's records were turned away.
		for c := range customers {
			Expect(spentBy[customerName(c)]).To(BeNumerically("<=", 5200), "customer %d", c)
			Expect(len(usesOf[customerName(c)])).To(BeNumerically("<", 2*rounds), "customer %d: nothing rejected", c)
		}
		GinkgoWriter.Printf("Spent per customer: %v\n", spentBy)

		By("checking each invoice's ledger and each customer's credit against the records")
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
			overpaid := map[string]int64{}
			for _, inv := range invs.Items {
				b := inv.Status.Balance
				g.Expect(b).NotTo(BeNil(), "invoice %s", inv.Name)
				var applied []string
				var ledgerApplied int64
				if inv.Status.Ledger != nil {
					applied = entryUIDs(inv.Status.Ledger.CreditApplications)
					for _, e := range inv.Status.Ledger.CreditApplications {
						ledgerApplied += e.Amount
					}
				}
				g.Expect(applied).To(ConsistOf(appliedTo[inv.Name]), "invoice %s", inv.Name)
				g.Expect(b.AmountApplied).To(Equal(ledgerApplied), "invoice %s", inv.Name)
				g.Expect(b.AmountApplied).To(BeNumerically("<=", total), "invoice %s: more applied than its total", inv.Name)
				g.Expect(b.AmountRemaining).To(Equal(max(0, total-b.AmountPaid-b.AmountApplied)), "invoice %s", inv.Name)
				overpaid[inv.Spec.CustomerRef.Name] += b.AmountOverpaid
			}
			for c := range customers {
				name := customerName(c)
				customer := &billingv1.Customer{}
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: name}, customer)).To(Succeed())
				credit := customer.Status.Credit
				g.Expect(credit).NotTo(BeNil())
				var uses []string
				var used int64
				for _, u := range credit.Uses {
					uses = append(uses, u.UID)
					used += u.Amount
				}
				g.Expect(uses).To(ConsistOf(usesOf[name]), "customer %s: each applied or recorded record once", name)
				g.Expect(used).To(Equal(spentBy[name]), "customer %s", name)
				var sources int64
				for _, s := range credit.Sources {
					sources += s.Amount
				}
				g.Expect(sources).To(Equal(overpaid[name]), "customer %s: its sources are its invoices' overpaid", name)
				want := sources - used
				g.Expect(want).To(BeNumerically(">=", 0), "customer %s spent more than its credit", name)
				if want == 0 {
					g.Expect(credit.Balance).To(BeEmpty(), "customer %s", name)
				} else {
					g.Expect(credit.Balance).To(ConsistOf(billingv1.CurrencyAmount{Currency: "USD", Amount: want}),
						"customer %s", name)
				}
			}
		}).WithTimeout(time.Minute).Should(Succeed())

		By("checking the workspace's event sequence: 1..N without a gap")
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(k8s.List(ctx, &capps, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(k8s.List(ctx, &refunds, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(k8s.List(ctx, &payments, crclient.InNamespace(ws))).To(Succeed())
			var all []int64
			for _, inv := range invs.Items {
				all = append(all, eventSequences(inv.Status.Events)...)
			}
			for _, a := range capps.Items {
				all = append(all, eventSequences(a.Status.Events)...)
			}
			for _, rf := range refunds.Items {
				all = append(all, eventSequences(rf.Status.Events)...)
			}
			for _, p := range payments.Items {
				all = append(all, eventSequences(p.Status.Events)...)
			}
			slices.Sort(all)
			for i, seq := range all {
				g.Expect(seq).To(Equal(int64(i+1)), "the event sequences are not exactly 1..%d: %v", len(all), all)
			}
		}).WithTimeout(time.Minute).Should(Succeed())
	})
})
