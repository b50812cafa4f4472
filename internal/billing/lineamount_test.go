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
	"math/big"
	"math/rand/v2"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func q(s string) billingv1.DecimalQuantity {
	v, err := billingv1.ParseDecimalQuantity(s)
	if err != nil {
		panic(err)
	}
	return v
}

func pct(s string) *billing.Percent {
	p, err := billing.ParsePercent(s)
	if err != nil {
		panic(err)
	}
	return &p
}

func TestLineAmountsOf(t *testing.T) {
	tests := []struct {
		name     string
		quantity string
		price    int64
		discount *billing.Adjustment
		want     billing.LineAmounts
		wantErr  error
	}{
		{"7.5 hours at 120.00 are 900.00", "7.5", 12000, nil, billing.LineAmounts{Gross: 90000, Net: 90000}, nil},
		{"a third of a unit at 1.00 rounds down to 0.33", "0.3333", 100, nil, billing.LineAmounts{Gross: 33, Net: 33}, nil},
		{"half a cent rounds away from zero: 0.5 × 0.01 is 0.01", "0.5", 1, nil, billing.LineAmounts{Gross: 1, Net: 1}, nil},
		{"a 10 % discount on 900.00 is 90.00", "7.5", 12000, &billing.Adjustment{Percent: pct("10")},
			billing.LineAmounts{Gross: 90000, Discount: 9000, Net: 81000}, nil},
		{"a 12.5 % discount on 0.05 is 0.00625, rounded to 0.01", "1", 5, &billing.Adjustment{Percent: pct("12.5")},
			billing.LineAmounts{Gross: 5, Discount: 1, Net: 4}, nil},
		{"a 100 % discount leaves nothing", "3", 4500, &billing.Adjustment{Percent: pct("100")},
			billing.LineAmounts{Gross: 13500, Discount: 13500, Net: 0}, nil},
		{"an amount discount is taken as it is", "3", 4500, &billing.Adjustment{Amount: 500},
			billing.LineAmounts{Gross: 13500, Discount: 500, Net: 13000}, nil},
		{"a discount above the gross is refused", "3", 4500, &billing.Adjustment{Amount: 13501},
			billing.LineAmounts{}, billing.ErrAllowanceExceedsBase},
		{"1,000,000 units at 9,007,199.254740991 reach 2^53-1 exactly", "1000000", 9_007_199_254, nil,
			billing.LineAmounts{Gross: 9_007_199_254_000_000, Net: 9_007_199_254_000_000}, nil},
		{"4 decimals times the largest price do not overflow", "999999.9999", 1_000_000_000_000, nil,
			billing.LineAmounts{}, billing.ErrTotalTooLarge},
		{"4 decimals times a large price are exact", "1234.5678", 7_000_000_000, nil,
			billing.LineAmounts{Gross: 8_641_974_600_000, Net: 8_641_974_600_000}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := billing.LineAmountsOf(q(tt.quantity), tt.price, tt.discount)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("LineAmountsOf(%s, %d) = %+v, %v; want %+v, %v", tt.quantity, tt.price, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestGrossIsTheExactProductRounded holds Gross to arbitrary precision over
// random quantities with 4 decimals and random prices.
func TestGrossIsTheExactProductRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 1))
	for range 20_000 {
		scaled := 1 + r.Int64N(1_000_000*billingv1.QuantityScale)
		price := r.Int64N(1_000_000_000_000 + 1)
		got, err := billing.Gross(billingv1.QuantityOfScaled(scaled), price)
		exact := new(big.Int).Mul(big.NewInt(scaled), big.NewInt(price))
		exact.Mul(exact, big.NewInt(2)).Add(exact, big.NewInt(billingv1.QuantityScale)).Div(exact, big.NewInt(2*billingv1.QuantityScale))
		if exact.Cmp(big.NewInt(billing.MaxTotal)) > 0 {
			if !errors.Is(err, billing.ErrTotalTooLarge) {
				t.Fatalf("Gross(%d, %d) = %d, %v; want ErrTotalTooLarge", scaled, price, got, err)
			}
			continue
		}
		if err != nil || got != exact.Int64() {
			t.Fatalf("Gross(%d, %d) = %d, %v; want %s", scaled, price, got, err, exact)
		}
	}
}

func TestParsePercent(t *testing.T) {
	tests := []struct {
		in   string
		want billing.Percent
		ok   bool
	}{
		{"10", 1000, true}, {"12.5", 1250, true}, {"0.25", 25, true}, {"100", 10000, true}, {"100.00", 10000, true},
		{"0", 0, false}, {"0.00", 0, false}, {"100.01", 0, false}, {"101", 0, false}, {"10.123", 0, false},
		{"010", 0, false}, {"-5", 0, false}, {"", 0, false}, {"1e1", 0, false}, {"10.", 0, false}, {".5", 0, false},
	}
	for _, tt := range tests {
		got, err := billing.ParsePercent(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParsePercent(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != trimmed(tt.in) {
			t.Errorf("Percent(%d).String() = %q, want %q", got, got.String(), trimmed(tt.in))
		}
	}
}

func trimmed(s string) string {
	if s == "100.00" {
		return "100"
	}
	return s
}

func s21() *billing.LineTax {
	r, _ := billing.ParseRate("21")
	return &billing.LineTax{Category: billingv1.TaxStandard, Rate: &r}
}

func TestComputeDocument(t *testing.T) {
	s7 := func() *billing.LineTax {
		r, _ := billing.ParseRate("7")
		return &billing.LineTax{Category: billingv1.TaxStandard, Rate: &r}
	}
	tests := []struct {
		name               string
		lines              []billing.TaxedLine
		allowances         []billing.Adjustment
		charges            []billing.Adjustment
		wantBases, wantTax []int64
		wantTotal          int64
		wantParam          string
	}{
		{"the issue's reference case: 3 × 45.00 at 21 % less 60.00 is a base of 75.00, tax 15.75, total 90.75",
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4500, Tax: s21()}},
			[]billing.Adjustment{{Amount: 6000, Tax: s21()}}, nil,
			[]int64{7500}, []int64{1575}, 9075, ""},
		{"a percent allowance is taken of its own group's lines only",
			[]billing.TaxedLine{{Quantity: billingv1.Units(1), Amount: 10000, Tax: s21()}, {Quantity: billingv1.Units(1), Amount: 5000, Tax: s7()}},
			[]billing.Adjustment{{Percent: pct("10"), Tax: s7()}}, nil,
			[]int64{10000, 4500}, []int64{2100, 315}, 10000 + 4500 + 2100 + 315, ""},
		{"a charge in a group without lines adds that group",
			[]billing.TaxedLine{{Quantity: billingv1.Units(1), Amount: 10000, Tax: s21()}},
			nil, []billing.Adjustment{{Amount: 1000, Tax: s7()}},
			[]int64{10000, 1000}, []int64{2100, 70}, 13170, ""},
		{"an allowance is taken off the base its charges raised",
			[]billing.TaxedLine{{Quantity: billingv1.Units(1), Amount: 1000, Tax: s21()}},
			[]billing.Adjustment{{Amount: 1500, Tax: s21()}}, []billing.Adjustment{{Amount: 500, Tax: s21()}},
			[]int64{0}, []int64{0}, 0, ""},
		{"without tax, allowances and charges change the total only",
			[]billing.TaxedLine{{Quantity: q("2.5"), Amount: 1000}},
			[]billing.Adjustment{{Percent: pct("20")}}, []billing.Adjustment{{Amount: 300}},
			nil, nil, 2500 - 500 + 300, ""},
		{"an allowance above its group's base is refused",
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4500, Tax: s21()}},
			[]billing.Adjustment{{Amount: 13501, Tax: s21()}}, nil, nil, nil, 0, "allowances[0]"},
		{"an allowance in a group without lines is refused",
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4500, Tax: s21()}},
			[]billing.Adjustment{{Amount: 1, Tax: s7()}}, nil, nil, nil, 0, "allowances[0]"},
		{"an allowance without tax on lines with tax is refused",
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4500, Tax: s21()}},
			[]billing.Adjustment{{Amount: 1}}, nil, nil, nil, 0, "allowances[0].tax"},
		{"a charge with tax on lines without is refused",
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4500}},
			nil, []billing.Adjustment{{Amount: 1, Tax: s21()}}, nil, nil, 0, "charges[0].tax"},
		{"a line's discount above its gross is refused on the line",
			[]billing.TaxedLine{{Quantity: billingv1.Units(1), Amount: 100, Discount: &billing.Adjustment{Amount: 101}}},
			nil, nil, nil, nil, 0, "items[0].discount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := billing.ComputeDocument(tt.lines, tt.allowances, tt.charges)
			if tt.wantParam != "" {
				var adj *billing.AdjustmentError
				if !errors.As(err, &adj) || adj.Param != tt.wantParam {
					t.Fatalf("ComputeDocument() error = %v; want an AdjustmentError on %s", err, tt.wantParam)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Total != tt.wantTotal || a.Total != a.TaxExclusive()+a.TaxTotal {
				t.Errorf("total = %d (tax exclusive %d, tax %d), want %d", a.Total, a.TaxExclusive(), a.TaxTotal, tt.wantTotal)
			}
			for i, g := range a.TaxBreakdown {
				if g.TaxableAmount != tt.wantBases[i] || g.TaxAmount != tt.wantTax[i] {
					t.Errorf("group %d = base %d tax %d, want %d, %d", i, g.TaxableAmount, g.TaxAmount, tt.wantBases[i], tt.wantTax[i])
				}
			}
			if len(a.TaxBreakdown) != len(tt.wantBases) {
				t.Errorf("%d groups, want %d", len(a.TaxBreakdown), len(tt.wantBases))
			}
		})
	}
}
