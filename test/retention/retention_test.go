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
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// retained is the refusal of the policy for the invoice named name.
func retained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring("invoice "+name+" is issued and is retained as a legal record")),
		MatchError(ContainSubstring("docs/design.md#retention-of-issued-invoices")),
	)
}

// creditNoteRetained is the refusal of the policy for the credit note named
// name.
func creditNoteRetained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring("credit note "+name+" is issued and is retained as a legal record")),
		MatchError(ContainSubstring("docs/design.md#retention-of-issued-invoices")),
	)
}

// paymentRetained is the refusal of the policy for the payment named name.
func paymentRetained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring("payment "+name+" is recorded and is retained as a legal record")),
		MatchError(ContainSubstring("docs/design.md#retention-of-issued-invoices")),
	)
}

var _ = Describe("The retention policies (config/policy)", func() {
	It("refuses to delete an issued invoice, with a message that says why, even forced with no grace period", func() {
		ns := newNamespace()
		inv := createInvoice(ns, "inv-issued", billingv1.InvoiceIssued)

		Eventually(func() error { return k8s.Delete(ctx, inv) }).Should(retained("inv-issued"))
		Expect(k8s.Delete(ctx, inv, client.GracePeriodSeconds(0))).To(retained("inv-issued"),
			"kubectl delete --force --grace-period=0")
		Expect(k8s.Delete(ctx, inv, client.PropagationPolicy(metav1.DeletePropagationForeground))).
			To(retained("inv-issued"))
		Expect(exists(inv)()).To(Succeed())
		Expect(inv.DeletionTimestamp).To(BeNil(), "not even marked for deletion")
	})

	It("stops a DeleteCollection at an issued invoice and keeps every issued one", func() {
		ns := newNamespace()
		issued := []*billingv1.Invoice{
			createInvoice(ns, "inv-b", billingv1.InvoiceIssued),
			createInvoice(ns, "inv-d", billingv1.InvoiceIssued),
		}
		createInvoice(ns, "inv-a", "")
		createInvoice(ns, "inv-c", billingv1.InvoiceInvalid)
		Eventually(func() error { return k8s.Delete(ctx, issued[0]) }).Should(retained("inv-b"))

		By("deleting the collection: each item is admitted on its own, and the first issued one ends it")
		err := k8s.DeleteAllOf(ctx, &billingv1.Invoice{}, client.InNamespace(ns))
		Expect(err).To(MatchError(ContainSubstring("is issued and is retained as a legal record")))
		for _, inv := range issued {
			Expect(exists(inv)()).To(Succeed(), inv.Name)
			Expect(inv.DeletionTimestamp).To(BeNil(), inv.Name)
		}
	})

	It("deletes invoices that were never issued, Pending or Invalid", func() {
		ns := newNamespace()
		probe := createInvoice(ns, "inv-issued", billingv1.InvoiceIssued)
		Eventually(func() error { return k8s.Delete(ctx, probe) }).Should(retained("inv-issued"),
			"the policy is in effect in this namespace")

		for _, inv := range []*billingv1.Invoice{
			createInvoice(ns, "inv-pending", ""),
			createInvoice(ns, "inv-invalid", billingv1.InvoiceInvalid),
		} {
			Expect(k8s.Delete(ctx, inv)).To(Succeed(), inv.Name)
			Expect(apierrors.IsNotFound(exists(inv)())).To(BeTrue(), "%s is gone", inv.Name)
		}
		pending := createInvoice(ns, "inv-pending-2", billingv1.InvoicePending)
		Expect(k8s.DeleteAllOf(ctx, &billingv1.Invoice{}, client.InNamespace(ns),
			client.MatchingFields{"metadata.name": pending.Name})).To(Succeed())
		Expect(apierrors.IsNotFound(exists(pending)())).To(BeTrue())
	})

	It("allows deleting an issued invoice once its namespace is being deleted", func() {
		ns := newNamespace()
		inv := createInvoice(ns, "inv-issued", billingv1.InvoiceIssued)
		Eventually(func() error { return k8s.Delete(ctx, inv) }).Should(retained("inv-issued"))

		By("deleting the namespace, which stays Terminating without a namespace controller")
		namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
		Expect(k8s.Delete(ctx, namespace)).To(Succeed())
		Expect(exists(namespace)()).To(Succeed())
		Expect(namespace.DeletionTimestamp).NotTo(BeNil())
		Expect(namespace.Status.Phase).To(Equal(corev1.NamespaceTerminating))

		By("deleting the invoice as the namespace controller would")
		Eventually(func() error { return k8s.Delete(ctx, inv, client.GracePeriodSeconds(0)) }).Should(Succeed())
		Expect(apierrors.IsNotFound(exists(inv)())).To(BeTrue())
	})

	It("lets another namespace keep its issued invoices while one namespace is being deleted", func() {
		kept, doomed := newNamespace(), newNamespace()
		inv := createInvoice(kept, "inv-issued", billingv1.InvoiceIssued)
		Eventually(func() error { return k8s.Delete(ctx, inv) }).Should(retained("inv-issued"))
		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: doomed}})).To(Succeed())
		Consistently(func() error { return k8s.Delete(ctx, inv, client.GracePeriodSeconds(0)) }, "2s", "200ms").
			Should(retained("inv-issued"))
	})

	It("refuses to delete a workspace's invoice sequence unless its namespace is being deleted", func() {
		ns := newNamespace()
		seq := &billingv1.InvoiceSequence{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: billingv1.InvoiceSequenceName},
			Spec:       billingv1.InvoiceSequenceSpec{Next: 3},
		}
		Expect(k8s.Create(ctx, seq)).To(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, seq, client.GracePeriodSeconds(0)) }).Should(SatisfyAll(
			WithTransform(apierrors.IsForbidden, BeTrue()),
			MatchError(ContainSubstring("invoice sequence invoices holds the invoice numbering of its workspace")),
		))
		Expect(k8s.DeleteAllOf(ctx, &billingv1.InvoiceSequence{}, client.InNamespace(ns))).
			To(MatchError(ContainSubstring("numbering would restart at 1")))
		Expect(exists(seq)()).To(Succeed())

		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, seq) }).Should(Succeed())
		Expect(apierrors.IsNotFound(exists(seq)())).To(BeTrue())
	})

	Describe("of credit notes and payments", func() {
		It("refuses to delete an issued credit note, even forced with no grace period", func() {
			ns := newNamespace()
			createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			cn := createCreditNote(ns, "cn-issued", billingv1.CreditNoteIssued)

			Eventually(func() error { return k8s.Delete(ctx, cn) }).Should(creditNoteRetained("cn-issued"))
			Expect(k8s.Delete(ctx, cn, client.GracePeriodSeconds(0))).To(creditNoteRetained("cn-issued"),
				"kubectl delete --force --grace-period=0")
			Expect(k8s.DeleteAllOf(ctx, &billingv1.CreditNote{}, client.InNamespace(ns))).
				To(creditNoteRetained("cn-issued"))
			Expect(exists(cn)()).To(Succeed())
			Expect(cn.DeletionTimestamp).To(BeNil(), "not even marked for deletion")
		})

		It("refuses to delete a recorded payment, even forced with no grace period", func() {
			ns := newNamespace()
			createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			pay := createPayment(ns, "pay-recorded", billingv1.PaymentRecorded)

			Eventually(func() error { return k8s.Delete(ctx, pay) }).Should(paymentRetained("pay-recorded"))
			Expect(k8s.Delete(ctx, pay, client.GracePeriodSeconds(0))).To(paymentRetained("pay-recorded"),
				"kubectl delete --force --grace-period=0")
			Expect(k8s.DeleteAllOf(ctx, &billingv1.Payment{}, client.InNamespace(ns))).
				To(paymentRetained("pay-recorded"))
			Expect(exists(pay)()).To(Succeed())
			Expect(pay.DeletionTimestamp).To(BeNil(), "not even marked for deletion")
		})

		It("deletes credit notes never issued (Pending, Rejected) and payments not recorded (Pending)", func() {
			ns := newNamespace()
			createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			cnProbe := createCreditNote(ns, "cn-probe", billingv1.CreditNoteIssued)
			payProbe := createPayment(ns, "pay-probe", billingv1.PaymentRecorded)
			Eventually(func() error { return k8s.Delete(ctx, cnProbe) }).Should(creditNoteRetained("cn-probe"),
				"the credit notes' policy is in effect in this namespace")
			Eventually(func() error { return k8s.Delete(ctx, payProbe) }).Should(paymentRetained("pay-probe"),
				"the payments' policy is in effect in this namespace")

			for _, obj := range []client.Object{
				createCreditNote(ns, "cn-new", ""),
				createCreditNote(ns, "cn-pending", billingv1.CreditNotePending),
				createCreditNote(ns, "cn-rejected", billingv1.CreditNoteRejected),
				createPayment(ns, "pay-new", ""),
				createPayment(ns, "pay-pending", billingv1.PaymentPending),
			} {
				Expect(k8s.Delete(ctx, obj)).To(Succeed(), obj.GetName())
				Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "%s is gone", obj.GetName())
			}
		})

		It("refuses to delete a credit note being issued and a payment being recorded, which may be in the "+
			"invoice's ledger already", func() {
			ns := newNamespace()
			createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			cn := createCreditNote(ns, "cn-entering", "")
			total := int64(15000)
			cn.Status.Phase, cn.Status.Total = billingv1.CreditNotePending, &total
			Expect(k8s.Status().Update(ctx, cn)).To(Succeed())
			pay := createPayment(ns, "pay-entering", "")
			pay.Status.Phase, pay.Status.Currency = billingv1.PaymentPending, "USD"
			Expect(k8s.Status().Update(ctx, pay)).To(Succeed())

			Eventually(func() error { return k8s.Delete(ctx, cn) }).Should(And(
				MatchError(ContainSubstring("credit note cn-entering is being issued")),
				MatchError(ContainSubstring("ledger of invoice "+creditedInvoice)),
				WithTransform(apierrors.IsForbidden, BeTrue())))
			Eventually(func() error { return k8s.Delete(ctx, pay) }).Should(And(
				MatchError(ContainSubstring("payment pay-entering is being recorded in the ledger of invoice "+
					creditedInvoice)),
				WithTransform(apierrors.IsForbidden, BeTrue())))

			By("letting both go once nothing of them can be in the ledger")
			cn.Status.Phase = billingv1.CreditNoteRejected
			Expect(k8s.Status().Update(ctx, cn)).To(Succeed())
			pay.Status.Conditions = []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse,
				Reason: billingv1.ReasonLedgerFull, Message: "full", LastTransitionTime: metav1.Now()}}
			Expect(k8s.Status().Update(ctx, pay)).To(Succeed())
			Eventually(func() error { return k8s.Delete(ctx, cn) }).Should(Succeed())
			Eventually(func() error { return k8s.Delete(ctx, pay) }).Should(Succeed())
		})

		It("lets a workspace being deleted take its issued credit notes and recorded payments", func() {
			ns := newNamespace()
			inv := createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			cn := createCreditNote(ns, "cn-kept", billingv1.CreditNoteIssued)
			pay := createPayment(ns, "pay-kept", billingv1.PaymentRecorded)
			Eventually(func() error { return k8s.Delete(ctx, cn) }).Should(creditNoteRetained("cn-kept"))
			Eventually(func() error { return k8s.Delete(ctx, pay) }).Should(paymentRetained("pay-kept"))

			By("deleting the namespace, which stays Terminating without a namespace controller")
			Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())

			By("deleting its contents as the namespace controller would: collections, whatever their state")
			Eventually(func() error {
				return k8s.DeleteAllOf(ctx, &billingv1.CreditNote{}, client.InNamespace(ns), client.GracePeriodSeconds(0))
			}).Should(Succeed())
			Expect(k8s.DeleteAllOf(ctx, &billingv1.Payment{}, client.InNamespace(ns), client.GracePeriodSeconds(0))).
				To(Succeed())
			Expect(k8s.DeleteAllOf(ctx, &billingv1.Invoice{}, client.InNamespace(ns), client.GracePeriodSeconds(0))).
				To(Succeed())
			for _, obj := range []client.Object{cn, pay, inv} {
				Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "%s is gone", obj.GetName())
			}
		})
	})
})
