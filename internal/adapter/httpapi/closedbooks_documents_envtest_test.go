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
	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// The documents of a sealed invoice (closed books) are rendered from its
// seal, in its customer's language today, and as a Factur-X.
var _ = Describe("Documents of sealed invoices", func() {
	It("renders a sealed invoice from its seal, in its customer's language and as a Factur-X", func() {
		ns := newWorkspace()
		api := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
		Expect(k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ns},
			Spec: billingv1.BillingProfileSpec{Issuer: &billingv1.Issuer{
				Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
				Address: &billingv1.Address{Line1: "Friedrichstraße 1", PostalCode: "10117", City: "Berlin", Country: "DE"},
			}},
		})).To(Succeed())
		cus, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Dupont SARL", Email: "compta@dupont.example",
			TaxID: "FR40303265045", PreferredLocale: "fr",
			Address: &v1client.AddressParams{Line1: "12 rue de la Paix", City: "Paris", PostalCode: "75002", Country: "FR"}})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		created, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cus.ID, Currency: "EUR",
			Items: []v1client.Item{{Description: "Conseil", Quantity: billingv1.Units(2), Amount: 61_728, Tax: vatTax("S", "19", "")}}})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		inv := &billingv1.Invoice{}
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: created.ID}, inv)).To(Succeed())
			g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
		}).Should(Succeed())

		By("sealing a copy of it under another number, which the adapter then serves instead of the live one")
		sealed := inv.DeepCopy()
		sealed.Status.Number = "SEALED-000001"
		Expect(k8s.Create(ctx, sealOf(ns, 1, billingv1.ZeroHash, sealed))).To(Succeed())
		Eventually(func(g Gomega) {
			got, _, err := api.GetInvoice(ctx, created.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.Seal).To(HaveValue(Equal("seal-000001")))
		}).Should(Succeed())

		By("rendering it in French, its customer's language, from the seal")
		resp, err = api.InvoiceDocument(ctx, created.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Body)).To(And(ContainSubstring(`<html lang="fr">`), ContainSubstring("Facture"),
			ContainSubstring("SEALED-000001"), ContainSubstring("1\u202f469,13\u00a0€")))
		Expect(pdfText(mustPDF(api, created.ID))).To(And(ContainSubstring("Facture"), ContainSubstring("SEALED-000001")))

		By("rendering it as a Factur-X whose e-invoice is the seal's")
		resp, err = api.InvoiceDocument(ctx, created.ID, "application/pdf; profile=factur-x")
		Expect(err).NotTo(HaveOccurred(), "%s", resp)
		Expect(resp.Status).To(Equal(http.StatusOK))
		rep, err := pdfcheck.Inspect(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfcheck.FacturXProblems(rep)).To(BeEmpty())
		Expect(string(rep.EmbeddedFiles[0].Data)).To(ContainSubstring("<ram:ID>SEALED-000001</ram:ID>"))
	})
})

// mustPDF is the PDF of invoice id.
func mustPDF(api *v1client.Client, id string) []byte {
	GinkgoHelper()
	resp, err := api.InvoiceDocument(ctx, id, "application/pdf")
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Header.Get("Content-Type")).To(Equal("application/pdf"))
	return resp.Body
}
