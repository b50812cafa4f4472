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
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// invoicesResource is the Invoice CRD's REST resource.
var invoicesResource = schema.GroupVersionResource{
	Group: billingv1.GroupVersion.Group, Version: billingv1.GroupVersion.Version, Resource: "invoices",
}

// waitForFinalizer waits until the customer carries the finalizer.
func waitForFinalizer(customer *billingv1.Customer) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(getCustomer(g, customer).Finalizers).To(ContainElement(billingv1.CustomerFinalizer))
	}).Should(Succeed())
}

// expectGone waits until obj no longer exists.
func expectGone(obj client.Object) {
	GinkgoHelper()
	Eventually(func() error {
		return k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)
	}).Should(Satisfy(apierrors.IsNotFound))
}

var _ = Describe("Customer controller", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("adds the finalizer and reports the customer Ready", func() {
		customer := builder.Customer(ns, "acme")
		create(customer)
		waitForFinalizer(customer)
		Eventually(func(g Gomega) {
			current := getCustomer(g, customer)
			g.Expect(current.Status.ObservedGeneration).To(Equal(current.Generation))
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonActive))
			g.Expect(current.Status.InvoiceCount).To(BeZero())
		}).Should(Succeed())
	})

	It("deletes a customer that no invoice references promptly", func() {
		customer := builder.Customer(ns, "acme")
		create(customer)
		// An invoice of another customer does not hold this one.
		create(builder.Invoice(ns, "inv-globex", builder.WithCustomer("globex"), builder.WithItem("Consulting", 1, 100)))
		waitForFinalizer(customer)
		Expect(k8sClient.Delete(ctx, customer)).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(customer), &billingv1.Customer{})
		}).WithTimeout(10 * time.Second).Should(Satisfy(apierrors.IsNotFound))
	})

	It("holds the deletion of a referenced customer until its invoices are deleted", func() {
		customer := builder.Customer(ns, "acme")
		first := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
		second := builder.Invoice(ns, "inv-2", builder.WithCustomer("acme"), builder.WithItem("Hosting", 1, 200))
		create(customer, first, second)
		waitForFinalizer(customer)
		Eventually(func(g Gomega) {
			g.Expect(getCustomer(g, customer).Status.InvoiceCount).To(BeEquivalentTo(2))
		}).Should(Succeed())

		By("deleting the customer while two invoices reference it")
		Expect(k8sClient.Delete(ctx, customer)).To(Succeed())
		Eventually(func(g Gomega) {
			current := getCustomer(g, customer)
			g.Expect(current.DeletionTimestamp).NotTo(BeNil())
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(
				billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonDeletionBlocked))
			g.Expect(current.Status.InvoiceCount).To(BeEquivalentTo(2))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			current := getCustomer(g, customer)
			g.Expect(current.DeletionTimestamp).NotTo(BeNil())
			g.Expect(current.Finalizers).To(ContainElement(billingv1.CustomerFinalizer))
		}).Should(Succeed())
		expectEvent(getCustomer(Default, customer), "Customer", And(
			HaveField("Type", corev1.EventTypeWarning),
			HaveField("Reason", billingv1.ReasonDeletionBlocked),
			HaveField("ReportingController", "customer-controller"),
		))

		By("deleting one of the invoices")
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(getCustomer(g, customer).Status.InvoiceCount).To(BeEquivalentTo(1))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(getCustomer(g, customer).Finalizers).To(ContainElement(billingv1.CustomerFinalizer))
		}).Should(Succeed())

		By("deleting the last invoice")
		Expect(k8sClient.Delete(ctx, second)).To(Succeed())
		expectGone(customer)
	})

	It("holds a customer of sealed invoices in a live workspace, and lets it go with its namespace", func() {
		customer := builder.Customer(ns, "acme")
		create(customer)
		waitForFinalizer(customer)
		inv, payment := paidInvoice(ns)
		closeBooks(ns)
		expectAllGone(inv, payment)

		By("deleting the customer, which its sealed invoice holds while the workspace lives")
		Expect(k8sClient.Delete(ctx, customer)).To(Succeed())
		Eventually(func(g Gomega) {
			current := getCustomer(g, customer)
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(
				billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonDeletionBlocked))
			g.Expect(current.Status.InvoiceCount).To(BeEquivalentTo(1))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(getCustomer(g, customer).Finalizers).To(ContainElement(billingv1.CustomerFinalizer))
		}).Should(Succeed())

		By("deleting the namespace, whose controller deletes the seals (envtest runs none: the spec does it)")
		Expect(k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Expect(k8sClient.DeleteAllOf(ctx, &billingv1.LedgerSeal{}, client.InNamespace(ns))).To(Succeed())
		expectGone(customer)
	})
})

var _ = Describe("Selecting invoices by customer on the API server", func() {
	var ns, elsewhere string

	BeforeEach(func() {
		ns = newNamespace()
		elsewhere = newNamespace()
		create(
			builder.Invoice(ns, "acme-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)),
			builder.Invoice(ns, "acme-2", builder.WithCustomer("acme"), builder.WithItem("Hosting", 1, 100)),
			builder.Invoice(ns, "globex-1", builder.WithCustomer("globex"), builder.WithItem("Consulting", 1, 100)),
			builder.Invoice(elsewhere, "acme-elsewhere", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100)),
		)
	})

	It("lists only that customer's invoices through the manager's API reader", func() {
		list := &billingv1.InvoiceList{}
		Expect(apiReader.List(ctx, list, client.InNamespace(ns), client.MatchingFieldsSelector{
			Selector: fields.OneTermEqualSelector(index.InvoiceCustomer, "acme"),
		})).To(Succeed())
		Expect(list.Items).To(ConsistOf(HaveField("Name", "acme-1"), HaveField("Name", "acme-2")))

		Expect(apiReader.List(ctx, list, client.InNamespace(ns), client.MatchingFieldsSelector{
			Selector: fields.OneTermNotEqualSelector(index.InvoiceCustomer, "acme"),
		})).To(Succeed())
		Expect(list.Items).To(ConsistOf(HaveField("Name", "globex-1")))
	})

	It("lists only that customer's invoices through a REST list with fieldSelector", func() {
		list, err := dynamicClient.Resource(invoicesResource).Namespace(ns).
			List(ctx, metav1.ListOptions{FieldSelector: "spec.customerRef.name=acme"})
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, 0, len(list.Items))
		for _, item := range list.Items {
			names = append(names, item.GetName())
		}
		Expect(names).To(ConsistOf("acme-1", "acme-2"))

		By("listing across namespaces")
		all, err := dynamicClient.Resource(invoicesResource).
			List(ctx, metav1.ListOptions{FieldSelector: "spec.customerRef.name=acme"})
		Expect(err).NotTo(HaveOccurred())
		keys := make([]string, 0, len(all.Items))
		for _, item := range all.Items {
			keys = append(keys, item.GetNamespace()+"/"+item.GetName())
		}
		Expect(keys).To(ContainElements(ns+"/acme-1", ns+"/acme-2", elsewhere+"/acme-elsewhere"))
		Expect(keys).NotTo(ContainElement(ns + "/globex-1"))
	})

	It("refuses a field selector on a field that is not selectable", func() {
		_, err := dynamicClient.Resource(invoicesResource).Namespace(ns).
			List(ctx, metav1.ListOptions{FieldSelector: "spec.currency=USD"})
		Expect(err).To(HaveOccurred())
		Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "want BadRequest, got %v", err)
	})
})
