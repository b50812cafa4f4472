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
)

// This file formats an invoice's tax: the tax of each line, the tax
// breakdown and the label of a party's tax id.

// noRate is printed where a tax has no rate: category O (not subject to
// tax) has none.
const noRate = "—"

// noTax is printed in the tax column for a line without any tax, on an
// invoice whose other lines have one.
const noTax = "none"

// taxRow is one group of the tax breakdown, formatted.
type taxRow struct {
	// Category is the code and name, "S – Standard rate".
	Category string
	// Rate is "19%", or noRate for category O.
	Rate    string
	Taxable string
	Tax     string
	// Reason is the group's exemption reason, "" for S and Z.
	Reason string
}

// categoryLabel is the code of category and its name
// (billing.TaxCategoryName) capitalised, "AE – Reverse charge"; the code
// alone for a code that is not a category.
func categoryLabel(category billingv1.TaxCategory) string {
	name := billing.TaxCategoryName(category)
	if name == "" {
		return string(category)
	}
	return string(category) + " – " + strings.ToUpper(name[:1]) + name[1:]
}

// rateLabel writes a rate in percent in its shortest form, "19%" for "19"
// or "19.00", or noRate for none. A rate that does not parse (the API
// server's pattern refuses such) is printed as it is.
func rateLabel(rate *string) string {
	if rate == nil {
		return noRate
	}
	return billing.ShortRate(*rate) + "%"
}

// lineTaxLabel is what a line's tax column shows: the rate alone for the
// standard rate ("19%"), the rate and the category for the others, so that
// the line is found in the breakdown ("0% AE", "0% Z"), noRate for category
// O and noTax for a line without tax.
func lineTaxLabel(tax *billingv1.Tax) string {
	switch {
	case tax == nil:
		return noTax
	case tax.Category == billingv1.TaxNotSubject && tax.Rate == nil:
		return noRate
	case tax.Category == billingv1.TaxStandard:
		return rateLabel(tax.Rate)
	}
	return rateLabel(tax.Rate) + " " + string(tax.Category)
}

// taxRows formats the tax breakdown of an invoice of currency cur.
func taxRows(cur billing.Currency, breakdown []billingv1.TaxBreakdownEntry) []taxRow {
	rows := make([]taxRow, 0, len(breakdown))
	for _, e := range breakdown {
		rows = append(rows, taxRow{
			Category: categoryLabel(e.Category),
			Rate:     rateLabel(e.Rate),
			Taxable:  formatMoney(cur, e.TaxableAmount),
			Tax:      formatMoney(cur, e.TaxAmount),
			Reason:   e.ExemptionReason,
		})
	}
	return rows
}

// taxIDLabel names a party's tax id: "VAT ID" for one written as a VAT
// identification number of the EU (VIES) or the United Kingdom, which
// starts with its country's prefix ("DE123456789", "FR 40 303265045",
// "EL094259216"); "Tax ID" for any other (a US EIN, a national tax number),
// which is not a VAT id and must not be called one.
func taxIDLabel(id string) string {
	compact := strings.ToUpper(strings.NewReplacer(" ", "", ".", "", "-", "").Replace(id))
	if vatID.MatchString(compact) {
		return "VAT ID"
	}
	return "Tax ID"
}

// vatID matches a compacted VAT identification number: the prefix of an
// EU member state (EL for Greece, XI for Northern Ireland) or GB, then
// digits, letters or the '+' and '*' that Irish numbers may have, at least
// one of them a digit.
var vatID = regexp.MustCompile(
	`^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)` +
		`[0-9A-Z+*]*[0-9][0-9A-Z+*]*$`)
