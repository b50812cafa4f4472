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

package einvoice

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// amount writes minor units of c as the decimal of an e-invoice: the
// currency's own number of decimals, a point, no grouping: 68050 USD is
// "680.50", 1500 JPY is "1500".
func amount(c billing.Currency, minor int64) string {
	digits := strconv.FormatInt(minor, 10)
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if c.Digits > 0 {
		if len(digits) <= c.Digits {
			digits = strings.Repeat("0", c.Digits-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-c.Digits] + "." + digits[len(digits)-c.Digits:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// vatIDOf is a tax id written as a VAT identification number, compacted
// ("FR 40 303265045" is "FR40303265045"), or "" when it is not one: a VAT
// number has with the prefix of its country (BR-CO-9): an EU member state's
// (EL for Greece, XI for Northern Ireland), the United Kingdom's,
// Switzerland's or Norway's, then digits, letters and the '+' and '*' of
// Irish numbers, at least one a digit. A US EIN or another national tax
// number is not: it is written as the seller's tax registration (BT-32).
func vatIDOf(id string) string {
	compact := strings.ToUpper(strings.NewReplacer(" ", "", ".", "", "-", "").Replace(id))
	if !vatID.MatchString(compact) {
		return ""
	}
	return compact
}

var vatID = regexp.MustCompile(
	`^(AT|BE|BG|CH|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|NO|PL|PT|RO|SE|SI|SK|XI)` +
		`[0-9A-Z+*]*[0-9][0-9A-Z+*]*$`)
