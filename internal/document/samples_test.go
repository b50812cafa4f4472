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

package document

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/samples"
)

// This file holds the invoices with tax the tests render; the pictures of
// docs/ are of config/samples (pictures_test.go).

// reverseChargeReason is the exemption reason of the reverse-charge
// sample: the text a German issuer prints for a service to a business in
// another member state.
const reverseChargeReason = "Reverse charge: the recipient is liable for the VAT " +
	"(Article 196, Council Directive 2006/112/EC)."

// sampleFooter is the footer of the sample documents.
const sampleFooter = "Example Invoicing GmbH · Amtsgericht Berlin-Charlottenburg HRB 12345 B · Managing director: Jane Doe"

// sampleAccount is the account the German samples are paid to, frozen at
// issue: the bank transfer block of their documents.
func sampleAccount(inv *billingv1.Invoice) {
	inv.Status.PaymentAccount = &billingv1.PaymentAccount{
		IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", AccountName: "Example Invoicing GmbH",
	}
	inv.Status.PaymentReference = banktransfer.InvoiceReference(inv.Status.PaymentAccount, inv.Status.Number)
}

// freezeTax issues inv's taxes and amounts as the controller does
// (samples.Freeze).
func freezeTax(defaultTax *billingv1.Tax) func(*billingv1.Invoice) {
	return func(inv *billingv1.Invoice) {
		if err := samples.Freeze(inv, defaultTax); err != nil {
			panic(err)
		}
	}
}

// twoRates is an invoice of a German business to another at the standard
// rate of 19% and the reduced rate of 7%.
func twoRates() *billingv1.Invoice {
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "EUR"
		inv.Spec.Items = nil
		builder.WithTaxedItem("Consulting, November", 8, 12000, builder.StandardTax("19"))(inv)
		builder.WithTaxedItem("Technical books", 3, 4550, builder.StandardTax("7"))(inv)
		builder.WithTaxedItem("Hosting, November", 1, 4900, builder.StandardTax("19"))(inv)
		inv.Status.Number = "DEMO-000002"
		inv.Status.BillTo = &billingv1.BillTo{
			Name: "Beispiel AG", Email: "rechnung@beispiel.example", TaxID: "DE987654321",
			Address: &billingv1.Address{Line1: "Hauptstraße 5", City: "München", PostalCode: "80331", Country: "DE"},
		}
		inv.Spec.BuyerReference, inv.Spec.PurchaseOrder = "04011000-12345-34", "PO-2026-0042"
	}, freezeTax(nil), sampleAccount)
}

// reverseCharge is an invoice of a German business to a French one, on
// which the customer owes the VAT (category AE).
func reverseCharge() *billingv1.Invoice {
	ae := builder.Tax(billingv1.TaxReverseCharge, "0", reverseChargeReason)
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "EUR"
		inv.Spec.Items = nil
		builder.WithTaxedItem("Platform engineering, November (days)", 12, 95000, ae)(inv)
		builder.WithTaxedItem("On-call support, November", 1, 120000, ae)(inv)
		inv.Status.Number = "DEMO-000003"
		inv.Status.BillTo = &billingv1.BillTo{
			Name: "Dupont & Fils SARL", Email: "factures@dupont.example", TaxID: "FR40303265045",
			Address: &billingv1.Address{Line1: "12 rue de la Paix", City: "Paris", PostalCode: "75002", Country: "FR"},
		}
	}, freezeTax(nil), sampleAccount)
}

// plain is the invoice without tax that docs/invoice-pdf.png shows.
func plain() *billingv1.Invoice {
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Items[1].Description = "Travel expenses"
		inv.Status.Issuer.Email = "billing@invoicing.example"
		inv.Status.Issuer.Address.Line1 = "Friedrichstrasse 1"
		inv.Status.BillTo.Address.Line1 = "1 Acme Way"
	}, freezeTax(nil))
}

// pdfText is the text of every page of doc, each text run on its own line.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatalf("reading the PDF: %v", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		if err != nil {
			t.Fatalf("reading page %d: %v", i, err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				b.WriteString(w.S)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func writeOut(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}
