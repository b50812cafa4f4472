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
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// twoHoursOfWork is the line item of the suite's invoices.
var twoHoursOfWork = builder.WithItem("Work", 2, 150)

func getCustomer(ws, name string) (*billingv1.Customer, error) {
	c := &billingv1.Customer{}
	return c, k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: name}, c)
}

// awaitFinalizer waits until the controller has put its finalizer on the
// customer.
func awaitFinalizer(ws, name string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		c, err := getCustomer(ws, name)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(controllerutil.ContainsFinalizer(c, billingv1.CustomerFinalizer)).To(BeTrue())
	}).Should(Succeed())
}

// awaitCount waits, at most timeout, until exactly n of ws's objects of
// list's kind are in a state that is accepts.
func awaitCount[T crclient.Object](ws string, list crclient.ObjectList, n int, is func(T) bool, timeout time.Duration) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(k8s.List(ctx, list, crclient.InNamespace(ws))).To(Succeed())
		count := 0
		g.Expect(meta.EachListItem(list, func(item runtime.Object) error {
			if is(item.(T)) {
				count++
			}
			return nil
		})).To(Succeed())
		g.Expect(count).To(Equal(n))
	}).WithTimeout(timeout).Should(Succeed())
}

// isIssued says whether inv is issued.
func isIssued(inv *billingv1.Invoice) bool { return inv.Status.Phase == billingv1.InvoiceIssued }

var _ = Describe("The controller killed during a burst of invoices", func() {
	It("still ends every invoice Issued or Invalid as it should, numbers the issued ones 1..N without a gap or a duplicate, and loses no customer finalizer nor leaves one behind", func() {
		ws := newWorkspace("burst")

		// kept customers exist throughout; held ones are deleted during the
		// burst but each has an invoice from before it, so their deletion
		// waits; free ones are deleted during the burst with no invoice (one
		// gets one before the controller is back);
		// late ones are created while the controller is dead; ghosts never
		// exist.
		kept := []string{"kept-1", "kept-2", "kept-3"}
		held := []string{"held-1", "held-2"}
		free := []string{"free-1", "free-2"}
		late := []string{"late-1", "late-2"}
		ghosts := []string{"ghost-1", "ghost-2"}

		By("creating the customers, and an issued invoice for each held one")
		for _, name := range append(append(append([]string{}, kept...), held...), free...) {
			Expect(k8s.Create(ctx, builder.Customer(ws, name))).To(Succeed())
		}
		for _, name := range append(append(append([]string{}, kept...), held...), free...) {
			awaitFinalizer(ws, name)
		}
		for _, name := range held {
			Expect(k8s.Create(ctx, builder.Invoice(ws, name+"-before", builder.WithCustomer(name), twoHoursOfWork))).To(Succeed())
		}

		// want is the phase each invoice must end in.
		want := map[string]billingv1.InvoicePhase{}
		for _, name := range held {
			want[name+"-before"] = billingv1.InvoiceIssued
		}

		By("creating invoices in a burst while the manager is killed and restarted twice")
		targets := append(append(append([]string{}, kept...), held...), ghosts...)
		const burst = 120
		var made atomic.Int32
		burstDone := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(burstDone)
			for i := range burst {
				customer := targets[i%len(targets)]
				name := fmt.Sprintf("burst-%03d-%s", i, customer)
				Expect(k8s.Create(ctx, builder.Invoice(ws, name, builder.WithCustomer(customer), twoHoursOfWork))).To(Succeed())
				made.Add(1)
				time.Sleep(25 * time.Millisecond)
			}
		}()
		for i := range burst {
			customer := targets[i%len(targets)]
			phase := billingv1.InvoiceIssued
			for _, g := range ghosts {
				if customer == g {
					phase = billingv1.InvoiceInvalid
				}
			}
			want[fmt.Sprintf("burst-%03d-%s", i, customer)] = phase
		}

		Eventually(made.Load).Should(BeNumerically(">=", 20))
		manager.kill()
		GinkgoWriter.Printf("Killed the manager after %d invoices\n", made.Load())

		By("deleting customers and creating new ones while no controller runs")
		for _, name := range append(append([]string{}, held...), free...) {
			Expect(k8s.Delete(ctx, builder.Customer(ws, name))).To(Succeed())
		}
		for _, name := range late {
			Expect(k8s.Create(ctx, builder.Customer(ws, name))).To(Succeed())
			Expect(k8s.Create(ctx, builder.Invoice(ws, name+"-inv", builder.WithCustomer(name), twoHoursOfWork))).To(Succeed())
			want[name+"-inv"] = billingv1.InvoiceIssued
		}
		// free-1 now has an invoice again: its deletion must wait for it.
		Expect(k8s.Create(ctx, builder.Invoice(ws, "free-1-after-deletion", builder.WithCustomer("free-1"), twoHoursOfWork))).To(Succeed())
		want["free-1-after-deletion"] = billingv1.InvoiceIssued

		Eventually(made.Load).Should(BeNumerically(">=", 50))
		manager = startManager()
		// Killed again once it has started reconciling the backlog.
		time.Sleep(300 * time.Millisecond)
		manager.kill()
		GinkgoWriter.Printf("Killed the restarted manager after %d invoices\n", made.Load())
		time.Sleep(500 * time.Millisecond)
		manager = startManager()
		Eventually(burstDone).WithTimeout(time.Minute).Should(BeClosed())

		By("checking every invoice ends as it should")
		// An invoice of a customer whose deletion waits is Issued: the
		// customer exists until its last invoice is deleted.
		Eventually(func(g Gomega) {
			for name, phase := range want {
				inv := &billingv1.Invoice{}
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: name}, inv)).To(Succeed())
				g.Expect(inv.Status.Phase).To(Equal(phase), "invoice %s", name)
				ready := meta.FindStatusCondition(inv.Status.Conditions, billingv1.ConditionReady)
				g.Expect(ready).NotTo(BeNil(), "invoice %s", name)
				if phase == billingv1.InvoiceIssued {
					g.Expect(ready.Status).To(Equal(metav1.ConditionTrue), "invoice %s", name)
					g.Expect(inv.Status.BillTo).NotTo(BeNil(), "invoice %s", name)
					g.Expect(inv.Status.BillTo.Name).To(Equal("Customer "+inv.Spec.CustomerRef.Name), "invoice %s", name)
					g.Expect(*inv.Status.Total).To(Equal(int64(300)), "invoice %s", name)
				} else {
					g.Expect(ready.Reason).To(Equal(billingv1.ReasonCustomerNotFound), "invoice %s", name)
					g.Expect(inv.Status.BillTo).To(BeNil(), "invoice %s", name)
				}
			}
		}).WithTimeout(time.Minute).Should(Succeed())
		var invoices billingv1.InvoiceList
		Expect(k8s.List(ctx, &invoices, crclient.InNamespace(ws))).To(Succeed())
		Expect(invoices.Items).To(HaveLen(len(want)))

		By("checking the issued invoices carry the sequences 1..N, each once, across both kills")
		var sequences []int64
		for _, inv := range invoices.Items {
			if inv.Status.Phase != billingv1.InvoiceIssued {
				Expect(inv.Status.Sequence).To(BeNil(), "invoice %s is %s with a number", inv.Name, inv.Status.Phase)
				continue
			}
			Expect(inv.Status.Sequence).NotTo(BeNil(), "invoice %s is issued without a number", inv.Name)
			Expect(inv.Status.Number).To(Equal(fmt.Sprintf("INV-%06d", *inv.Status.Sequence)), "invoice %s", inv.Name)
			sequences = append(sequences, *inv.Status.Sequence)
		}
		slices.Sort(sequences)
		for i, sequence := range sequences {
			Expect(sequence).To(Equal(int64(i+1)), "the issued sequences are not exactly 1..%d: %v", len(sequences), sequences)
		}

		By("checking every customer still billed holds the finalizer")
		for _, name := range append(append([]string{}, kept...), late...) {
			c, err := getCustomer(ws, name)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.DeletionTimestamp).To(BeNil())
			Expect(controllerutil.ContainsFinalizer(c, billingv1.CustomerFinalizer)).To(BeTrue(), "customer %s", name)
		}
		By("checking a deleted customer with invoices waits for them, and one without is gone")
		for _, name := range append([]string{"free-1"}, held...) {
			Eventually(func(g Gomega) {
				c, err := getCustomer(ws, name)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(c.DeletionTimestamp).NotTo(BeNil())
				g.Expect(controllerutil.ContainsFinalizer(c, billingv1.CustomerFinalizer)).To(BeTrue())
				ready := meta.FindStatusCondition(c.Status.Conditions, billingv1.ConditionReady)
				g.Expect(ready).NotTo(BeNil())
				g.Expect(ready.Reason).To(Equal(billingv1.ReasonDeletionBlocked))
			}).Should(Succeed(), "customer %s", name)
		}
		Eventually(func() bool {
			_, err := getCustomer(ws, "free-2")
			return apierrors.IsNotFound(err)
		}).Should(BeTrue(), "free-2 was deleted and no invoice references it: its finalizer was left behind")

		By("deleting the invoices of the held customers, which releases them")
		for _, inv := range invoices.Items {
			for _, name := range append([]string{"free-1"}, held...) {
				if inv.Spec.CustomerRef.Name == name {
					Expect(k8s.Delete(ctx, &inv)).To(Succeed())
				}
			}
		}
		for _, name := range append([]string{"free-1"}, held...) {
			Eventually(func() bool {
				_, err := getCustomer(ws, name)
				return apierrors.IsNotFound(err)
			}).Should(BeTrue(), "customer %s kept its finalizer after its last invoice was deleted", name)
		}
	})
})
