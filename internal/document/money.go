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
	"strconv"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// formatMoney writes amount, an integer number of c's minor units, in
// major units with the currency's own number of decimals, the thousands
// grouped with commas, after the code: 68050 USD is "USD 680.50", 1500 JPY
// is "JPY 1,500", 1234 BHD is "BHD 1.234".
func formatMoney(c billing.Currency, amount int64) string {
	digits := strconv.FormatInt(amount, 10)
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if c.Digits > 0 && len(digits) <= c.Digits {
		digits = strings.Repeat("0", c.Digits-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-c.Digits], digits[len(digits)-c.Digits:]
	var b strings.Builder
	b.WriteString(c.Code)
	b.WriteByte(' ')
	if neg {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
