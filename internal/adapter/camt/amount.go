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

package camt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// maxMinorDigits is how many digits an amount in minor units may have: an
// int64 holds every number of 18 digits.
const maxMinorDigits = 18

// minorUnits converts amount, a decimal the schema has accepted, in the
// ISO 4217 currency code to its minor units, without floating point. It
// fails for a currency ISO 4217 does not assign, a negative amount, more
// fraction digits than the currency has (trailing zeros aside: 12.340 EUR
// is 1234 cents), and an amount an int64 cannot hold.
func minorUnits(amount, code string) (int64, error) {
	c, err := billing.ParseCurrency(code)
	if err != nil || c.Code != code {
		return 0, fmt.Errorf("%s is not an ISO 4217 currency code", quote(code))
	}
	v := strings.TrimPrefix(amount, "+")
	negative := strings.HasPrefix(v, "-")
	intPart, frac := splitDecimal(v)
	intPart = strings.TrimLeft(intPart, "0")
	frac = strings.TrimRight(frac, "0")
	switch {
	case negative && (intPart != "" || frac != ""):
		return 0, fmt.Errorf("%s is negative", quote(amount))
	case len(frac) > c.Digits:
		return 0, fmt.Errorf("%s has more than %d fraction digits (%s)", quote(amount), c.Digits, c.Code)
	}
	digits := strings.TrimLeft(intPart+frac+strings.Repeat("0", c.Digits-len(frac)), "0")
	if digits == "" {
		return 0, nil
	}
	if len(digits) > maxMinorDigits {
		return 0, fmt.Errorf("%s is too large", quote(amount))
	}
	return strconv.ParseInt(digits, 10, 64)
}
