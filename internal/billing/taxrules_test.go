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

package billing_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// reason returns an exemption reason of n characters, each of two bytes.
func reason(n int) string {
	return strings.Repeat("é", n)
}

func TestValidateLineTax(t *testing.T) {
	tests := []struct {
		name string
		tax  billing.LineTax
		// field is the field at fault; "" when the tax is valid.
		field string
	}{
		{"a standard rate above 0 is valid", *standard("19"), ""},
		{"the smallest standard rate is valid", *standard("0.0001"), ""},
		{"a standard rate of 100% is valid", *standard("100"), ""},
		{"a zero rated line is valid", *taxOf(billingv1.TaxZeroRated, "0", ""), ""},
		{"a line not subject to tax with a reason and no rate is valid", *taxOf(billingv1.TaxNotSubject, "", "Not subject to VAT"), ""},
		{"an exemption reason of 500 characters is valid", *taxOf(billingv1.TaxExempt, "0", reason(500)), ""},
		{"an exemption reason of 1 character is valid", *taxOf(billingv1.TaxExempt, "0", "x"), ""},

		{"a standard rate line without a rate is refused on its rate", *taxOf(billingv1.TaxStandard, "", ""), "rate"},
		{"a standard rate line at 0 is refused on its rate", *standard("0"), "rate"},
		{"a standard rate line with an exemption reason is refused on it", *taxOf(billingv1.TaxStandard, "19", "Exempt"), "exemption_reason"},
		{"a zero rated line without a rate is refused on its rate", *taxOf(billingv1.TaxZeroRated, "", ""), "rate"},
		{"a zero rated line at 5% is refused on its rate", *taxOf(billingv1.TaxZeroRated, "5", ""), "rate"},
		{"a zero rated line with an exemption reason is refused on it", *taxOf(billingv1.TaxZeroRated, "0", "Zero"), "exemption_reason"},
		{"a line not subject to tax with a rate of 0 is refused on its rate", *taxOf(billingv1.TaxNotSubject, "0", "Not subject"), "rate"},
		{"a line not subject to tax without a reason is refused on it", *taxOf(billingv1.TaxNotSubject, "", ""), "exemption_reason"},
		{"an exemption reason of 501 characters is refused", *taxOf(billingv1.TaxExempt, "0", reason(501)), "exemption_reason"},
		{"an exemption reason of invalid UTF-8 is refused", *taxOf(billingv1.TaxExempt, "0", "Exempt \xff"), "exemption_reason"},
		{"an unknown category is refused", *taxOf("X", "19", ""), "category"},
		{"a lower-case category is refused", *taxOf("s", "19", ""), "category"},
		{"an empty category is refused", *taxOf("", "19", ""), "category"},
		{"an unknown category is refused before its rate is looked at", billing.LineTax{Category: "VAT"}, "category"},
		{"a rate above 100% made without ParseRate is refused", billing.LineTax{Category: billingv1.TaxStandard, Rate: ptr(billing.MaxRate + 1)}, "rate"},
		{"a negative rate made without ParseRate is refused", billing.LineTax{Category: billingv1.TaxZeroRated, Rate: ptr(-1)}, "rate"},
	}
	// The four exempt categories follow the same rules.
	for _, c := range []billingv1.TaxCategory{billingv1.TaxExempt, billingv1.TaxReverseCharge, billingv1.TaxIntraCommunity, billingv1.TaxExport} {
		tests = append(tests, []struct {
			name  string
			tax   billing.LineTax
			field string
		}{
			{fmt.Sprintf("a %s line at 0 with a reason is valid", c), *taxOf(c, "0", "Reverse charge"), ""},
			{fmt.Sprintf("a %s line at 0.0 with a reason is valid", c), *taxOf(c, "0.0", "Reverse charge"), ""},
			{fmt.Sprintf("a %s line without a rate is refused on its rate", c), *taxOf(c, "", "Reverse charge"), "rate"},
			{fmt.Sprintf("a %s line at 19%% is refused on its rate", c), *taxOf(c, "19", "Reverse charge"), "rate"},
			{fmt.Sprintf("a %s line without a reason is refused on it", c), *taxOf(c, "0", ""), "exemption_reason"},
		}...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := billing.ValidateLineTax(tt.tax)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("ValidateLineTax(%+v) = %v, want nil", tt.tax, err)
				}
				return
			}
			var fe *billing.TaxFieldError
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("ValidateLineTax(%+v) = %v, want an error on %s", tt.tax, err, tt.field)
			}
			if fe.Message == "" || !strings.HasPrefix(err.Error(), tt.field+" ") {
				t.Errorf("error %q does not start with its field and say what is wrong", err)
			}
		})
	}
}

func ptr(r billing.Rate) *billing.Rate { return &r }

func TestValidateTaxes(t *testing.T) {
	notSubject := taxOf(billingv1.TaxNotSubject, "", "Not subject to VAT")
	tests := []struct {
		name  string
		taxes []*billing.LineTax
		// index and field are the line and field at fault; field is "" when valid.
		index int
		field string
	}{
		{name: "an invoice without lines is valid", taxes: nil},
		{name: "an invoice without tax is valid", taxes: []*billing.LineTax{nil, nil}},
		{name: "lines with and without tax may be mixed", taxes: []*billing.LineTax{standard("19"), nil, standard("7")}},
		{name: "an invoice of lines not subject to tax is valid", taxes: []*billing.LineTax{notSubject, notSubject}},
		{
			name:  "exempt lines with the same reason are valid",
			taxes: []*billing.LineTax{taxOf(billingv1.TaxExempt, "0", "Exempt"), standard("19"), taxOf(billingv1.TaxExempt, "0.00", "Exempt")},
		},
		{
			name: "exempt lines of different categories may have different reasons",
			taxes: []*billing.LineTax{
				taxOf(billingv1.TaxExempt, "0", "Exempt"), taxOf(billingv1.TaxReverseCharge, "0", "Reverse charge"),
			},
		},
		{
			name:  "a line not subject to tax after a standard rate line is refused on its category",
			taxes: []*billing.LineTax{standard("19"), notSubject},
			index: 1, field: "category",
		},
		{
			name:  "a standard rate line after lines not subject to tax is refused on its category",
			taxes: []*billing.LineTax{notSubject, notSubject, standard("19")},
			index: 2, field: "category",
		},
		{
			name:  "a line without tax after a line not subject to tax is refused on its category",
			taxes: []*billing.LineTax{notSubject, nil},
			index: 1, field: "category",
		},
		{
			name:  "a line not subject to tax after a line without tax is refused on its category",
			taxes: []*billing.LineTax{nil, notSubject},
			index: 1, field: "category",
		},
		{
			name:  "an exempt line whose reason differs from its group's is refused on its reason",
			taxes: []*billing.LineTax{taxOf(billingv1.TaxExempt, "0", "Exempt"), standard("19"), taxOf(billingv1.TaxExempt, "0", "exempt")},
			index: 2, field: "exemption_reason",
		},
		{
			name:  "a line not subject to tax whose reason differs from the first's is refused on its reason",
			taxes: []*billing.LineTax{notSubject, taxOf(billingv1.TaxNotSubject, "", "Outside the scope of VAT")},
			index: 1, field: "exemption_reason",
		},
		{
			name:  "the first line at fault is named, whatever the rule it breaks",
			taxes: []*billing.LineTax{standard("19"), taxOf(billingv1.TaxStandard, "0", ""), notSubject},
			index: 1, field: "rate",
		},
		{
			name:  "a line's own rules are checked before the rules across lines",
			taxes: []*billing.LineTax{standard("19"), taxOf(billingv1.TaxNotSubject, "", "")},
			index: 1, field: "exemption_reason",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := billing.ValidateTaxes(tt.taxes)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("ValidateTaxes() = %v, want nil", err)
				}
				return
			}
			var le *billing.TaxLineError
			if !errors.As(err, &le) || le.Index != tt.index || le.Err == nil || le.Err.Field != tt.field {
				t.Fatalf("ValidateTaxes() = %v, want an error on item %d's %s", err, tt.index, tt.field)
			}
			var fe *billing.TaxFieldError
			if !errors.As(err, &fe) || fe != le.Err {
				t.Errorf("errors.As does not find the TaxFieldError in %v", err)
			}
			if want := fmt.Sprintf("item %d: tax %s ", tt.index, tt.field); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

func TestOnlyReverseChargeAndIntraCommunityRequireTaxIDs(t *testing.T) {
	want := map[billingv1.TaxCategory]bool{
		billingv1.TaxStandard: false, billingv1.TaxZeroRated: false, billingv1.TaxExempt: false,
		billingv1.TaxReverseCharge: true, billingv1.TaxIntraCommunity: true,
		billingv1.TaxExport: false, billingv1.TaxNotSubject: false,
	}
	categories := billing.TaxCategories()
	if len(categories) != len(want) {
		t.Fatalf("TaxCategories() = %v, want the %d of UNCL5305 the invoice uses", categories, len(want))
	}
	for _, c := range categories {
		if !billing.ValidTaxCategory(c) {
			t.Errorf("%s is not Valid", c)
		}
		if got := billing.RequiresTaxIDs(c); got != want[c] {
			t.Errorf("RequiresTaxIDs(%s) = %v, want %v", c, got, want[c])
		}
	}
	if billing.RequiresTaxIDs("X") || billing.ValidTaxCategory("X") {
		t.Errorf("an unknown category is valid or requires tax ids")
	}
}

func TestEveryTaxCategoryHasAName(t *testing.T) {
	for _, c := range billing.TaxCategories() {
		if billing.TaxCategoryName(c) == "" {
			t.Errorf("category %s has no name", c)
		}
	}
	if got := billing.TaxCategoryName(billingv1.TaxReverseCharge); got != "reverse charge" {
		t.Errorf("TaxCategoryName(AE) = %q, want %q", got, "reverse charge")
	}
	if got := billing.TaxCategoryName("X"); got != "" {
		t.Errorf("an unknown category is named %q", got)
	}
}
