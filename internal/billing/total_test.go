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

// repeat returns n copies of line.
func repeat(n int, line billing.Line) []billing.Line {
	lines := make([]billing.Line, n)
	for i := range lines {
		lines[i] = line
	}
	return lines
}

// outcome is what a Total call is expected to yield.
type outcome int

const (
	// sums means no error and the given total.
	sums outcome = iota
	// tooLarge means ErrTotalTooLarge.
	tooLarge
	// negative means an error other than ErrTotalTooLarge.
	negative
)

func TestTotal(t *testing.T) {
	// maxLine is quantity*amount at the CRD's upper bounds: 10^18, above MaxTotal.
	maxLine := billing.Line{Quantity: billingv1.Units(billing.MaxQuantity), Amount: billing.MaxAmount}
	// maxTotalLine is a single line whose product is exactly 2^53-1 =
	// 69431 * 129728784761, both factors within the CRD's bounds.
	maxTotalLine := billing.Line{Quantity: billingv1.Units(69_431), Amount: 129_728_784_761}

	tests := []struct {
		name  string
		lines []billing.Line
		want  outcome
		total int64
	}{
		{
			name:  "an invoice without lines totals zero",
			lines: nil,
			want:  sums,
			total: 0,
		},
		{
			name:  "a single line totals quantity times amount",
			lines: []billing.Line{{Quantity: billingv1.Units(3), Amount: 15_000}},
			want:  sums,
			total: 45_000,
		},
		{
			name: "many lines total the sum of their products",
			lines: []billing.Line{
				{Quantity: billingv1.Units(3), Amount: 15_000},
				{Quantity: billingv1.Units(12), Amount: 2_500},
				{Quantity: billingv1.Units(1), Amount: 99},
				{Quantity: billingv1.Units(7), Amount: 0},
			},
			want:  sums,
			total: 45_000 + 30_000 + 99,
		},
		{
			name:  "500 lines of one cent total 500",
			lines: repeat(billing.MaxItems, billing.Line{Quantity: billingv1.Units(1), Amount: 1}),
			want:  sums,
			total: 500,
		},
		{
			name: "a total of exactly 2^53-1 spread over two lines is accepted",
			lines: []billing.Line{
				{Quantity: billingv1.Units(1_000_000), Amount: 9_007_199_254},
				{Quantity: billingv1.Units(1), Amount: 740_991},
			},
			want:  sums,
			total: billing.MaxTotal,
		},
		{
			name:  "a single line of exactly 2^53-1 is accepted",
			lines: []billing.Line{maxTotalLine},
			want:  sums,
			total: 9_007_199_254_740_991,
		},
		{
			name: "a total of 2^53 is refused",
			lines: []billing.Line{
				{Quantity: billingv1.Units(1_000_000), Amount: 9_007_199_254},
				{Quantity: billingv1.Units(1), Amount: 740_992},
			},
			want: tooLarge,
		},
		{
			name:  "a single line of 2^53 is refused",
			lines: []billing.Line{{Quantity: billingv1.Units(1 << 27), Amount: 1 << 26}},
			want:  tooLarge,
		},
		{
			name:  "a line at the maximum quantity and amount is refused",
			lines: []billing.Line{maxLine},
			want:  tooLarge,
		},
		{
			name:  "a product that overflows uint64 is refused",
			lines: []billing.Line{{Quantity: billingv1.QuantityOfScaled(math.MaxInt64), Amount: math.MaxInt64}},
			want:  tooLarge,
		},
		{
			name:  "a product between 2^63 and 2^64 is refused rather than read as negative",
			lines: []billing.Line{{Quantity: billingv1.Units(1 << 32), Amount: 1<<31 + 1}},
			want:  tooLarge,
		},
		{
			name:  "a product that wraps uint64 to a small number is refused",
			lines: []billing.Line{{Quantity: billingv1.Units(1 << 32), Amount: 1<<32 + 1}},
			want:  tooLarge,
		},
		{
			name:  "500 lines at the maximum quantity and amount are refused",
			lines: repeat(billing.MaxItems, maxLine),
			want:  tooLarge,
		},
		{
			name:  "500 lines of 2^53-1 each are refused although every line fits",
			lines: repeat(billing.MaxItems, maxTotalLine),
			want:  tooLarge,
		},
		{
			name:  "a zero-amount line after a line of 2^53-1 keeps the total",
			lines: []billing.Line{maxTotalLine, {Quantity: billingv1.Units(billing.MaxQuantity), Amount: 0}},
			want:  sums,
			total: billing.MaxTotal,
		},
		{
			name:  "one more cent after a line of 2^53-1 is refused",
			lines: []billing.Line{maxTotalLine, {Quantity: billingv1.Units(1), Amount: 1}},
			want:  tooLarge,
		},
		{
			name:  "a negative quantity is refused",
			lines: []billing.Line{{Quantity: billingv1.Units(1), Amount: 100}, {Quantity: billingv1.Units(-1), Amount: 100}},
			want:  negative,
		},
		{
			name:  "a negative amount is refused",
			lines: []billing.Line{{Quantity: billingv1.Units(1), Amount: -100}},
			want:  negative,
		},
		{
			name:  "a negative quantity times a negative amount is refused although the product is positive",
			lines: []billing.Line{{Quantity: billingv1.Units(-3), Amount: -5}},
			want:  negative,
		},
		{
			name:  "the most negative int64 is refused rather than read as a large unsigned number",
			lines: []billing.Line{{Quantity: billingv1.QuantityOfScaled(math.MinInt64), Amount: 1}},
			want:  negative,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			total, err := billing.Total(tt.lines)
			switch tt.want {
			case sums:
				if err != nil {
					t.Fatalf("Total() error = %v, want total %d", err, tt.total)
				}
				if total != tt.total {
					t.Errorf("Total() = %d, want %d", total, tt.total)
				}
			case tooLarge:
				if !errors.Is(err, billing.ErrTotalTooLarge) {
					t.Fatalf("Total() = %d, %v; want ErrTotalTooLarge", total, err)
				}
				if total != 0 {
					t.Errorf("Total() returned %d with its error, want 0", total)
				}
			case negative:
				if err == nil || errors.Is(err, billing.ErrTotalTooLarge) {
					t.Fatalf("Total() = %d, %v; want an error about negative inputs", total, err)
				}
				if total != 0 {
					t.Errorf("Total() returned %d with its error, want 0", total)
				}
			}
		})
	}
}

// FuzzTotal checks Total against arbitrary-precision arithmetic: it returns
// the sum of each line's exact product rounded half away from zero (the
// quantities in ten-thousandths) when that is at most MaxTotal,
// ErrTotalTooLarge when it is above, and an error whenever an input is
// negative.
func FuzzTotal(f *testing.F) {
	f.Add(int64(3), int64(15_000), int64(12), int64(2_500))
	f.Add(int64(1_000_000), int64(9_007_199_254), int64(1), int64(740_991))
	f.Add(int64(1_000_000), int64(9_007_199_254), int64(1), int64(740_992))
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), int64(1), int64(1))
	f.Add(int64(1<<32), int64(1<<32+1), int64(0), int64(0))
	f.Add(int64(-3), int64(-5), int64(1), int64(1))
	f.Fuzz(func(t *testing.T, q1, a1, q2, a2 int64) {
		lines := []billing.Line{{Quantity: billingv1.QuantityOfScaled(q1), Amount: a1},
			{Quantity: billingv1.QuantityOfScaled(q2), Amount: a2}}
		total, err := billing.Total(lines)
		if q1 < 0 || a1 < 0 || q2 < 0 || a2 < 0 {
			if err == nil {
				t.Fatalf("Total(%v) = %d, want an error for a negative input", lines, total)
			}
			return
		}
		exact := new(big.Int).Add(roundedProduct(q1, a1), roundedProduct(q2, a2))
		if exact.Cmp(big.NewInt(billing.MaxTotal)) > 0 {
			if !errors.Is(err, billing.ErrTotalTooLarge) {
				t.Fatalf("Total(%v) = %d, %v; exact total %s, want ErrTotalTooLarge", lines, total, err, exact)
			}
			return
		}
		if err != nil || total != exact.Int64() {
			t.Fatalf("Total(%v) = %d, %v; want %s", lines, total, err, exact)
		}
	})
}

// roundedProduct is q ten-thousandths times a, rounded half away from zero,
// for non-negative q and a.
func roundedProduct(q, a int64) *big.Int {
	p := new(big.Int).Mul(big.NewInt(q), big.NewInt(a))
	p.Mul(p, big.NewInt(2))
	p.Add(p, big.NewInt(billingv1.QuantityScale))
	return p.Div(p, big.NewInt(2*billingv1.QuantityScale))
}

// itemsTotal is the sum of the items' net amounts.
func itemsTotal(items []billingv1.LineItem) (int64, error) {
	a, err := billing.ComputeAmounts(taxedLines(items))
	return a.Subtotal, err
}

// taxedLines are items as the arithmetic sees them, without tax.
func taxedLines(items []billingv1.LineItem) []billing.TaxedLine {
	out := make([]billing.TaxedLine, len(items))
	for i, it := range items {
		out[i] = billing.TaxedLine{Quantity: it.Quantity, Amount: it.Amount}
	}
	return out
}

func TestInvoiceTotal(t *testing.T) {
	tests := []struct {
		name    string
		items   []billingv1.LineItem
		want    int64
		wantErr error
	}{
		{"an invoice's total is the sum of quantity times amount over its items", []billingv1.LineItem{
			{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000},
			{Description: "Travel", Quantity: billingv1.Units(1), Amount: 23050},
		}, 68050, nil},
		{"an invoice whose total is above 2^53-1 is refused", []billingv1.LineItem{
			{Description: "Everything", Quantity: billingv1.Units(1_000_000), Amount: 1_000_000_000_000},
		}, 0, billing.ErrTotalTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := itemsTotal(tt.items)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("subtotal = %d, %v; want %d, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// BenchmarkInvoiceSubtotal sums a typical invoice of three lines.
func BenchmarkInvoiceSubtotal(b *testing.B) {
	items := []billingv1.LineItem{
		{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000},
		{Description: "Travel", Quantity: billingv1.Units(1), Amount: 42000},
		{Description: "Licences", Quantity: billingv1.Units(25), Amount: 1999},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := itemsTotal(items); err != nil {
			b.Fatal(err)
		}
	}
}
