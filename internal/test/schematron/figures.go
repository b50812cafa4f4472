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

package schematron

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// This file reads the figures of an invoice, so that a test compares ours
// with those of CEN's examples vendored under testdata/en16931-1.3.16.

// CENExample is the vendored example file of CEN (under
// testdata/en16931-1.3.16) and its figures.
func CENExample(file string) (Figures, error) {
	root := testenv.ModuleRoot()
	if root == "" {
		return Figures{}, errors.New("no go.mod at or above the working directory")
	}
	b, err := fs.ReadFile(os.DirFS(filepath.Join(root, "internal", "test", "schematron", "testdata", "en16931-1.3.16")), file)
	if err != nil {
		return Figures{}, err
	}
	f, err := FiguresOf(b)
	if err != nil {
		return Figures{}, fmt.Errorf("%s: %w", file, err)
	}
	return f, nil
}

// Figures are the totals of a UBL or CII invoice, Totals by business
// term (BT-106 to BT-110, BT-112), each a number with 2 decimals; and its
// tax breakdown (BG-23), each group as "category rate: taxable / tax", in
// the document's order.
type Figures struct {
	Totals    map[string]string
	Breakdown []string
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
	// ublGroup and ciiGroup are the fields of a group of the breakdown: its
	// element, then the path of each field under it.
	ublGroup = []string{"TaxTotal/TaxSubtotal", "TaxCategory/ID", "TaxCategory/Percent", "TaxableAmount", "TaxAmount"}
	ciiGroup = []string{"SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/ApplicableTradeTax",
		"CategoryCode", "RateApplicablePercent", "BasisAmount", "CalculatedAmount"}
	currencies = map[string]bool{
		"DocumentCurrencyCode": true,
		"SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/InvoiceCurrencyCode": true,
	}
)

// FiguresOf reads the figures of a UBL Invoice or a CII
// CrossIndustryInvoice. A tax total in another currency than the
// document's (BT-111) is left out.
func FiguresOf(doc []byte) (Figures, error) {
	r := &figuresReader{f: Figures{Totals: map[string]string{}}, totals: ublTotals, group: ublGroup}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return r.f, nil
		}
		if err != nil {
			return r.f, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			r.start(e)
		case xml.EndElement:
			r.end()
		case xml.CharData:
			r.text(strings.TrimSpace(string(e)))
		}
	}
}

// figuresReader reads Figures element by element.
type figuresReader struct {
	f        Figures
	totals   map[string]string
	group    []string
	path     []string
	currency string
	of       string // the currencyID of the element read
	fields   map[string]string
}

// at is the path of the element read, under the root.
func (r *figuresReader) at() string {
	if len(r.path) < 2 {
		return ""
	}
	return strings.Join(r.path[1:], "/")
}

func (r *figuresReader) start(e xml.StartElement) {
	if len(r.path) == 0 && e.Name.Local == "CrossIndustryInvoice" {
		r.totals, r.group = ciiTotals, ciiGroup
	}
	r.path = append(r.path, e.Name.Local)
	r.of = ""
	for _, a := range e.Attr {
		if a.Name.Local == "currencyID" {
			r.of = a.Value
		}
	}
	if r.at() == r.group[0] {
		r.fields = map[string]string{}
	}
}

func (r *figuresReader) end() {
	if r.fields != nil && r.at() == r.group[0] {
		g := r.group
		r.f.Breakdown = append(r.f.Breakdown, fmt.Sprintf("%s %s: %s / %s",
			r.fields[g[1]], r.fields[g[2]], r.fields[g[3]], r.fields[g[4]]))
		r.fields = nil
	}
	r.path = r.path[:len(r.path)-1]
}

func (r *figuresReader) text(text string) {
	p := r.at()
	switch {
	case text == "" || p == "":
	case currencies[p]:
		r.currency = text
	case r.totals[p] != "" && (r.of == "" || r.of == r.currency):
		r.f.Totals[r.totals[p]] = decimal2(text)
	case r.fields != nil && strings.HasPrefix(p, r.group[0]+"/"):
		field := strings.TrimPrefix(p, r.group[0]+"/")
		if field == r.group[1] {
			r.fields[field] = text
		} else {
			r.fields[field] = decimal2(text)
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
