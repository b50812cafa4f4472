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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
)

// closeBooks closes ns's books through now: a PeriodClose "close-1"
// through this second, which the PeriodClose controller closes once it has
// passed; it returns once the next second has begun, so that what the
// story records afterwards is dated in the open period.
func closeBooks(ns string) {
	GinkgoHelper()
	through := time.Now().Truncate(time.Second)
	pc := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "close-1"},
		Spec: billingv1.PeriodCloseSpec{Through: through.UTC().Format(time.RFC3339)}}
	create(pc)
	Eventually(func(g Gomega) {
		current := &billingv1.PeriodClose{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pc), current)).To(Succeed())
		g.Expect(current.Status.Phase).To(Equal(billingv1.PeriodCloseClosed))
	}).Should(Succeed())
	time.Sleep(time.Until(through.Add(time.Second)))
}

// liveSeals returns ns's seals read from the API server, and checks that
// their chain verifies.
func liveSeals(g Gomega, ns string) []*billingv1.LedgerSeal {
	list := &billingv1.LedgerSealList{}
	g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	seals := make([]*billingv1.LedgerSeal, 0, len(list.Items))
	for i := range list.Items {
		seals = append(seals, &list.Items[i])
	}
	_, err := seal.VerifyChain(seals, nil)
	g.Expect(err).NotTo(HaveOccurred())
	return seals
}

// sealedNames returns the kind/name of every record ns's seals hold, and
// fails unless each seal carries its ledger.sealed event.
func sealedNames(g Gomega, ns string) []string {
	var names []string
	for _, s := range liveSeals(g, ns) {
		g.Expect(billingv1.FindEvent(s.Status.Events, billingv1.EventTypeLedgerSealed)).NotTo(BeNil(),
			"seal %s has no ledger.sealed event", s.Name)
		records, err := seal.Read(&s.Spec)
		g.Expect(err).NotTo(HaveOccurred())
		for _, r := range records {
			names = append(names, r.Kind+"/"+r.Object.GetName())
		}
	}
	return names
}

// expectAllGone waits until none of objs exists (expectGone).
func expectAllGone(objs ...client.Object) {
	GinkgoHelper()
	for _, obj := range objs {
		expectGone(obj)
	}
}

// paidInvoice issues invoice inv-1 of ns (10,000 minor units), pays it with
// payment pay-1 and waits until it is paid, with its events.
func paidInvoice(ns string) (*billingv1.Invoice, *billingv1.Payment) {
	const name, pay = "inv-1", "pay-1"
	GinkgoHelper()
	inv := builder.Invoice(ns, name, builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
	create(inv)
	waitForReady(inv, billingv1.ReasonIssued)
	payment := builder.Payment(ns, pay, name, 10_000)
	create(payment)
	waitForPayment(payment)
	waitForPaidEvent(inv, billingv1.EventTypeInvoicePaid)
	return inv, payment
}

// waitForPaidEvent waits until inv carries the event t.
func waitForPaidEvent(inv *billingv1.Invoice, t billingv1.EventType) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(billingv1.FindEvent(getInvoice(g, inv).Status.Events, t)).NotTo(BeNil())
	}).Should(Succeed())
}

var _ = Describe("Sealing", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	It("seals a closed workspace's paid and void families, keeps the open one live and seals it once paid", func() {
		paid := builder.Invoice(ns, "inv-paid", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		void := builder.Invoice(ns, "inv-void", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		open := builder.Invoice(ns, "inv-open", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(paid, void, open)
		numbers := map[string]string{}
		for _, inv := range []*billingv1.Invoice{paid, void, open} {
			numbers[inv.Name] = waitForReady(inv, billingv1.ReasonIssued).Status.Number
		}
		credit := builder.CreditNote(ns, "cn-paid", "inv-paid", builder.WithCreditedAmount(0, 4_000))
		pay := builder.Payment(ns, "pay-paid", "inv-paid", 6_000)
		cancel := builder.CreditNote(ns, "cn-void", "inv-void", builder.WithFullCredit())
		part := builder.Payment(ns, "pay-open-1", "inv-open", 3_000)
		create(credit, pay, cancel, part)
		waitForCreditNote(credit, billingv1.CreditNoteIssued)
		waitForCreditNote(cancel, billingv1.CreditNoteIssued)
		waitForPayment(pay)
		waitForPayment(part)
		waitForPaidEvent(paid, billingv1.EventTypeInvoicePaid)
		waitForPaidEvent(void, billingv1.EventTypeInvoiceVoided)

		By("closing the books through now")
		closeBooks(ns)

		By("waiting for the settled families to leave the live set into verified seals")
		expectAllGone(paid, void, credit, pay, cancel)
		Eventually(func(g Gomega) {
			g.Expect(sealedNames(g, ns)).To(ConsistOf("Invoice/inv-paid", "CreditNote/cn-paid", "Payment/pay-paid",
				"Invoice/inv-void", "CreditNote/cn-void"))
		}).Should(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(open), &billingv1.Invoice{})).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(part), &billingv1.Payment{})).To(Succeed())
		first := &billingv1.LedgerSeal{}
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "seal-000001"}, first)).To(Succeed())
		Expect(first.Spec.PreviousHash).To(Equal(billingv1.ZeroHash))
		Expect(first.Spec.FirstInvoiceNumber).To(Equal(min(numbers["inv-paid"], numbers["inv-void"])),
			"families are sealed in invoice-number order")
		Expect(first.Spec.ShortHash).To(Equal(first.Spec.Hash[:12]))

		By("paying the open invoice, which is sealed in a later seal")
		rest := builder.Payment(ns, "pay-open-2", "inv-open", 7_000)
		create(rest)
		expectAllGone(open, part, rest)
		var before int
		Eventually(func(g Gomega) {
			names := sealedNames(g, ns)
			g.Expect(names).To(ContainElements("Invoice/inv-open", "Payment/pay-open-1", "Payment/pay-open-2"))
			g.Expect(names).To(HaveLen(8))
			before = len(liveSeals(g, ns))
		}).Should(Succeed())
		last := &billingv1.LedgerSeal{}
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: seal.Name(int64(before))}, last)).To(Succeed())
		Expect(last.Spec.FirstInvoiceNumber).To(Equal(numbers["inv-open"]))
		Expect(last.Spec.LastInvoiceNumber).To(Equal(numbers["inv-open"]))
		Expect(last.Spec.Counts).To(Equal(billingv1.SealCounts{Invoices: 1, Payments: 2}))

		By("refusing to delete the customer of sealed invoices")
		customer := &billingv1.Customer{}
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "acme"}, customer)).To(Succeed())
		Expect(k8sClient.Delete(ctx, customer)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(customer), customer)).To(Succeed())
			g.Expect(customer.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
				billingv1.ReasonDeletionBlocked))
		}).Should(Succeed())
		Consistently(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(customer), &billingv1.Customer{})
		}).Should(Succeed())
	})

	It("makes a re-applied manifest of a sealed invoice or payment Invalid, AlreadySealed, without a number", func() {
		inv, payment := paidInvoice(ns)
		closeBooks(ns)
		// Both originals go, in either order: a manifest applied again
		// while one is still there would update it, not create it.
		expectAllGone(inv, payment)
		sequence := &billingv1.InvoiceSequence{}
		key := types.NamespacedName{Namespace: ns, Name: billingv1.InvoiceSequenceName}
		Expect(k8sClient.Get(ctx, key, sequence)).To(Succeed())
		next := sequence.Spec.Next

		By("applying the invoice's and the payment's manifests again")
		again := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		payAgain := builder.Payment(ns, "pay-1", "inv-1", 10_000)
		create(again, payAgain)
		current := waitForReady(again, billingv1.ReasonAlreadySealed)
		Expect(current.Status.Phase).To(Equal(billingv1.InvoiceInvalid))
		Expect(current.Status.Number).To(BeEmpty())
		Expect(current.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
			billingv1.ReasonAlreadySealed))
		Expect(meta.FindStatusCondition(current.Status.Conditions, billingv1.ConditionReady).Message).
			To(ContainSubstring("seal-000001"))
		Eventually(func(g Gomega) {
			p := &billingv1.Payment{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(payAgain), p)).To(Succeed())
			g.Expect(p.Status.Phase).To(Equal(billingv1.PaymentInvalid))
			g.Expect(p.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
				billingv1.ReasonAlreadySealed))
		}).Should(Succeed())

		By("taking no number: the workspace's invoice sequence does not move, and nothing is sealed twice")
		Consistently(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, key, sequence)).To(Succeed())
			g.Expect(sequence.Spec.Next).To(Equal(next))
			g.Expect(getInvoice(g, again).Status.Number).To(BeEmpty())
			g.Expect(liveSeals(g, ns)).To(HaveLen(1))
		}).Should(Succeed())
	})

	It("rejects a credit note and a payment made later for a sealed invoice: its ledger is closed", func() {
		paidInvoice(ns)
		closeBooks(ns)
		expectGone(&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "inv-1"}})

		late := builder.Payment(ns, "pay-late", "inv-1", 500)
		note := builder.CreditNote(ns, "cn-late", "inv-1", builder.WithFullCredit())
		create(late, note)
		Eventually(func(g Gomega) {
			p := &billingv1.Payment{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(late), p)).To(Succeed())
			g.Expect(p.Status.Phase).To(Equal(billingv1.PaymentInvalid))
			g.Expect(p.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue,
				billingv1.ReasonInvoiceSealed))
			cn := &billingv1.CreditNote{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(note), cn)).To(Succeed())
			g.Expect(cn.Status.Phase).To(Equal(billingv1.CreditNoteRejected))
			g.Expect(cn.Status.Number).To(BeEmpty())
			g.Expect(cn.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse,
				billingv1.ReasonInvoiceSealed))
			g.Expect(meta.FindStatusCondition(cn.Status.Conditions, billingv1.ConditionReady).Message).
				To(ContainSubstring("seal-000001"))
		}).Should(Succeed())
	})

	It("refuses a change of a seal's spec", func() {
		paidInvoice(ns)
		closeBooks(ns)
		s := &billingv1.LedgerSeal{}
		Eventually(func() error {
			return k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "seal-000001"}, s)
		}).Should(Succeed())
		s.Spec.LastInvoiceNumber = "INV-999999"
		err := k8sClient.Update(ctx, s)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("immutable"))
	})

	It("finishes an interrupted move without a second seal", func() {
		inv, pay := paidInvoice(ns)
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), inv)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pay), pay)).To(Succeed())

		By("writing the seal as a run that stopped right after creating it would have")
		through := metav1.NewTime(time.Now().Truncate(time.Second))
		s, err := builder.LedgerSeal(ns, 1, billingv1.ZeroHash, through, inv, pay)
		Expect(err).NotTo(HaveOccurred())
		create(s)
		closeBooks(ns)

		By("waiting for the next run to delete the originals and record the seal's event")
		expectAllGone(inv, pay)
		Eventually(func(g Gomega) {
			g.Expect(sealedNames(g, ns)).To(ConsistOf("Invoice/inv-1", "Payment/pay-1"))
		}).Should(Succeed())
		Consistently(func(g Gomega) {
			g.Expect(liveSeals(g, ns)).To(HaveLen(1))
		}).Should(Succeed())
	})

	It("finishes a move interrupted between labelling and deleting, and deletes only the seal's originals", func() {
		inv, pay := paidInvoice(ns)
		open := builder.Invoice(ns, "inv-open", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 10_000))
		create(open)
		waitForReady(open, billingv1.ReasonIssued)
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), inv)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pay), pay)).To(Succeed())

		By("writing the seal and labelling one original as a run that stopped while labelling would have")
		through := metav1.NewTime(time.Now().Truncate(time.Second))
		s, err := builder.LedgerSeal(ns, 1, billingv1.ZeroHash, through, inv, pay)
		Expect(err).NotTo(HaveOccurred())
		create(s)
		patch := client.RawPatch(types.MergePatchType,
			[]byte(`{"metadata":{"labels":{"`+billingv1.LabelSealedIn+`":"`+s.Name+`"}}}`))
		Expect(k8sClient.Patch(ctx, &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: inv.Name}},
			patch)).To(Succeed())
		closeBooks(ns)

		By("waiting for the next run to label and delete both originals, one DeleteCollection a kind")
		expectAllGone(inv, pay)
		Consistently(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(open), &billingv1.Invoice{})).To(Succeed())
			g.Expect(liveSeals(g, ns)).To(HaveLen(1))
		}).Should(Succeed())
	})

	It("delivers every event, sealed records' and seals' too, in order to an endpoint made after sealing", func() {
		create(newSigningSecret(ns))
		events := payAndCredit(ns)
		closeBooks(ns)
		By("waiting until inv-001 and inv-003 are sealed, each seal with its ledger.sealed event")
		var sealedEvents []recordedEvent
		Eventually(func(g Gomega) {
			g.Expect(sealedNames(g, ns)).To(ConsistOf("Invoice/inv-001", "Payment/pay-1", "Invoice/inv-003",
				"CreditNote/cn-1"))
			sealedEvents = nil
			for _, s := range liveSeals(g, ns) {
				e := billingv1.FindEvent(s.Status.Events, billingv1.EventTypeLedgerSealed)
				sealedEvents = append(sealedEvents, recordedEvent{Sequence: e.Sequence, Type: string(e.Type)})
			}
		}).Should(Succeed())
		// The records' events, then the close's period.closed, then the
		// seals' ledger.sealed.
		for i, e := range sealedEvents {
			Expect(e.Sequence).To(BeEquivalentTo(len(events)+2+i), "ledger.sealed events follow the records' events")
		}

		By("creating an endpoint that starts from the first event")
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		create(builder.WebhookEndpoint(ns, "all", receiver.URL, "webhook-signing", "secret",
			builder.WithEvents(billingv1.EventsAll)))
		Eventually(func(g Gomega) {
			got := received(g, ns, receiver)
			g.Expect(got).To(HaveLen(len(events) + 1 + len(sealedEvents)))
			g.Expect(got[:len(events)]).To(Equal(events), "the sealed records' events, as before they were sealed")
			g.Expect(got[len(events)].Type).To(Equal(string(billingv1.EventTypePeriodClosed)))
			for i, e := range sealedEvents {
				g.Expect(got[len(events)+1+i].Sequence).To(Equal(e.Sequence))
				g.Expect(got[len(events)+1+i].Type).To(Equal(e.Type))
			}
		}).Should(Succeed())
	})
})
