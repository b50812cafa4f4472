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

package httpapi

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Documents in the customer's language", func() {
	var (
		ns  string
		api *v1client.Client
	)

	BeforeEach(func() {
		ns = newWorkspace()
		api = apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
	})

	// issuedFor creates a customer preferring preferred ("" for none) and
	// an invoice of EUR 1,234.56 for it, and returns the invoice once issued.
	issuedFor := func(preferred string) *v1client.Invoice {
		cust, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{
			Name: "Muster GmbH", Email: "rechnung@muster.example", PreferredLocale: preferred,
			Address: &v1client.AddressParams{Line1: "Hauptstraße 5", City: "München", PostalCode: "80331", Country: "DE"},
		})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		inv, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Currency: "EUR",
			Items: []v1client.Item{{Description: "Beratung", Quantity: billingv1.Units(1), Amount: 123456}}})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		EventuallyWithOffset(1, func(g Gomega) {
			inv, _, err = api.GetInvoice(ctx, inv.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		return inv
	}

	It("writes a customer's documents in its preferred locale, else in the profile's, else in English", func() {
		By("writing in English without a profile's locale")
		english := issuedFor("")
		resp, err := api.InvoiceDocument(ctx, english.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Body)).To(And(ContainSubstring(`<html lang="en">`), ContainSubstring("Invoice"),
			ContainSubstring("€1,234.56")))

		Expect(k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ns},
			Spec:       billingv1.BillingProfileSpec{Locale: "fr"},
		})).To(Succeed())
		By("writing in the profile's French for a customer without a preference")
		Eventually(func(g Gomega) {
			resp, err := api.InvoiceDocument(ctx, english.ID, "")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(string(resp.Body)).To(And(ContainSubstring(`<html lang="fr">`), ContainSubstring("Facture"),
				ContainSubstring("1\u202f234,56\u00a0€")))
		}).Should(Succeed())

		By("writing in German, the HTML page and the PDF, for a customer who prefers it")
		german := issuedFor("de")
		resp, err = api.InvoiceDocument(ctx, german.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Body)).To(And(ContainSubstring(`<html lang="de">`), ContainSubstring("Rechnung"),
			ContainSubstring("1.234,56\u00a0€"), ContainSubstring("80331 München")))
		resp, err = api.InvoiceDocument(ctx, german.ID, "application/pdf")
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfText(resp.Body)).To(And(ContainSubstring("Rechnung"), ContainSubstring("Muster GmbH")))
	})

	It("answers a customer's preferred_locale in its canonical form", func() {
		cust, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Ada", Email: "ada@example.com",
			PreferredLocale: "pt-br"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(cust.PreferredLocale).To(HaveValue(Equal("pt-BR")))
		got, _, err := api.GetCustomer(ctx, cust.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.PreferredLocale).To(HaveValue(Equal("pt-BR")))
	})

	It("refuses a preferred_locale that is not a language tag with 422 parameter_invalid, and creates nothing", func() {
		for _, tag := range []string{"german", "de_DE!", "zz"} {
			_, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Ada", Email: "ada@example.com",
				PreferredLocale: tag})
			Expect(err).To(HaveOccurred(), tag)
			Expect(resp.Status).To(Equal(http.StatusUnprocessableEntity), tag)
			Expect(resp.Err().Code).To(Equal(CodeParameterInvalid), tag)
			Expect(resp.Err().Param).To(Equal("preferred_locale"), tag)
		}
		var customers billingv1.CustomerList
		Expect(k8s.List(ctx, &customers, client.InNamespace(ns))).To(Succeed())
		Expect(customers.Items).To(BeEmpty())
	})
})
