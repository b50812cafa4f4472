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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/webhooks"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
)

var _ = Describe("The manager killed while it delivers webhooks", func() {
	It("loses no invoice: the receiver gets events 1..N in order, and repeats only part of the batch in flight", func() {
		ws := newWorkspace("webhooks")
		secret := []byte("whsec-reliability-0123456789abcdef")
		// Each answer takes 50 ms, so a batch (2 s of sending) holds about
		// 40 events and the kill lands in the middle of delivery.
		receiver := webhookreceiver.Start(secret, webhookreceiver.Slow(50*time.Millisecond))
		DeferCleanup(receiver.Close)

		By("issuing invoices")
		const total = 150
		Expect(k8s.Create(ctx, builder.Customer(ws, "acme"))).To(Succeed())
		for i := range total {
			Expect(k8s.Create(ctx, builder.Invoice(ws, fmt.Sprintf("inv-%03d", i), builder.WithCustomer("acme"), twoHoursOfWork))).To(Succeed())
		}
		awaitCount(ws, &billingv1.InvoiceList{}, total, func(inv *billingv1.Invoice) bool { return inv.Status.Sequence != nil },
			time.Minute)

		By("delivering them, and killing the manager in the middle")
		Expect(k8s.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ws, Name: "signing"},
			Data:       map[string][]byte{"secret": secret},
		})).To(Succeed())
		endpoint := builder.WebhookEndpoint(ws, "accounting", receiver.URL, "signing", "secret")
		Expect(k8s.Create(ctx, endpoint)).To(Succeed())
		recorded := func() int64 {
			e := &billingv1.WebhookEndpoint{}
			Expect(k8s.Get(ctx, crclient.ObjectKeyFromObject(endpoint), e)).To(Succeed())
			if e.Status.DeliveredEventSequence == nil {
				return 0
			}
			return *e.Status.DeliveredEventSequence
		}
		// Killed once a batch is recorded and the next one is under way.
		Eventually(recorded).Should(BeNumerically(">", 0))
		Eventually(func() int { return len(receiver.AcceptedEventSequences()) }).Should(BeNumerically(">", recorded()+5))
		manager.kill()
		// Let the attempt in flight end on the receiver's side.
		time.Sleep(500 * time.Millisecond)
		beforeKill := len(receiver.AcceptedEventSequences())
		atKill := recorded()
		GinkgoWriter.Printf("Killed the manager after %d accepted deliveries, %d recorded\n", beforeKill, atKill)
		manager = startManager()

		By("receiving every invoice")
		Eventually(func(g Gomega) {
			accepted := receiver.AcceptedEventSequences()
			g.Expect(accepted).NotTo(BeEmpty())
			g.Expect(accepted[len(accepted)-1]).To(BeEquivalentTo(total))
		}).WithTimeout(time.Minute).Should(Succeed())

		accepted := receiver.AcceptedEventSequences()
		GinkgoWriter.Printf("Accepted %d deliveries for %d invoices\n", len(accepted), total)
		// The workspace has only invoices, so its events are 1..total, one
		// invoice.issued each. accepted is 1..m before the kill, then
		// j..total after the restart,
		// where j is after the progress recorded before the kill.
		m := int64(beforeKill)
		for i := range beforeKill {
			Expect(accepted[i]).To(BeEquivalentTo(i+1), "before the kill, deliveries go in order: %v", accepted)
		}
		after := accepted[beforeKill:]
		j := after[0]
		Expect(j).To(Equal(atKill+1), "the restarted manager did not resume right after its recorded progress")
		Expect(j).To(BeNumerically("<=", m+1), "the restarted manager skipped invoices: %v", accepted)
		for i, seq := range after {
			Expect(seq).To(Equal(j+int64(i)), "after the restart, deliveries go in order: %v", after)
		}
		repeats := m - j + 1
		GinkgoWriter.Printf("Repeated %d deliveries after the kill\n", repeats)
		Expect(repeats).To(BeNumerically("<=", webhooks.DefaultWebhookBatch),
			"more than one batch was delivered again")
		for _, a := range receiver.Attempts() {
			Expect(a.SignatureValid).To(BeTrue(), "attempt for event %d has an invalid signature", a.EventSequence)
		}
		Eventually(recorded).Should(BeEquivalentTo(total))
	})
})
