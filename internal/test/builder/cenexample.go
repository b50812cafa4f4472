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

package builder

import (
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// CENExample is one of CEN's example invoices with allowances and charges
// (github.com/ConnectingEurope/eInvoicing-EN16931, vendored under
// internal/test/schematron/testdata/en16931-1.3.16) as the options of one
// of our invoices: its currency, lines, allowances and charges. Parties,
// dates and references are the test's own: they change no amount.
type CENExample struct {
	Name string
	// File is the example's file name in en16931-1.3.16.
	File    string
	Options []InvoiceOption
}

// CENExamples are the examples our invoices rebuild:
//
//   - ubl-tc434-example5.xml: three lines in two tax groups (25% and
//     12%), a document allowance of 10% ("Loyal customer") and a charge of
//     10% ("Packaging") of the 25% group. Its first line carries an
//     allowance and a charge of 100.00 each (BG-27, BG-28) that cancel, on a
//     gross price of 1.10 less 0.10 a unit; our lines have no charges, so it
//     is rebuilt as 1000 units at 1.10 less a line discount of 100.00.
//   - CII_example3.xml: a subscription at 25% and a freight charge of
//     100.00 at 25%.
func CENExamples() []CENExample {
	s25, s12 := StandardTax("25"), StandardTax("12")
	ten := billingv1.Percent("10")
	line := func(desc string, units, amount int64, tax *billingv1.Tax) billingv1.LineItem {
		return billingv1.LineItem{Description: desc, Quantity: billingv1.Units(units), UnitCode: "EA", Amount: amount, Tax: tax}
	}
	paper := line("Printing paper", 1000, 110, s25)
	paper.Discount = &billingv1.LineDiscount{Amount: ptr.To(int64(10_000)), Reason: "Loyal customer", ReasonCode: "100"}
	return []CENExample{{
		Name: "CEN's ubl-tc434-example5", File: "ubl-tc434-example5.xml",
		Options: []InvoiceOption{
			WithCurrency("DKK"),
			WithLine(paper), WithLine(line("Parker Pen", 100, 500, s25)), WithLine(line("American Cookies", 500, 500, s12)),
			WithAllowance(billingv1.DocumentAllowance{Percent: &ten, Reason: "Loyal customer", ReasonCode: "100", Tax: s25}),
			WithCharge(billingv1.DocumentCharge{Percent: &ten, Reason: "Packaging", ReasonCode: "ABL", Tax: s25}),
		},
	}, {
		Name: "CEN's CII_example3", File: "CII_example3.xml",
		Options: []InvoiceOption{
			WithCurrency("DKK"),
			WithTaxedItem("Paper subscription", 1, 80_000, s25),
			WithCharge(billingv1.DocumentCharge{Amount: ptr.To(int64(10_000)), Reason: "Freight charge", ReasonCode: "FC", Tax: s25}),
		},
	}}
}
