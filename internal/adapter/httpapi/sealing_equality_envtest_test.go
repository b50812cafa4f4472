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

package httpapi

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// Sealing moves records out of the live set into seals, and the adapter
// serves them from there (issue 51): what a customer's statement and the
// receivables aging say of a date must not change when the books are
// closed and the records sealed. This spec builds random histories of
// invoices, payments, credit notes, overpayments, applied credit,
// write-offs and refunds, reads both reports, closes the books, waits until
// the settled records are sealed, and reads them again.

var _ = Describe("Sealing a random history", Label(ledgerController, moneyController, periodCloseController), func() {
	It("changes no statement and no aging at any date", func() {
		rng := rand.New(rand.NewPCG(51, uint64(GinkgoRandomSeed())))
		GinkgoWriter.Printf("history seed %d\n", GinkgoRandomSeed())
		ns := newWorkspace()
		customers := []string{"cus-a", "cus-b"}
		for _, c := range customers {
			Expect(k8s.Create(ctx, builder.Customer(ns, c, builder.WithEmail(c+"@example.com")))).To(Succeed())
		}
		create := func(obj client.Object) {
			GinkgoHelper()
			Expect(k8s.Create(ctx, obj)).To(Succeed())
		}
		// settledAll waits until every object of list is settled.
		settledAll := func(list client.ObjectList) {
			GinkgoHelper()
			Eventually(func(g Gomega) {
				g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
				for _, obj := range listed(list) {
					s, ok := obj.(billingv1.Settled)
					g.Expect(ok && s.Settled()).To(BeTrue(), "%T %s is not settled", obj, obj.GetName())
				}
			}).WithTimeout(time.Minute).Should(Succeed())
		}

		By("issuing random invoices to two customers")
		type fate int
		const (
			paid fate = iota
			void
			creditedThenPaid
			overpaid
			writtenOff
			byCredit
			open
		)
		type planned struct {
			name, customer string
			amount         int64
			fate           fate
		}
		var plan []planned
		for _, c := range customers {
			for i := range 10 + rng.IntN(5) {
				f := fate(rng.IntN(int(open) + 1))
				plan = append(plan, planned{name: fmt.Sprintf("inv-%s-%02d", c, i), customer: c,
					amount: int64(1000 + rng.IntN(49_000)), fate: f})
			}
		}
		for _, p := range plan {
			create(builder.Invoice(ns, p.name, builder.WithCustomer(p.customer), builder.WithNumberedItems(1, 1, p.amount)))
		}
		allIssued := func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, client.InNamespace(ns))).To(Succeed())
			for _, inv := range invs.Items {
				g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued), inv.Name)
			}
		}
		Eventually(allIssued).WithTimeout(time.Minute).Should(Succeed())

		By("paying, crediting, overpaying and writing off")
		for _, p := range plan {
			switch p.fate {
			case paid:
				half := p.amount / 2
				create(builder.Payment(ns, "pay-"+p.name+"-1", p.name, half))
				create(builder.Payment(ns, "pay-"+p.name+"-2", p.name, p.amount-half))
			case void:
				create(builder.CreditNote(ns, "cn-"+p.name, p.name, builder.WithFullCredit()))
			case creditedThenPaid:
				create(builder.CreditNote(ns, "cn-"+p.name, p.name, builder.WithCreditedAmount(0, p.amount/4)))
			case overpaid:
				create(builder.Payment(ns, "pay-"+p.name, p.name, p.amount+int64(100+rng.IntN(5000))))
			case writtenOff:
				if rng.IntN(2) == 0 {
					create(builder.Payment(ns, "pay-"+p.name, p.name, p.amount/3))
				}
			case open:
				if rng.IntN(2) == 0 {
					create(builder.Payment(ns, "pay-"+p.name, p.name, p.amount/2))
				}
			}
		}
		settledAll(&billingv1.PaymentList{})
		settledAll(&billingv1.CreditNoteList{})
		for _, p := range plan {
			switch p.fate {
			case creditedThenPaid:
				var inv billingv1.Invoice
				Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: p.name}, &inv)).To(Succeed())
				create(builder.Payment(ns, "pay-"+p.name, p.name, inv.Status.Balance.AmountRemaining))
			case writtenOff:
				create(builder.WriteOff(ns, "wo-"+p.name, p.name, "The customer went away."))
			}
		}
		settledAll(&billingv1.PaymentList{})
		settledAll(&billingv1.WriteOffList{})

		By("applying credit where the customer has it, paying the rest, and refunding some")
		for _, c := range customers {
			var cus billingv1.Customer
			Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: c}, &cus)).To(Succeed())
			available, currency := int64(0), ""
			for _, b := range billing.CreditBalance(cus.Status.Credit) {
				available, currency = b.Amount, b.Currency
			}
			for _, p := range plan {
				if p.customer != c || p.fate != byCredit {
					continue
				}
				applied := min(available, p.amount)
				if applied > 0 {
					create(builder.CreditApplication(ns, "capp-"+p.name, p.name, applied))
					available -= applied
				}
				if applied < p.amount {
					create(builder.Payment(ns, "pay-"+p.name, p.name, p.amount-applied))
				}
			}
			if available > 1 {
				create(builder.Refund(ns, "rf-"+c, c, available/2, currency))
			}
		}
		settledAll(&billingv1.CreditApplicationList{})
		settledAll(&billingv1.RefundList{})
		settledAll(&billingv1.PaymentList{})

		today := time.Now().UTC()
		reports := func() map[string]string {
			out := map[string]string{}
			for _, c := range customers {
				for _, from := range []int{-3, -1, 0} {
					path := fmt.Sprintf("/v1/customers/%s/statement?from=%s&to=%s", c,
						today.AddDate(0, 0, from).Format(time.DateOnly), today.Format(time.DateOnly))
					got := send(http.MethodGet, path, inWorkspace(ns))
					Expect(got.status).To(Equal(http.StatusOK), "%s: %s", path, got.body)
					out[path] = string(got.body)
				}
			}
			for _, asOf := range []int{-1, 0} {
				path := "/v1/reports/receivables_aging?as_of=" + today.AddDate(0, 0, asOf).Format(time.DateOnly)
				got := send(http.MethodGet, path, inWorkspace(ns))
				Expect(got.status).To(Equal(http.StatusOK), "%s: %s", path, got.body)
				out[path] = string(got.body)
			}
			return out
		}
		before := reports()
		// The reports of today hold the history: a row for each kind of
		// record, and what the written-off and open invoices leave.
		for _, c := range customers {
			statement := before[fmt.Sprintf("/v1/customers/%s/statement?from=%s&to=%s", c,
				today.Format(time.DateOnly), today.Format(time.DateOnly))]
			Expect(statement).To(And(ContainSubstring(`"type":"invoice"`), ContainSubstring(`"type":"payment"`)))
		}
		Expect(before["/v1/reports/receivables_aging?as_of="+today.Format(time.DateOnly)]).To(ContainSubstring(`"current":`))

		By("closing the books and waiting until every settled invoice is sealed")
		time.Sleep(1100 * time.Millisecond) // the close's moment is past
		create(&billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "now"},
			Spec: billingv1.PeriodCloseSpec{Through: time.Now().Add(-time.Second).UTC().Format(time.RFC3339)}})
		openInvoices := 0
		for _, p := range plan {
			if p.fate == open {
				openInvoices++
			}
		}
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, client.InNamespace(ns))).To(Succeed())
			g.Expect(invs.Items).To(HaveLen(openInvoices))
			for _, list := range []client.ObjectList{&billingv1.CreditApplicationList{}, &billingv1.WriteOffList{},
				&billingv1.RefundList{}} {
				g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
				g.Expect(listed(list)).To(BeEmpty(), "%T", list)
			}
		}).WithTimeout(2 * time.Minute).Should(Succeed())

		By("reading the same statements and aging from the seals")
		Eventually(reports).Should(Equal(before))
	})
})

// listed returns the items of list.
func listed(list client.ObjectList) []client.Object {
	GinkgoHelper()
	items, err := meta.ExtractList(list)
	Expect(err).NotTo(HaveOccurred())
	out := make([]client.Object, 0, len(items))
	for _, item := range items {
		out = append(out, item.(client.Object))
	}
	return out
}
