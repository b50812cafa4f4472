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

package banktransfer

import (
	"fmt"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// MaxReferenceDigits is how many letters and digits an ISO 11649
// reference carries after RF and its two check digits.
const MaxReferenceDigits = 21

// Reference is the ISO 11649 creditor reference of an invoice number: RF,
// two check digits (mod 97) and the number's letters and digits in upper
// case, the last MaxReferenceDigits of them when there are more (the
// sequence is at the end of a number, so the last ones tell numbers
// apart). Empty when the number has no letter or digit.
func Reference(number string) string {
	body := InvoiceKey(number)
	if body == "" {
		return ""
	}
	return fmt.Sprintf("RF%02d%s", 98-mod97(body+"RF00"), body)
}

// Valid reports whether s is an ISO 11649 reference as printed or
// transmitted: RF, two check digits and 1 to 21 letters and digits, in
// either case and with spaces anywhere (the printed groups of four), whose
// check digits hold.
func Valid(s string) bool {
	ref := Normalize(s)
	if len(ref) < 5 || len(ref) > 4+MaxReferenceDigits || ref[:2] != "RF" ||
		!isDigit(rune(ref[2])) || !isDigit(rune(ref[3])) {
		return false
	}
	for _, r := range ref[4:] {
		if !isAlnum(r) {
			return false
		}
	}
	return mod97(ref[4:]+ref[:4]) == 1
}

// Normalize is a reference as stored and compared: upper case, without
// spaces.
func Normalize(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// Group writes a reference or an IBAN in groups of four characters, as it
// is printed on paper ("RF29 INV0 0004 2"; ISO 13616 for an IBAN).
func Group(ref string) string {
	var b strings.Builder
	for i, r := range ref {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Find returns the valid ISO 11649 references in a free remittance text,
// normalized, in the order they appear, each once. A reference may be
// written whole ("RF29INV000042") or in printed groups ("RF29 INV0 0004
// 2"): after a word that starts with RF and two digits, the following
// words of one to four letters and digits are tried as its groups, and the
// longest valid reading is taken.
func Find(text string) []string {
	words := strings.FieldsFunc(strings.ToUpper(text), func(r rune) bool { return !isAlnum(r) })
	var found []string
	seen := map[string]bool{}
	for i, w := range words {
		if len(w) < 4 || w[:2] != "RF" || !isDigit(rune(w[2])) || !isDigit(rune(w[3])) {
			continue
		}
		best, candidate := "", w
		if Valid(candidate) {
			best = candidate
		}
		for _, next := range words[i+1:] {
			if len(next) > 4 || len(candidate)+len(next) > 4+MaxReferenceDigits {
				break
			}
			candidate += next
			if Valid(candidate) {
				best = candidate
			}
		}
		if best != "" && !seen[best] {
			seen[best] = true
			found = append(found, best)
		}
	}
	return found
}

// mod97 is the ISO 7064 MOD 97-10 remainder of s, letters read as 10 to
// 35, computed piecewise so that any length fits.
func mod97(s string) int {
	rem := 0
	for _, r := range s {
		var v int
		if isDigit(r) {
			v = int(r - '0')
			rem = (rem*10 + v) % 97
			continue
		}
		v = int(r-'A') + 10
		rem = (rem*100 + v) % 97
	}
	return rem
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

func isAlnum(r rune) bool { return isDigit(r) || ('A' <= r && r <= 'Z') }

// InvoiceReference is the reference an invoice numbered number is given
// at issue when paid to account: Reference(number) when the account asks
// for ISO 11649 references (its default), empty without an account or
// when it says none.
func InvoiceReference(account *billingv1.PaymentAccount, number string) string {
	if !account.StructuredReference() {
		return ""
	}
	return Reference(number)
}
