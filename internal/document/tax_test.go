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
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

func TestATaxIDIsCalledAVATIDOnlyWhenItIsOne(t *testing.T) {
	cases := []struct{ id, want string }{
		{"DE123456789", "VAT ID"},
		{"FR40303265045", "VAT ID"},
		{"fr 40 303 265 045", "VAT ID"},
		{"EL094259216", "VAT ID"},
		{"ATU12345678", "VAT ID"},
		{"IE1234567FA", "VAT ID"},
		{"XI123456789", "VAT ID"},
		{"GB123456789", "VAT ID"},
		{"NL123456789B01", "VAT ID"},
		{"US-12-3456789", "Tax ID"},
		{"12-3456789", "Tax ID"},
		{"12/345/67890", "Tax ID"},
		{"DEMO", "Tax ID"},
		{"CHE-123.456.789 MWST", "Tax ID"},
	}
	for _, tc := range cases {
		t.Run(tc.id+" is a "+tc.want, func(t *testing.T) {
			if got := taxIDLabel(locale.New(language.English), tc.id); got != tc.want {
				t.Errorf("taxIDLabel(%q) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
}

func TestALinesTaxShowsItsRateAndTheCategoryWhenNotStandard(t *testing.T) {
	rate := func(s string) *string { return &s }
	cases := []struct {
		name string
		tax  *billingv1.Tax
		want string
	}{
		{"The standard rate shows its rate alone", &billingv1.Tax{Category: billingv1.TaxStandard, Rate: rate("19")}, "19%"},
		{"A rate shows in its shortest form", &billingv1.Tax{Category: billingv1.TaxStandard, Rate: rate("5.50")}, "5.5%"},
		{"A zero-rated line shows the category Z", &billingv1.Tax{Category: billingv1.TaxZeroRated, Rate: rate("0")}, "0% Z"},
		{"A reverse-charge line shows the category AE", &billingv1.Tax{Category: billingv1.TaxReverseCharge, Rate: rate("0.00")}, "0% AE"},
		{"A line not subject to tax has no rate", &billingv1.Tax{Category: billingv1.TaxNotSubject}, "—"},
		{"A line without tax says so", nil, "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := lineTaxLabel(locale.New(language.English), tc.tax); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
