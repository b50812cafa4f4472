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

package billing

import (
	"fmt"

	"golang.org/x/text/currency"
)

// Currency is an ISO 4217 currency as golang.org/x/text/currency knows it.
type Currency struct {
	// Code is the upper-case three-letter code.
	Code string
	// Digits is the number of minor-unit digits: 0 for JPY, 2 for USD, 3
	// for BHD.
	Digits int
}

// ParseCurrency reads an ISO 4217 code, in any case. It fails for a code
// that is not three letters or that ISO 4217 does not assign (XYZ).
func ParseCurrency(code string) (Currency, error) {
	u, err := currency.ParseISO(code)
	if err != nil {
		return Currency{}, fmt.Errorf("%q is not an ISO 4217 currency code", code)
	}
	scale, _ := currency.Standard.Rounding(u)
	return Currency{Code: u.String(), Digits: scale}, nil
}

// ValidCurrency reports whether code is an ISO 4217 currency code.
func ValidCurrency(code string) bool {
	_, err := ParseCurrency(code)
	return err == nil
}
