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
	"fmt"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// newDefaultProfile returns the billing profile that applies to the
// invoices of namespace ns.
func newDefaultProfile(ns string, spec billingv1.BillingProfileSpec) *billingv1.BillingProfile {
	return builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithProfileSpec(spec))
}

// issuedInvoices waits until every invoice of ns is issued and numbered,
// and returns them ordered by sequence.
func issuedInvoices(ns string, count int) []billingv1.Invoice {
	GinkgoHelper()
	var invoices []billingv1.Invoice
	Eventually(func(g Gomega) {
		list := &billingv1.InvoiceList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
		g.Expect(list.Items).To(HaveLen(count))
		for _, inv := range list.Items {
			g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued), "invoice %s", inv.Name)
			g.Expect(inv.Status.Sequence).NotTo(BeNil(), "invoice %s is issued without a sequence", inv.Name)
		}
		invoices = list.Items
	}).WithTimeout(time.Minute).Should(Succeed())
	slices.SortFunc(invoices, func(a, b billingv1.Invoice) int { return int(*a.Status.Sequence - *b.Status.Sequence) })
	return invoices
}

var _ = Describe("Invoice numbers", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("numbers a burst of concurrent invoices 1..N without a gap or a duplicate, in issue order", func() {
		const burst = 60
		var wg sync.WaitGroup
		for i := range burst {
			wg.Go(func() {
				defer GinkgoRecover()
				Expect(k8sClient.Create(ctx, builder.Invoice(ns, fmt.Sprintf("inv-%03d", i), builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)))).To(Succeed())
			})
		}
		wg.Wait()

		invoices := issuedInvoices(ns, burst)
		for i, inv := range invoices {
			Expect(*inv.Status.Sequence).To(Equal(int64(i+1)), "the sequences are not exactly 1..%d", burst)
			Expect(inv.Status.Number).To(Equal(fmt.Sprintf("INV-%06d", i+1)))
			Expect(inv.Status.DueAt.Time).To(Equal(inv.Status.IssuedAt.AddDate(0, 0, 30)))
			Expect(inv.Status.Issuer).To(BeNil(), "a workspace without a profile has no issuer")
			if i > 0 {
				Expect(inv.Status.IssuedAt.Time).To(BeTemporally(">=", invoices[i-1].Status.IssuedAt.Time),
					"invoice %s was issued before the one numbered before it", inv.Name)
			}
		}

		By("trimming the workspace's journal once every number is written")
		Eventually(func(g Gomega) {
			seq := &billingv1.InvoiceSequence{}
			g.Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: billingv1.InvoiceSequenceName}, seq)).To(Succeed())
			g.Expect(seq.Spec.Next).To(Equal(int64(burst + 1)))
			g.Expect(seq.Spec.Reserved).To(BeEmpty())
		}).WithTimeout(time.Minute).Should(Succeed())
	})

	It("gives an invalid invoice no number, and the next issued invoice the next sequence", func() {
		ghost := builder.Invoice(ns, "for-ghost", builder.WithCustomer("ghost"), builder.WithItem("Consulting", 1, 100))
		create(ghost)
		invalid := waitForReady(ghost, billingv1.ReasonCustomerNotFound)
		Expect(invalid.Status.Sequence).To(BeNil())
		Expect(invalid.Status.Number).To(BeEmpty())

		create(builder.Invoice(ns, "first", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)), builder.Invoice(ns, "second", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)))
		Eventually(func(g Gomega) {
			var numbers []string
			for _, name := range []string{"first", "second"} {
				inv := &billingv1.Invoice{}
				g.Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, inv)).To(Succeed())
				numbers = append(numbers, inv.Status.Number)
			}
			g.Expect(numbers).To(ConsistOf("INV-000001", "INV-000002"))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(getInvoice(g, ghost).Status.Sequence).To(BeNil())
		}).Should(Succeed())
	})

	It("numbers each workspace on its own, from 1", func() {
		other := newNamespace()
		create(builder.Customer(other, "acme"))
		create(builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)), builder.Invoice(other, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)))
		for _, workspace := range []string{ns, other} {
			invoices := issuedInvoices(workspace, 1)
			Expect(invoices[0].Status.Number).To(Equal("INV-000001"), "workspace %s", workspace)
		}
	})

	It("freezes the profile's prefix, issuer and due date and the customer's address on issue", func() {
		address := billingv1.Address{Line1: "1 Main St", City: "Springfield", PostalCode: "12345", Country: "US"}
		create(builder.Customer(ns, "initech", builder.WithDisplayName("Initech"), builder.WithAddress(address), builder.WithTaxID("US-99-1234567")))
		issuer := billingv1.Issuer{Name: "Acme Billing GmbH", Email: "billing@acme.example", TaxID: "DE123456789"}
		profile := newDefaultProfile(ns, billingv1.BillingProfileSpec{
			Issuer: &issuer, NumberPrefix: ptr.To("ACME-"), PaymentTermsDays: ptr.To[int32](14),
		})
		create(profile)
		// The invoice controller reads the profile from its cache: wait
		// until the profile controller, which shares it, has seen it.
		Eventually(func(g Gomega) {
			current := &billingv1.BillingProfile{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(profile), current)).To(Succeed())
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonDefault))
		}).Should(Succeed())

		first := builder.Invoice(ns, "first", builder.WithCustomer("initech"), builder.WithItem("Consulting", 1, 100))
		create(first)
		issued := issuedInvoices(ns, 1)[0]
		Expect(issued.Status.Number).To(Equal("ACME-000001"))
		Expect(issued.Status.Issuer).To(Equal(&issuer))
		Expect(issued.Status.DueAt.Time).To(Equal(issued.Status.IssuedAt.AddDate(0, 0, 14)))
		Expect(issued.Status.BillTo).To(Equal(&billingv1.BillTo{
			Name: "Initech", Email: "billing@initech.example", Address: &address, TaxID: "US-99-1234567",
		}))

		By("editing the profile and the customer, which changes only invoices issued later")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(profile), profile)).To(Succeed())
		profile.Spec.NumberPrefix = ptr.To("NEW-")
		profile.Spec.Issuer.Name = "Renamed GmbH"
		profile.Spec.PaymentTermsDays = ptr.To[int32](60)
		Expect(k8sClient.Update(ctx, profile)).To(Succeed())
		customer := &billingv1.Customer{}
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "initech"}, customer)).To(Succeed())
		customer.Spec.Address.City = "Shelbyville"
		Expect(k8sClient.Update(ctx, customer)).To(Succeed())
		// The invoice controller reads both from the cache it shares with
		// their own controllers: once those have observed the edits, an
		// invoice created next is issued with them. (Created before, it
		// could be issued, and frozen, with the old ones.)
		Eventually(func(g Gomega) {
			p, c := &billingv1.BillingProfile{}, &billingv1.Customer{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(profile), p)).To(Succeed())
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(customer), c)).To(Succeed())
			g.Expect(p.Status.ObservedGeneration).To(Equal(p.Generation))
			g.Expect(c.Status.ObservedGeneration).To(Equal(c.Generation))
		}).Should(Succeed())

		create(builder.Invoice(ns, "second", builder.WithCustomer("initech"), builder.WithItem("Consulting", 1, 100)))
		Eventually(func(g Gomega) {
			second := &billingv1.Invoice{}
			g.Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "second"}, second)).To(Succeed())
			g.Expect(second.Status.Number).To(Equal("NEW-000002"))
			g.Expect(second.Status.Issuer.Name).To(Equal("Renamed GmbH"))
			g.Expect(second.Status.BillTo.Address.City).To(Equal("Shelbyville"))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			current := getInvoice(g, first)
			g.Expect(current.Status.Number).To(Equal("ACME-000001"))
			g.Expect(current.Status.Issuer).To(Equal(&issuer))
			g.Expect(current.Status.DueAt).To(Equal(issued.Status.DueAt))
			g.Expect(current.Status.BillTo.Address).To(Equal(&address))
		}).Should(Succeed())
	})

	It("refuses to change or remove a number once it is written", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
		create(inv)
		issued := issuedInvoices(ns, 1)[0]

		changed := issued.DeepCopy()
		changed.Status.Number = "INV-000099"
		Expect(k8sClient.Status().Update(ctx, changed)).To(MatchError(ContainSubstring("status.number cannot change once assigned")))
		removed := issued.DeepCopy()
		removed.Status.Sequence = nil
		Expect(k8sClient.Status().Update(ctx, removed)).To(MatchError(ContainSubstring("status.sequence cannot change once assigned")))
	})
})
