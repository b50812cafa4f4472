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
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

var _ = Describe("Invoice controller, with tax", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("issues lines at 19% and 7% with a breakdown per rate, and kubectl's TOTAL column shows the total with tax", func() {
		create(builder.Customer(ns, "acme"))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithTaxedItem("Consulting", 3, 15_000, builder.StandardTax("19")),
			builder.WithTaxedItem("Books", 2, 2_450, builder.StandardTax("7.0")))
		create(inv)

		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.Subtotal).To(HaveValue(Equal(int64(49_900))))
		Expect(issued.Status.TaxBreakdown).To(Equal([]billingv1.TaxBreakdownEntry{
			managertest.Group(billingv1.TaxStandard, "19", 45_000, 8_550, ""),
			managertest.Group(billingv1.TaxStandard, "7", 4_900, 343, ""),
		}))
		Expect(issued.Status.TaxTotal).To(HaveValue(Equal(int64(8_893))))
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(58_793))))
		Expect(issued.Status.Items).To(Equal(managertest.ItemTaxes(builder.StandardTax("19"), builder.StandardTax("7"))))

		out, err := kubectl("get", "invoices", "--namespace", ns)
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(normalizeSpace(out)).To(ContainSubstring("inv-1 INV-000001 acme USD 587.93 Issued"))
	})

	It("freezes the profile's default tax at issue: a later change of the default alters nothing", func() {
		create(builder.Customer(ns, "acme"),
			builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithDefaultTax(builder.StandardTax("19"))))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)

		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(11_900))))
		Expect(issued.Status.Items).To(Equal(managertest.ItemTaxes(builder.StandardTax("19"))))
		Expect(issued.Spec.Items[0].Tax).To(BeNil(), "the default is frozen in the status, the spec is the user's")

		By("changing the profile's default to 20%")
		profile := &billingv1.BillingProfile{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: billingv1.DefaultBillingProfileName}, profile)).To(Succeed())
		profile.Spec.DefaultTax = builder.StandardTax("20")
		Expect(k8sClient.Update(ctx, profile)).To(Succeed())

		By("issuing a new invoice at 20%, while the first keeps 19%")
		later := builder.Invoice(ns, "inv-2", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(later)
		Expect(waitForReady(later, billingv1.ReasonIssued).Status.Total).To(HaveValue(Equal(int64(12_000))))
		Consistently(func(g Gomega) {
			current := getInvoice(g, inv)
			g.Expect(current.Status.Total).To(HaveValue(Equal(int64(11_900))))
			g.Expect(current.Status.TaxBreakdown).To(Equal(issued.Status.TaxBreakdown))
		}).WithTimeout(2 * time.Second).Should(Succeed())
	})

	It("keeps a reverse charge Invalid with TaxIDRequired until the customer has a tax id, then issues it", func() {
		create(builder.Customer(ns, "acme"),
			builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
				builder.WithIssuer(billingv1.Issuer{Name: "Example GmbH", TaxID: "DE123456789"})))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithTaxedItem("Consulting", 1, 10_000, builder.ReverseCharge()))
		create(inv)

		waiting := waitForReady(inv, billingv1.ReasonTaxIDRequired)
		Expect(waiting.Status.Phase).To(Equal(billingv1.InvoiceInvalid))
		Expect(waiting.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReconciling, metav1.ConditionTrue, billingv1.ReasonTaxIDRequired))
		Expect(waiting.Status.Sequence).To(BeNil(), "an invoice waiting for tax ids takes no number")
		expectEvent(inv, "Invoice", HaveField("Reason", billingv1.ReasonTaxIDRequired))

		By("setting the customer's tax id")
		customer := &billingv1.Customer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "acme"}, customer)).To(Succeed())
		customer.Spec.TaxID = "FR40303265045"
		Expect(k8sClient.Update(ctx, customer)).To(Succeed())

		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.BillTo.TaxID).To(Equal("FR40303265045"))
		Expect(issued.Status.Issuer.TaxID).To(Equal("DE123456789"))
		Expect(issued.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionReconciling))
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(10_000))))
	})

	It("issues a reverse charge waiting for the issuer's tax id as soon as the profile gets it", func() {
		create(builder.Customer(ns, "acme", builder.WithTaxID("FR40303265045")))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithTaxedItem("Consulting", 1, 10_000, builder.ReverseCharge()))
		create(inv)
		waiting := waitForReady(inv, billingv1.ReasonTaxIDRequired)
		ready := waiting.Status.Conditions
		Expect(strings.Join([]string{ready[0].Message, ready[len(ready)-1].Message}, " ")).
			To(ContainSubstring(`BillingProfile "default"'s spec.issuer.taxId`))

		create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
			builder.WithIssuer(billingv1.Issuer{Name: "Example GmbH", TaxID: "DE123456789"})))
		waitForReady(inv, billingv1.ReasonIssued)
	})
})
