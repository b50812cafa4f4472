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
	"regexp"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// This file formats an invoice's tax: the tax of each line, the tax
// breakdown and the label of a party's tax id.

// noRate is printed where a tax has no rate: category O (not subject to
// tax) has none.
const noRate = "—"

// taxRow is one group of the tax breakdown, formatted.
type taxRow struct {
	// Label names the group as an accountant reads it (groupLabel): "VAT
	// 19%", "Umsatzsteuer 7 %", "Reverse charge".
	Label   string
	Taxable string
	Tax     string
	// Reason is the group's exemption reason, "" for S and Z.
	Reason string
}

// groupLabel names a group of the tax breakdown in p's language: the
// standard rate by the tax and its rate as p's locale writes percents
// ("VAT 19%", "Umsatzsteuer 7 %", "TVA 5,5 %"), every other category by
// its meaning ("Reverse charge", "Exempt"), whose rate is 0 or none. A
// code that is not a category (billing.TaxCategoryName; the API refuses
// such) is printed as it is.
func groupLabel(p *locale.Printer, category billingv1.TaxCategory, rate *string) string {
	switch {
	case category == billingv1.TaxStandard:
		return p.T("tax.group.S", rateLabel(p, rate))
	case billing.TaxCategoryName(category) == "":
		return string(category)
	}
	return p.T("tax.category." + string(category))
}

// rateLabel writes a rate in percent in its shortest form in p's locale,
// "19%" for "19" or "19.00" in en, "19 %" in de, or noRate for none. A
// rate that does not parse (the API server's pattern refuses such) is
// printed as it is.
func rateLabel(p *locale.Printer, rate *string) string {
	if rate == nil {
		return noRate
	}
	return p.Percent(*rate)
}

// lineTaxLabel is what a line's tax column shows: its rate ("19%", "0%"),
// noRate for category O and "none" in p's language for a line without
// tax. The breakdown names what the rate is (groupLabel).
func lineTaxLabel(p *locale.Printer, tax *billingv1.Tax) string {
	if tax == nil {
		return p.T("tax.none")
	}
	return rateLabel(p, tax.Rate)
}

// taxRows formats the tax breakdown of an invoice of currency code.
func taxRows(p *locale.Printer, code string, breakdown []billingv1.TaxBreakdownEntry) []taxRow {
	rows := make([]taxRow, 0, len(breakdown))
	for _, e := range breakdown {
		rows = append(rows, taxRow{
			Label:   groupLabel(p, e.Category, e.Rate),
			Taxable: p.Money(code, e.TaxableAmount),
			Tax:     p.Money(code, e.TaxAmount),
			Reason:  e.ExemptionReason,
		})
	}
	return rows
}

// taxIDLabel names a party's tax id in p's language: "VAT ID" for one
// written as a VAT
// identification number of the EU (VIES) or the United Kingdom, which
// starts with its country's prefix ("DE123456789", "FR 40 303265045",
// "EL094259216"); "Tax ID" for any other (a US EIN, a national tax number),
// which is not a VAT id and must not be called one.
func taxIDLabel(p *locale.Printer, id string) string {
	compact := strings.ToUpper(strings.NewReplacer(" ", "", ".", "", "-", "").Replace(id))
	if vatID.MatchString(compact) {
		return p.T("party.vatID")
	}
	return p.T("party.taxID")
}

// vatID matches a compacted VAT identification number: the prefix of an
// EU member state (EL for Greece, XI for Northern Ireland) or GB, then
// digits, letters or the '+' and '*' that Irish numbers may have, at least
// one of them a digit.
var vatID = regexp.MustCompile(
	`^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)` +
		`[0-9A-Z+*]*[0-9][0-9A-Z+*]*$`)
