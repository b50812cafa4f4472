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
	"strings"
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

func TestATaxIDIsCalledAVATIDOnlyWhenItIsOne(t *testing.T) {
	cases := []struct{ id, want string }{
		{"DE123456789", "VAT ID"},
		{"FR40303265045", "VAT ID"},
		{"fr 40 303 265 045", "VAT ID"},
		{"EL094259216", "VAT ID"},
		{"ATU12345678", "VAT ID"},
		{"IE1234567FA", "VAT ID"},
		{"XI123456789", "VAT ID"},
		{"GB123456789", "VAT ID"},
		{"NL123456789B01", "VAT ID"},
		{"US-12-3456789", "Tax ID"},
		{"12-3456789", "Tax ID"},
		{"12/345/67890", "Tax ID"},
		{"DEMO", "Tax ID"},
		{"CHE-123.456.789 MWST", "Tax ID"},
	}
	for _, tc := range cases {
		t.Run(tc.id+" is a "+tc.want, func(t *testing.T) {
			if got := taxIDLabel(locale.New(language.English), tc.id); got != tc.want {
				t.Errorf("taxIDLabel(%q) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
}

func TestALinesTaxShowsItsRateTheBreakdownNamesIt(t *testing.T) {
	rate := func(s string) *string { return &s }
	cases := []struct {
		name string
		tax  *billingv1.Tax
		want string
	}{
		{"The standard rate shows its rate alone", &billingv1.Tax{Category: billingv1.TaxStandard, Rate: rate("19")}, "19%"},
		{"A rate shows in its shortest form", &billingv1.Tax{Category: billingv1.TaxStandard, Rate: rate("5.50")}, "5.5%"},
		{"A zero-rated line shows its rate, never the letter Z", &billingv1.Tax{Category: billingv1.TaxZeroRated, Rate: rate("0")}, "0%"},
		{"A reverse-charge line shows its rate, never the letters AE", &billingv1.Tax{Category: billingv1.TaxReverseCharge, Rate: rate("0.00")}, "0%"},
		{"A line not subject to tax has no rate", &billingv1.Tax{Category: billingv1.TaxNotSubject}, "—"},
		{"A line without tax says so", nil, "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := lineTaxLabel(locale.New(language.English), tc.tax); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTheBreakdownNamesEachGroupByItsRateOrItsMeaningInEachLanguage(t *testing.T) {
	rate := func(s string) *string { return &s }
	// One case a language: the standard rates at 19, 7 and 5.5 percent,
	// written as the locale writes percents (a no-break space before
	// "%" where it has one), then each other category by its meaning.
	cases := []struct {
		name, tag         string
		s19, s7, s55      string
		z, e, ae, k, g, o string
	}{
		{"English writes VAT and the rate without a space", "en", "VAT 19%", "VAT 7%", "VAT 5.5%",
			"Zero rated", "Exempt", "Reverse charge", "Intra-community supply", "Export outside the EU", "Not subject to tax"},
		{"German writes Umsatzsteuer and a space before the percent sign", "de",
			"Umsatzsteuer 19\u00a0%", "Umsatzsteuer 7\u00a0%", "Umsatzsteuer 5,5\u00a0%",
			"Nullsatz", "Steuerfrei", "Steuerschuldnerschaft des Leistungsempfängers", "Innergemeinschaftliche Lieferung",
			"Ausfuhrlieferung", "Nicht steuerbar"},
		{"French writes TVA", "fr", "TVA 19\u00a0%", "TVA 7\u00a0%", "TVA 5,5\u00a0%",
			"Taux zéro", "Exonéré", "Autoliquidation", "Livraison intracommunautaire", "Exportation hors UE", "Non soumis à la TVA"},
		{"Spanish writes IVA", "es", "IVA 19\u00a0%", "IVA 7\u00a0%", "IVA 5,5\u00a0%",
			"Tipo cero", "Exento", "Inversión del sujeto pasivo", "Entrega intracomunitaria", "Exportación fuera de la UE",
			"No sujeto a IVA"},
		{"Italian writes IVA without a space", "it", "IVA 19%", "IVA 7%", "IVA 5,5%",
			"Aliquota zero", "Esente", "Inversione contabile", "Cessione intracomunitaria", "Esportazione extra UE",
			"Fuori campo IVA"},
		{"Dutch writes btw", "nl", "Btw 19\u00a0%", "Btw 7\u00a0%", "Btw 5,5\u00a0%",
			"Nultarief", "Vrijgesteld", "Btw verlegd", "Intracommunautaire levering", "Export buiten de EU",
			"Niet onderworpen aan btw"},
		{"Polish writes VAT", "pl", "VAT 19%", "VAT 7%", "VAT 5,5%",
			"Stawka 0%", "Zwolnione", "Odwrotne obciążenie", "Wewnątrzwspólnotowa dostawa towarów", "Eksport poza UE",
			"Niepodlegające opodatkowaniu"},
		{"Portuguese writes IVA", "pt", "IVA 19%", "IVA 7%", "IVA 5,5%",
			"Taxa zero", "Isento", "Autoliquidação", "Fornecimento intracomunitário", "Exportação para fora da UE",
			"Não sujeito a IVA"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := locale.New(language.MustParse(tc.tag))
			for _, g := range []struct {
				category billingv1.TaxCategory
				rate     *string
				want     string
			}{
				{billingv1.TaxStandard, rate("19"), tc.s19},
				{billingv1.TaxStandard, rate("7.00"), tc.s7},
				{billingv1.TaxStandard, rate("5.5"), tc.s55},
				{billingv1.TaxZeroRated, rate("0"), tc.z},
				{billingv1.TaxExempt, rate("0"), tc.e},
				{billingv1.TaxReverseCharge, rate("0"), tc.ae},
				{billingv1.TaxIntraCommunity, rate("0"), tc.k},
				{billingv1.TaxExport, rate("0"), tc.g},
				{billingv1.TaxNotSubject, nil, tc.o},
			} {
				if got := groupLabel(p, g.category, g.rate); got != g.want {
					t.Errorf("%s: got %q, want %q", g.category, got, g.want)
				}
			}
		})
	}
}

func TestEveryTaxCategoryIsNamedByItsMeaningNeverByItsLetter(t *testing.T) {
	for _, tag := range locale.Translated {
		for _, c := range billing.TaxCategories() {
			t.Run(string(c)+" in "+tag.String(), func(t *testing.T) {
				got := groupLabel(locale.New(tag), c, nil)
				if got == string(c) || strings.HasPrefix(got, string(c)+" ") || strings.Contains(got, "tax.") {
					t.Errorf("%s is named %q", c, got)
				}
			})
		}
	}
}
