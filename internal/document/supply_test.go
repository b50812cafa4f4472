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
	"html"
	"strings"
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file checks the date of supply (EU VAT Directive art. 226(7), §14(4)
// UStG) that every invoice states: the period it bills, its own date, or
// that it is the invoice date.

func TestEveryInvoiceStatesItsDateOfSupplyInItsLanguage(t *testing.T) {
	supplied := func(inv *billingv1.Invoice) { inv.Spec.SupplyDate = "2026-11-20" }
	for _, tc := range []struct {
		tag                    string
		label, day, invoiceDay string
	}{
		{"en", "Date of supply", "Nov 20, 2026", "the invoice date"},
		{"de", "Leistungsdatum", "20.11.2026", "entspricht dem Rechnungsdatum"},
		{"fr", "Date de livraison/prestation", "20 nov. 2026", "la date de la facture"},
		{"es", "Fecha de la operación", "20 nov. 2026", "la fecha de la factura"},
		{"it", "Data dell'operazione", "20 nov 2026", "la data della fattura"},
		{"nl", "Leveringsdatum", "20 nov. 2026", "de factuurdatum"},
		{"pl", "Data dostawy/wykonania usługi", "20 lis 2026", "data wystawienia faktury"},
		{"pt", "Data do fornecimento", "20 de nov. de 2026", "a data da fatura"},
	} {
		tag := language.MustParse(tc.tag)
		for _, c := range []struct {
			name  string
			inv   *billingv1.Invoice
			value string
		}{
			{"An invoice in " + tc.tag + " with a date of supply prints that day", issued(supplied), tc.day},
			{"An invoice in " + tc.tag + " without one says it is the invoice date", issued(), tc.invoiceDay},
		} {
			t.Run(c.name, func(t *testing.T) {
				docs := renderings(t, func(o Options) ([]byte, error) { return HTML(c.inv, o) },
					func(o Options) ([]byte, error) { return PDF(c.inv, o) }, tag)
				docs["HTML"] = html.UnescapeString(docs["HTML"])
				for name, text := range docs {
					for _, want := range []string{tc.label, c.value} {
						if name == "PDF" {
							want = pdfForm(want)
						}
						if !strings.Contains(text, want) {
							t.Errorf("the %s does not contain %q", name, want)
						}
					}
				}
			})
		}
	}
}

func TestAnInvoiceOfAPeriodStatesThePeriodInItsLanguage(t *testing.T) {
	billed := func(inv *billingv1.Invoice) {
		inv.Spec.InvoicingPeriod = &billingv1.InvoicingPeriod{Start: "2026-01-31", End: "2026-02-27"}
		inv.Spec.SupplyDate = ""
	}
	for _, tc := range []struct {
		tag, label, period string
	}{
		{"en", "Period of supply", "Jan 31, 2026 – Feb 27, 2026"},
		{"de", "Leistungszeitraum", "31.01.2026 – 27.02.2026"},
		{"fr", "Période de facturation", "31 janv. 2026 – 27 févr. 2026"},
	} {
		t.Run("An invoice in "+tc.tag+" billing a period prints its first and last days", func(t *testing.T) {
			inv := issued(billed)
			docs := renderings(t, func(o Options) ([]byte, error) { return HTML(inv, o) },
				func(o Options) ([]byte, error) { return PDF(inv, o) }, language.MustParse(tc.tag))
			docs["HTML"] = html.UnescapeString(docs["HTML"])
			for name, text := range docs {
				for _, want := range []string{tc.label, tc.period} {
					if name == "PDF" {
						want = pdfForm(want)
					}
					if !strings.Contains(text, want) {
						t.Errorf("the %s does not contain %q", name, want)
					}
				}
			}
		})
	}
}
