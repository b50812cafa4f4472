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
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// waitForCreditNote waits until note is in phase and returns it.
func waitForCreditNote(note *billingv1.CreditNote, phase billingv1.CreditNotePhase) *billingv1.CreditNote {
	GinkgoHelper()
	current := &billingv1.CreditNote{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(note), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(phase))
	}).Should(Succeed())
	return current
}

// waitForPayment waits until payment is Recorded and returns it.
func waitForPayment(payment *billingv1.Payment) *billingv1.Payment {
	GinkgoHelper()
	current := &billingv1.Payment{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(payment), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(billingv1.PaymentRecorded))
	}).Should(Succeed())
	return current
}

// waitForBalance waits until inv's balance satisfies check.
func waitForBalance(inv *billingv1.Invoice, check func(g Gomega, b *billingv1.InvoiceBalance)) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		current := getInvoice(g, inv)
		g.Expect(current.Status.Balance).NotTo(BeNil())
		check(g, current.Status.Balance)
	}).Should(Succeed())
}

// createAll creates objs at once, each from its own goroutine.
func createAll(objs ...client.Object) {
	GinkgoHelper()
	var wg sync.WaitGroup
	errs := make([]error, len(objs))
	for i, obj := range objs {
		wg.Go(func() { errs[i] = k8sClient.Create(ctx, obj) })
	}
	wg.Wait()
	for _, err := range errs {
		Expect(err).NotTo(HaveOccurred())
	}
}

var _ = Describe("Credit note and payment controllers", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("credits part of a line by quantity and by amount, with tax, and numbers the note CN-000001", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithTaxedItem("Consulting", 3, 10_000, builder.StandardTax("19")))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)

		byQuantity := builder.CreditNote(ns, "cn-1", "inv-1", builder.WithCreditedQuantity(0, 1))
		create(byQuantity)
		issued := waitForCreditNote(byQuantity, billingv1.CreditNoteIssued)
		Expect(issued.Status.Number).To(Equal("CN-000001"))
		Expect(issued.Status.Subtotal).To(HaveValue(Equal(int64(10_000))))
		Expect(issued.Status.TaxTotal).To(HaveValue(Equal(int64(1_900))))
		Expect(issued.Status.Total).To(HaveValue(Equal(int64(11_900))))
		Expect(issued.Status.InvoiceNumber).To(Equal("INV-000001"))
		Expect(issued.Status.CustomerName).To(Equal("acme"))
		Expect(issued.Status.Lines).To(HaveLen(1))
		Expect(issued.Status.Lines[0].Description).To(Equal("Consulting"))
		Expect(issued.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonIssued))

		byAmount := builder.CreditNote(ns, "cn-2", "inv-1", builder.WithCreditedAmount(0, 5_000))
		create(byAmount)
		second := waitForCreditNote(byAmount, billingv1.CreditNoteIssued)
		Expect(second.Status.Number).To(Equal("CN-000002"))
		Expect(second.Status.Total).To(HaveValue(Equal(int64(5_950))))

		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountCredited).To(Equal(int64(17_850)))
			g.Expect(b.AmountRemaining).To(Equal(int64(35_700 - 17_850)))
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentOpen))
		})
	})

	It("credits exactly the total when three credit notes credit the three lines of an invoice", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
			builder.WithTaxedItem("A", 1, 333, builder.StandardTax("19")),
			builder.WithTaxedItem("B", 1, 333, builder.StandardTax("19")),
			builder.WithTaxedItem("C", 1, 334, builder.StandardTax("19")))
		create(inv)
		issued := waitForReady(inv, billingv1.ReasonIssued)
		for i := range 3 {
			note := builder.CreditNote(ns, fmt.Sprintf("cn-%d", i), "inv-1", builder.WithCreditedQuantity(int32(i), 1))
			create(note)
			waitForCreditNote(note, billingv1.CreditNoteIssued)
		}
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountCredited).To(Equal(*issued.Status.Total))
			g.Expect(b.AmountRemaining).To(BeZero())
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentVoid))
		})
	})

	It("voids an invoice with a full credit, and rejects a later credit note without a number", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 2, 5_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		full := builder.CreditNote(ns, "cn-full", "inv-1", builder.WithFullCredit())
		create(full)
		Expect(waitForCreditNote(full, billingv1.CreditNoteIssued).Status.Total).To(HaveValue(Equal(int64(10_000))))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentVoid))
		})

		late := builder.CreditNote(ns, "cn-late", "inv-1", builder.WithCreditedAmount(0, 1))
		create(late)
		rejected := waitForCreditNote(late, billingv1.CreditNoteRejected)
		Expect(rejected.Status.Number).To(BeEmpty())
		Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
			billingv1.ReasonExceedsCreditable))
	})

	It("issues exactly one of eight credit notes created at once for 60% each, numbered CN-000001", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 10, 1_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		notes := make([]client.Object, 8)
		for i := range notes {
			notes[i] = builder.CreditNote(ns, fmt.Sprintf("cn-%d", i), "inv-1", builder.WithCreditedAmount(0, 6_000))
		}
		createAll(notes...)

		var numbers []string
		rejected := 0
		for _, obj := range notes {
			note := obj.(*billingv1.CreditNote)
			Eventually(func(g Gomega) {
				current := &billingv1.CreditNote{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(note), current)).To(Succeed())
				g.Expect(current.Status.Phase).To(BeElementOf(billingv1.CreditNoteIssued, billingv1.CreditNoteRejected))
				note = current
			}).Should(Succeed())
			if note.Status.Phase == billingv1.CreditNoteIssued {
				numbers = append(numbers, note.Status.Number)
			} else {
				rejected++
				Expect(meta.IsStatusConditionTrue(note.Status.Conditions, billingv1.ConditionStalled)).To(BeTrue())
			}
		}
		Expect(numbers).To(Equal([]string{"CN-000001"}))
		Expect(rejected).To(Equal(7))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountCredited).To(Equal(int64(6_000)))
		})
	})

	It("records payments in parts: partially paid, then paid", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentOpen))
			g.Expect(b.AmountRemaining).To(Equal(int64(10_000)))
		})

		first := builder.Payment(ns, "pay-1", "inv-1", 4_000)
		create(first)
		recorded := waitForPayment(first)
		Expect(recorded.Status.AppliedAmount).To(HaveValue(Equal(int64(4_000))))
		Expect(recorded.Status.OverpaidAmount).To(HaveValue(BeZero()))
		Expect(recorded.Status.Currency).To(Equal("USD"))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPartiallyPaid))
			g.Expect(b.AmountRemaining).To(Equal(int64(6_000)))
		})

		second := builder.Payment(ns, "pay-2", "inv-1", 6_000)
		create(second)
		waitForPayment(second)
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid))
			g.Expect(b.AmountRemaining).To(BeZero())
			g.Expect(b.AmountPaid).To(Equal(int64(10_000)))
		})
	})

	It("records all of eight racing payments of the remainder, seven of them as overpaid", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		payments := make([]client.Object, 8)
		for i := range payments {
			payments[i] = builder.Payment(ns, fmt.Sprintf("pay-%d", i), "inv-1", 10_000)
		}
		createAll(payments...)
		var applied, overpaid int64
		for _, obj := range payments {
			p := waitForPayment(obj.(*billingv1.Payment))
			applied += *p.Status.AppliedAmount
			overpaid += *p.Status.OverpaidAmount
		}
		Expect(applied).To(Equal(int64(10_000)))
		Expect(overpaid).To(Equal(int64(7 * 10_000)))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid))
			g.Expect(b.AmountOverpaid).To(Equal(int64(7 * 10_000)))
		})
	})

	It("stalls a payment in another currency than its invoice's", func() {
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		payment := builder.Payment(ns, "pay-eur", "inv-1", 1_000, builder.WithPaymentCurrency("EUR"))
		create(payment)
		Eventually(func(g Gomega) {
			current := &billingv1.Payment{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(payment), current)).To(Succeed())
			g.Expect(current.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
				billingv1.ReasonCurrencyMismatch))
		}).Should(Succeed())
	})

	It("marks an unpaid invoice overdue once its due date passes, with payment terms of 0 days", func() {
		terms := int32(0)
		create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
			builder.WithProfileSpec(billingv1.BillingProfileSpec{PaymentTermsDays: &terms})))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(inv)
		issued := waitForReady(inv, billingv1.ReasonIssued)
		Expect(issued.Status.DueAt).NotTo(BeNil())
		Expect(issued.Status.DueAt.Time).To(Equal(issued.Status.IssuedAt.Time))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.Overdue).To(BeTrue())
		})
	})
})
