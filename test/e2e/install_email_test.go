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

package e2e

// E-mail in the install: the adapter queues Emails as the install's
// ServiceAccount, and the manager sends them, and queues one on issue,
// under the install's RBAC, to an SMTP server on loopback.

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"context"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// sendsEmail: sends an invoice on issue and on request over HTTP, and shows its deliveries.
func (s *installSuite) sendsEmail() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)
	server, err := smtpserver.Start()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(server.Close)

	By("pointing team-a's profile at a mail server, every invoice sent on issue")
	profiles := s.c.adminDyn.Resource(profilesGVR).Namespace("team-a")
	_, err = profiles.Patch(ctx, "default", types.MergePatchType, fmt.Appendf(nil,
		`{"spec":{"email":{"from":"billing@team-a.example","sendOnIssue":true,"smtp":{"host":%q,"port":%d,"tls":"none"}}}}`,
		server.Host, server.Port), metav1.PatchOptions{})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() {
		_, err := profiles.Patch(context.Background(), "default", types.MergePatchType, []byte(`{"spec":{"email":null}}`),
			metav1.PatchOptions{})
		Expect(err).NotTo(HaveOccurred())
	})

	cus, resp, err := a.CreateCustomer(ctx, v1client.CustomerParams{Name: "Hooli", Email: "ap@hooli.example"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	inv, resp, err := a.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cus.ID,
		Items: []v1client.Item{{Description: "Servers", Quantity: billingv1.Units(1), Amount: 25_000}}})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	var issued *v1client.Invoice
	Eventually(func(g Gomega) {
		issued, _, err = a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(issued.Deliveries).To(HaveLen(1))
		g.Expect(issued.Deliveries[0].Purpose).To(Equal("invoice"))
		g.Expect(issued.Deliveries[0].SentAt).NotTo(BeNil())
	}, 30*time.Second).Should(Succeed())

	By("sending it again on request, to another address")
	queued, resp, err := a.SendInvoice(ctx, inv.ID, v1client.SendParams{To: []string{"cfo@hooli.example"}})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusAccepted))
	Expect(queued.To).To(Equal([]string{"cfo@hooli.example"}))
	var delivered *v1client.Invoice
	Eventually(func(g Gomega) {
		delivered, _, err = a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(delivered.Deliveries).To(HaveLen(2))
		g.Expect(delivered.Deliveries[1].MessageID).To(HaveValue(Equal(queued.MessageID)))
		g.Expect(delivered.Deliveries[1].SentAt).NotTo(BeNil())
	}, 30*time.Second).Should(Succeed())

	// This story's messages are those its deliveries name: other stories
	// send to the same catcher, one of them to a customer at the same
	// address. Delivery is at least once (docs/email.md): a manager that
	// loses its lease between the server's acceptance and its status
	// patch sends the message again, with the same Message-ID, its
	// identity, so each counts once.
	ours := map[string]bool{}
	for _, d := range delivered.Deliveries {
		Expect(d.MessageID).NotTo(BeNil())
		ours[*d.MessageID] = true
	}
	var messages []smtpserver.Message
	for _, m := range server.Messages() {
		if id := m.MessageID(); ours[id] {
			delete(ours, id)
			messages = append(messages, m)
		}
	}
	Expect(messages).To(HaveLen(2))
	Expect(messages[0].To).To(Equal([]string{"ap@hooli.example"}))
	Expect(messages[1].To).To(Equal([]string{"cfo@hooli.example"}))
	Expect(messages[1].MessageID()).To(Equal(queued.MessageID))
	for _, m := range messages {
		subject, err := m.Subject()
		Expect(err).NotTo(HaveOccurred())
		Expect(subject).To(HavePrefix("Invoice " + *issued.Number))
		attachments, err := m.Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(ContainElement(HaveField("MediaType", "application/pdf")))
	}
}
