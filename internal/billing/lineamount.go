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

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file holds the arithmetic of one line (EN 16931 BG-25): its gross,
// quantity times unit price; its discount (BG-27); and its net (BT-131).
// Every product is exact, in 128 bits, and rounded once, half away from
// zero, to a whole minor unit: no floating point anywhere.

// Percent is a percentage in hundredths of a percent: 1050 is 10.5 %.
type Percent int64

// PercentScale is how many steps a Percent has per percent.
const PercentScale = 100

// MaxPercent is 100 %.
const MaxPercent Percent = 100 * PercentScale

// String writes p in its shortest form: "10", "12.5", "0.25".
func (p Percent) String() string {
	whole, frac := int64(p)/PercentScale, int64(p)%PercentScale
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	return strconv.FormatInt(whole, 10) + "." + strings.TrimRight(fmt.Sprintf("%02d", frac), "0")
}

// ErrPercent is the error of a percent that is not a decimal above 0 and
// at most 100 with at most 2 decimals.
var ErrPercent = errors.New("must be a decimal string above 0 and at most 100, with at most 2 decimals, such as \"10\" or \"12.5\"")

// ParsePercent reads a percent as the API writes it: "10", "12.5", "0.25",
// "100"; above 0, at most 100, at most 2 decimals, no leading zeros.
func ParsePercent(s string) (Percent, error) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	switch {
	case whole == "" || len(whole) > 3 || !allDigits(whole) || (len(whole) > 1 && whole[0] == '0'):
		return 0, ErrPercent
	case hasPoint && (frac == "" || len(frac) > 2 || !allDigits(frac)):
		return 0, ErrPercent
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f := int64(0)
	if frac != "" {
		f, _ = strconv.ParseInt(frac+strings.Repeat("0", 2-len(frac)), 10, 64)
	}
	p := Percent(w*PercentScale + f)
	if p <= 0 || p > MaxPercent {
		return 0, ErrPercent
	}
	return p, nil
}

// mulDivRound is a × b / d rounded half away from zero, for non-negative
// a and b and d > 0; ErrTotalTooLarge when it exceeds MaxTotal.
func mulDivRound(a, b, d uint64) (int64, error) {
	hi, lo := bits.Mul64(a, b)
	if hi >= d {
		return 0, ErrTotalTooLarge
	}
	q, r := bits.Div64(hi, lo, d)
	// r < d: 2r cannot wrap as d < 2^63.
	if r >= d-r {
		q++
	}
	if q > MaxTotal {
		return 0, ErrTotalTooLarge
	}
	return int64(q), nil
}

// Gross is quantity times unit price, in minor units, rounded half away
// from zero: 7.5 × 12000 is 90000, 0.3333 × 100 is 33.
func Gross(quantity billingv1.DecimalQuantity, price int64) (int64, error) {
	if quantity.Scaled() < 0 || price < 0 {
		return 0, errors.New("quantity and amount must not be negative")
	}
	return mulDivRound(uint64(quantity.Scaled()), uint64(price), billingv1.QuantityScale) //nolint:gosec // checked non-negative above
}

// PercentOf is p percent of base, rounded half away from zero.
func PercentOf(base int64, p Percent) (int64, error) {
	if base < 0 || p < 0 {
		return 0, errors.New("base and percent must not be negative")
	}
	return mulDivRound(uint64(base), uint64(p), uint64(MaxPercent))
}

// Adjustment is a discount, allowance or charge as the arithmetic sees it:
// a percent of its base, or an amount in minor units; Tax is that of a
// document allowance or charge (nil: none), unused on a line.
type Adjustment struct {
	// Percent is nil for an amount.
	Percent *Percent
	Amount  int64
	Tax     *LineTax
}

// amountOn is what a applies to base: its percent of base, or its amount.
func (a *Adjustment) amountOn(base int64) (int64, error) {
	if a.Percent != nil {
		return PercentOf(base, *a.Percent)
	}
	if a.Amount < 0 {
		return 0, errors.New("amount must not be negative")
	}
	return a.Amount, nil
}

// ErrAllowanceExceedsBase is the error of a discount or allowance larger
// than the amount it is taken off.
var ErrAllowanceExceedsBase = errors.New("exceeds the amount it is taken off")

// AdjustmentError is the error of a line's discount, or of a document
// allowance or charge: Param names it as the API does ("items[2].discount",
// "allowances[0]", "charges[1].tax").
type AdjustmentError struct {
	Param string
	Err   error
}

func (e *AdjustmentError) Error() string { return e.Param + ": " + e.Err.Error() }

// Unwrap returns the cause: ErrAllowanceExceedsBase, a *TaxFieldError, ...
func (e *AdjustmentError) Unwrap() error { return e.Err }

// LineAmounts are one line's gross (quantity × unit price), its discount
// and its net, gross less discount, in minor units.
type LineAmounts struct {
	Gross    int64
	Discount int64
	Net      int64
}

// LineAmountsOf computes the amounts of a line of quantity at price less
// discount (nil: none). A discount above the gross is
// ErrAllowanceExceedsBase; a gross above MaxTotal, ErrTotalTooLarge.
func LineAmountsOf(quantity billingv1.DecimalQuantity, price int64, discount *Adjustment) (LineAmounts, error) {
	gross, err := Gross(quantity, price)
	if err != nil {
		return LineAmounts{}, err
	}
	out := LineAmounts{Gross: gross, Net: gross}
	if discount == nil {
		return out, nil
	}
	if out.Discount, err = discount.amountOn(gross); err != nil {
		return LineAmounts{}, err
	}
	if out.Discount > gross {
		return LineAmounts{}, fmt.Errorf("%d %w, the line's gross %d", out.Discount, ErrAllowanceExceedsBase, gross)
	}
	out.Net = gross - out.Discount
	return out, nil
}

// AdjustmentOf returns the arithmetic's view of an API discount, allowance
// or charge: percent (nil for an amount), amount and tax. A percent that
// ParsePercent refuses is its error.
func AdjustmentOf(percent *billingv1.Percent, amount *int64, tax *billingv1.Tax) (*Adjustment, error) {
	out := &Adjustment{}
	if percent != nil {
		p, err := ParsePercent(string(*percent))
		if err != nil {
			return nil, err
		}
		out.Percent = &p
	} else if amount != nil {
		out.Amount = *amount
	}
	lt, err := LineTaxOf(tax)
	if err != nil {
		return nil, err
	}
	out.Tax = lt
	return out, nil
}

// DiscountOf is the adjustment of items[i]'s discount, nil when it has
// none; a percent that does not parse is an *AdjustmentError on
// items[i].discount.percent.
func DiscountOf(items []billingv1.LineItem, i int) (*Adjustment, error) {
	d := items[i].Discount
	if d == nil {
		return nil, nil
	}
	adj, err := AdjustmentOf(d.Percent, d.Amount, nil)
	if err != nil {
		return nil, &AdjustmentError{Param: fmt.Sprintf("items[%d].discount.percent", i), Err: err}
	}
	return adj, nil
}

// ItemAmounts computes the amounts of each of items: gross, discount and
// net. Its errors are LineAmountsOf's, an *AdjustmentError on
// items[i].discount for the discount.
func ItemAmounts(items []billingv1.LineItem) ([]LineAmounts, error) {
	out := make([]LineAmounts, len(items))
	for i := range items {
		d, err := DiscountOf(items, i)
		if err != nil {
			return nil, err
		}
		if out[i], err = LineAmountsOf(items[i].Quantity, items[i].Amount, d); err != nil {
			if errors.Is(err, ErrAllowanceExceedsBase) {
				return nil, &AdjustmentError{Param: fmt.Sprintf("items[%d].discount", i), Err: err}
			}
			return nil, err
		}
	}
	return out, nil
}
