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
	"fmt"
	"html"
	"os"
	"strings"
	"testing"

	"golang.org/x/text/language"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// This file checks what the documents show of a line's quantity, unit and
// discount, and of the document's allowances and charges.

// hourly is an invoice of 7.5 hours of consulting at $150.00 less 10%
// for loyalty, without tax: gross $1,125.00, discount $112.50, net and
// total $1,012.50.
func hourly() *billingv1.Invoice {
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Items = []billingv1.LineItem{{Description: "Consulting, November", Quantity: billingv1.QuantityOfScaled(75000),
			UnitCode: "HUR", Amount: 15000,
			Discount: &billingv1.LineDiscount{Percent: ptr.To[billingv1.Percent]("10"), Reason: "Loyalty"}}}
	}, freezeTax(nil))
}

// withAllowanceAndCharge is the reference case of EN 16931's arithmetic:
// 3 × €45.00 at 21% less a document allowance of €60.00 at 21%, plus a
// charge of 10% of the lines at 21% for express delivery: base €88.50,
// tax €18.59, total €107.09.
func withAllowanceAndCharge() *billingv1.Invoice {
	vat := builder.StandardTax("21")
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "EUR"
		inv.Spec.Items = []billingv1.LineItem{{Description: "Workshop seat", Quantity: billingv1.Units(3), Amount: 4500, Tax: vat}}
		inv.Spec.Allowances = []billingv1.DocumentAllowance{{Amount: ptr.To[int64](6000), Reason: "Early booking", Tax: vat}}
		inv.Spec.Charges = []billingv1.DocumentCharge{{Percent: ptr.To[billingv1.Percent]("10"), Reason: "Express", Tax: vat}}
	}, freezeTax(nil))
}

// expectTexts checks that each of docs (by name, its text, the HTML's
// escaped) shows each of want: in the PDF as its font prints it, in any
// case, as the PDF prints its headings in capitals.
func expectTexts(t *testing.T, docs map[string]string, want []string) {
	t.Helper()
	for name, text := range docs {
		if name == "HTML" {
			text = html.UnescapeString(text)
		}
		for _, w := range want {
			if name == "PDF" {
				w, text = strings.ToUpper(pdfForm(w)), strings.ToUpper(text)
			}
			if !strings.Contains(text, w) {
				t.Errorf("the %s does not contain %q; it is:\n%s", name, w, text)
			}
		}
	}
}

func TestTheDocumentsShowUnitsDiscountsAllowancesAndCharges(t *testing.T) {
	for i, tc := range []struct {
		name string
		inv  func() *billingv1.Invoice
		tag  language.Tag
		want []string
	}{
		{"in English a line shows its quantity with a point, its unit, its discount and its net", hourly, language.English,
			[]string{"7.5 hours", "$150.00", "Discount 10% · Loyalty: -$112.50", "$1,012.50"}},
		{"in German a line shows its quantity with a comma, in Stunden", hourly, language.German,
			[]string{"7,5 Stunden", "150,00\u00a0$", "Rabatt 10\u00a0% · Loyalty: -112,50\u00a0$", "1.012,50\u00a0$"}},
		{"in English allowances and charges are rows above the breakdown and sums above the tax",
			withAllowanceAndCharge, language.English,
			[]string{"Discounts and charges", "Discount · Early booking", "-€60.00", "Charge · Express",
				"10% of €135.00", "€13.50", "Subtotal", "€135.00", "Discounts", "Charges", "€88.50", "€18.59", "€107.09"}},
		{"in German allowances and charges are Nachlässe and Zuschläge", withAllowanceAndCharge, language.German,
			[]string{"Nachlässe und Zuschläge", "Nachlass · Early booking", "-60,00\u00a0€", "Zuschlag · Express",
				"10\u00a0% von 135,00\u00a0€", "13,50\u00a0€", "Nachlässe", "Zuschläge", "88,50\u00a0€", "18,59\u00a0€",
				"107,09\u00a0€"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := tc.inv()
			docs := renderings(t, func(o Options) ([]byte, error) { return HTML(inv, o) },
				func(o Options) ([]byte, error) { return PDF(inv, o) }, tc.tag)
			expectTexts(t, docs, tc.want)
			if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
				page, _ := HTML(inv, Options{Locale: tc.tag})
				doc, _ := PDF(inv, Options{Locale: tc.tag})
				name := fmt.Sprintf("adjustments-%d-%s", i, tc.tag)
				writeOut(t, dir, name+".html", page)
				writeOut(t, dir, name+".pdf", doc)
			}
		})
	}
}

// creditedHours is a credit note of 2.5 of the invoiced hours at their net
// price of $135.00, and $50.00 of the support plan, less a goodwill
// allowance of $10.00, as the controller issues it.
func creditedHours() *billingv1.CreditNote {
	cn := issuedCreditNote()
	st := &cn.Status
	st.Lines[0].Quantity, st.Lines[0].UnitCode, st.Lines[0].Amount = ptr.To(billingv1.QuantityOfScaled(25000)), "HUR", 33750
	st.Allowances = []billingv1.AppliedAllowanceCharge{{Amount: 1000, Reason: "Goodwill"}}
	st.AllowanceTotal = ptr.To[int64](1000)
	st.Subtotal, st.Total = ptr.To[int64](38750), ptr.To[int64](37750)
	return cn
}

func TestACreditNoteShowsItsQuantitiesWithTheirUnitsAndItsAllowances(t *testing.T) {
	for _, tc := range []struct {
		name string
		tag  language.Tag
		want []string
	}{
		{"in English", language.English, []string{"2.5 hours", "$135.00", "$337.50", "Discount · Goodwill", "-$10.00",
			"Subtotal", "$387.50", "Discounts", "$377.50"}},
		{"in German", language.German, []string{"2,5 Stunden", "135,00\u00a0$", "337,50\u00a0$", "Nachlass · Goodwill",
			"-10,00\u00a0$", "Summe netto", "387,50\u00a0$", "Nachlässe", "377,50\u00a0$"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cn := creditedHours()
			docs := renderings(t, func(o Options) ([]byte, error) { return CreditNoteHTML(cn, o) },
				func(o Options) ([]byte, error) { return CreditNotePDF(cn, o) }, tc.tag)
			expectTexts(t, docs, tc.want)
		})
	}
}

func TestALinesUnitAndDiscountAreWrittenInEachTranslatedLanguage(t *testing.T) {
	inv := hourly()
	for _, tc := range []struct{ tag, quantity, discount string }{
		{"en", "7.5 hours", "Discount 10% · Loyalty: -$112.50"},
		{"de", "7,5 Stunden", "Rabatt 10\u00a0% · Loyalty: -112,50\u00a0$"},
		{"es", "7,5 horas", "Descuento del 10\u00a0% · Loyalty: -112,50\u00a0US$"},
		{"fr", "7,5\u00a0heures", "Remise de 10\u00a0% · Loyalty\u00a0: -112,50\u00a0$US"},
		{"it", "7,5 ore", "Sconto del 10% · Loyalty: -112,50\u00a0$"},
		{"nl", "7,5 uur", "Korting van 10\u00a0% · Loyalty: US$\u00a0-112,50"},
		{"pl", "7,5 godziny", "Rabat 10% · Loyalty: -112,50\u00a0$"},
		{"pt", "7,5 horas", "Desconto de 10% · Loyalty: -US$\u00a0112,50"},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			docs := renderings(t, func(o Options) ([]byte, error) { return HTML(inv, o) },
				func(o Options) ([]byte, error) { return PDF(inv, o) }, language.MustParse(tc.tag))
			expectTexts(t, docs, []string{tc.quantity, tc.discount})
		})
	}
}
