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

import "regexp"

// iban is the shape of an IBAN in its electronic form: a country code,
// two check digits and 11 to 30 letters and digits (ISO 13616).
var iban = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)

// bic is the shape of a BIC (ISO 9362): a bank code, a country code, a
// location code and an optional branch code.
var bic = regexp.MustCompile(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`)

// ValidIBAN reports whether s is an IBAN in its electronic form (upper
// case, no spaces) whose check digits are right: with its first four
// characters moved to the end and each letter written as 10 to 35, it is 1
// modulo 97 (ISO 7064 MOD 97-10).
func ValidIBAN(s string) bool {
	if !iban.MatchString(s) {
		return false
	}
	rem := 0
	for _, r := range s[4:] + s[:4] {
		if r >= 'A' {
			rem = (rem*100 + int(r-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(r-'0')) % 97
		}
	}
	return rem == 1
}

// ValidBIC reports whether s has the shape of a BIC: 8 or 11 letters and
// digits, the bank and country codes letters.
func ValidBIC(s string) bool { return bic.MatchString(s) }
