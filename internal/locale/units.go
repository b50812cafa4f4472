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

package locale

import (
	_ "embed"
	"encoding/json"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file writes a line's quantity with its unit of measure.

// unitnames.json holds, per language of catalogs/, the long unit patterns
// of CLDR by plural form ("{0} hour", "{0} hours") for each code of UN/ECE
// Recommendation 20 that CLDR has a unit for (unitnames.NOTICE). It is
// generated from CLDR's units: go run gen_unitnames.go -src <the unpacked
// cldr-units-full package> (docs/locales.md).
//
//go:embed unitnames.json
var unitNamesJSON []byte

// unitNames are the patterns by language, code and plural form ("one",
// "few", "many", "other").
var unitNames = func() map[string]map[string]map[string]string {
	var m map[string]map[string]map[string]string
	if err := json.Unmarshal(unitNamesJSON, &m); err != nil {
		panic("locale: unitnames.json: " + err.Error())
	}
	return m
}()

// pluralForms are the keys of unitnames.json by plural form.
var pluralForms = map[plural.Form]string{
	plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many",
	plural.Other: otherForm,
}

// otherForm is the plural form every language has, the one used when a
// language's unit has no pattern for a number's form.
const otherForm = "other"

// Quantity writes a quantity in p's number format with its unit in p's
// language: "7.5 hours" in en, "7,5 Stunden" in de, "1 godzina", "2
// godziny" and "5 godzin" in pl, its plural form CLDR's for the number as
// written. A quantity of C62 ("one", also for no code) is the number
// alone, as before units existed; one of a code CLDR has no unit for is
// followed by the code: "3 XPP".
func (p *Printer) Quantity(q billingv1.DecimalQuantity, unit billingv1.UnitCode) string {
	n := p.Decimal(q)
	if unit == "" || unit == billingv1.UnitOne {
		return n
	}
	lang := catalogTag(p.tag)
	base, _ := lang.Base()
	forms, ok := unitNames[base.String()][string(unit)]
	if !ok {
		return n + "\u00a0" + string(unit)
	}
	pattern := forms[pluralForms[pluralOf(lang, q)]]
	if pattern == "" {
		pattern = forms[otherForm]
	}
	return strings.Replace(pattern, "{0}", n, 1)
}

// Decimal writes a quantity in p's number format, in its shortest form
// with at most 4 decimals: "7.5" in en, "7,5" in de, "1,000" in en for a
// thousand.
func (p *Printer) Decimal(q billingv1.DecimalQuantity) string {
	s := q.Scaled()
	if s%billingv1.QuantityScale == 0 {
		return p.Number(s / billingv1.QuantityScale)
	}
	_, frac, _ := strings.Cut(q.String(), ".")
	// A quantity's CRD bounds (at most 1,000,000, 4 decimals) keep its
	// ten-thousandths well within what a float64 holds exactly, and the
	// format rounds to the decimals written: the digits are q's own.
	return p.fmts.FmtNumber(float64(s)/billingv1.QuantityScale, uint64(len(frac)))
}

// pluralOf is the CLDR cardinal plural form of q, written in its shortest
// form, in lang: in en, "one" for 1 and "other" for 7.5; in fr, "one" for
// 1.5.
func pluralOf(lang language.Tag, q billingv1.DecimalQuantity) plural.Form {
	s := q.Scaled()
	if s < 0 {
		s = -s
	}
	whole, frac := s/billingv1.QuantityScale, s%billingv1.QuantityScale
	digits := 0
	if frac != 0 {
		_, f, _ := strings.Cut(q.String(), ".")
		digits = len(f)
		for i := len(f); i < 4; i++ {
			frac /= 10
		}
	}
	return plural.Cardinal.MatchPlural(lang, int(whole), digits, digits, int(frac), int(frac))
}
