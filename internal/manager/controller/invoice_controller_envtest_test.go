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
	"github.com/onsi/gomega/types"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/ledger"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// waitForReady waits until the invoice's Ready condition has the given
// reason, and returns the invoice as it is then.
func waitForReady(inv *billingv1.Invoice, reason string) *billingv1.Invoice {
	GinkgoHelper()
	var current *billingv1.Invoice
	Eventually(func(g Gomega) {
		current = getInvoice(g, inv)
		ready := meta.FindStatusCondition(current.Status.Conditions, billingv1.ConditionReady)
		g.Expect(ready).NotTo(BeNil(), "the invoice has no Ready condition yet")
		g.Expect(ready.Reason).To(Equal(reason))
	}).Should(Succeed())
	return current
}

// expectEvent waits for an Event about obj in its namespace that matches.
func expectEvent(obj client.Object, kind string, matcher types.GomegaMatcher) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		list := &eventsv1.EventList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(obj.GetNamespace()))).To(Succeed())
		g.Expect(list.Items).To(ContainElement(And(
			HaveField("Regarding.Kind", kind),
			HaveField("Regarding.Name", obj.GetName()),
			HaveField("Regarding.UID", obj.GetUID()),
			matcher,
		)))
	}).Should(Succeed())
}

// create creates each object through the API server. A BillingProfile is
// waited for until its controller has observed it: the other controllers
// read it from the cache they share, so an invoice created next is issued
// with it (sent on issue, numbered with its format), never without it
// because the cache had not seen it yet.
func create(objs ...client.Object) {
	GinkgoHelper()
	for _, obj := range objs {
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		if _, ok := obj.(*billingv1.BillingProfile); ok {
			Eventually(func(g Gomega) {
				current := &billingv1.BillingProfile{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), current)).To(Succeed())
				g.Expect(current.Status.ObservedGeneration).To(Equal(current.Generation))
			}).Should(Succeed(), "the profile %s is observed", obj.GetName())
		}
	}
}

var _ = Describe("Invoice controller", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("issues an invoice whose customer exists, with its total, billTo and issuedAt, and no Event", func() {
		create(builder.Customer(ns, "acme", builder.WithDisplayName("Acme Corporation"), builder.WithEmail("billing@acme.example")))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithItem("Consulting", 3, 15_000), builder.WithItem("Hosting", 12, 2_500))
		create(inv)

		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.Phase).To(Equal(billingv1.InvoiceIssued))
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(3*15_000 + 12*2_500))))
		Expect(issued.Status.BillTo).To(Equal(&billingv1.BillTo{Name: "Acme Corporation", Email: "billing@acme.example"}))
		Expect(issued.Status.IssuedAt).NotTo(BeNil())
		Expect(issued.Status.IssuedAt.Time).To(BeTemporally(">=", issued.CreationTimestamp.Time))
		Expect(issued.Status.IssuedAt.Time).To(BeTemporally("<=", time.Now()))
		Expect(issued.Generation).To(BeNumerically(">", 0))
		Expect(issued.Status.ObservedGeneration).To(Equal(issued.Generation))
		Expect(issued.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonIssued))
		Expect(meta.FindStatusCondition(issued.Status.Conditions, billingv1.ConditionReady).ObservedGeneration).
			To(Equal(issued.Generation))
		Expect(issued.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionReconciling))
		Expect(issued.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionStalled))

		By("recording no Event: issuing is the normal course, said by the Ready condition")
		Consistently(func(g Gomega) {
			list := &eventsv1.EventList{}
			g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
			g.Expect(list.Items).NotTo(ContainElement(HaveField("Regarding.Name", inv.Name)))
		}).WithTimeout(time.Second).Should(Succeed())
	})

	It("marks an invoice created before its customer Invalid, then issues it when the customer is created", func() {
		inv := builder.Invoice(ns, "early", builder.WithCustomer("globex"), builder.WithItem("Widgets", 10, 250))
		create(inv)

		waiting := waitForReady(inv, billingv1.ReasonCustomerNotFound)
		Expect(waiting.Status.Phase).To(Equal(billingv1.InvoiceInvalid))
		Expect(waiting.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonCustomerNotFound))
		Expect(waiting.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReconciling, metav1.ConditionTrue, billingv1.ReasonCustomerNotFound))
		Expect(waiting.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionStalled))
		Expect(waiting.Status.BillTo).To(BeNil())
		Expect(waiting.Status.IssuedAt).To(BeNil())
		Expect(waiting.Status.ObservedGeneration).To(Equal(waiting.Generation))
		expectEvent(waiting, "Invoice", And(
			HaveField("Type", corev1.EventTypeWarning),
			HaveField("Reason", billingv1.ReasonCustomerNotFound),
		))

		By("creating the customer; the invoice is issued without being touched")
		create(builder.Customer(ns, "globex", builder.WithDisplayName("Globex"), builder.WithEmail("ap@globex.example")))
		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.Phase).To(Equal(billingv1.InvoiceIssued))
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(2_500))))
		Expect(issued.Status.BillTo).To(Equal(&billingv1.BillTo{Name: "Globex", Email: "ap@globex.example"}))
		Expect(issued.Status.IssuedAt).NotTo(BeNil())
		Expect(issued.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonIssued))
		Expect(issued.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionReconciling))
		Expect(issued.Generation).To(Equal(waiting.Generation))
	})

	It("keeps an issued invoice issued, with its billTo, when its customer is edited", func() {
		customer := builder.Customer(ns, "acme", builder.WithDisplayName("Acme Corporation"), builder.WithEmail("billing@acme.example"))
		create(customer)
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		issued := waitForReady(inv, billingv1.ReasonIssued)

		By("renaming the customer and changing its e-mail")
		edited := getCustomer(Default, customer)
		before := edited.DeepCopy()
		edited.Spec = billingv1.CustomerSpec{Name: "Acme Holdings", Email: "ap@acme-holdings.example"}
		Expect(k8sClient.Patch(ctx, edited, client.MergeFrom(before))).To(Succeed())

		By("making the controller look at the invoice again")
		touched := getInvoice(Default, inv)
		before2 := touched.DeepCopy()
		touched.Annotations = map[string]string{"example.com/touched": "yes"}
		Expect(k8sClient.Patch(ctx, touched, client.MergeFrom(before2))).To(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(getInvoice(g, inv).Status).To(Equal(issued.Status))
		}).Should(Succeed())

		By("reconciling the invoice directly, with nothing cached")
		reconciler := &ledger.InvoiceReconciler{Client: k8sClient, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
			Numbers: &managertest.FixedNumbers{}, Events: &managertest.CountingEvents{}}
		_, err := reconciler.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(inv)})
		Expect(err).NotTo(HaveOccurred())
		Expect(getInvoice(Default, inv).Status).To(Equal(issued.Status))

		By("issuing a new invoice to the edited customer")
		next := builder.Invoice(ns, "inv-2", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(next)
		Expect(waitForReady(next, billingv1.ReasonIssued).Status.BillTo).
			To(Equal(&billingv1.BillTo{Name: "Acme Holdings", Email: "ap@acme-holdings.example"}))
	})

	Context("with totals at and above 2^53-1", func() {
		BeforeEach(func() {
			create(builder.Customer(ns, "acme"))
		})

		It("issues an invoice whose total is exactly 2^53-1", func() {
			inv := builder.Invoice(ns, "max", builder.WithCustomer("acme"),
				builder.WithItem("Bulk", 1_000_000, 9_007_199_254), builder.WithItem("Rest", 1, 740_991))
			create(inv)
			issued := waitForReady(inv, billingv1.ReasonIssued)
			Expect(issued.Status.Phase).To(Equal(billingv1.InvoiceIssued))
			Expect(issued.Status.Total).To(HaveValue(Equal(int64(9_007_199_254_740_991))))
			Expect(issued.Status.Total).To(HaveValue(BeEquivalentTo(billing.MaxTotal)))
		})

		It("refuses a total of 2^53 as TotalTooLarge and Stalled", func() {
			inv := builder.Invoice(ns, "too-large", builder.WithCustomer("acme"),
				builder.WithItem("Bulk", 1_000_000, 9_007_199_254), builder.WithItem("Rest", 1, 740_992))
			create(inv)
			invalid := waitForReady(inv, billingv1.ReasonTotalTooLarge)
			Expect(invalid.Status.Phase).To(Equal(billingv1.InvoiceInvalid))
			Expect(invalid.Status.Total).To(BeNil())
			Expect(invalid.Status.BillTo).To(BeNil())
			Expect(invalid.Status.IssuedAt).To(BeNil())
			Expect(invalid.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonTotalTooLarge))
			Expect(invalid.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonTotalTooLarge))
			Expect(invalid.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionReconciling))
			expectEvent(invalid, "Invoice", And(
				HaveField("Type", corev1.EventTypeWarning),
				HaveField("Reason", billingv1.ReasonTotalTooLarge),
			))
		})

		It("refuses 500 lines at the maximum quantity and amount as TotalTooLarge and keeps working", func() {
			inv := builder.Invoice(ns, "far-too-large", builder.WithCustomer("acme"),
				builder.WithNumberedItems(billing.MaxItems, billing.MaxQuantity, billing.MaxAmount))
			create(inv)
			invalid := waitForReady(inv, billingv1.ReasonTotalTooLarge)
			Expect(invalid.Status.Phase).To(Equal(billingv1.InvoiceInvalid))
			Expect(invalid.Status.Total).To(BeNil())
			Expect(invalid.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonTotalTooLarge))

			next := builder.Invoice(ns, "small", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
			create(next)
			Expect(waitForReady(next, billingv1.ReasonIssued).Status.Total).To(HaveValue(Equal(int64(100))))
		})
	})

	DescribeTable("reports the status kstatus computes",
		func(customer string, opt builder.InvoiceOption, reason string, want status.Status) {
			create(builder.Customer(ns, "acme"))
			inv := builder.Invoice(ns, "inv", builder.WithCustomer(customer), opt)
			create(inv)
			// Before the controller has written a status, kstatus already
			// computes Current; wait for the controller's verdict first.
			current := waitForReady(inv, reason)
			u := toUnstructured(current)
			result, err := status.Compute(u)
			Expect(err).NotTo(HaveOccurred())
			Expect(result.Status).To(Equal(want), result.Message)
		},
		Entry("Current for an issued invoice",
			"acme", builder.WithItem("Consulting", 1, 100), billingv1.ReasonIssued, status.CurrentStatus),
		Entry("InProgress for an invoice waiting for its customer",
			"nobody", builder.WithItem("Consulting", 1, 100), billingv1.ReasonCustomerNotFound, status.InProgressStatus),
		Entry("Failed for an invoice whose total is too large",
			"acme", builder.WithNumberedItems(2, billing.MaxQuantity, billing.MaxAmount), billingv1.ReasonTotalTooLarge, status.FailedStatus),
	)
})
