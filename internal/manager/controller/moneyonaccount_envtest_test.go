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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// waitForCredit waits until the customer acme in ns has exactly want as
// its credit balance and returns the customer.
func waitForCredit(ns string, want ...billingv1.CurrencyAmount) *billingv1.Customer {
	GinkgoHelper()
	current := &billingv1.Customer{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "acme"}, current)).To(Succeed())
		var balance []billingv1.CurrencyAmount
		if current.Status.Credit != nil {
			balance = current.Status.Credit.Balance
		}
		if len(want) == 0 {
			g.Expect(balance).To(BeEmpty())
			return
		}
		g.Expect(balance).To(Equal(want))
	}).Should(Succeed())
	return current
}

// usd is amount in USD.
func usd(amount int64) billingv1.CurrencyAmount {
	return billingv1.CurrencyAmount{Currency: "USD", Amount: amount}
}

// waitForCreditApplication waits until capp is in phase and returns it.
func waitForCreditApplication(capp *billingv1.CreditApplication,
	phase billingv1.CreditApplicationPhase) *billingv1.CreditApplication {
	GinkgoHelper()
	current := &billingv1.CreditApplication{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(capp), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(phase))
		if phase == billingv1.CreditApplicationApplied {
			g.Expect(current.Status.Events).To(HaveLen(1))
		}
	}).Should(Succeed())
	return current
}

// waitForRefund waits until rf is in phase and returns it.
func waitForRefund(rf *billingv1.Refund, phase billingv1.RefundPhase) *billingv1.Refund {
	GinkgoHelper()
	current := &billingv1.Refund{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(rf), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(phase))
		if phase == billingv1.RefundRecorded {
			g.Expect(current.Status.Events).To(HaveLen(1))
		}
	}).Should(Succeed())
	return current
}

// waitForWriteOff waits until wo is in phase and returns it.
func waitForWriteOff(wo *billingv1.WriteOff, phase billingv1.WriteOffPhase) *billingv1.WriteOff {
	GinkgoHelper()
	current := &billingv1.WriteOff{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(wo), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(phase))
	}).Should(Succeed())
	return current
}

// issueFor creates an invoice named name of acme for amount in
// currency and waits until it is issued.
func issueFor(ns, name string, amount int64, currency string) *billingv1.Invoice {
	GinkgoHelper()
	inv := builder.Invoice(ns, name, builder.WithCustomer("acme"), builder.WithItem("Work", 1, amount),
		builder.WithCurrency(currency))
	create(inv)
	return waitForReady(inv, billingv1.ReasonIssued)
}

// overpay issues an invoice of 10,000 and pays paid (more) for it, and
// waits for the payment to be recorded.
func overpay(ns, name string, paid int64) *billingv1.Payment {
	GinkgoHelper()
	issueFor(ns, name, 10_000, "USD")
	payment := builder.Payment(ns, name+"-pay", name, paid)
	create(payment)
	return waitForPayment(payment)
}

var _ = Describe("Money on account", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("makes an overpayment the customer's credit and applies it by hand to the next invoice", func() {
		payment := overpay(ns, "inv-1", 15_000)
		customer := waitForCredit(ns, usd(5_000))
		Expect(customer.Status.Credit.Summary).To(Equal("USD 50.00"))
		Expect(customer.Status.Credit.Sources).To(ConsistOf(HaveField("Invoice", "inv-1")))

		inv := issueFor(ns, "inv-2", 10_000, "USD")
		capp := builder.CreditApplication(ns, "capp-1", "inv-2", 3_000)
		create(capp)
		applied := waitForCreditApplication(capp, billingv1.CreditApplicationApplied)
		Expect(applied.Status.CustomerName).To(Equal("acme"))
		Expect(applied.Status.Currency).To(Equal("USD"))
		Expect(applied.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue,
			billingv1.ReasonApplied))
		By("its credit.applied event coming after the payment that gave the credit")
		Expect(applied.Status.Events[0].Type).To(Equal(billingv1.EventTypeCreditApplied))
		Expect(applied.Status.Events[0].Sequence).To(BeNumerically(">", payment.Status.Events[0].Sequence))

		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountApplied).To(Equal(int64(3_000)))
			g.Expect(b.AmountRemaining).To(Equal(int64(7_000)))
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPartiallyPaid))
		})
		waitForCredit(ns, usd(2_000))
	})

	It("rejects an application above the credit, above what remains, or in another currency, spending nothing", func() {
		overpay(ns, "inv-1", 15_000)
		waitForCredit(ns, usd(5_000))
		issueFor(ns, "inv-2", 10_000, "USD")
		issueFor(ns, "inv-3", 1_000, "USD")
		issueFor(ns, "inv-eur", 10_000, "EUR")

		for _, tc := range []struct {
			capp   *billingv1.CreditApplication
			reason string
		}{
			{builder.CreditApplication(ns, "too-much", "inv-2", 6_000), billingv1.ReasonExceedsCredit},
			{builder.CreditApplication(ns, "too-little-left", "inv-3", 2_000), billingv1.ReasonExceedsRemaining},
			{builder.CreditApplication(ns, "wrong-currency", "inv-eur", 100), billingv1.ReasonExceedsCredit},
		} {
			create(tc.capp)
			rejected := waitForCreditApplication(tc.capp, billingv1.CreditApplicationRejected)
			Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, tc.reason))
			Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue, tc.reason))
		}
		customer := waitForCredit(ns, usd(5_000))
		Expect(customer.Status.Credit.Uses).To(BeEmpty())
		for _, name := range []string{"inv-2", "inv-3", "inv-eur"} {
			Expect(getInvoice(Default, builder.Invoice(ns, name)).Status.Balance.AmountApplied).To(BeZero())
		}
	})

	It("applies the credit automatically to each invoice issued with applyCreditOnIssue, in its currency only", func() {
		create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithApplyCreditOnIssue()))
		overpay(ns, "inv-1", 15_000)
		waitForCredit(ns, usd(5_000))

		inv := issueFor(ns, "inv-2", 3_000, "USD")
		capp := waitForCreditApplication(builder.CreditApplication(ns, "inv-2-credit", "", 0),
			billingv1.CreditApplicationApplied)
		Expect(capp.Spec.Amount).To(Equal(int64(3_000)))
		Expect(capp.Spec.InvoiceRef.Name).To(Equal("inv-2"))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountApplied).To(Equal(int64(3_000)))
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid))
		})
		waitForCredit(ns, usd(2_000))

		By("an invoice in another currency getting none")
		issueFor(ns, "inv-eur", 3_000, "EUR")
		Consistently(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "inv-eur-credit"},
				&billingv1.CreditApplication{})
		}, "2s").ShouldNot(Succeed())

		By("the next invoice taking what is left, up to the credit")
		next := issueFor(ns, "inv-3", 10_000, "USD")
		waitForCreditApplication(builder.CreditApplication(ns, "inv-3-credit", "", 0), billingv1.CreditApplicationApplied)
		waitForBalance(next, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountApplied).To(Equal(int64(2_000)))
			g.Expect(b.AmountRemaining).To(Equal(int64(8_000)))
		})
		waitForCredit(ns)
	})

	It("records a refund of part of the credit and rejects one above what is left", func() {
		overpay(ns, "inv-1", 15_000)
		waitForCredit(ns, usd(5_000))

		part := builder.Refund(ns, "rf-1", "acme", 2_000, "USD")
		create(part)
		recorded := waitForRefund(part, billingv1.RefundRecorded)
		Expect(recorded.Status.Currency).To(Equal("USD"))
		Expect(recorded.Status.Events[0].Type).To(Equal(billingv1.EventTypeRefundRecorded))
		waitForCredit(ns, usd(3_000))

		tooMuch := builder.Refund(ns, "rf-2", "acme", 3_001, "USD")
		create(tooMuch)
		rejected := waitForRefund(tooMuch, billingv1.RefundRejected)
		Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
			billingv1.ReasonExceedsCredit))
		otherCurrency := builder.Refund(ns, "rf-eur", "acme", 1, "EUR")
		create(otherCurrency)
		waitForRefund(otherCurrency, billingv1.RefundRejected)
		waitForCredit(ns, usd(3_000))
	})

	It("carries an overpaid invoice's credit once the invoice is sealed, and spends it after", func() {
		payment := overpay(ns, "inv-1", 15_000)
		entered := waitForCredit(ns, usd(5_000))
		Expect(entered.Status.Credit.Sources).To(HaveLen(1))
		source := entered.Status.Credit.Sources[0]
		waitForPaidEvent(&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "inv-1"}},
			billingv1.EventTypeInvoicePaid)

		By("closing the books, so that the invoice and its payment are sealed")
		closeBooks(ns)
		expectAllGone(&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "inv-1"}}, payment)

		By("folding its source into the carried credit, the balance unchanged")
		Eventually(func(g Gomega) {
			customer := &billingv1.Customer{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "acme"}, customer)).To(Succeed())
			credit := customer.Status.Credit
			g.Expect(credit).NotTo(BeNil())
			g.Expect(credit.Sources).To(BeEmpty())
			g.Expect(credit.Carried).To(Equal([]billingv1.CarriedCredit{{Currency: "USD", Amount: 5_000,
				EventSequence: source.EventSequence}}))
			g.Expect(credit.FoldedThrough).To(Equal(int64(1)))
			g.Expect(credit.Balance).To(Equal([]billingv1.CurrencyAmount{usd(5_000)}))
			g.Expect(credit.Summary).To(Equal("USD 50.00"))
		}).Should(Succeed())

		By("refunding part of the carried credit, its event after the events that gave it")
		part := builder.Refund(ns, "rf-1", "acme", 2_000, "USD")
		create(part)
		recorded := waitForRefund(part, billingv1.RefundRecorded)
		Expect(recorded.Status.Events[0].Sequence).To(BeNumerically(">", source.EventSequence))
		customer := waitForCredit(ns, usd(3_000))
		Expect(customer.Status.Credit.Uses).To(ConsistOf(HaveField("Name", "rf-1")))
		Expect(customer.Status.Credit.Carried).To(HaveLen(1))
	})

	It("records exactly one of eight racing refunds of the whole credit and rejects seven", func() {
		overpay(ns, "inv-1", 15_000)
		waitForCredit(ns, usd(5_000))
		var objs []client.Object
		for i := range 8 {
			objs = append(objs, builder.Refund(ns, fmt.Sprintf("rf-%d", i), "acme", 5_000, "USD"))
		}
		createAll(objs...)
		phases := map[billingv1.RefundPhase]int{}
		Eventually(func(g Gomega) {
			clear(phases)
			list := &billingv1.RefundList{}
			g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
			for _, rf := range list.Items {
				phases[rf.Status.Phase]++
			}
			g.Expect(phases[billingv1.RefundPending]).To(BeZero())
		}).Should(Succeed())
		Expect(phases).To(Equal(map[billingv1.RefundPhase]int{billingv1.RefundRecorded: 1, billingv1.RefundRejected: 7}))
		customer := waitForCredit(ns)
		Expect(customer.Status.Credit.Uses).To(HaveLen(1))
	})

	It("applies exactly the credit when eight applications of all of it race to eight invoices", func() {
		overpay(ns, "inv-0", 15_000)
		waitForCredit(ns, usd(5_000))
		var objs []client.Object
		for i := 1; i <= 8; i++ {
			issueFor(ns, fmt.Sprintf("inv-%d", i), 10_000, "USD")
			objs = append(objs, builder.CreditApplication(ns, fmt.Sprintf("capp-%d", i), fmt.Sprintf("inv-%d", i), 5_000))
		}
		createAll(objs...)
		var applied int64
		Eventually(func(g Gomega) {
			applied = 0
			list := &billingv1.CreditApplicationList{}
			g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
			for _, capp := range list.Items {
				g.Expect(capp.Status.Phase).NotTo(Equal(billingv1.CreditApplicationPending))
				if capp.Status.Phase == billingv1.CreditApplicationApplied {
					applied += capp.Spec.Amount
				}
			}
		}).Should(Succeed())
		Expect(applied).To(Equal(int64(5_000)))
		var onInvoices int64
		for i := 1; i <= 8; i++ {
			onInvoices += getInvoice(Default, builder.Invoice(ns, fmt.Sprintf("inv-%d", i))).Status.Balance.AmountApplied
		}
		Expect(onInvoices).To(Equal(int64(5_000)))
		waitForCredit(ns)
	})

	It("writes off what remains, refuses a second write-off, and lets a late payment recover it", func() {
		inv := issueFor(ns, "inv-1", 10_000, "USD")
		create(builder.Payment(ns, "pay-1", "inv-1", 3_000))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) { g.Expect(b.AmountPaid).To(Equal(int64(3_000))) })

		wo := builder.WriteOff(ns, "wo-1", "inv-1", "The customer went bankrupt")
		create(wo)
		recorded := waitForWriteOff(wo, billingv1.WriteOffRecorded)
		Expect(recorded.Status.Amount).To(HaveValue(Equal(int64(7_000))))
		Expect(recorded.Status.Events).To(ConsistOf(HaveField("Type", billingv1.EventTypeInvoiceMarkedUncollectible)))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountWrittenOff).To(Equal(int64(7_000)))
			g.Expect(b.AmountRemaining).To(BeZero())
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentUncollectible))
			g.Expect(b.Overdue).To(BeFalse())
		})

		again := builder.WriteOff(ns, "wo-2", "inv-1", "Twice")
		create(again)
		rejected := waitForWriteOff(again, billingv1.WriteOffRejected)
		Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
			billingv1.ReasonNothingRemaining))

		By("a late payment reducing what is written off first")
		create(builder.Payment(ns, "pay-2", "inv-1", 5_000))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountWrittenOff).To(Equal(int64(2_000)))
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentUncollectible))
		})
		create(builder.Payment(ns, "pay-3", "inv-1", 2_000))
		waitForBalance(inv, func(g Gomega, b *billingv1.InvoiceBalance) {
			g.Expect(b.AmountWrittenOff).To(BeZero())
			g.Expect(b.AmountPaid).To(Equal(int64(10_000)))
			g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid))
		})
		Eventually(func(g Gomega) {
			g.Expect(billingv1.FindEvent(getInvoice(g, inv).Status.Events, billingv1.EventTypeInvoicePaid)).NotTo(BeNil())
		}).Should(Succeed())
	})

	It("keeps a refund dated in a closed period out of the credit", func() {
		overpay(ns, "inv-1", 15_000)
		waitForCredit(ns, usd(5_000))
		past := metav1.NewTime(time.Date(2020, time.January, 15, 0, 0, 0, 0, time.UTC))
		create(builder.PeriodClose(ns, "close-2020", "2020-12"))
		Eventually(func(g Gomega) {
			pc := &billingv1.PeriodClose{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "close-2020"}, pc)).To(Succeed())
			g.Expect(pc.Status.Phase).To(Equal(billingv1.PeriodCloseClosed))
		}).Should(Succeed())
		rf := builder.Refund(ns, "rf-old", "acme", 1_000, "USD", builder.WithRefundedAt(past))
		create(rf)
		rejected := waitForRefund(rf, billingv1.RefundRejected)
		Expect(rejected.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
			billingv1.ReasonPeriodClosed))
		waitForCredit(ns, usd(5_000))
	})
})

var _ = Describe("kubectl and money on account", func() {
	It("shows the customer's credit, an uncollectible invoice and the new kinds by their short names", func() {
		ns := newNamespace()
		create(builder.Customer(ns, "acme"))
		overpay(ns, "inv-1", 12_500)
		waitForCredit(ns, usd(2_500))
		issueFor(ns, "inv-2", 10_000, "USD")
		capp := builder.CreditApplication(ns, "capp-1", "inv-2", 1_000)
		create(capp)
		waitForCreditApplication(capp, billingv1.CreditApplicationApplied)
		rf := builder.Refund(ns, "rf-1", "acme", 500, "USD")
		create(rf)
		waitForRefund(rf, billingv1.RefundRecorded)
		wo := builder.WriteOff(ns, "wo-1", "inv-2", "Uncollectible")
		create(wo)
		waitForWriteOff(wo, billingv1.WriteOffRecorded)

		Eventually(func(g Gomega) {
			out, err := kubectl("get", "cust", "-n", ns)
			g.Expect(err).NotTo(HaveOccurred(), out)
			g.Expect(normalizeSpace(out)).To(ContainSubstring("CREDIT"))
			g.Expect(normalizeSpace(out)).To(ContainSubstring("billing@acme.example USD 10.00"))
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			out, err := kubectl("get", "inv", "inv-2", "-n", ns)
			g.Expect(err).NotTo(HaveOccurred(), out)
			g.Expect(normalizeSpace(out)).To(MatchRegexp(`inv-2 INV-\d+ acme USD 100\.00 Issued uncollectible USD 0\.00 `))
		}).Should(Succeed())
		out, err := kubectl("get", "capp,rf,wo", "-n", ns)
		Expect(err).NotTo(HaveOccurred(), out)
		text := normalizeSpace(out)
		Expect(text).To(ContainSubstring("capp-1 inv-2 acme USD 10.00 Applied"))
		Expect(text).To(ContainSubstring("rf-1 acme USD 5.00 other Recorded"))
		Expect(text).To(ContainSubstring("wo-1 inv-2 USD 90.00 Recorded"))
	})
})
