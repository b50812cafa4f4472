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

package trim_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// gitops is the field manager the specs create objects as, standing for a
// GitOps tool whose field ownership must survive.
const gitops = "gitops-tool"

// managers lists obj's managedFields as manager/subresource, read live.
func managers(g Gomega, obj client.Object) []string {
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
	var out []string
	for _, e := range obj.GetManagedFields() {
		out = append(out, e.Manager+"/"+e.Subresource)
	}
	return out
}

var _ = Describe("Status ownership", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("keeps only the creator's field ownership of an issued invoice, a credit note and a payment, and no status's", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 2, 10_000))
		Expect(k8sClient.Create(ctx, inv, client.FieldOwner(gitops))).To(Succeed())
		issued := waitForReady(inv, billingv1.ReasonIssued)
		Eventually(func(g Gomega) { g.Expect(managers(g, inv)).To(Equal([]string{gitops + "/"})) }).Should(Succeed())

		note := builder.CreditNote(ns, "cn-1", "inv-1", builder.WithCreditedAmount(0, 5_000))
		Expect(k8sClient.Create(ctx, note, client.FieldOwner(gitops))).To(Succeed())
		eventually(note, func(g Gomega, n *billingv1.CreditNote) {
			g.Expect(n.Status.Phase).To(Equal(billingv1.CreditNoteIssued))
		})
		payment := builder.Payment(ns, "pay-1", "inv-1", 15_000)
		Expect(k8sClient.Create(ctx, payment, client.FieldOwner(gitops))).To(Succeed())
		eventually(payment, func(g Gomega, p *billingv1.Payment) {
			g.Expect(p.Status.Phase).To(Equal(billingv1.PaymentRecorded))
		})
		eventually(inv, func(g Gomega, i *billingv1.Invoice) {
			g.Expect(i.Status.Balance).NotTo(BeNil())
			g.Expect(i.Status.Balance.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid))
		})
		current := &billingv1.Invoice{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), current)).To(Succeed())
			g.Expect(current.Status.Events).To(ContainElement(HaveField("Type", billingv1.EventTypeInvoicePaid)))
		}).Should(Succeed())
		for _, obj := range []client.Object{inv, note, payment} {
			Eventually(func(g Gomega) { g.Expect(managers(g, obj)).To(Equal([]string{gitops + "/"})) }).Should(Succeed(),
				"%T %s", obj, obj.GetName())
		}

		By("leaving the status as the manager wrote it")
		Expect(current.Status.Number).To(Equal(issued.Status.Number))
		Expect(current.Status.Total).To(Equal(issued.Status.Total))
		Expect(current.Status.IssuedAt).To(Equal(issued.Status.IssuedAt))
	})

	It("leaves the field ownership of an object that changed since the status patch", func() {
		inv := builder.Invoice(ns, "inv-2", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		Expect(k8sClient.Create(ctx, inv, client.FieldOwner(gitops))).To(Succeed())
		waitForReady(inv, billingv1.ReasonIssued)
		current := inv.DeepCopy()
		Eventually(func(g Gomega) { g.Expect(managers(g, current)).To(Equal([]string{gitops + "/"})) }).Should(Succeed())

		stale := current.DeepCopy()
		stale.ResourceVersion = inv.ResourceVersion // as created, before the manager's writes
		stale.ManagedFields = append(stale.ManagedFields, metav1.ManagedFieldsEntry{
			Manager: "manager", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"})
		stale.ManagedFields[0].Manager = "someone-else"
		trim.DropStatusOwnershipOf(ctx, k8sClient, stale)

		after := &billingv1.Invoice{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), after)).To(Succeed())
		Expect(after.ResourceVersion).To(Equal(current.ResourceVersion))
		Expect(managers(Default, after)).To(Equal([]string{gitops + "/"}))
	})
})
