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

// Money on account in the install: the adapter creates credit
// applications, refunds and write-offs as the install's ServiceAccount, and
// the manager enters them, and creates a credit application on issue,
// under the install's RBAC and retention policies.

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"context"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// usesMoneyOnAccount: turns an overpaid invoice into credit, applies it on issue, refunds and writes off, over HTTP.
func (s *installSuite) usesMoneyOnAccount() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)

	By("paying an invoice, then crediting it in full: what was paid is the customer's credit")
	cus, resp, err := a.CreateCustomer(ctx, v1client.CustomerParams{Name: "Initech", Email: "ap@initech.example"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	issue := func(amount int64) *v1client.Invoice {
		GinkgoHelper()
		inv, resp, err := a.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cus.ID,
			Items: []v1client.Item{{Description: "Printers", Quantity: billingv1.Units(1), Amount: amount}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusCreated))
		Eventually(func(g Gomega) {
			got, _, err := a.GetInvoice(ctx, inv.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.Status).To(Equal("issued"))
		}, 30*time.Second).Should(Succeed())
		return inv
	}
	first := issue(10_000)
	_, resp, err = a.CreatePayment(ctx, v1client.PaymentParams{InvoiceID: first.ID, Amount: 10_000})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		got, _, err := a.GetInvoice(ctx, first.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.PaymentStatus).To(HaveValue(Equal("paid")))
	}, 30*time.Second).Should(Succeed())
	_, resp, err = a.CreateCreditNote(ctx, v1client.CreditNoteParams{InvoiceID: first.ID, Reason: "order_change",
		FullCredit: true})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	credit := func(want int64) {
		GinkgoHelper()
		Eventually(func(g Gomega) {
			got, _, err := a.GetCustomer(ctx, cus.ID)
			g.Expect(err).NotTo(HaveOccurred())
			if want == 0 {
				g.Expect(got.CreditBalance).To(BeEmpty())
				return
			}
			g.Expect(got.CreditBalance).To(ConsistOf(v1client.CurrencyAmount{Currency: "USD", Amount: want}))
		}, 30*time.Second).Should(Succeed())
	}
	credit(10_000)

	By("applying the credit to the next invoice on issue, as the profile says: the manager creates the application")
	profiles := s.c.adminDyn.Resource(profilesGVR).Namespace("team-a")
	_, err = profiles.Patch(ctx, "default", types.MergePatchType, []byte(`{"spec":{"applyCreditOnIssue":true}}`),
		metav1.PatchOptions{})
	Expect(err).NotTo(HaveOccurred())
	second := issue(4_000)
	Eventually(func(g Gomega) {
		capp, _, err := a.GetCreditApplication(ctx, second.ID+"-credit")
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(capp.Status).To(Equal("applied"))
		g.Expect(capp.Amount).To(BeNumerically("==", 4_000))
		got, _, err := a.GetInvoice(ctx, second.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.AmountApplied).To(HaveValue(BeNumerically("==", 4_000)))
		g.Expect(got.PaymentStatus).To(HaveValue(Equal("paid")))
	}, 30*time.Second).Should(Succeed())
	credit(6_000)
	_, err = profiles.Patch(ctx, "default", types.MergePatchType, []byte(`{"spec":{"applyCreditOnIssue":null}}`),
		metav1.PatchOptions{})
	Expect(err).NotTo(HaveOccurred())

	By("refunding the rest of the credit")
	rf, resp, err := a.CreateRefund(ctx, v1client.RefundParams{CustomerID: cus.ID, Amount: 6_000, Currency: "USD",
		Method: "bank_transfer"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		got, _, err := a.GetRefund(ctx, rf.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status).To(Equal("recorded"))
	}, 30*time.Second).Should(Succeed())
	credit(0)

	By("writing off an invoice that will not be paid")
	third := issue(2_500)
	wo, resp, err := a.CreateWriteOff(ctx, v1client.WriteOffParams{InvoiceID: third.ID, Reason: "Bankrupt"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		got, _, err := a.GetWriteOff(ctx, wo.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status).To(Equal("recorded"))
		inv, _, err := a.GetInvoice(ctx, third.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(inv.PaymentStatus).To(HaveValue(Equal("uncollectible")))
		g.Expect(inv.AmountWrittenOff).To(HaveValue(BeNumerically("==", 2_500)))
	}, 30*time.Second).Should(Succeed())
}
