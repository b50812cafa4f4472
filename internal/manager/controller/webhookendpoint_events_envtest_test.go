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
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
)

// recordedEvent is one event as the objects' status.events record it: the
// truth a receiver's deliveries are compared with.
type recordedEvent struct {
	Sequence int64
	Type     string
	ObjectID string
}

// workspaceEvents returns every event recorded on the invoices, credit
// notes and payments of ns, in sequence order.
func workspaceEvents(g Gomega, ns string) []recordedEvent {
	var out []recordedEvent
	add := func(name string, events []billingv1.RecordedEvent) {
		for _, e := range events {
			out = append(out, recordedEvent{Sequence: e.Sequence, Type: string(e.Type), ObjectID: name})
		}
	}
	invoices := &billingv1.InvoiceList{}
	notes := &billingv1.CreditNoteList{}
	payments := &billingv1.PaymentList{}
	for _, list := range []client.ObjectList{invoices, notes, payments} {
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	}
	for _, o := range invoices.Items {
		add(o.Name, o.Status.Events)
	}
	for _, o := range notes.Items {
		add(o.Name, o.Status.Events)
	}
	for _, o := range payments.Items {
		add(o.Name, o.Status.Events)
	}
	slices.SortFunc(out, func(a, b recordedEvent) int { return int(a.Sequence - b.Sequence) })
	return out
}

// ofTypes keeps the events of the types given.
func ofTypes(events []recordedEvent, types ...billingv1.EventType) []recordedEvent {
	var out []recordedEvent
	for _, e := range events {
		if slices.Contains(types, billingv1.EventType(e.Type)) {
			out = append(out, e)
		}
	}
	return out
}

// received returns the events a receiver accepted, in arrival order,
// repeats included, as recordedEvents; every one must carry a valid
// signature and the id of its event sequence.
func received(g Gomega, ns string, r *webhookreceiver.Receiver) []recordedEvent {
	var out []recordedEvent
	for _, a := range r.AcceptedEvents() {
		g.Expect(a.SignatureValid).To(BeTrue(), "event %d has an invalid signature", a.EventSequence)
		g.Expect(a.EventID).To(Equal(fmt.Sprintf("evt-%s-%d", ns, a.EventSequence)))
		out = append(out, recordedEvent{Sequence: a.EventSequence, Type: a.Type, ObjectID: a.ObjectID})
	}
	return out
}

// settledEvents waits until the workspace's recorded events are want in
// number and gapless from 1, and returns them.
func settledEvents(ns string, want int) []recordedEvent {
	GinkgoHelper()
	var events []recordedEvent
	Eventually(func(g Gomega) {
		events = workspaceEvents(g, ns)
		g.Expect(events).To(HaveLen(want))
		for i, e := range events {
			g.Expect(e.Sequence).To(BeEquivalentTo(i+1), "the event sequence has a gap")
		}
	}).Should(Succeed())
	return events
}

// payAndCredit issues three invoices of 1000 in ns, pays inv-001 in full
// and inv-002 in part, and credits inv-003 in full: 3 invoice.issued,
// 2 payment.recorded, 1 invoice.paid, 1 credit_note.issued and
// 1 invoice.voided, 8 events.
func payAndCredit(ns string) []recordedEvent {
	GinkgoHelper()
	createInvoices(ns, 1, 3)
	issuedInvoices(ns, 3)
	create(builder.Payment(ns, "pay-1", "inv-001", 1000), builder.Payment(ns, "pay-2", "inv-002", 400),
		builder.CreditNote(ns, "cn-1", "inv-003", builder.WithFullCredit()))
	return settledEvents(ns, 8)
}

var _ = Describe("Webhook endpoints on the event sequence", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"), newSigningSecret(ns))
	})

	It("sends an endpoint the types it subscribes to, in event order, each once, and nothing else", func() {
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := builder.WebhookEndpoint(ns, "payments", receiver.URL, "webhook-signing", "secret",
			builder.WithEvents(string(billingv1.EventTypePaymentRecorded), string(billingv1.EventTypeInvoicePaid)))
		create(endpoint)
		events := payAndCredit(ns)
		want := ofTypes(events, billingv1.EventTypePaymentRecorded, billingv1.EventTypeInvoicePaid)
		Expect(want).To(HaveLen(3))

		Eventually(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(want)) }).Should(Succeed())
		Consistently(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(want)) }).Should(Succeed())
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			g.Expect(e.Status.DeliveredEventSequence).To(HaveValue(BeEquivalentTo(8)), "the skipped events move the cursor too")
			g.Expect(e.Status.DeliveredSequence).To(HaveValue(BeEquivalentTo(3)), "invoices it does not subscribe to are done with")
			g.Expect(e.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonDelivered))
		}).Should(Succeed())
	})

	It("sends every event 1..N in order to an endpoint subscribed to *", func() {
		receiver := webhookreceiver.Start(signingSecret, webhookreceiver.FailingFirst(2))
		DeferCleanup(receiver.Close)
		create(builder.WebhookEndpoint(ns, "all", receiver.URL, "webhook-signing", "secret",
			builder.WithEvents(billingv1.EventsAll)))
		events := payAndCredit(ns)
		Eventually(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(events)) }).Should(Succeed())
		Expect(receiver.Attempts()).To(HaveLen(len(events)+2), "2 failed attempts and each event accepted once")
	})

	It("continues an endpoint made before the event sequence after its delivered invoices, repeating none", func() {
		const delivered = 3
		createInvoices(ns, 1, delivered)
		issuedInvoices(ns, delivered)
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := newEndpoint(ns, "legacy", receiver.URL)
		endpoint.Spec.Paused = true
		create(endpoint)
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonPaused))
		}).Should(Succeed())

		By("giving it the status an endpoint of the previous version has: invoices 1..3 delivered, no event cursor")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			k := int64(delivered)
			e.Status.DeliveredSequence = &k
			e.Status.DeliveredEventSequence = nil
			g.Expect(k8sClient.Status().Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		Expect(getEndpoint(Default, endpoint).Status.DeliveredEventSequence).To(BeNil())

		By("resuming it while more invoices, payments and credit notes are made")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			e.Spec.Paused = false
			g.Expect(k8sClient.Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		createInvoices(ns, 4, 3)
		issuedInvoices(ns, 6)
		create(builder.Payment(ns, "pay-1", "inv-001", 1000), builder.Payment(ns, "pay-5", "inv-005", 1000),
			builder.CreditNote(ns, "cn-1", "inv-006", builder.WithFullCredit()))
		// 6 invoice.issued, 2 payment.recorded, 2 invoice.paid,
		// 1 credit_note.issued, 1 invoice.voided.
		events := settledEvents(ns, 12)
		var want []recordedEvent
		for _, e := range ofTypes(events, billingv1.EventTypeInvoiceIssued) {
			if e.ObjectID > fmt.Sprintf("inv-%03d", delivered) {
				want = append(want, e)
			}
		}
		Expect(want).To(HaveLen(3))

		Eventually(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(want)) }).Should(Succeed())
		Consistently(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(want)) }).Should(Succeed())
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			g.Expect(e.Status.DeliveredEventSequence).To(HaveValue(BeEquivalentTo(12)))
			g.Expect(e.Status.DeliveredSequence).To(HaveValue(BeEquivalentTo(6)), "the Delivered column still counts invoices")
		}).Should(Succeed())
	})

	It("resumes after the event cursor its status records, whoever recorded it", func() {
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := builder.WebhookEndpoint(ns, "resumes", receiver.URL, "webhook-signing", "secret",
			builder.WithEvents(billingv1.EventsAll), builder.WithPaused(true))
		create(endpoint)
		events := payAndCredit(ns)
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonPaused))
		}).Should(Succeed())
		Expect(receiver.Attempts()).To(BeEmpty())

		By("recording a cursor at event 5, as a manager that delivered 1..5 before it stopped would have")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			cursor := int64(5)
			e.Status.DeliveredEventSequence = &cursor
			g.Expect(k8sClient.Status().Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			e.Spec.Paused = false
			g.Expect(k8sClient.Update(ctx, e)).To(Succeed())
		}).Should(Succeed())

		Eventually(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(events[5:])) }).Should(Succeed())
		Consistently(func(g Gomega) { g.Expect(received(g, ns, receiver)).To(Equal(events[5:])) }).Should(Succeed())
	})
})
