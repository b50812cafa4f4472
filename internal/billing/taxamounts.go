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
	"math/bits"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// taxGroupKey is what puts lines in one group of the tax breakdown: their
// category and rate (hasRate is false for O, which has no rate).
type taxGroupKey struct {
	category billingv1.TaxCategory
	rate     Rate
	hasRate  bool
}

// groupKey returns the key of the group of a line with tax.
func groupKey(tax *LineTax) taxGroupKey {
	k := taxGroupKey{category: tax.Category}
	if tax.Rate != nil {
		k.rate, k.hasRate = *tax.Rate, true
	}
	return k
}

// ValidateTaxes checks the taxes of an invoice's line items, in order; a
// nil entry is a line without tax. It returns a *TaxLineError for the
// first line at fault, or nil. Besides ValidateLineTax's rules on each
// line, it checks two rules across lines:
//
//   - An invoice with a line of category O (not subject to tax) has only
//     lines of category O: a line of another category, or without tax, is
//     refused. The error is on the category of the first line at which
//     the invoice mixes O with anything else, the later of the two lines.
//   - Lines of the same category and rate form one group of the tax
//     breakdown, which has one exemption reason (EN 16931 has one per VAT
//     breakdown): a line whose exemption reason differs, even by case or
//     spacing, from that of the first line of its group is refused, with
//     the error on its exemption_reason. Merging them silently would drop
//     text the issuer asked to print on the invoice.
func ValidateTaxes(taxes []*LineTax) error {
	if err := checkTaxes(taxes); err != nil {
		return err
	}
	return nil
}

// checkTaxes is ValidateTaxes with a concrete error type.
func checkTaxes(taxes []*LineTax) *TaxLineError {
	firstO, firstOther := -1, -1
	firstOfGroup := map[taxGroupKey]int{}
	for i, tax := range taxes {
		if tax != nil {
			if err := checkLineTax(*tax); err != nil {
				return &TaxLineError{Index: i, Err: err}
			}
		}
		isO := tax != nil && tax.Category == billingv1.TaxNotSubject
		switch {
		case isO && firstOther >= 0:
			return &TaxLineError{Index: i, Err: fieldError(TaxFieldCategory,
				"O (not subject to tax) cannot be on an invoice with items subject to tax or without tax, such as item %d",
				firstOther)}
		case !isO && firstO >= 0:
			return &TaxLineError{Index: i, Err: fieldError(TaxFieldCategory,
				"must be O (not subject to tax), as item %d's is: an invoice with an item not subject to tax has only such items",
				firstO)}
		case isO && firstO < 0:
			firstO = i
		case !isO && firstOther < 0:
			firstOther = i
		}
		if tax == nil {
			continue
		}
		k := groupKey(tax)
		first, seen := firstOfGroup[k]
		if !seen {
			firstOfGroup[k] = i
			continue
		}
		if want := taxes[first].ExemptionReason; tax.ExemptionReason != want {
			return &TaxLineError{Index: i, Err: fieldError(TaxFieldExemptionReason,
				"%q differs from %q, that of item %d, of the same category and rate: they share one exemption reason",
				tax.ExemptionReason, want, first)}
		}
	}
	return nil
}

// TaxedLine is one line item with its tax; a nil Tax is a line without tax.
type TaxedLine struct {
	Quantity int64
	Amount   int64
	Tax      *LineTax
}

// TaxGroup is one entry of an invoice's tax breakdown: the lines of one
// category and rate.
type TaxGroup struct {
	Category billingv1.TaxCategory
	// Rate is nil for category O, which has no rate.
	Rate *Rate
	// TaxableAmount is the sum of the group's lines' quantity times amount.
	TaxableAmount int64
	// TaxAmount is TaxAmount(TaxableAmount, Rate), 0 for category O.
	TaxAmount int64
	// ExemptionReason is that of the group's lines, empty for S and Z.
	ExemptionReason string
}

// Amounts are an invoice's amounts, all in minor units of its currency.
type Amounts struct {
	// Subtotal is the sum of quantity times amount over all lines, tax
	// excluded: Total of the lines.
	Subtotal int64
	// TaxBreakdown has one group per category and rate present, in the
	// order in which the groups first appear in the lines. It is empty,
	// not nil, when no line has tax.
	TaxBreakdown []TaxGroup
	// TaxTotal is the sum of the groups' TaxAmount.
	TaxTotal int64
	// Total is Subtotal plus TaxTotal; Subtotal when no line has tax.
	Total int64
}

// ComputeAmounts returns the amounts of an invoice's lines: their
// subtotal, tax breakdown, tax total and total. A line without tax is in
// no group of the breakdown, and adds to the subtotal and total only.
//
// Tax is computed per group, not per line: a group's tax is its taxable
// amount times its rate, rounded once (TaxAmount, as EN 16931's BR-CO-17
// requires). Amounts are whole minor units whatever the currency's
// digits: 0 for JPY or 3 for BHD changes nothing in the arithmetic.
//
// It fails with the *TaxLineError of ValidateTaxes when a line's tax
// breaks a rule, with Total's error when a quantity or amount is negative,
// and with ErrTotalTooLarge when the subtotal, the tax total or the total
// exceeds MaxTotal. It never overflows silently.
func ComputeAmounts(lines []TaxedLine) (Amounts, error) {
	taxes := make([]*LineTax, len(lines))
	plain := make([]Line, len(lines))
	for i, l := range lines {
		taxes[i] = l.Tax
		plain[i] = Line{Quantity: l.Quantity, Amount: l.Amount}
	}
	if err := checkTaxes(taxes); err != nil {
		return Amounts{}, err
	}
	subtotal, err := Total(plain)
	if err != nil {
		return Amounts{}, err
	}
	breakdown := []TaxGroup{}
	index := map[taxGroupKey]int{}
	for _, l := range lines {
		if l.Tax == nil {
			continue
		}
		k := groupKey(l.Tax)
		i, seen := index[k]
		if !seen {
			i = len(breakdown)
			index[k] = i
			g := TaxGroup{Category: l.Tax.Category, ExemptionReason: l.Tax.ExemptionReason}
			if k.hasRate {
				r := k.rate
				g.Rate = &r
			}
			breakdown = append(breakdown, g)
		}
		// Total has checked every product and their sum against MaxTotal,
		// and none is negative: neither this product nor the sum overflows.
		breakdown[i].TaxableAmount += l.Quantity * l.Amount
	}
	var taxTotal int64
	for i := range breakdown {
		g := &breakdown[i]
		if g.Rate != nil {
			if g.TaxAmount, err = TaxAmount(g.TaxableAmount, *g.Rate); err != nil {
				return Amounts{}, err
			}
		}
		// Both at most MaxTotal (< 2^54): no wrap-around.
		taxTotal += g.TaxAmount
		if taxTotal > MaxTotal {
			return Amounts{}, ErrTotalTooLarge
		}
	}
	total := subtotal + taxTotal
	if total > MaxTotal {
		return Amounts{}, ErrTotalTooLarge
	}
	return Amounts{Subtotal: subtotal, TaxBreakdown: breakdown, TaxTotal: taxTotal, Total: total}, nil
}

// taxDivisor is what divides taxable times a Rate to give minor units: 100
// for the percentage times RateScale for the Rate's units.
const taxDivisor = 100 * uint64(RateScale)

// TaxAmount returns the tax on taxable minor units at rate: taxable times
// rate divided by 100, rounded once to a whole minor unit, half away from
// zero (2.5 gives 3, 0.5 gives 1, 4.4999 gives 4). The product is computed
// in 128 bits, exactly. It fails for a negative taxable amount or a rate
// that is not from 0 to 100, and with ErrTotalTooLarge for a taxable amount
// above MaxTotal; as the rate is at most 100%, the tax is then at most
// MaxTotal too.
func TaxAmount(taxable int64, rate Rate) (int64, error) {
	switch {
	case taxable < 0:
		return 0, errors.New("taxable amount must not be negative")
	case taxable > MaxTotal:
		return 0, ErrTotalTooLarge
	case rate < 0 || rate > MaxRate:
		return 0, fieldError(TaxFieldRate, "%s is not from 0 to 100", rate)
	}
	hi, lo := bits.Mul64(uint64(taxable), uint64(rate))
	// hi < 2^9 < taxDivisor, as taxable < 2^53 and rate <= 10^6 < 2^20:
	// Div64 neither panics nor overflows.
	q, r := bits.Div64(hi, lo, taxDivisor)
	// Half away from zero; all values are non-negative. r < 10^6: 2r fits.
	if 2*r >= taxDivisor {
		q++
	}
	// q <= taxable <= MaxTotal, as rate <= 100%; checked all the same.
	if q > MaxTotal {
		return 0, ErrTotalTooLarge
	}
	return int64(q), nil
}
