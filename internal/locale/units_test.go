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
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestAQuantityIsWrittenWithItsUnitInTheLocalesLanguage(t *testing.T) {
	q := billingv1.QuantityOfScaled
	for _, tc := range []struct {
		name, tag string
		q         billingv1.DecimalQuantity
		unit      billingv1.UnitCode
		want      string
	}{
		{"A count of one is the number alone, as before units", "en", billingv1.Units(3), billingv1.UnitOne, "3"},
		{"No unit is a count of one", "de", billingv1.Units(1200), "", "1.200"},
		{"English writes hours with a point", "en", q(75000), "HUR", "7.5 hours"},
		{"German writes hours with a comma", "de", q(75000), "HUR", "7,5 Stunden"},
		{"One hour is singular", "en", billingv1.Units(1), "HUR", "1 hour"},
		{"Four decimals are kept", "en", q(123456), "KGM", "12.3456 kilograms"},
		{"Trailing zeros are not written", "de", q(2500), "DAY", "0,25 Tage"},
		{"French one and a half is singular, as CLDR has it", "fr", q(15000), "HUR", "1,5\u00a0heure"},
		{"Polish few", "pl", billingv1.Units(3), "DAY", "3 dni"},
		{"Polish many", "pl", billingv1.Units(5), "HUR", "5 godzin"},
		{"Polish few hours", "pl", billingv1.Units(2), "HUR", "2 godziny"},
		{"Polish fractions take other", "pl", q(75000), "HUR", "7,5 godziny"},
		{"A regional locale takes its language's names", "de-AT", billingv1.Units(2), "KWH", "2\u00a0Kilowattstunden"},
		{"A language without a catalog takes English names", "ja", billingv1.Units(2), "HUR", "2 hours"},
		{"A code CLDR has no name for is written as it is", "de", billingv1.Units(4), "XPP", "4\u00a0XPP"},
		{"Large quantities are grouped", "en", billingv1.Units(1000000), "MTR", "1,000,000 meters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(language.MustParse(tc.tag)).Quantity(tc.q, tc.unit); got != tc.want {
				t.Errorf("Quantity(%s, %s) in %s = %q, want %q", tc.q, tc.unit, tc.tag, got, tc.want)
			}
		})
	}
}

func TestEveryLanguageWithACatalogNamesTheUnits(t *testing.T) {
	for _, tag := range messages.Languages() {
		base, _ := tag.Base()
		for _, code := range []string{"HUR", "DAY", "KGM", "KWH", "MTR", "LTR", "MTQ", "MTK"} {
			if unitNames[base.String()][code]["other"] == "" {
				t.Errorf("%s has no name for %s", base, code)
			}
		}
	}
}
