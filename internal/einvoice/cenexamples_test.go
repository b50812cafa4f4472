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

package einvoice_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

// CEN's own example invoices with allowances and charges, vendored under
// internal/test/schematron/testdata/en16931-1.3.16, each rebuilt as one of
// our invoices: what our billing computes of it must be the example's
// figures. The batch of validate_test.go checks each rebuilt invoice
// against every validator, under every profile.

// cenExamples is where CEN's examples are vendored.
const cenExamples = "../test/schematron/testdata/en16931-1.3.16"

type cenExample struct {
	name string
	// file is the example, under cenExamples.
	file string
	inv  *billingv1.Invoice
}

// cenExampleCases are CEN's examples rebuilt with our parties (the seller,
// the buyer and what Peppol and XRechnung need of them do not change an
// amount), their lines, allowances and charges:
//
//   - ubl-tc434-example5.xml: three lines in two tax groups (25% and
//     12%), a document allowance of 10% ("Loyal customer") and a charge of
//     10% ("Packaging") of the 25% group. Its first line carries an
//     allowance and a charge of 100.00 each (BG-27, BG-28) that cancel, on a
//     gross price of 1.10 less 0.10 a unit; our lines have no charges, so it
//     is rebuilt as 1000 units at 1.10 less a line discount of 100.00.
//   - CII_example3.xml: a subscription at 25% and a freight charge of
//     100.00 at 25%.
func cenExampleCases() []cenExample {
	s25, s12 := tax(billingv1.TaxStandard, "25", ""), tax(billingv1.TaxStandard, "12", "")
	loyal := &billingv1.LineDiscount{Amount: ptr.To(int64(10_000)), Reason: "Loyal customer", ReasonCode: "100"}
	ten := billingv1.Percent("10")
	example5 := adjusted(issued("DKK",
		measured("Printing paper", "1000", "EA", 110, loyal, s25),
		measured("Parker Pen", "100", "EA", 500, nil, s25),
		measured("American Cookies", "500", "EA", 500, nil, s12)),
		[]billingv1.DocumentAllowance{{Percent: &ten, Reason: "Loyal customer", ReasonCode: "100", Tax: s25}},
		billingv1.DocumentCharge{Percent: &ten, Reason: "Packaging", ReasonCode: "ABL", Tax: s25})
	example3 := adjusted(issued("DKK",
		item("Paper subscription", 1, 80_000, s25)),
		nil,
		billingv1.DocumentCharge{Amount: ptr.To(int64(10_000)), Reason: "Freight charge", ReasonCode: "FC", Tax: s25})
	return []cenExample{
		{"CEN's ubl-tc434-example5", "ubl-tc434-example5.xml", example5},
		{"CEN's CII_example3", "CII_example3.xml", example3},
	}
}

// TestCENsExamplesWithAllowancesAndChargesRebuiltHaveTheirTotals rebuilds
// each of CEN's examples and checks that our UBL and CII carry the
// example's totals (BT-106 to BT-110 and BT-112; BT-111, the tax in an
// accounting currency, we do not write) and tax breakdown (BG-23).
func TestCENsExamplesWithAllowancesAndChargesRebuiltHaveTheirTotals(t *testing.T) {
	for _, c := range cenExampleCases() {
		example, err := os.ReadFile(filepath.Join(cenExamples, c.file))
		if err != nil {
			t.Fatal(err)
		}
		want, err := figuresOf(example)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(want.totals) < 5 || len(want.breakdown) == 0 {
			t.Fatalf("%s: only %v and %v read", c.file, want.totals, want.breakdown)
		}
		for _, format := range einvoice.Formats {
			b, err := einvoice.Invoice(c.inv, format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.name, format, err)
			}
			got, err := figuresOf(b)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.name, format, err)
			}
			for bt, w := range want.totals {
				if got.totals[bt] != w {
					t.Errorf("%s (%s): %s is %q, want the example's %q", c.name, format, bt, got.totals[bt], w)
				}
			}
			if !slices.Equal(got.breakdown, want.breakdown) {
				t.Errorf("%s (%s): tax breakdown %v, want the example's %v", c.name, format, got.breakdown, want.breakdown)
			}
		}
	}
}

// figures are the totals of a UBL or CII invoice by business term, each a
// number with 2 decimals, and its tax breakdown, each group as "category
// rate: taxable / tax", in the document's order.
type figures struct {
	totals    map[string]string
	breakdown []string
}

// ublTotals and ciiTotals are the business terms of the totals, by the
// path of their element under the root.
var (
	ublTotals = map[string]string{
		"LegalMonetaryTotal/LineExtensionAmount":  "BT-106",
		"LegalMonetaryTotal/AllowanceTotalAmount": "BT-107",
		"LegalMonetaryTotal/ChargeTotalAmount":    "BT-108",
		"LegalMonetaryTotal/TaxExclusiveAmount":   "BT-109",
		"TaxTotal/TaxAmount":                      "BT-110",
		"LegalMonetaryTotal/TaxInclusiveAmount":   "BT-112",
	}
	ciiSummation = "SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation/"
	ciiTotals    = map[string]string{
		ciiSummation + "LineTotalAmount":      "BT-106",
		ciiSummation + "AllowanceTotalAmount": "BT-107",
		ciiSummation + "ChargeTotalAmount":    "BT-108",
		ciiSummation + "TaxBasisTotalAmount":  "BT-109",
		ciiSummation + "TaxTotalAmount":       "BT-110",
		ciiSummation + "GrandTotalAmount":     "BT-112",
	}
	// groupFields are the fields of a group of the breakdown: its
	// element, then the path of each field under it.
	ublGroup = []string{"TaxTotal/TaxSubtotal", "TaxCategory/ID", "TaxCategory/Percent", "TaxableAmount", "TaxAmount"}
	ciiGroup = []string{"SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/ApplicableTradeTax",
		"CategoryCode", "RateApplicablePercent", "BasisAmount", "CalculatedAmount"}
	currencies = map[string]bool{
		"DocumentCurrencyCode": true,
		"SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/InvoiceCurrencyCode": true,
	}
)

// figuresOf reads the figures of a UBL Invoice or a CII
// CrossIndustryInvoice. A tax total in another currency than the
// document's (BT-111) is left out.
func figuresOf(doc []byte) (figures, error) {
	f := figures{totals: map[string]string{}}
	totals, group := ublTotals, ublGroup
	var path []string
	var currency, amountCurrency string
	var fields map[string]string
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return f, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if len(path) == 0 && e.Name.Local == "CrossIndustryInvoice" {
				totals, group = ciiTotals, ciiGroup
			}
			path = append(path, e.Name.Local)
			amountCurrency = ""
			for _, a := range e.Attr {
				if a.Name.Local == "currencyID" {
					amountCurrency = a.Value
				}
			}
			if strings.Join(path[1:], "/") == group[0] {
				fields = map[string]string{}
			}
		case xml.EndElement:
			if fields != nil && strings.Join(path[1:], "/") == group[0] {
				f.breakdown = append(f.breakdown, fmt.Sprintf("%s %s: %s / %s",
					fields[group[1]], fields[group[2]], fields[group[3]], fields[group[4]]))
				fields = nil
			}
			path = path[:len(path)-1]
		case xml.CharData:
			if len(path) < 2 {
				continue
			}
			p, text := strings.Join(path[1:], "/"), strings.TrimSpace(string(e))
			switch {
			case text == "":
			case currencies[p]:
				currency = text
			case totals[p] != "" && (amountCurrency == "" || amountCurrency == currency):
				f.totals[totals[p]] = decimal2(text)
			case fields != nil && strings.HasPrefix(p, group[0]+"/"):
				field := strings.TrimPrefix(p, group[0]+"/")
				if field == group[1] {
					fields[field] = text
				} else {
					fields[field] = decimal2(text)
				}
			}
		}
	}
}

// decimal2 writes the number s with 2 decimals, so that "4000" and
// "4000.00" read the same; s as it is when it is not a number.
func decimal2(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return s
	}
	return r.FloatString(2)
}
