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
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
)

var _ = Describe("The manager killed while it sends e-mail", func() {
	It("loses no message: every invoice is sent at least once, each copy with its one Message-ID", func() {
		ws := newWorkspace("email")
		const username, password = "invoicing", "smtp-password-that-never-leaks-9f3e"
		server, err := smtpserver.Start(smtpserver.WithAuth(username, password))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(server.Close)

		By("a workspace that sends every invoice on issue, authenticated")
		Expect(k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ws, Name: "smtp"},
			Data: map[string][]byte{"username": []byte(username), "password": []byte(password)}})).To(Succeed())
		Expect(k8s.Create(ctx, builder.BillingProfile(ws, billingv1.DefaultBillingProfileName,
			func(p *billingv1.BillingProfile) {
				p.Spec.Email = &billingv1.EmailSettings{From: "billing@example.com", SendOnIssue: true,
					SMTP: billingv1.SMTPServer{Host: server.Host, Port: server.Port, TLS: billingv1.SMTPTLSNone,
						CredentialsSecretRef: &billingv1.SecretReference{Name: "smtp"}}}
			}))).To(Succeed())
		Expect(k8s.Create(ctx, builder.Customer(ws, "acme"))).To(Succeed())

		By("issuing invoices, and killing the manager once the first messages arrive")
		const total = 100
		for i := range total {
			Expect(k8s.Create(ctx, builder.Invoice(ws, fmt.Sprintf("inv-%03d", i), builder.WithCustomer("acme"),
				twoHoursOfWork))).To(Succeed())
		}
		Eventually(func() int { return len(server.Received()) }).WithTimeout(time.Minute).Should(BeNumerically(">=", 3))
		killed := manager
		manager.kill()
		beforeKill := len(server.Received())
		manager = startManager()

		By("sending every message after the restart")
		var emails billingv1.EmailList
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &emails, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(emails.Items).To(HaveLen(total))
			for _, em := range emails.Items {
				g.Expect(em.Status.Phase).To(Equal(billingv1.EmailSent), "%s: %v", em.Name, em.Status.Conditions)
			}
		}).WithTimeout(2 * time.Minute).Should(Succeed())

		copies := map[string]int{}
		for _, m := range server.Received() {
			if m.Accepted {
				copies[m.MessageID()]++
				Expect(m.Username).To(Equal(username))
			}
		}
		repeated := 0
		for _, em := range emails.Items {
			Expect(copies).To(HaveKey(em.Status.MessageID), "the message of %s never arrived", em.Name)
			repeated += copies[em.Status.MessageID] - 1
			delete(copies, em.Status.MessageID)
		}
		Expect(copies).To(BeEmpty(), "messages arrived that no Email sent")
		GinkgoWriter.Printf("Killed after %d messages; %d of %d sent twice, each with its Message-ID\n",
			beforeKill, repeated, total)

		By("the password is in neither manager's log")
		for _, p := range []*process{killed, manager} {
			log, err := os.ReadFile(p.log)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(log)).NotTo(ContainSubstring(password))
		}
	})
})
