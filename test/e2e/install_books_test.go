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

// Closing a team's books in the install: the manager closes and seals as
// the install's ServiceAccount, under the install's retention policies and
// flow schemas, and the adapter still serves what was sealed.

import (
	"context"
	"net/http"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var (
	periodClosesGVR = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "periodcloses"}
	sealsGVR        = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "ledgerseals"}
)

// closesTheBooks: closes a team's books over HTTP, seals its paid invoice, and still serves it.
func (s *installSuite) closesTheBooks() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)

	By("finding the team's paid invoice, with its credit note and payment")
	paid, _, err := a.ListInvoices(ctx, v1client.ListParams{Limit: 100, PaymentStatus: "paid"})
	Expect(err).NotTo(HaveOccurred())
	Expect(paid.Data).To(HaveLen(1))
	before := paid.Data[0]
	Expect(before.Seal).To(BeNil())

	By("closing the books through a second ago, as the team, over HTTP")
	time.Sleep(1100 * time.Millisecond)
	through := time.Now().Add(-time.Second).UTC().Format(time.RFC3339)
	pc, resp, err := a.CreatePeriodClose(ctx, v1client.PeriodCloseParams{Through: through})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		got, _, err := a.GetPeriodClose(ctx, pc.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status).To(Equal("closed"))
	}, 30*time.Second).Should(Succeed())

	By("sealing the paid invoice's family: the originals leave the live set, the seal holds them")
	invoices := s.c.adminDyn.Resource(invoicesGVR).Namespace("team-a")
	Eventually(func() bool {
		_, err := invoices.Get(ctx, before.ID, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}, time.Minute).Should(BeTrue(), "the paid invoice was not sealed")
	seals, err := s.c.adminDyn.Resource(sealsGVR).Namespace("team-a").List(ctx, metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	Expect(seals.Items).To(HaveLen(1))

	By("still serving the sealed invoice as it was, with its seal's name")
	after, resp, err := a.GetInvoice(ctx, before.ID)
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusOK))
	Expect(after.Seal).To(HaveValue(Equal("seal-000001")))
	after.Seal = nil
	// Its deliveries are left out: team-a's profile (config/samples) sends
	// every invoice on issue to a mail server nothing listens on here, so
	// the invoice's message is still being retried, and the seal holds its
	// delivery as it was when sealed (the Email records the later attempts).
	Expect(cmp.Diff(before, *after, cmpopts.IgnoreFields(v1client.Invoice{}, "Deliveries"))).To(BeEmpty(),
		"the sealed invoice (+) differs from the live one (-)")

	By("verifying the chain, as the auditor with view")
	auditor := apiClient(s.ca, s.api, s.auditorAPI)
	verdict, resp, err := auditor.VerifySeals(ctx)
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusOK))
	Expect(verdict.Verified).To(BeTrue())
	Expect(verdict.Seals).To(Equal(1))

	By("refusing the seal's deletion to the admin")
	err = s.c.adminDyn.Resource(sealsGVR).Namespace("team-a").Delete(ctx, "seal-000001", metav1.DeleteOptions{})
	Expect(apierrors.IsForbidden(err) || apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)

	By("closing team-b's months by itself, with closeMonthsAfterDays")
	applyManifest(s.c.adminDyn, profilesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: BillingProfile
metadata: {name: default, namespace: team-b}
spec: {closeMonthsAfterDays: 1}`)
	Eventually(func(g Gomega) {
		closes, err := s.c.adminDyn.Resource(periodClosesGVR).Namespace("team-b").List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(closes.Items).To(HaveLen(1))
		phase, _, _ := unstructured.NestedString(closes.Items[0].Object, "status", "phase")
		g.Expect(phase).To(Equal("Closed"))
	}, 30*time.Second).Should(Succeed())
}

var emailsGVR = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "emails"}

// sealsMoneyOnAccount closes team-a's books again, once its stories of
// money on account and e-mail have run, and finds their records sealed.
func (s *installSuite) sealsMoneyOnAccount() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)

	By("paying the invoice the e-mail story sent twice")
	// Another story's customer has the same address: the invoice is the
	// one sent twice.
	hooli, _, err := a.ListCustomers(ctx, v1client.ListParams{Limit: 10, Email: "ap@hooli.example"})
	Expect(err).NotTo(HaveOccurred())
	var twice []v1client.Invoice
	for _, c := range hooli.Data {
		sent, _, err := a.ListInvoices(ctx, v1client.ListParams{Limit: 10, CustomerID: c.ID})
		Expect(err).NotTo(HaveOccurred())
		for _, inv := range sent.Data {
			if len(inv.Deliveries) == 2 {
				twice = append(twice, inv)
			}
		}
	}
	Expect(twice).To(HaveLen(1))
	inv := twice[0]
	_, resp, err := a.CreatePayment(ctx, v1client.PaymentParams{InvoiceID: inv.ID, Amount: *inv.AmountRemaining})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		got, _, err := a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.PaymentStatus).To(HaveValue(Equal("paid")))
	}, 30*time.Second).Should(Succeed())

	By("closing the books through a second ago again")
	time.Sleep(1100 * time.Millisecond)
	through := time.Now().Add(-time.Second).UTC().Format(time.RFC3339)
	_, resp, err = a.CreatePeriodClose(ctx, v1client.PeriodCloseParams{Through: through})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))

	By("sealing the applied credit, the write-off and the refund, served as before with their seal")
	applications, _, err := a.ListCreditApplications(ctx, v1client.ListParams{Limit: 10})
	Expect(err).NotTo(HaveOccurred())
	writeOffs, _, err := a.ListWriteOffs(ctx, v1client.ListParams{Limit: 10})
	Expect(err).NotTo(HaveOccurred())
	refunds, _, err := a.ListRefunds(ctx, v1client.ListParams{Limit: 10})
	Expect(err).NotTo(HaveOccurred())
	Expect(applications.Data).To(HaveLen(1))
	Expect(writeOffs.Data).To(HaveLen(1))
	Expect(refunds.Data).To(HaveLen(1))
	Eventually(func(g Gomega) {
		capp, _, err := a.GetCreditApplication(ctx, applications.Data[0].ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(capp.Seal).NotTo(BeNil())
		wo, _, err := a.GetWriteOff(ctx, writeOffs.Data[0].ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(wo.Seal).NotTo(BeNil())
		rf, _, err := a.GetRefund(ctx, refunds.Data[0].ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(rf.Seal).NotTo(BeNil())
		got, _, err := a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Seal).NotTo(BeNil())
	}, time.Minute).Should(Succeed())
	capp, _, err := a.GetCreditApplication(ctx, applications.Data[0].ID)
	Expect(err).NotTo(HaveOccurred())
	applications.Data[0].Seal = capp.Seal
	Expect(*capp).To(Equal(applications.Data[0]), "the sealed credit application differs from the live one")

	By("sealing the sent invoice's two e-mails with it: neither is live")
	Eventually(func(g Gomega) {
		emails, err := s.c.adminDyn.Resource(emailsGVR).Namespace("team-a").List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		for _, em := range emails.Items {
			ref, _, _ := unstructured.NestedString(em.Object, "spec", "invoiceRef", "name")
			g.Expect(ref).NotTo(Equal(inv.ID), "e-mail %s of the sealed invoice is live", em.GetName())
		}
	}, time.Minute).Should(Succeed())

	By("verifying the chain, as the auditor")
	verdict, _, err := apiClient(s.ca, s.api, s.auditorAPI).VerifySeals(ctx)
	Expect(err).NotTo(HaveOccurred())
	Expect(verdict.Verified).To(BeTrue(), "broken: %+v", verdict.Broken)
	Expect(verdict.Seals).To(BeNumerically(">=", 2))
}
