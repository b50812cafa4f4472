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
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// invoiceSyntaxes are the formats of an invoice's e-invoice, each with
// its schema and CEN's rules.
var invoiceSyntaxes = []struct {
	format     string
	schema     schematron.Schema
	stylesheet string
}{
	{"ubl", schematron.UBLInvoice, schematron.EN16931UBL},
	{"cii", schematron.CIIInvoice, schematron.EN16931CII},
}

var _ = Describe("E-invoices", func() {
	var (
		ns  string
		api *v1client.Client
	)

	BeforeEach(func() {
		ns = newWorkspace()
		api = apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
		Expect(k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ns},
			Spec: billingv1.BillingProfileSpec{
				Issuer: &billingv1.Issuer{
					Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
					Address: &billingv1.Address{Line1: "Friedrichstraße 1", PostalCode: "10117", City: "Berlin", Country: "DE"},
				},
			},
		})).To(Succeed())
	})

	customer := func(taxID string) string {
		cust, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{
			Name: "Acme SARL", Email: "compta@acme.example", TaxID: taxID,
			Address: &v1client.AddressParams{Line1: "1 rue de Rivoli", City: "Paris", PostalCode: "75001", Country: "FR"},
		})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		return cust.ID
	}

	// createInvoice creates an invoice over HTTP; issued waits until the
	// controller has issued each.
	createInvoice := func(customerID, currency string, items []v1client.Item) string {
		inv, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: customerID, Currency: currency, Items: items})
		ExpectWithOffset(1, err).NotTo(HaveOccurred(), "body: %v", resp)
		return inv.ID
	}
	issued := func(ids ...string) {
		EventuallyWithOffset(1, func(g Gomega) {
			for _, id := range ids {
				inv, _, err := api.GetInvoice(ctx, id)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(inv.Status).To(Equal("issued"), id)
			}
		}).Should(Succeed())
	}

	It("serves every tax case in UBL and CII, each passing its syntax's schema and CEN's EN 16931 rules", func() {
		tools := schematron.Require(GinkgoT())
		fr := customer("FR40303265045")
		ids := map[string]string{}
		for name, c := range einvoiceTaxCases() {
			ids[name] = createInvoice(fr, c.currency, c.items)
		}
		names := make([]string, 0, len(ids))
		for name, id := range ids {
			names = append(names, name)
			issued(id)
		}
		dir := GinkgoT().TempDir()
		for _, f := range invoiceSyntaxes {
			var docs []schematron.Document
			for i, name := range names {
				resp, err := api.InvoiceDocumentIn(ctx, ids[name], f.format, "")
				Expect(err).NotTo(HaveOccurred(), "%s: %s", name, resp)
				Expect(resp.Header.Get("Content-Type")).To(Equal("application/xml"))
				Expect(resp.Header.Get("Content-Disposition")).To(MatchRegexp(`^inline; filename=INV-\d+\.xml$`))
				path := filepath.Join(dir, fmt.Sprintf("%s-%d.xml", f.format, i))
				Expect(os.WriteFile(path, resp.Body, 0o600)).To(Succeed())
				docs = append(docs, schematron.Document{Name: fmt.Sprintf("%s (%s, en16931)", name, f.format), Path: path})
			}
			tools.Check(GinkgoT(), f.schema, f.stylesheet, docs)
			GinkgoWriter.Printf("validated %d %s invoices\n", len(docs), f.format)
		}
	})

	It("serves a partial and a full credit note in UBL and CII, each passing its schema and CEN's rules", func() {
		tools := schematron.Require(GinkgoT())
		fr := customer("FR40303265045")
		twoRates := einvoiceTaxCases()["S 19% and S 7%"]
		partialOf := createInvoice(fr, twoRates.currency, twoRates.items)
		reverse := einvoiceTaxCases()["AE"]
		fullOf := createInvoice(fr, reverse.currency, reverse.items)
		issued(partialOf, fullOf)
		one, amount := billingv1.Units(1), int64(1_000)
		partial, resp, err := api.CreateCreditNote(ctx, v1client.CreditNoteParams{
			InvoiceID: partialOf, Reason: "order_change",
			Lines: []v1client.CreditNoteLineParams{{InvoiceLine: 0, Quantity: &one}, {InvoiceLine: 1, Amount: &amount}},
		})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		full, resp, err := api.CreateCreditNote(ctx, v1client.CreditNoteParams{InvoiceID: fullOf, Reason: "duplicate", FullCredit: true})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		credits := map[string]string{"partial credit note": partial.ID, "full credit note": full.ID}
		Eventually(func(g Gomega) {
			for _, id := range credits {
				cn, _, err := api.GetCreditNote(ctx, id)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(cn.Status).To(Equal("issued"), id)
			}
		}).Should(Succeed())
		dir := GinkgoT().TempDir()
		for _, f := range []struct {
			format     string
			schema     schematron.Schema
			stylesheet string
			typeCode   string
		}{
			{"ubl", schematron.UBLCreditNote, schematron.EN16931UBL, "<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>"},
			{"cii", schematron.CIIInvoice, schematron.EN16931CII, "<ram:TypeCode>381</ram:TypeCode>"},
		} {
			var docs []schematron.Document
			for name, id := range credits {
				resp, err := api.CreditNoteDocumentIn(ctx, id, f.format, "en16931")
				Expect(err).NotTo(HaveOccurred(), "%s: %s", name, resp)
				Expect(resp.Header.Get("Content-Type")).To(Equal("application/xml"))
				Expect(string(resp.Body)).To(ContainSubstring(f.typeCode))
				path := filepath.Join(dir, fmt.Sprintf("cn-%s-%s.xml", f.format, id))
				Expect(os.WriteFile(path, resp.Body, 0o600)).To(Succeed())
				docs = append(docs, schematron.Document{Name: fmt.Sprintf("%s (%s, en16931)", name, f.format), Path: path})
			}
			tools.Check(GinkgoT(), f.schema, f.stylesheet, docs)
			GinkgoWriter.Printf("validated %d %s credit notes\n", len(docs), f.format)
		}
	})

	It("issues CEN's examples with allowances and charges, rebuilt, with the examples' totals, served passing CEN's rules", func() {
		// Created as kubectl creates them: the controller computes and
		// freezes their amounts; the adapter serves their UBL and CII.
		tools := schematron.Require(GinkgoT())
		fr := customer("FR40303265045")
		examples := builder.CENExamples()
		for i, e := range examples {
			opts := append([]builder.InvoiceOption{builder.WithCustomer(fr)}, e.Options...)
			Expect(k8s.Create(ctx, builder.Invoice(ns, fmt.Sprintf("cen-%d", i), opts...))).To(Succeed())
			issued(fmt.Sprintf("cen-%d", i))
		}
		dir := GinkgoT().TempDir()
		for _, f := range invoiceSyntaxes {
			var docs []schematron.Document
			for i, e := range examples {
				resp, err := api.InvoiceDocumentIn(ctx, fmt.Sprintf("cen-%d", i), f.format, "en16931")
				Expect(err).NotTo(HaveOccurred(), "%s: %s", e.Name, resp)
				want, err := schematron.CENExample(e.File)
				Expect(err).NotTo(HaveOccurred())
				got, err := schematron.FiguresOf(resp.Body)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(want), "%s (%s): our figures, then the example's", e.Name, f.format)
				path := filepath.Join(dir, fmt.Sprintf("cen-%s-%d.xml", f.format, i))
				Expect(os.WriteFile(path, resp.Body, 0o600)).To(Succeed())
				docs = append(docs, schematron.Document{Name: fmt.Sprintf("%s (%s, en16931)", e.Name, f.format), Path: path})
			}
			tools.Check(GinkgoT(), f.schema, f.stylesheet, docs)
		}
	})

	It("answers 409 einvoice_unavailable naming every missing piece, and the explicit formats and bad parameters", func() {
		noCountry, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nowhere Ltd", Email: "a@nowhere.example"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		untaxed := createInvoice(noCountry.ID, "EUR", []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100}})
		issued(untaxed)

		resp, err = api.InvoiceDocumentIn(ctx, untaxed, "ubl", "en16931")
		Expect(resp.Status).To(Equal(http.StatusConflict), "%v", err)
		var e struct {
			Error v1client.Error `json:"error"`
		}
		Expect(json.Unmarshal(resp.Body, &e)).To(Succeed())
		Expect(e.Error.Code).To(Equal(CodeEInvoiceUnavailable))
		Expect(e.Error.Message).To(And(
			ContainSubstring("a tax category on every line (line 1 has none)"),
			ContainSubstring("the customer's country")))

		resp, err = api.InvoiceDocumentIn(ctx, untaxed, "pdf", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/pdf"))
		resp, err = api.InvoiceDocumentIn(ctx, untaxed, "html", "", v1client.Header("Accept", "application/pdf"))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/html"))

		for _, q := range [][2]string{{"xlsx", ""}, {"ubl", "zugferd"}, {"html", "en16931"}} {
			resp, err = api.InvoiceDocumentIn(ctx, untaxed, q[0], q[1])
			Expect(resp.Status).To(Equal(http.StatusBadRequest), "%v: %v", q, err)
			Expect(strings.Contains(string(resp.Body), CodeParameterInvalid)).To(BeTrue(), "%s", resp.Body)
		}
	})
	It("serves an invoice and a credit note as Factur-X, by Accept and by format, the CII inside as served alone", func() {
		fr := customer("FR40303265045")
		twoRates := einvoiceTaxCases()["S 19% and S 7%"]
		id := createInvoice(fr, twoRates.currency, twoRates.items)
		issued(id)

		By("answering Accept: application/pdf; profile=factur-x with a PDF/A-3b holding factur-x.xml")
		resp, err := api.InvoiceDocument(ctx, id, "application/pdf; profile=factur-x")
		Expect(err).NotTo(HaveOccurred(), "%s", resp)
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/pdf"))
		Expect(resp.Header.Get("Content-Disposition")).To(MatchRegexp(`^inline; filename=INV-\d+\.facturx\.pdf$`))
		rep, err := pdfcheck.Inspect(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfcheck.PDFA3Problems(rep)).To(BeEmpty())
		Expect(pdfcheck.FacturXProblems(rep)).To(BeEmpty())
		Expect(rep.EmbeddedFiles).To(HaveLen(1))
		cii, err := api.InvoiceDocumentIn(ctx, id, "cii", "en16931")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rep.EmbeddedFiles[0].Data)).To(Equal(string(cii.Body)), "the embedded XML is the CII e-invoice")

		By("answering format=facturx with the same document, whatever Accept says")
		again, err := api.InvoiceDocumentIn(ctx, id, "facturx", "", v1client.Header("Accept", "text/html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Body).To(Equal(resp.Body), "a Factur-X is rendered the same every time")

		By("answering a credit note's Factur-X, its XML a credit note of type 381")
		full, cresp, err := api.CreateCreditNote(ctx, v1client.CreditNoteParams{InvoiceID: id, Reason: "duplicate", FullCredit: true})
		Expect(err).NotTo(HaveOccurred(), "body: %v", cresp)
		Eventually(func(g Gomega) {
			cn, _, err := api.GetCreditNote(ctx, full.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(cn.Status).To(Equal("issued"))
		}).Should(Succeed())
		resp, err = api.CreditNoteDocument(ctx, full.ID, "application/pdf;profile=factur-x")
		Expect(err).NotTo(HaveOccurred(), "%s", resp)
		rep, err = pdfcheck.Inspect(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfcheck.FacturXProblems(rep)).To(BeEmpty())
		Expect(string(rep.EmbeddedFiles[0].Data)).To(ContainSubstring("<ram:TypeCode>381</ram:TypeCode>"))

		By("answering 409 einvoice_unavailable for an invoice its CII cannot be written for")
		noCountry, cusResp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nowhere Ltd", Email: "a@nowhere.example"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", cusResp)
		untaxed := createInvoice(noCountry.ID, "EUR", []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100}})
		issued(untaxed)
		resp, err = api.InvoiceDocument(ctx, untaxed, "application/pdf; profile=factur-x")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusConflict))
		Expect(resp.Err().Code).To(Equal(CodeEInvoiceUnavailable))
		Expect(resp.Err().Message).To(ContainSubstring("a tax category on every line (line 1 has none)"))
	})

	It("serves an invoice as XRechnung and as Peppol, from the data frozen when it was issued", func() {
		tools := schematron.Require(GinkgoT())
		ws := newWorkspace()
		wsAPI := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ws))
		profile := &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ws},
			Spec: billingv1.BillingProfileSpec{
				Issuer: &billingv1.Issuer{
					Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
					Address:             &billingv1.Address{Line1: "Friedrichstraße 1", PostalCode: "10117", City: "Berlin", Country: "DE"},
					LegalRegistrationID: "HRB 12345 B",
					Contact:             &billingv1.Contact{Name: "Accounts receivable", Phone: "+49 30 1234567", Email: "ar@example.com"},
					ElectronicAddress:   &billingv1.ElectronicAddress{Scheme: "0088", Value: "4035811991021"},
				},
				Payment: &billingv1.PaymentAccount{IBAN: "DE02120300000000202051", BIC: "BYLADEM1001", AccountName: "Example Invoicing GmbH"},
			},
		}
		Expect(k8s.Create(ctx, profile)).To(Succeed())
		cust, resp, err := wsAPI.CreateCustomer(ctx, v1client.CustomerParams{
			Name: "Acme SARL", Email: "compta@acme.example", TaxID: "FR40303265045",
			Address:           &v1client.AddressParams{Line1: "1 rue de Rivoli", City: "Paris", PostalCode: "75001", Country: "FR"},
			ElectronicAddress: &v1client.ElectronicAddress{Scheme: "9957", Value: "FR40303265045"},
		})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(cust.ElectronicAddress).To(Equal(&v1client.ElectronicAddress{Scheme: "9957", Value: "FR40303265045"}))
		twoRates := einvoiceTaxCases()["S 19% and S 7%"]
		created, resp, err := wsAPI.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Currency: twoRates.currency,
			Items: twoRates.items, BuyerReference: "04011000-12345-34", PurchaseOrder: "PO-2026-0042"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		var inv *v1client.Invoice
		Eventually(func(g Gomega) {
			inv, _, err = wsAPI.GetInvoice(ctx, created.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		Expect(inv.BuyerReference).To(HaveValue(Equal("04011000-12345-34")))
		Expect(inv.PurchaseOrder).To(HaveValue(Equal("PO-2026-0042")))
		Expect(inv.PaymentAccount).NotTo(BeNil(), "the invoice was issued before the cache saw the profile")
		Expect(inv.PaymentAccount.IBAN).To(Equal("DE02120300000000202051"))
		Expect(inv.PaymentReference).To(HaveValue(Equal(banktransfer.Reference(*inv.Number))),
			"the profile's account gives each invoice its ISO 11649 reference")
		Expect(inv.Issuer.Contact.Phone).To(HaveValue(Equal("+49 30 1234567")))
		Expect(inv.BillTo.ElectronicAddress).To(Equal(&v1client.ElectronicAddress{Scheme: "9957", Value: "FR40303265045"}))

		// Later edits of the profile do not change the issued invoice.
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(profile), profile)).To(Succeed())
		profile.Spec.Payment, profile.Spec.Issuer.Contact = nil, nil
		Expect(k8s.Update(ctx, profile)).To(Succeed())

		dir := GinkgoT().TempDir()
		var ubl []schematron.Document
		for _, c := range []struct {
			format, profile, want string
		}{
			{"ubl", "xrechnung", "<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>"},
			{"ubl", "peppol", "<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>"},
			{"cii", "xrechnung", "<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>"},
			{"cii", "peppol", "<ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID>"},
		} {
			resp, err := wsAPI.InvoiceDocumentIn(ctx, inv.ID, c.format, c.profile)
			Expect(err).NotTo(HaveOccurred(), "%s %s: %s", c.format, c.profile, resp)
			Expect(resp.Header.Get("Content-Type")).To(Equal("application/xml"))
			Expect(string(resp.Body)).To(And(ContainSubstring(c.want), ContainSubstring("DE02120300000000202051"),
				ContainSubstring("+49 30 1234567"), ContainSubstring(*inv.PaymentReference)), "%s %s", c.format, c.profile)
			if c.format != "ubl" {
				continue // the einvoice package validates every profile in CII
			}
			path := filepath.Join(dir, c.profile+".xml")
			Expect(os.WriteFile(path, resp.Body, 0o600)).To(Succeed())
			doc := schematron.Document{Name: fmt.Sprintf("S 19%% and S 7%% (ubl, %s)", c.profile), Path: path}
			ubl = append(ubl, doc)
			tools.CheckRules(GinkgoT(), schematron.Stylesheets(c.profile, "ubl")[1], []schematron.Document{doc})
		}
		tools.CheckAll(GinkgoT(), schematron.UBLInvoice, []string{schematron.EN16931UBL}, ubl)
	})

	It("answers 409 naming every piece XRechnung and Peppol need that an invoice lacks", func() {
		fr := customer("FR40303265045")
		inv := createInvoice(fr, "EUR", []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100, Tax: vatTax("S", "19", "")}})
		issued(inv)
		for _, c := range []struct {
			profile string
			want    []string
		}{
			{"xrechnung", []string{
				"the issuer's electronic address (BT-34", "the customer's electronic address (BT-49",
				"a buyer reference (BT-10", "the issuer's contact name (BT-41", "the issuer's contact phone (BT-42",
				"the account to pay to (BG-16",
			}},
			{"peppol", []string{
				"the issuer's electronic address (BT-34", "the customer's electronic address (BT-49",
				"a buyer reference or a purchase order (BT-10 or BT-13",
			}},
		} {
			for _, format := range []string{"ubl", "cii"} {
				resp, err := api.InvoiceDocumentIn(ctx, inv, format, c.profile)
				Expect(resp.Status).To(Equal(http.StatusConflict), "%s %s: %v", format, c.profile, err)
				var e struct {
					Error v1client.Error `json:"error"`
				}
				Expect(json.Unmarshal(resp.Body, &e)).To(Succeed())
				Expect(e.Error.Code).To(Equal(CodeEInvoiceUnavailable))
				Expect(e.Error.Message).To(ContainSubstring("under profile " + c.profile + "; it lacks: "))
				for _, w := range c.want {
					Expect(e.Error.Message).To(ContainSubstring(w), "%s %s", format, c.profile)
				}
				// Each piece once, and nothing else: "; " before the list and between pieces.
				Expect(strings.Count(e.Error.Message, "; ")).To(Equal(len(c.want)), "%s", e.Error.Message)
			}
		}
	})
})

type einvoiceCase struct {
	currency string
	items    []v1client.Item
}

func strp(s string) *string { return &s }

func vatTax(category, rate, reason string) *v1client.Tax {
	t := &v1client.Tax{Category: category}
	if category != "O" {
		t.Rate = strp(rate)
	}
	if reason != "" {
		t.ExemptionReason = strp(reason)
	}
	return t
}

// einvoiceTaxCases are an invoice for each tax case of EN 16931: S at
// 19% and 7%, Z, E with its exemption reason, AE, K, G, O, JPY, and 500
// lines.
func einvoiceTaxCases() map[string]einvoiceCase {
	many := make([]v1client.Item, 500)
	for i := range many {
		r := "19"
		if i%3 == 0 {
			r = "7"
		}
		many[i] = v1client.Item{Description: fmt.Sprintf("Item %d", i+1), Quantity: billingv1.Units(int64(i%7 + 1)), Amount: int64(333 * (i + 1)),
			Tax: vatTax("S", r, "")}
	}
	return map[string]einvoiceCase{
		"S 19% and S 7%": {"EUR", []v1client.Item{
			{Description: "Consulting, March", Quantity: billingv1.Units(3), Amount: 12_345, Tax: vatTax("S", "19", "")},
			{Description: "Book & <manual>", Quantity: billingv1.Units(2), Amount: 1_999, Tax: vatTax("S", "7", "")},
			{Description: "Support", Quantity: billingv1.Units(1), Amount: 333, Tax: vatTax("S", "19", "")}}},
		"Z": {"EUR", []v1client.Item{{Description: "Printed matter", Quantity: billingv1.Units(4), Amount: 2_500, Tax: vatTax("Z", "0", "")}}},
		"E": {"EUR", []v1client.Item{{Description: "Medical care", Quantity: billingv1.Units(1), Amount: 80_000,
			Tax: vatTax("E", "0", "Exempt under Article 132(1)(c) of Directive 2006/112/EC")}}},
		"AE": {"EUR", []v1client.Item{{Description: "Construction work", Quantity: billingv1.Units(1), Amount: 500_000,
			Tax: vatTax("AE", "0", "Reverse charge")}}},
		"K": {"EUR", []v1client.Item{{Description: "Machine parts", Quantity: billingv1.Units(10), Amount: 4_999,
			Tax: vatTax("K", "0", "Intra-community supply")}}},
		"G": {"USD", []v1client.Item{{Description: "Machine", Quantity: billingv1.Units(1), Amount: 1_250_000,
			Tax: vatTax("G", "0", "Export outside the EU")}}},
		"O": {"EUR", []v1client.Item{{Description: "Membership fee", Quantity: billingv1.Units(1), Amount: 10_000,
			Tax: vatTax("O", "", "Not subject to VAT")}}},
		"JPY": {"JPY", []v1client.Item{
			{Description: "Licence", Quantity: billingv1.Units(3), Amount: 1_333, Tax: vatTax("S", "10", "")},
			{Description: "Food", Quantity: billingv1.Units(7), Amount: 999, Tax: vatTax("S", "8", "")}}},
		"500 lines": {"EUR", many},
	}
}
