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
	"bytes"
	"net/http"
	"strings"

	"github.com/ledongthuc/pdf"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Invoice documents", func() {
	var (
		ns  string
		api *v1client.Client
	)

	BeforeEach(func() {
		ns = newWorkspace()
		api = apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
	})

	// issuedInvoice creates a customer and an invoice in ns over HTTP and
	// returns the invoice once the controller has issued it.
	issuedInvoice := func(currency string, items ...v1client.Item) *v1client.Invoice {
		cust, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{
			Name: "Acme Corporation", Email: "billing@acme.example", TaxID: "US-12-3456789",
			Address: &v1client.AddressParams{Line1: "1 Main Street", City: "Springfield", PostalCode: "62701", Country: "US"},
		})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		inv, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Currency: currency, Items: items})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		EventuallyWithOffset(1, func(g Gomega) {
			var err error
			inv, _, err = api.GetInvoice(ctx, inv.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		return inv
	}

	withProfile := func(footer string) {
		ExpectWithOffset(1, k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ns},
			Spec: billingv1.BillingProfileSpec{
				Issuer: &billingv1.Issuer{
					Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
					Address: &billingv1.Address{Line1: "Friedrichstraße 1", PostalCode: "10117", City: "Berlin", Country: "DE"},
				},
				Footer: footer,
			},
		})).To(Succeed())
	}

	It("serves an issued invoice as an HTML page with its number, issuer, bill-to, dates, lines, total and footer", func() {
		withProfile("IBAN DE89 3704 0044 0532 0130 00 · Thank you for your business.")
		inv := issuedInvoice("USD",
			v1client.Item{Description: "Consulting, November", Quantity: billingv1.Units(3), Amount: 15000},
			v1client.Item{Description: "Support plan", Quantity: billingv1.Units(1), Amount: 23050})

		resp, err := api.InvoiceDocument(ctx, inv.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusOK))
		Expect(resp.Header.Get("Content-Type")).To(Equal("text/html; charset=utf-8"))
		Expect(resp.Header.Get("Content-Disposition")).To(Equal("inline; filename=" + *inv.Number + ".html"))
		Expect(resp.Header.Get("Request-Id")).NotTo(BeEmpty())
		html := string(resp.Body)
		Expect(html).To(HavePrefix("<!DOCTYPE html>"))
		Expect(html).To(ContainSubstring("@page"))
		for _, want := range []string{
			*inv.Number, (*inv.IssuedAt)[:10], (*inv.DueAt)[:10],
			"Example Invoicing GmbH", "Friedrichstraße 1", "10117 Berlin", "DE123456789",
			"Acme Corporation", "billing@acme.example", "1 Main Street", "SPRINGFIELD 62701", "US-12-3456789",
			"Consulting, November", "$150.00", "$450.00", "Support plan", "$230.50",
			"Total", "$680.50",
			"IBAN DE89 3704 0044 0532 0130 00 · Thank you for your business.",
		} {
			Expect(html).To(ContainSubstring(want))
		}
	})

	It("prints a description of <script> as text", func() {
		inv := issuedInvoice("", v1client.Item{Description: `<script>alert("pwned")</script>`, Quantity: billingv1.Units(1), Amount: 100})
		resp, err := api.InvoiceDocument(ctx, inv.ID, "text/html")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Body)).NotTo(ContainSubstring("<script"))
		Expect(string(resp.Body)).To(ContainSubstring("&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;"))
		Expect(resp.Header.Get("Content-Security-Policy")).To(ContainSubstring("default-src 'none'"))
	})

	It("serves a PDF whose text holds the number and the total when Accept asks for application/pdf", func() {
		withProfile("Payable by bank transfer.")
		inv := issuedInvoice("BHD", v1client.Item{Description: "Consulting", Quantity: billingv1.Units(2), Amount: 12345})

		resp, err := api.InvoiceDocument(ctx, inv.ID, "application/pdf")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/pdf"))
		Expect(resp.Header.Get("Content-Disposition")).To(Equal("inline; filename=" + *inv.Number + ".pdf"))
		Expect(resp.Body).To(HavePrefix("%PDF-"))
		text := pdfText(resp.Body)
		Expect(text).To(ContainSubstring(*inv.Number))
		Expect(text).To(ContainSubstring("BHD\u00a024.690"))
		Expect(text).To(ContainSubstring("Acme Corporation"))
		Expect(text).To(ContainSubstring("Payable by bank transfer."))

		By("preferring HTML when the client prefers it")
		resp, err = api.InvoiceDocument(ctx, inv.ID, "text/html, application/pdf;q=0.9")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/html"))
	})

	It("renders without a footer when the workspace has no billing profile", func() {
		inv := issuedInvoice("JPY", v1client.Item{Description: "Ramen", Quantity: billingv1.Units(3), Amount: 1200})
		resp, err := api.InvoiceDocument(ctx, inv.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Body)).To(ContainSubstring("¥3,600"))
		Expect(string(resp.Body)).NotTo(ContainSubstring("<footer>"))
	})

	It("answers 409 invoice_not_issued for an invoice that is not issued", func() {
		Expect(k8s.Create(ctx, builder.Invoice(ns, "orphan", inEUR("cus-missing")...))).To(Succeed())
		Eventually(func(g Gomega) {
			inv, _, err := api.GetInvoice(ctx, "orphan")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("invalid"))
		}).Should(Succeed())
		for _, accept := range []string{"", "application/pdf"} {
			resp, err := api.InvoiceDocument(ctx, "orphan", accept)
			Expect(err).To(HaveOccurred())
			Expect(resp.Status).To(Equal(http.StatusConflict))
			Expect(resp.Err().Code).To(Equal(CodeInvoiceNotIssued))
			Expect(resp.Err().Param).To(Equal("invoice_id"))
		}
	})

	It("answers 404 for an invoice that does not exist, and 403 to a caller who may not get invoices", func() {
		resp, err := api.InvoiceDocument(ctx, "inv-nothing", "")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusNotFound))
		Expect(resp.Err().Code).To(Equal(CodeResourceMissing))

		resp, err = api.With(v1client.Token(nobodyToken)).InvoiceDocument(ctx, "inv-nothing", "")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusForbidden))
	})

	It("renders an invoice as issued the same before and after a payment, and as it stands with the payment", func() {
		withProfile("Thank you for your business.")
		inv := issuedInvoice("USD", v1client.Item{Description: "Consulting", Quantity: billingv1.Units(2), Amount: 34025})
		type rendering struct{ name, accept string }
		renderings := []rendering{{"HTML", "text/html"}, {"PDF", "application/pdf"}}
		before := map[string][]byte{}
		for _, r := range renderings {
			resp, err := api.InvoiceDocumentAsIssued(ctx, inv.ID, "true", r.accept)
			Expect(err).NotTo(HaveOccurred())
			before[r.name] = resp.Body
		}

		_, resp, err := api.CreatePayment(ctx, v1client.PaymentParams{InvoiceID: inv.ID, Amount: 20000})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Eventually(func(g Gomega) {
			got, _, err := api.GetInvoice(ctx, inv.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.PaymentStatus).To(HaveValue(Equal("partially_paid")))
		}).Should(Succeed())

		for _, r := range renderings {
			By("the " + r.name + " as issued is the same bytes")
			resp, err := api.InvoiceDocumentAsIssued(ctx, inv.ID, "true", r.accept)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Body).To(Equal(before[r.name]))
		}
		By("without as_issued, or with as_issued=false, the document shows the payment")
		html, err := api.InvoiceDocument(ctx, inv.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(html.Body)).To(And(ContainSubstring("Amount paid"), ContainSubstring("$200.00"), ContainSubstring("$480.50")))
		Expect(string(before["HTML"])).NotTo(ContainSubstring("Amount paid"))
		pdfNow, err := api.InvoiceDocumentAsIssued(ctx, inv.ID, "false", "application/pdf")
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfText(pdfNow.Body)).To(ContainSubstring("Amount paid"))

		By("an as_issued other than true or false is 422 parameter_invalid")
		bad, err := api.InvoiceDocumentAsIssued(ctx, inv.ID, "yes", "")
		Expect(err).To(HaveOccurred())
		Expect(bad.Status).To(Equal(http.StatusUnprocessableEntity))
		Expect(bad.Err().Code).To(Equal(CodeParameterInvalid))
		Expect(bad.Err().Param).To(Equal("as_issued"))
	})

	It("creates an invoice with a date of supply, shows it, prints it and refuses a day not in the calendar", func() {
		cust := createCustomer(v1client.Workspace(ns))
		items := []v1client.Item{{Description: "x", Quantity: billingv1.Units(1), Amount: 1}}
		_, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Items: items, SupplyDate: "2026-02-30"})
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusUnprocessableEntity))
		Expect(resp.Err().Code).To(Equal(CodeParameterInvalid))
		Expect(resp.Err().Param).To(Equal("supply_date"))
		var invoices billingv1.InvoiceList
		Expect(k8s.List(ctx, &invoices, client.InNamespace(ns))).To(Succeed())
		Expect(invoices.Items).To(BeEmpty())

		inv, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Items: items, SupplyDate: "2026-02-27"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(inv.SupplyDate).To(HaveValue(Equal("2026-02-27")))
		Eventually(func(g Gomega) {
			inv, _, err = api.GetInvoice(ctx, inv.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		Expect(inv.SupplyDate).To(HaveValue(Equal("2026-02-27")))
		page, err := api.InvoiceDocument(ctx, inv.ID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(page.Body)).To(And(ContainSubstring("Date of supply"), ContainSubstring("Feb 27, 2026")))
	})

	It("refuses currency XYZ on create with 422 parameter_invalid on currency, and creates nothing", func() {
		cust := createCustomer(v1client.Workspace(ns))
		_, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{
			CustomerID: cust.ID, Currency: "XYZ", Items: []v1client.Item{{Description: "x", Quantity: billingv1.Units(1), Amount: 1}},
		})
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusUnprocessableEntity))
		Expect(resp.Err().Code).To(Equal(CodeParameterInvalid))
		Expect(resp.Err().Param).To(Equal("currency"))

		var invoices billingv1.InvoiceList
		Expect(k8s.List(ctx, &invoices, client.InNamespace(ns))).To(Succeed())
		Expect(invoices.Items).To(BeEmpty())
	})
})

// pdfText is the text of every page of a PDF, each row on its own line.
func pdfText(doc []byte) string {
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		rows, err := r.Page(i).GetTextByRow()
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		for _, row := range rows {
			for _, w := range row.Content {
				b.WriteString(w.S)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var _ = DescribeTable("chooses the rendering the Accept header prefers",
	func(accept []string, want string) {
		Expect(acceptedDocument(accept)).To(Equal(want))
	},
	Entry("no Accept is HTML", nil, formatHTML),
	Entry("*/* is HTML", []string{"*/*"}, formatHTML),
	Entry("application/pdf is a PDF", []string{"application/pdf"}, formatPDF),
	Entry("application/pdf with parameters is a PDF", []string{"Application/PDF; q=0.5"}, formatPDF),
	Entry("a browser's Accept is HTML", []string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, formatHTML),
	Entry("PDF first, HTML as a fallback, is a PDF", []string{"application/pdf, text/html;q=0.5"}, formatPDF),
	Entry("both at the same quality is HTML", []string{"text/html, application/pdf"}, formatHTML),
	Entry("PDF refused is HTML", []string{"application/pdf;q=0"}, formatHTML),
	Entry("repeated headers pick the PDF", []string{"text/html;q=0.1", "application/pdf"}, formatPDF),
	Entry("a malformed quality is HTML", []string{"application/pdf;q=x"}, formatHTML),
	Entry("the factur-x profile is a Factur-X", []string{"application/pdf; profile=factur-x"}, formatFacturX),
	Entry("the profile is matched without case", []string{`application/pdf;profile="Factur-X"`}, formatFacturX),
	Entry("a Factur-X preferred to a plain PDF is a Factur-X",
		[]string{"application/pdf;profile=factur-x, application/pdf;q=0.5"}, formatFacturX),
	Entry("a plain PDF preferred to a Factur-X is a PDF",
		[]string{"application/pdf;profile=factur-x;q=0.4, application/pdf"}, formatPDF),
	Entry("a Factur-X refused is HTML", []string{"application/pdf;profile=factur-x;q=0"}, formatHTML),
	Entry("another profile is not a Factur-X", []string{"application/pdf;profile=zugferd-2"}, formatHTML),
)
