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
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestComputeAmounts(t *testing.T) {
	// maxTotalLine is a single line of exactly 2^53-1, as in TestTotal.
	maxTotalLine := billing.TaxedLine{Quantity: billingv1.Units(69_431), Amount: 129_728_784_761}
	withTax := func(l billing.TaxedLine, tax *billing.LineTax) billing.TaxedLine {
		l.Tax = tax
		return l
	}
	notSubject := taxOf(billingv1.TaxNotSubject, "", "Not subject to VAT")

	tests := []struct {
		name  string
		lines []billing.TaxedLine
		want  outcome
		// amounts are expected when want is sums.
		amounts billing.Amounts
	}{
		{
			name: "four lines at S 20% are taxed once on their sum, 5583, not 5584 as line by line",
			lines: []billing.TaxedLine{
				line(6_833, standard("20")), line(6_833, standard("20")),
				line(5_750, standard("20")), line(8_500, standard("20")),
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal:     27_916,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxStandard, "20", 27_916, 5_583, "")},
				TaxTotal:     5_583,
				Total:        33_499,
			},
		},
		{
			name:  "an invoice without tax totals its subtotal, with an empty breakdown",
			lines: []billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 15_000}, {Quantity: billingv1.Units(1), Amount: 99}},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal: 45_099, TaxBreakdown: []billing.TaxGroup{}, TaxTotal: 0, Total: 45_099,
			},
		},
		{
			name:    "an invoice without lines totals zero, with an empty breakdown",
			lines:   nil,
			want:    sums,
			amounts: billing.Amounts{TaxBreakdown: []billing.TaxGroup{}},
		},
		{
			name:  "a line's quantity multiplies its amount before tax",
			lines: []billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 6_833, Tax: standard("20")}},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal:     20_499,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxStandard, "20", 20_499, 4_100, "")},
				TaxTotal:     4_100,
				Total:        24_599,
			},
		},
		{
			name: "S 19% and S 7% lines make two groups, each rounded on its own",
			lines: []billing.TaxedLine{
				line(10_005, standard("19")), line(5_007, standard("7")), line(2_000, standard("19.0")),
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal: 17_012,
				TaxBreakdown: []billing.TaxGroup{
					group(billingv1.TaxStandard, "19", 12_005, 2_281, ""), // 2280.95
					group(billingv1.TaxStandard, "7", 5_007, 350, ""),     // 350.49
				},
				TaxTotal: 2_631,
				Total:    19_643,
			},
		},
		{
			name: "the breakdown lists the groups in the order they first appear",
			lines: []billing.TaxedLine{
				line(100, taxOf(billingv1.TaxZeroRated, "0", "")),
				line(200, standard("7")),
				line(300, taxOf(billingv1.TaxExempt, "0", "Exempt under Article 132")),
				line(400, standard("19")),
				line(500, standard("7")),
				line(600, taxOf(billingv1.TaxZeroRated, "0", "")),
				line(700, taxOf(billingv1.TaxReverseCharge, "0", "Reverse charge")),
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal: 2_800,
				TaxBreakdown: []billing.TaxGroup{
					group(billingv1.TaxZeroRated, "0", 700, 0, ""),
					group(billingv1.TaxStandard, "7", 700, 49, ""),
					group(billingv1.TaxExempt, "0", 300, 0, "Exempt under Article 132"),
					group(billingv1.TaxStandard, "19", 400, 76, ""),
					group(billingv1.TaxReverseCharge, "0", 700, 0, "Reverse charge"),
				},
				TaxTotal: 125,
				Total:    2_925,
			},
		},
		{
			name:  "a line without tax is in no group but in the subtotal and total",
			lines: []billing.TaxedLine{line(10_000, standard("19")), line(5_000, nil)},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal:     15_000,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxStandard, "19", 10_000, 1_900, "")},
				TaxTotal:     1_900,
				Total:        16_900,
			},
		},
		{
			name:  "an invoice not subject to tax has one group without rate or tax",
			lines: []billing.TaxedLine{line(1_000, notSubject), line(2_500, notSubject)},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal:     3_500,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxNotSubject, "", 3_500, 0, "Not subject to VAT")},
				TaxTotal:     0,
				Total:        3_500,
			},
		},
		{
			name: "a 4-decimal rate is applied exactly: 8.875% of 10000 is 887.5, rounded to 888",
			lines: []billing.TaxedLine{
				line(10_000, standard("8.875")),
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal:     10_000,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxStandard, "8.875", 10_000, 888, "")},
				TaxTotal:     888,
				Total:        10_888,
			},
		},
		{
			name: "yen amounts without minor digits are taxed in whole yen: 594 and 98.72 rounded to 99",
			lines: []billing.TaxedLine{
				{Quantity: billingv1.Units(3), Amount: 1_980, Tax: standard("10")},
				{Quantity: billingv1.Units(1), Amount: 1_234, Tax: standard("8")},
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal: 7_174,
				TaxBreakdown: []billing.TaxGroup{
					group(billingv1.TaxStandard, "10", 5_940, 594, ""),
					group(billingv1.TaxStandard, "8", 1_234, 99, ""),
				},
				TaxTotal: 693,
				Total:    7_867,
			},
		},
		{
			name: "dinar amounts with 3 minor digits are taxed in whole fils: 10% of 12.345 BHD is 1.235",
			lines: []billing.TaxedLine{
				line(12_345, standard("10")),
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal:     12_345,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxStandard, "10", 12_345, 1_235, "")},
				TaxTotal:     1_235,
				Total:        13_580,
			},
		},
		{
			name:  "a subtotal of 2^53-1 at a zero rate is accepted",
			lines: []billing.TaxedLine{withTax(maxTotalLine, taxOf(billingv1.TaxZeroRated, "0", ""))},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal:     billing.MaxTotal,
				TaxBreakdown: []billing.TaxGroup{group(billingv1.TaxZeroRated, "0", billing.MaxTotal, 0, "")},
				Total:        billing.MaxTotal,
			},
		},
		{
			name: "the largest subtotal at S 20% has a total of exactly 2^53-1",
			lines: []billing.TaxedLine{
				{Quantity: billingv1.Units(1_000_000), Amount: 7_505_999_378, Tax: standard("20")},
				{Quantity: billingv1.Units(1), Amount: 950_826, Tax: standard("20")},
			},
			want: sums,
			amounts: billing.Amounts{
				Subtotal: 7_505_999_378_950_826,
				TaxBreakdown: []billing.TaxGroup{
					group(billingv1.TaxStandard, "20", 7_505_999_378_950_826, 1_501_199_875_790_165, ""),
				},
				TaxTotal: 1_501_199_875_790_165,
				Total:    billing.MaxTotal,
			},
		},
		{
			name: "one more minor unit at S 20% brings the total to 2^53 and is refused",
			lines: []billing.TaxedLine{
				{Quantity: billingv1.Units(1_000_000), Amount: 7_505_999_378, Tax: standard("20")},
				{Quantity: billingv1.Units(1), Amount: 950_827, Tax: standard("20")},
			},
			want: tooLarge,
		},
		{
			name:  "the largest subtotal at 100% doubles to 2^53-2",
			lines: []billing.TaxedLine{line(4_503_599_627_370_495, standard("100"))},
			want:  sums,
			amounts: billing.Amounts{
				Subtotal: 4_503_599_627_370_495,
				TaxBreakdown: []billing.TaxGroup{
					group(billingv1.TaxStandard, "100", 4_503_599_627_370_495, 4_503_599_627_370_495, ""),
				},
				TaxTotal: 4_503_599_627_370_495,
				Total:    billing.MaxTotal - 1,
			},
		},
		{
			name:  "one more minor unit at 100% doubles to 2^53 and is refused",
			lines: []billing.TaxedLine{line(4_503_599_627_370_496, standard("100"))},
			want:  tooLarge,
		},
		{
			name:  "a subtotal of 2^53-1 with the smallest rate is refused for its tax",
			lines: []billing.TaxedLine{withTax(maxTotalLine, standard("0.0001"))},
			want:  tooLarge,
		},
		{
			name: "a subtotal above 2^53-1 is refused at a zero rate too",
			lines: []billing.TaxedLine{
				withTax(maxTotalLine, taxOf(billingv1.TaxZeroRated, "0", "")),
				line(1, taxOf(billingv1.TaxZeroRated, "0", "")),
			},
			want: tooLarge,
		},
		{
			name: "a total above 2^53-1 from two groups is refused although each group fits",
			lines: []billing.TaxedLine{
				line(3_000_000_000_000_000, standard("100")),
				line(1_600_000_000_000_000, standard("99")),
			},
			want: tooLarge,
		},
		{
			name:  "a product that overflows uint64 is refused whatever the rate",
			lines: []billing.TaxedLine{{Quantity: billingv1.QuantityOfScaled(math.MaxInt64), Amount: math.MaxInt64, Tax: standard("19")}},
			want:  tooLarge,
		},
		{
			name:  "a negative amount is refused",
			lines: []billing.TaxedLine{line(-100, standard("19"))},
			want:  negative,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := billing.ComputeAmounts(tt.lines)
			switch tt.want {
			case sums:
				if err != nil {
					t.Fatalf("ComputeAmounts() error = %v, want %+v", err, tt.amounts)
				}
				if !reflect.DeepEqual(taxOnly(got), tt.amounts) {
					t.Errorf("ComputeAmounts() = %s\nwant %s", showAmounts(got), showAmounts(tt.amounts))
				}
				if got.TaxBreakdown == nil {
					t.Errorf("ComputeAmounts() has a nil breakdown, want an empty one")
				}
			case tooLarge:
				if !errors.Is(err, billing.ErrTotalTooLarge) {
					t.Fatalf("ComputeAmounts() = %s, %v; want ErrTotalTooLarge", showAmounts(got), err)
				}
			case negative:
				if err == nil || errors.Is(err, billing.ErrTotalTooLarge) {
					t.Fatalf("ComputeAmounts() = %s, %v; want an error about negative inputs", showAmounts(got), err)
				}
			}
			if err != nil && !reflect.DeepEqual(got, billing.Amounts{}) {
				t.Errorf("ComputeAmounts() returned %s with its error, want zero amounts", showAmounts(got))
			}
		})
	}
}

// showAmounts writes a, with its groups' rates rather than their addresses.
func showAmounts(a billing.Amounts) string {
	groups := make([]string, len(a.TaxBreakdown))
	for i, g := range a.TaxBreakdown {
		groups[i] = fmt.Sprintf("{%s %v taxable %d tax %d %q}", g.Category, g.Rate, g.TaxableAmount, g.TaxAmount, g.ExemptionReason)
	}
	return fmt.Sprintf("subtotal %d, breakdown [%s], tax %d, total %d",
		a.Subtotal, strings.Join(groups, " "), a.TaxTotal, a.Total)
}

// FuzzComputeAmounts checks ComputeAmounts on two taxed lines against exact
// arithmetic: lines at the same rate share one group taxed once, the total
// is the subtotal plus the groups' taxes, and any subtotal or total above
// MaxTotal is ErrTotalTooLarge, whatever the rates.
func FuzzComputeAmounts(f *testing.F) {
	f.Add(int64(1), int64(6_833), uint32(200_000), int64(1), int64(6_833), uint32(200_000))
	f.Add(int64(1_000_000), int64(7_505_999_378), uint32(200_000), int64(1), int64(950_826), uint32(200_000))
	f.Add(int64(1_000_000), int64(7_505_999_378), uint32(200_000), int64(1), int64(950_827), uint32(200_000))
	f.Add(int64(69_431), int64(129_728_784_761), uint32(0), int64(1), int64(0), uint32(1))
	f.Add(int64(3), int64(-5), uint32(190_000), int64(1), int64(1), uint32(70_000))
	f.Fuzz(func(t *testing.T, q1, a1 int64, r1 uint32, q2, a2 int64, r2 uint32) {
		rates := [2]billing.Rate{billing.Rate(r1 % uint32(billing.MaxRate+1)), billing.Rate(r2 % uint32(billing.MaxRate+1))}
		lines := make([]billing.TaxedLine, 2)
		for i, qa := range [2][2]int64{{q1, a1}, {q2, a2}} {
			tax := &billing.LineTax{Category: billingv1.TaxStandard, Rate: &rates[i]}
			if rates[i] == 0 {
				tax.Category = billingv1.TaxZeroRated
			}
			lines[i] = billing.TaxedLine{Quantity: billingv1.Units(qa[0]), Amount: qa[1], Tax: tax}
		}
		got, err := billing.ComputeAmounts(lines)
		if q1 < 0 || a1 < 0 || q2 < 0 || a2 < 0 {
			if err == nil {
				t.Fatalf("ComputeAmounts(%v) = %s, want an error for a negative input", lines, showAmounts(got))
			}
			return
		}
		limit := big.NewInt(billing.MaxTotal)
		nets := [2]*big.Int{new(big.Int).Mul(big.NewInt(q1), big.NewInt(a1)), new(big.Int).Mul(big.NewInt(q2), big.NewInt(a2))}
		subtotal := new(big.Int).Add(nets[0], nets[1])
		taxOn := func(taxable *big.Int, rate billing.Rate) *big.Int {
			return roundHalfAway(new(big.Rat).SetFrac(
				new(big.Int).Mul(taxable, big.NewInt(int64(rate))), big.NewInt(100*int64(billing.RateScale))))
		}
		taxTotal := new(big.Int)
		if rates[0] == rates[1] {
			taxTotal.Add(taxTotal, taxOn(subtotal, rates[0]))
		} else {
			taxTotal.Add(taxOn(nets[0], rates[0]), taxOn(nets[1], rates[1]))
		}
		total := new(big.Int).Add(subtotal, taxTotal)
		if subtotal.Cmp(limit) > 0 || total.Cmp(limit) > 0 {
			if !errors.Is(err, billing.ErrTotalTooLarge) {
				t.Fatalf("ComputeAmounts(%v) = %s, %v; exact total %s, want ErrTotalTooLarge", lines, showAmounts(got), err, total)
			}
			return
		}
		if err != nil || got.Subtotal != subtotal.Int64() || got.TaxTotal != taxTotal.Int64() || got.Total != total.Int64() {
			t.Fatalf("ComputeAmounts(%v) = %s, %v; want subtotal %s, tax %s, total %s",
				lines, showAmounts(got), err, subtotal, taxTotal, total)
		}
		groups := 2
		if rates[0] == rates[1] {
			groups = 1
		}
		if len(got.TaxBreakdown) != groups {
			t.Fatalf("ComputeAmounts(%v) = %s, want %d groups", lines, showAmounts(got), groups)
		}
	})
}

func TestComputeAmountsRefusesTaxThatBreaksARule(t *testing.T) {
	got, err := billing.ComputeAmounts([]billing.TaxedLine{
		line(100, standard("19")),
		line(100, standard("19")),
		line(100, taxOf(billingv1.TaxStandard, "0", "")),
	})
	var le *billing.TaxLineError
	if !errors.As(err, &le) || le.Index != 2 || le.Err.Field != billing.TaxFieldRate {
		t.Fatalf("ComputeAmounts() = %s, %v; want a TaxLineError on item 2's rate", showAmounts(got), err)
	}
}

func TestComputeAmountsGroupsDoNotShareTheCallersRate(t *testing.T) {
	rate := mustRate("19")
	got, err := billing.ComputeAmounts([]billing.TaxedLine{line(100, &billing.LineTax{Category: billingv1.TaxStandard, Rate: rate})})
	if err != nil {
		t.Fatal(err)
	}
	*rate = 0
	if r := got.TaxBreakdown[0].Rate; r == nil || r.String() != "19" {
		t.Errorf("the group's rate is %v after the line's changed, want 19", r)
	}
}

// taxOnly is a with what the tax tables pin: the per-line amounts and the
// groups' line nets (which lineamount_test.go pins) left out.
func taxOnly(a billing.Amounts) billing.Amounts {
	a.Lines = nil
	a.TaxBreakdown = append([]billing.TaxGroup{}, a.TaxBreakdown...)
	for i := range a.TaxBreakdown {
		a.TaxBreakdown[i].LinesNet = 0
	}
	return a
}
