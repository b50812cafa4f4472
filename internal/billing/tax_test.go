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
	"math"
	"math/big"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Test helpers build taxes from the forms an HTTP client writes. A rate of
// "" is no rate.

func mustRate(s string) *billing.Rate {
	if s == "" {
		return nil
	}
	r, err := billing.ParseRate(s)
	if err != nil {
		panic(err)
	}
	return &r
}

func taxOf(category billingv1.TaxCategory, rate, reason string) *billing.LineTax {
	return &billing.LineTax{Category: category, Rate: mustRate(rate), ExemptionReason: reason}
}

func standard(rate string) *billing.LineTax { return taxOf(billingv1.TaxStandard, rate, "") }

// line is one unit of amount with tax.
func line(amount int64, tax *billing.LineTax) billing.TaxedLine {
	return billing.TaxedLine{Quantity: billingv1.Units(1), Amount: amount, Tax: tax}
}

func group(category billingv1.TaxCategory, rate string, taxable, tax int64, reason string) billing.TaxGroup {
	return billing.TaxGroup{
		Category: category, Rate: mustRate(rate), TaxableAmount: taxable, TaxAmount: tax, ExemptionReason: reason,
	}
}

func TestTaxAmount(t *testing.T) {
	tests := []struct {
		name    string
		taxable int64
		rate    billing.Rate
		want    outcome
		tax     int64
	}{
		{"a group's tax is rounded once on its taxable amount", 27_916, 200_000, sums, 5_583},
		{"2.5 rounds up to 3", 25, 100_000, sums, 3},
		{"0.5 rounds up to 1", 5, 100_000, sums, 1},
		{"0.4999 rounds down to 0", 4_999, 100, sums, 0},
		{"4.4999 stays 4", 44_999, 100, sums, 4},
		{"4.5 rounds up to 5", 45, 100_000, sums, 5},
		{"2.4951 rounds once to 2, not through 2.50 to 3", 24_951, 100, sums, 2},
		{"1366.6 rounds to 1367", 6_833, 200_000, sums, 1_367},
		{"8.875% of 10000 is 887.5 and rounds to 888", 10_000, 88_750, sums, 888},
		{"8.875% of 10001 is 887.58875 and rounds to 888", 10_001, 88_750, sums, 888},
		{"0.0001% of 10000 is 0.01 and rounds to 0", 10_000, 1, sums, 0},
		{"0.0001% of 500000 is exactly 0.5 and rounds to 1", 500_000, 1, sums, 1},
		{"0.0001% of 499999 is 0.499999 and rounds to 0", 499_999, 1, sums, 0},
		{"0.0001% of 1499999 is 1.499999 and rounds to 1", 1_499_999, 1, sums, 1},
		{"99.9999% of 1 is 0.999999 and rounds to 1", 1, 999_999, sums, 1},
		{"a rate of 0 gives no tax", 123_456, 0, sums, 0},
		{"nothing taxed gives no tax", 0, 190_000, sums, 0},
		{"a rate of 100% taxes the whole amount", 12_345, billing.MaxRate, sums, 12_345},
		{"100% of 2^53-1 is 2^53-1, the largest tax", billing.MaxTotal, billing.MaxRate, sums, billing.MaxTotal},
		{"99.9999% of 2^53-1 needs more than 64 bits and is exact", billing.MaxTotal, 999_999, sums, 9_007_190_247_541_736},
		{"0.0001% of 2^53-1 is 9007199254.740991 and rounds to 9007199255", billing.MaxTotal, 1, sums, 9_007_199_255},
		{"a taxable amount of 2^53 is refused", billing.MaxTotal + 1, 1, tooLarge, 0},
		{"the largest int64 taxable amount is refused", math.MaxInt64, billing.MaxRate, tooLarge, 0},
		{"a negative taxable amount is refused", -1, 190_000, negative, 0},
		{"a rate above 100% is refused", 100, billing.MaxRate + 1, negative, 0},
		{"a negative rate is refused", 100, -1, negative, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := billing.TaxAmount(tt.taxable, tt.rate)
			switch tt.want {
			case sums:
				if err != nil || got != tt.tax {
					t.Errorf("TaxAmount(%d, %s) = %d, %v; want %d", tt.taxable, tt.rate, got, err, tt.tax)
				}
			case tooLarge:
				if !errors.Is(err, billing.ErrTotalTooLarge) || got != 0 {
					t.Errorf("TaxAmount(%d, %s) = %d, %v; want ErrTotalTooLarge", tt.taxable, tt.rate, got, err)
				}
			case negative:
				if err == nil || errors.Is(err, billing.ErrTotalTooLarge) || got != 0 {
					t.Errorf("TaxAmount(%d, %s) = %d, %v; want an error on the inputs", tt.taxable, tt.rate, got, err)
				}
			}
		})
	}
}

// roundHalfAway rounds the non-negative x to an integer, half away from
// zero, in exact arithmetic.
func roundHalfAway(x *big.Rat) *big.Int {
	doubled := new(big.Rat).Mul(x, big.NewRat(2, 1))
	doubled.Add(doubled, big.NewRat(1, 1))
	// floor((2x+1)/2) = floor(x + 1/2), for x >= 0.
	return new(big.Int).Quo(doubled.Num(), new(big.Int).Mul(doubled.Denom(), big.NewInt(2)))
}

// FuzzTaxAmount checks TaxAmount against exact rational arithmetic: the
// tax is taxable*rate/100 rounded half away from zero when the inputs are
// valid, ErrTotalTooLarge when taxable is above MaxTotal, and an error
// whenever an input is out of range.
func FuzzTaxAmount(f *testing.F) {
	f.Add(int64(27_916), int64(200_000))
	f.Add(int64(25), int64(100_000))
	f.Add(int64(44_999), int64(100))
	f.Add(int64(10_000), int64(88_750))
	f.Add(int64(500_000), int64(1))
	f.Add(int64(billing.MaxTotal), int64(999_999))
	f.Add(int64(billing.MaxTotal+1), int64(1))
	f.Add(int64(-1), int64(190_000))
	f.Add(int64(100), int64(1_000_001))
	f.Fuzz(func(t *testing.T, taxable, rate int64) {
		got, err := billing.TaxAmount(taxable, billing.Rate(rate))
		switch {
		case taxable < 0 || rate < 0 || rate > int64(billing.MaxRate):
			if err == nil {
				t.Fatalf("TaxAmount(%d, %d) = %d, want an error for an input out of range", taxable, rate, got)
			}
			return
		case taxable > billing.MaxTotal:
			if !errors.Is(err, billing.ErrTotalTooLarge) {
				t.Fatalf("TaxAmount(%d, %d) = %d, %v; want ErrTotalTooLarge", taxable, rate, got, err)
			}
			return
		}
		exact := new(big.Rat).SetFrac(
			new(big.Int).Mul(big.NewInt(taxable), big.NewInt(rate)),
			big.NewInt(100*int64(billing.RateScale)))
		want := roundHalfAway(exact)
		if err != nil || !want.IsInt64() || got != want.Int64() {
			t.Fatalf("TaxAmount(%d, %d) = %d, %v; exact %s, want %s", taxable, rate, got, err, exact.FloatString(6), want)
		}
		if got > taxable {
			t.Fatalf("TaxAmount(%d, %d) = %d, more than the taxable amount", taxable, rate, got)
		}
	})
}
