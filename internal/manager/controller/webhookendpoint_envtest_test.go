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
	"net"
	"net/http"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
)

// signingSecret is the secret the specs' endpoints sign with.
var signingSecret = []byte("whsec-0123456789abcdef0123456789abcdef")

// newSigningSecret returns the Secret holding signingSecret under "secret".
func newSigningSecret(ns string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "webhook-signing"},
		Data:       map[string][]byte{"secret": signingSecret},
	}
}

// newEndpoint returns a WebhookEndpoint of ns delivering invoice.issued to
// url, signed with newSigningSecret's key.
func newEndpoint(ns, name, url string) *billingv1.WebhookEndpoint {
	return builder.WebhookEndpoint(ns, name, url, "webhook-signing", "secret")
}

// createInvoices creates n invoices for customer acme in ns, named from
// first on.
func createInvoices(ns string, first, n int) {
	GinkgoHelper()
	for i := first; i < first+n; i++ {
		create(builder.Invoice(ns, fmt.Sprintf("inv-%03d", i), builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 1000)))
	}
}

// acceptedInvoices returns, for Eventually, the invoice sequences of the
// events a receiver accepted, sorted, once it has checked that they came
// in event-sequence order, each once.
func acceptedInvoices(r *webhookreceiver.Receiver) func(Gomega) []int64 {
	return func(g Gomega) []int64 {
		var invoices []int64
		var last int64
		for _, a := range r.AcceptedEvents() {
			g.Expect(a.EventSequence).To(BeNumerically(">", last), "events out of event-sequence order, or repeated")
			last = a.EventSequence
			invoices = append(invoices, a.Sequence)
		}
		slices.Sort(invoices)
		return invoices
	}
}

// sequences returns 1..n.
func sequences(n int) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = int64(i + 1)
	}
	return s
}

func getEndpoint(g Gomega, e *billingv1.WebhookEndpoint) *billingv1.WebhookEndpoint {
	out := &billingv1.WebhookEndpoint{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(e), out)).To(Succeed())
	return out
}

var _ = Describe("Webhook endpoints", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"), newSigningSecret(ns))
	})

	It("delivers every issued invoice in order, once each after the failed attempts, with valid signatures", func() {
		receiver := webhookreceiver.Start(signingSecret, webhookreceiver.FailingFirst(3))
		DeferCleanup(receiver.Close)

		By("issuing invoices before the endpoint exists and while it delivers")
		createInvoices(ns, 1, 5)
		endpoint := newEndpoint(ns, "accounting", receiver.URL)
		create(endpoint)
		createInvoices(ns, 6, 7)
		issuedInvoices(ns, 12)

		By("receiving 1..12 in order, each accepted exactly once")
		Eventually(acceptedInvoices(receiver)).WithTimeout(time.Minute).Should(Equal(sequences(12)))
		attempts := receiver.Attempts()
		Expect(attempts).To(HaveLen(15), "3 failed attempts and 12 accepted ones")
		for i, a := range attempts {
			Expect(a.SignatureValid).To(BeTrue(), "attempt %d has an invalid signature", i)
			Expect(a.Type).To(Equal("invoice.issued"))
			Expect(a.EventID).To(Equal(fmt.Sprintf("evt-%s-%d", ns, a.EventSequence)))
			if i < 3 {
				Expect(a.EventID).To(Equal(attempts[3].EventID), "the failed attempts are all for the first event")
			}
		}

		By("recording how far delivery has come")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			g.Expect(e.Status.DeliveredSequence).To(HaveValue(BeEquivalentTo(12)))
			g.Expect(e.Status.Failures).To(BeZero())
			g.Expect(e.Status.LastError).To(BeEmpty())
			g.Expect(e.Status.LastAttempt).NotTo(BeNil())
			g.Expect(e.Status.ObservedGeneration).To(Equal(e.Generation))
			g.Expect(e.Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonDelivered))
			g.Expect(e.Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionStalled))
		}).Should(Succeed())
	})

	It("sends nothing while paused and resumes after the last delivered invoice", func() {
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := newEndpoint(ns, "erp", receiver.URL)
		create(endpoint)
		createInvoices(ns, 1, 3)
		Eventually(acceptedInvoices(receiver)).Should(Equal(sequences(3)))

		By("pausing the endpoint and issuing three more")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			e.Spec.Paused = true
			g.Expect(k8sClient.Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonPaused))
		}).Should(Succeed())
		createInvoices(ns, 4, 3)
		issuedInvoices(ns, 6)
		Consistently(acceptedInvoices(receiver)).Should(Equal(sequences(3)))

		By("resuming it")
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			e.Spec.Paused = false
			g.Expect(k8sClient.Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		Eventually(acceptedInvoices(receiver)).Should(Equal(sequences(6)))
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.DeliveredSequence).To(HaveValue(BeEquivalentTo(6)))
		}).Should(Succeed())
	})

	It("starts after spec.startAfterSequence when it is set", func() {
		createInvoices(ns, 1, 4)
		issuedInvoices(ns, 4)
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := newEndpoint(ns, "from-now-on", receiver.URL)
		endpoint.Spec.StartAfterSequence = 4
		create(endpoint)
		createInvoices(ns, 5, 2)
		Eventually(acceptedInvoices(receiver)).Should(Equal([]int64{5, 6}))
	})

	It("refuses a URL in the cloud metadata range, and sends nothing", func() {
		endpoint := newEndpoint(ns, "metadata", "https://169.254.169.254/latest/meta-data/")
		create(endpoint)
		createInvoices(ns, 1, 1)
		Eventually(func(g Gomega) {
			e := getEndpoint(g, endpoint)
			g.Expect(e.Status.Conditions).To(And(
				managertest.HaveCondition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonURLNotAllowed),
				managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonURLNotAllowed)))
			g.Expect(e.Status.LastError).To(ContainSubstring("link-local"))
			g.Expect(e.Status.DeliveredSequence).To(HaveValue(BeZero()))
		}).Should(Succeed())
	})

	It("stalls without its secret and delivers once the secret exists", func() {
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		endpoint := newEndpoint(ns, "no-secret", receiver.URL)
		endpoint.Spec.SecretRef.Name = "created-later"
		create(endpoint)
		createInvoices(ns, 1, 2)
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.Conditions).To(managertest.HaveCondition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonSecretNotFound))
		}).Should(Succeed())
		Expect(receiver.Attempts()).To(BeEmpty())

		secret := newSigningSecret(ns)
		secret.Name = "created-later"
		create(secret)
		Eventually(acceptedInvoices(receiver)).Should(Equal(sequences(2)))
		Eventually(func(g Gomega) {
			g.Expect(getEndpoint(g, endpoint).Status.Conditions).To(managertest.HaveNoCondition(billingv1.ConditionStalled))
		}).Should(Succeed())
	})

	It("keeps delivering to one endpoint while another hangs", func() {
		hanging := hangingServer()
		receiver := webhookreceiver.Start(signingSecret)
		DeferCleanup(receiver.Close)
		create(newEndpoint(ns, "hangs", hanging), newEndpoint(ns, "works", receiver.URL))
		createInvoices(ns, 1, 8)
		// The hanging endpoint holds a worker for its whole 10 s timeout.
		Eventually(acceptedInvoices(receiver)).WithTimeout(5 * time.Second).Should(Equal(sequences(8)))
	})
})

// hangingServer accepts connections on loopback and never answers; it
// closes with the spec.
func hangingServer() string {
	GinkgoHelper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	release := make(chan struct{})
	srv := &http.Server{
		Handler:           http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }),
		ReadHeaderTimeout: time.Second,
	}
	go func() { _ = srv.Serve(lis) }()
	DeferCleanup(func() {
		close(release)
		_ = srv.Close()
	})
	return "http://" + lis.Addr().String() + "/hooks"
}
