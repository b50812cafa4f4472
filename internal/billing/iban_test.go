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

import "testing"

func TestAnIBANIsValidOnlyWithItsCheckDigitsRight(t *testing.T) {
	for _, c := range []struct {
		iban string
		want bool
	}{
		{"DE02120300000000202051", true},
		{"DE89370400440532013000", true},
		{"GB29NWBK60161331926819", true},
		{"FR1420041010050500013M02606", true},
		{"NL91ABNA0417164300", true},
		{"DE02120300000000202052", false}, // one digit off
		{"DE03120300000000202051", false}, // wrong check digits
		{"de02120300000000202051", false}, // lower case
		{"DE02 1203 0000 0000 2020 51", false},
		{"DE0212030000", false}, // too short
		{"", false},
	} {
		if got := ValidIBAN(c.iban); got != c.want {
			t.Errorf("ValidIBAN(%q) = %v, want %v", c.iban, got, c.want)
		}
	}
}

func TestABICHasEightOrElevenCharacters(t *testing.T) {
	for _, c := range []struct {
		bic  string
		want bool
	}{
		{"BYLADEM1", true}, {"BYLADEM1001", true}, {"DEUTDEFF500", true},
		{"BYLADEM10", false}, {"BYLADE", false}, {"byladem1", false}, {"12LADEM1", false},
	} {
		if got := ValidBIC(c.bic); got != c.want {
			t.Errorf("ValidBIC(%q) = %v, want %v", c.bic, got, c.want)
		}
	}
}
