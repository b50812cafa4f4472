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
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func apiTax(category, rate, reason string) *billingv1.Tax {
	t := &billingv1.Tax{Category: billingv1.TaxCategory(category), ExemptionReason: reason}
	if rate != "" {
		t.Rate = &rate
	}
	return t
}

func item(quantity, amount int64, tax *billingv1.Tax) billingv1.LineItem {
	return billingv1.LineItem{Description: "Line", Quantity: billingv1.Units(quantity), Amount: amount, Tax: tax}
}

func TestEffectiveTaxesTakeTheDefaultForItemsWithoutTheirOwn(t *testing.T) {
	own := apiTax("S", "7", "")
	def := apiTax("S", "19", "")
	got := billing.EffectiveTaxes([]billingv1.LineItem{item(1, 100, own), item(1, 100, nil)}, def)
	want := []*billingv1.Tax{apiTax("S", "7", ""), apiTax("S", "19", "")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("EffectiveTaxes = %+v, want %+v", got, want)
	}
	*got[1].Rate = "20"
	if *def.Rate != "19" {
		t.Fatalf("EffectiveTaxes shares the default's memory: changing the result changed it to %s", *def.Rate)
	}
	none := billing.EffectiveTaxes([]billingv1.LineItem{item(1, 100, nil)}, nil)
	if len(none) != 1 || none[0] != nil {
		t.Fatalf("EffectiveTaxes without a default = %+v, want one nil", none)
	}
}

func TestInvoiceAmounts(t *testing.T) {
	tests := []struct {
		name      string
		items     []billingv1.LineItem
		taxes     []*billingv1.Tax
		want      billing.Amounts
		wantIndex int // -1: no error
	}{{
		name:      "the four lines of the issue at 20% are taxed once per group",
		items:     []billingv1.LineItem{item(1, 6833, nil), item(1, 6833, nil), item(1, 5750, nil), item(1, 8500, nil)},
		taxes:     []*billingv1.Tax{apiTax("S", "20", ""), apiTax("S", "20.0", ""), apiTax("S", "20", ""), apiTax("S", "20.0000", "")},
		want:      billing.Amounts{Subtotal: 27916, TaxTotal: 5583, Total: 33499, TaxBreakdown: []billing.TaxGroup{{Category: billingv1.TaxStandard, Rate: mustRate("20"), TaxableAmount: 27916, TaxAmount: 5583}}},
		wantIndex: -1,
	}, {
		name:      "items without taxes have none",
		items:     []billingv1.LineItem{item(3, 100, nil)},
		want:      billing.Amounts{Subtotal: 300, Total: 300, TaxBreakdown: []billing.TaxGroup{}},
		wantIndex: -1,
	}, {
		name:      "a rate that does not parse is an error on its item",
		items:     []billingv1.LineItem{item(1, 100, nil), item(1, 100, nil)},
		taxes:     []*billingv1.Tax{nil, apiTax("S", "019", "")},
		wantIndex: 1,
	}, {
		name:      "a tax that breaks a rule is an error on its item",
		items:     []billingv1.LineItem{item(1, 100, nil)},
		taxes:     []*billingv1.Tax{apiTax("AE", "0", "")},
		wantIndex: 0,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := billing.InvoiceAmounts(&billingv1.InvoiceSpec{Items: tt.items}, billing.DocumentTaxes{Items: tt.taxes})
			if tt.wantIndex >= 0 {
				var lineErr *billing.TaxLineError
				if !errors.As(err, &lineErr) || lineErr.Index != tt.wantIndex {
					t.Fatalf("InvoiceAmounts error = %v, want a billing.TaxLineError on item %d", err, tt.wantIndex)
				}
				return
			}
			if err != nil {
				t.Fatalf("InvoiceAmounts: %v", err)
			}
			if !reflect.DeepEqual(taxOnly(got), tt.want) {
				t.Fatalf("InvoiceAmounts = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBreakdownWritesRatesInTheirShortestForm(t *testing.T) {
	got := billing.Breakdown([]billing.TaxGroup{
		{Category: billingv1.TaxStandard, Rate: mustRate("5.5"), TaxableAmount: 1000, TaxAmount: 55},
		{Category: billingv1.TaxNotSubject, TaxableAmount: 10, ExemptionReason: "Not subject to VAT"},
	})
	five := "5.5"
	want := []billingv1.TaxBreakdownEntry{
		{Category: billingv1.TaxStandard, Rate: &five, TaxableAmount: 1000, TaxAmount: 55},
		{Category: billingv1.TaxNotSubject, TaxableAmount: 10, ExemptionReason: "Not subject to VAT"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Breakdown = %+v, want %+v", got, want)
	}
	if empty := billing.Breakdown(nil); empty == nil || len(empty) != 0 {
		t.Fatalf("billing.Breakdown(nil) = %#v, want an empty, non-nil slice", empty)
	}
}

func TestNormalizedTaxesShortenRatesAndKeepWhatDoesNotParse(t *testing.T) {
	got := billing.NormalizedTaxes([]*billingv1.Tax{apiTax("S", "19.00", ""), nil, apiTax("S", "1e2", ""), apiTax("O", "", "Outside the scope")})
	want := []*billingv1.Tax{apiTax("S", "19", ""), nil, apiTax("S", "1e2", ""), apiTax("O", "", "Outside the scope")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("NormalizedTaxes = %+v, want %+v", got, want)
	}
}

func TestLineTaxOfAndTaxOfRoundTrip(t *testing.T) {
	for _, in := range []*billingv1.Tax{nil, apiTax("S", "8.875", ""), apiTax("AE", "0", "Reverse charge"), apiTax("O", "", "Not subject")} {
		lt, err := billing.LineTaxOf(in)
		if err != nil {
			t.Fatalf("billing.LineTaxOf(%+v): %v", in, err)
		}
		if out := billing.TaxOf(lt); !reflect.DeepEqual(out, in) {
			t.Fatalf("billing.TaxOf(billing.LineTaxOf(%+v)) = %+v", in, out)
		}
	}
}
