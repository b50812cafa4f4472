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

// creditCustomer is the customer whose credit the refunds of the specs pay
// back: the policies do not read it, nor does the API server.
const creditCustomer = "acme"

// moneyRecord is one kind of money on account as the specs use it: how to
// create one and write its status as the controller would, and what its
// policy says when it refuses a DELETE.
type moneyRecord struct {
	// kind is how the policy's messages name the kind.
	kind string
	// entered is the phase of one entered in its ledgers, which the policy
	// retains.
	entered string
	// enteredWord is how the policy's message says it is entered.
	enteredWord string
	// enteringWords is how the policy's message says it is being entered,
	// up to the name of what it is entered in.
	enteringWords string
	// ref is the name of what it is entered in: its invoice or customer.
	ref string
	// create creates one named name in namespace and, unless phase is
	// empty, writes that phase and currency to its status subresource.
	create func(namespace, name, phase, currency string) client.Object
}

// moneyRecords are the three kinds of money on account.
var moneyRecords = []moneyRecord{
	{kind: "credit application", entered: string(billingv1.CreditApplicationApplied), enteredWord: "applied",
		enteringWords: "is being applied to invoice ", ref: creditedInvoice, create: createCreditApplication},
	{kind: "refund", entered: string(billingv1.RefundRecorded), enteredWord: "recorded",
		enteringWords: "is being recorded in the credit of customer ", ref: creditCustomer, create: createRefund},
	{kind: "write-off", entered: string(billingv1.WriteOffRecorded), enteredWord: "recorded",
		enteringWords: "is being recorded in the ledger of invoice ", ref: creditedInvoice, create: createWriteOff},
}

// retained is the refusal of the policy for an entered record named name.
func (r moneyRecord) retained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring(r.kind+" "+name+" is "+r.enteredWord+" and is retained as a legal record")),
		MatchError(ContainSubstring("docs/design.md#retention-of-issued-invoices")),
	)
}

// beingEntered is the refusal of the policy for a record named name that
// is being entered.
func (r moneyRecord) beingEntered(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring(r.kind+" "+name+" "+r.enteringWords+r.ref)),
		MatchError(ContainSubstring("it can be deleted only if it ends Rejected")),
	)
}

// writeStatus writes the status of obj, set by its caller, to its status
// subresource as the controller would, unless phase is empty (a record the
// controller has not touched).
func writeStatus(obj client.Object, phase string) {
	GinkgoHelper()
	if phase != "" {
		Expect(k8s.Status().Update(ctx, obj)).To(Succeed(), obj.GetName())
	}
}

// createCreditApplication creates a credit application to creditedInvoice
// and, unless phase is empty, writes phase and currency to its status.
func createCreditApplication(namespace, name, phase, currency string) client.Object {
	GinkgoHelper()
	app := &billingv1.CreditApplication{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: billingv1.CreditApplicationSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: creditedInvoice},
			Amount:     5000,
		},
	}
	Expect(k8s.Create(ctx, app)).To(Succeed())
	app.Status.Phase, app.Status.Currency = billingv1.CreditApplicationPhase(phase), currency
	writeStatus(app, phase)
	return app
}

// createRefund creates a refund out of creditCustomer's credit and, unless
// phase is empty, writes phase and currency to its status.
func createRefund(namespace, name, phase, currency string) client.Object {
	GinkgoHelper()
	rf := &billingv1.Refund{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: billingv1.RefundSpec{
			CustomerRef: billingv1.CustomerReference{Name: creditCustomer},
			Amount:      5000,
			Currency:    "USD",
		},
	}
	Expect(k8s.Create(ctx, rf)).To(Succeed())
	rf.Status.Phase, rf.Status.Currency = billingv1.RefundPhase(phase), currency
	writeStatus(rf, phase)
	return rf
}

// createWriteOff creates a write-off of creditedInvoice and, unless phase
// is empty, writes phase and currency to its status.
func createWriteOff(namespace, name, phase, currency string) client.Object {
	GinkgoHelper()
	wo := &billingv1.WriteOff{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: billingv1.WriteOffSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: creditedInvoice},
			Reason:     "The customer went out of business",
		},
	}
	Expect(k8s.Create(ctx, wo)).To(Succeed())
	wo.Status.Phase, wo.Status.Currency = billingv1.WriteOffPhase(phase), currency
	writeStatus(wo, phase)
	return wo
}

// setPhase writes phase to the status of obj, one of the three kinds, as
// the controller would, keeping its currency.
func setPhase(obj client.Object, phase string) {
	GinkgoHelper()
	switch o := obj.(type) {
	case *billingv1.CreditApplication:
		o.Status.Phase = billingv1.CreditApplicationPhase(phase)
	case *billingv1.Refund:
		o.Status.Phase = billingv1.RefundPhase(phase)
	case *billingv1.WriteOff:
		o.Status.Phase = billingv1.WriteOffPhase(phase)
	default:
		Fail("not money on account: " + obj.GetName())
	}
	Expect(k8s.Status().Update(ctx, obj)).To(Succeed(), obj.GetName())
}

var _ = Describe("The retention of money on account (config/policy)", func() {
	It("refuses to delete an applied credit application, a recorded refund and a recorded write-off, "+
		"even forced with no grace period, even by the manager", func() {
		ns := newNamespace()
		createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
		for _, r := range moneyRecords {
			obj := r.create(ns, "entered", r.entered, "")

			Eventually(func() error { return k8s.Delete(ctx, obj) }).Should(r.retained("entered"), r.kind)
			Expect(k8s.Delete(ctx, obj, client.GracePeriodSeconds(0))).To(r.retained("entered"),
				"kubectl delete --force --grace-period=0 of a %s", r.kind)
			Expect(k8s.DeleteAllOf(ctx, obj, client.InNamespace(ns))).To(r.retained("entered"), r.kind)
			Expect(manager.Delete(ctx, obj)).To(r.retained("entered"),
				"no sealed-in exception: the manager does not seal a %s", r.kind)
			Expect(exists(obj)()).To(Succeed())
			Expect(obj.GetDeletionTimestamp()).To(BeNil(), "%s not even marked for deletion", r.kind)
		}
	})

	It("deletes credit applications, refunds and write-offs not entered (Pending) or rejected", func() {
		ns := newNamespace()
		createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
		for _, r := range moneyRecords {
			probe := r.create(ns, "probe", r.entered, "")
			Eventually(func() error { return k8s.Delete(ctx, probe) }).Should(r.retained("probe"),
				"the policy of the %s is in effect in this namespace", r.kind)

			for _, obj := range []client.Object{
				r.create(ns, "new", "", ""),
				r.create(ns, "pending", "Pending", ""),
				r.create(ns, "rejected", "Rejected", ""),
				r.create(ns, "rejected-entering", "Rejected", "USD"),
			} {
				Expect(k8s.Delete(ctx, obj)).To(Succeed(), "%s %s", r.kind, obj.GetName())
				Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "%s %s is gone", r.kind, obj.GetName())
			}
		}
	})

	It("refuses to delete one being entered (its currency written), which may count already, "+
		"until it ends Rejected", func() {
		ns := newNamespace()
		createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
		for _, r := range moneyRecords {
			obj := r.create(ns, "entering", "Pending", "USD")
			Eventually(func() error { return k8s.Delete(ctx, obj) }).Should(r.beingEntered("entering"), r.kind)
			Expect(k8s.DeleteAllOf(ctx, obj, client.InNamespace(ns))).To(r.beingEntered("entering"), r.kind)
			Expect(exists(obj)()).To(Succeed())

			By("letting the " + r.kind + " go once it ends Rejected, when nothing of it counts")
			setPhase(obj, "Rejected")
			Eventually(func() error { return k8s.Delete(ctx, obj) }).Should(Succeed(), r.kind)
			Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "the %s is gone", r.kind)
		}
	})

	It("lets a workspace being deleted take its applied credit applications, recorded refunds and write-offs",
		func() {
			ns := newNamespace()
			createInvoice(ns, creditedInvoice, billingv1.InvoiceIssued)
			var kept []client.Object
			for _, r := range moneyRecords {
				entered := r.create(ns, "kept", r.entered, "USD")
				entering := r.create(ns, "kept-entering", "Pending", "USD")
				Eventually(func() error { return k8s.Delete(ctx, entered) }).Should(r.retained("kept"), r.kind)
				Expect(k8s.Delete(ctx, entering)).To(r.beingEntered("kept-entering"), r.kind)
				kept = append(kept, entered, entering)
			}
			Expect(kept).To(HaveLen(2 * len(moneyRecords)))

			By("deleting the namespace, which stays Terminating without a namespace controller")
			Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())

			By("deleting its contents as the namespace controller would: collections, whatever their state")
			for i := range moneyRecords {
				prototype := kept[2*i] // DeleteAllOf reads only its kind
				Eventually(func() error {
					return k8s.DeleteAllOf(ctx, prototype, client.InNamespace(ns), client.GracePeriodSeconds(0))
				}).Should(Succeed(), moneyRecords[i].kind)
			}
			for _, obj := range kept {
				Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "%s is gone", obj.GetName())
			}
		})
})
