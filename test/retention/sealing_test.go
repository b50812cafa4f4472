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

package retention

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// forbidden matches a refusal by a policy whose message holds text.
func forbidden(text string) OmegaMatcher {
	return SatisfyAll(WithTransform(apierrors.IsForbidden, BeTrue()), MatchError(ContainSubstring(text)))
}

// sealedInPatch is the merge patch that labels a record sealed in seal.
func sealedInPatch(seal string) client.Patch {
	GinkgoHelper()
	data, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"labels": map[string]string{billingv1.LabelSealedIn: seal}}})
	Expect(err).NotTo(HaveOccurred())
	return client.RawPatch(types.MergePatchType, data)
}

// aSeal returns seal 1 of ns holding an issued invoice (not created).
func aSeal(ns string) *billingv1.LedgerSeal {
	GinkgoHelper()
	inv := builder.Invoice(ns, "inv-sealed", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 15000))
	inv.Status.Phase, inv.Status.Number = billingv1.InvoiceIssued, "INV-000001"
	s, err := builder.LedgerSeal(ns, 1, billingv1.ZeroHash, metav1.NewTime(time.Now().Truncate(time.Second)), inv)
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("The retention policies of sealing (config/policy)", func() {
	It("lets the manager's ServiceAccount alone delete a sealed original, and only once labelled sealed-in", func() {
		ns := newNamespace()
		records := []client.Object{
			createInvoice(ns, "inv-issued", billingv1.InvoiceIssued),
			createCreditNote(ns, "cn-issued", billingv1.CreditNoteIssued),
			createPayment(ns, "pay-recorded", billingv1.PaymentRecorded),
			createCreditApplication(ns, "capp-applied", string(billingv1.CreditApplicationApplied), "EUR"),
			createWriteOff(ns, "wo-recorded", string(billingv1.WriteOffRecorded), "EUR"),
			createRefund(ns, "rf-recorded", string(billingv1.RefundRecorded), "EUR"),
			createReminder(ns, "em-reminder", billingv1.EmailSent, true),
		}
		for _, obj := range records {
			By("refusing " + obj.GetName() + "'s deletion to the manager while it is not labelled")
			Eventually(func() error { return manager.Delete(ctx, obj) }).Should(forbidden("retained"))

			By("refusing the label to a person")
			Expect(k8s.Patch(ctx, obj, sealedInPatch("seal-000001"))).
				To(forbidden("billing.invoicing.dev/sealed-in is set by the invoicing manager alone"))

			By("letting the manager label it, which a person still cannot delete")
			Expect(manager.Patch(ctx, obj, sealedInPatch("seal-000001"))).To(Succeed())
			Expect(k8s.Delete(ctx, obj)).To(forbidden("retained"))

			By("refusing a person's removal of the label")
			Expect(k8s.Patch(ctx, obj, client.RawPatch(types.MergePatchType,
				[]byte(`{"metadata":{"labels":{"`+billingv1.LabelSealedIn+`":null}}}`)))).
				To(forbidden("billing.invoicing.dev/sealed-in"))

			By("letting the manager delete it")
			Expect(manager.Delete(ctx, obj)).To(Succeed())
			Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue())
		}
	})

	It("refuses a label that names no seal, and a manifest that carries the label, to anyone but the manager", func() {
		ns := newNamespace()
		inv := createInvoice(ns, "inv-issued", billingv1.InvoiceIssued)
		Eventually(func() error { return manager.Patch(ctx, inv, sealedInPatch("not-a-seal")) }).Should(Succeed())
		Expect(manager.Delete(ctx, inv)).To(forbidden("retained as"))

		labelled := builder.Invoice(ns, "inv-labelled", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 15000))
		labelled.Labels = map[string]string{billingv1.LabelSealedIn: "seal-000001"}
		Expect(k8s.Create(ctx, labelled)).To(forbidden("billing.invoicing.dev/sealed-in"))
	})

	It("refuses everyone the deletion of a seal, and writing one to anyone but the manager", func() {
		ns := newNamespace()
		s := aSeal(ns)
		Eventually(func() error { return k8s.Create(ctx, s.DeepCopy()) }).
			Should(forbidden("seals are written by the invoicing manager alone"))
		Eventually(func() error { return manager.Create(ctx, s) }).Should(Succeed())

		By("refusing a person's write of its status")
		s.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeLedgerSealed, Sequence: 1,
			CreatedAt: metav1.Now()}}
		Expect(k8s.Status().Update(ctx, s.DeepCopy())).To(forbidden("seals are written by the invoicing manager alone"))
		Expect(manager.Status().Update(ctx, s)).To(Succeed())

		By("refusing its deletion to a person and to the manager")
		Eventually(func() error { return k8s.Delete(ctx, s) }).Should(forbidden("seals cannot be deleted"))
		Expect(manager.Delete(ctx, s)).To(forbidden("seals cannot be deleted"))

		By("letting it go with its namespace")
		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, s) }).Should(Succeed())
	})
})
