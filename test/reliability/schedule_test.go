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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

var _ = Describe("The manager killed while 200 schedules catch up 12 periods each", func() {
	It("ends with exactly one invoice per period, every one issued, numbered 1..N without a gap or a duplicate, "+
		"and no pending item taken twice", func() {
		ws := newWorkspace("schedules")
		Expect(k8s.Create(ctx, builder.Customer(ws, "acme"))).To(Succeed())
		awaitFinalizer(ws, "acme")

		// Monthly from the 1st eleven months ago: twelve periods are due,
		// this month's included, all missed, and issue_all issues them.
		now := time.Now().UTC()
		first := time.Date(now.Year(), now.Month()-11, 1, 0, 0, 0, 0, time.UTC)
		const schedules, periods = 200, 12

		issued := func() int {
			var list billingv1.InvoiceList
			Expect(k8s.List(ctx, &list, crclient.InNamespace(ws))).To(Succeed())
			return len(list.Items)
		}
		// addItems adds a pending item to each schedule, named after round;
		// its line's description is its name, to find it on an invoice.
		var items []string
		addItems := func(round string) {
			for i := range schedules {
				name := fmt.Sprintf("%s-%03d", round, i)
				Expect(k8s.Create(ctx, builder.PendingItem(ws, name, fmt.Sprintf("rent-%03d", i), name, 100))).To(Succeed())
				items = append(items, name)
			}
		}
		By("creating the schedules, and a pending item for each, while no manager runs")
		manager.kill()
		for i := range schedules {
			Expect(k8s.Create(ctx, builder.InvoiceSchedule(ws, fmt.Sprintf("rent-%03d", i), "acme",
				first.Format(time.DateOnly)))).To(Succeed())
		}
		addItems("before")

		By("starting the manager and killing it twice while it catches up")
		manager = startManager()
		Eventually(issued).WithTimeout(time.Minute).Should(BeNumerically(">=", 50))
		manager.kill()
		GinkgoWriter.Printf("Killed the manager after %d invoices\n", issued())
		addItems("between")
		before := issued()
		manager = startManager()
		Eventually(issued).WithTimeout(time.Minute).Should(BeNumerically(">=", before+50))
		manager.kill()
		GinkgoWriter.Printf("Killed the restarted manager after %d invoices\n", issued())
		time.Sleep(500 * time.Millisecond)
		manager = startManager()

		By("waiting for every schedule to have issued its twelve periods")
		Eventually(func(g Gomega) {
			var list billingv1.InvoiceScheduleList
			g.Expect(k8s.List(ctx, &list, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(list.Items).To(HaveLen(schedules))
			for _, s := range list.Items {
				g.Expect(s.Status.IssuedCount).To(BeEquivalentTo(periods), "schedule %s", s.Name)
			}
		}).WithTimeout(3 * time.Minute).Should(Succeed())

		By("checking one invoice per period, each issued, numbered 1..N once")
		var invoices billingv1.InvoiceList
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &invoices, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(invoices.Items).To(HaveLen(schedules * periods))
			for _, inv := range invoices.Items {
				g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued), "invoice %s", inv.Name)
			}
		}).WithTimeout(2 * time.Minute).Should(Succeed())
		want := map[string]bool{}
		for i := range schedules {
			for m := range periods {
				want[fmt.Sprintf("rent-%03d-%s", i, first.AddDate(0, m, 0).Format("20060102"))] = true
			}
		}
		var sequences []int64
		for _, inv := range invoices.Items {
			Expect(want).To(HaveKey(inv.Name), "an invoice of no period: %s", inv.Name)
			delete(want, inv.Name)
			Expect(inv.Status.Sequence).NotTo(BeNil(), "invoice %s", inv.Name)
			sequences = append(sequences, *inv.Status.Sequence)
		}
		Expect(want).To(BeEmpty(), "periods without an invoice")

		By("checking that each pending item is on at most one invoice, the one its status names")
		carriedBy := map[string][]string{}
		for _, inv := range invoices.Items {
			for _, it := range inv.Spec.Items {
				if it.Description != "Rent" {
					carriedBy[it.Description] = append(carriedBy[it.Description], inv.Name)
				}
			}
		}
		var pending billingv1.PendingItemList
		Expect(k8s.List(ctx, &pending, crclient.InNamespace(ws))).To(Succeed())
		Expect(pending.Items).To(HaveLen(len(items)))
		taken := 0
		for _, item := range pending.Items {
			on := carriedBy[item.Name]
			Expect(len(on)).To(BeNumerically("<=", 1), "pending item %s is on invoices %v", item.Name, on)
			if len(on) == 1 {
				Expect(item.Status.Invoice).To(Equal(on[0]), "pending item %s", item.Name)
				taken++
				continue
			}
			// An item added after its schedule issued its last due period
			// waits for next month's.
			Expect(item.Status.Invoice).To(BeEmpty(), "pending item %s names an invoice that does not carry it", item.Name)
			Expect(item.Name).To(HavePrefix("between-"), "pending item %s, there before the first start, was not taken", item.Name)
		}
		GinkgoWriter.Printf("%d of %d pending items taken, none twice\n", taken, len(items))
		slices.Sort(sequences)
		for i, sequence := range sequences {
			Expect(sequence).To(Equal(int64(i+1)), "the issued sequences are not exactly 1..%d", len(sequences))
		}
	})
})
