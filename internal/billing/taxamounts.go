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

// TaxedLine is one line item with its tax; a nil Tax is a line without
// tax, a nil Discount a line without discount.
type TaxedLine struct {
	Quantity billingv1.DecimalQuantity
	Amount   int64
	Discount *Adjustment
	Tax      *LineTax
}

// TaxGroup is one entry of an invoice's tax breakdown: the lines,
// allowances and charges of one category and rate.
type TaxGroup struct {
	Category billingv1.TaxCategory
	// Rate is nil for category O, which has no rate.
	Rate *Rate
	// LinesNet is the sum of the group's lines' net amounts: the base of a
	// percent allowance or charge of the group (BT-93, BT-100).
	LinesNet int64
	// TaxableAmount is LinesNet plus the group's charges less its
	// allowances (EN 16931 BR-CO-13, BR-S-08).
	TaxableAmount int64
	// TaxAmount is TaxAmount(TaxableAmount, Rate), 0 for category O.
	TaxAmount int64
	// ExemptionReason is that of the group's lines, empty for S and Z.
	ExemptionReason string
}

// AppliedAdjustment is a document allowance or charge as computed: its
// amount and, for a percent, the base it was taken of.
type AppliedAdjustment struct {
	Amount int64
	// Base is nil for an amount given as such.
	Base *int64
}

// Amounts are an invoice's amounts, all in minor units of its currency.
type Amounts struct {
	// Lines are each line's gross, discount and net.
	Lines []LineAmounts
	// Subtotal is the sum of the lines' net amounts (BT-106).
	Subtotal int64
	// Allowances and Charges are the document's, in their order.
	Allowances, Charges []AppliedAdjustment
	// AllowanceTotal and ChargeTotal are their sums (BT-107, BT-108).
	AllowanceTotal, ChargeTotal int64
	// TaxBreakdown has one group per category and rate present, in the
	// order in which the groups first appear in the lines, then in the
	// charges. It is empty, not nil, when no line has tax.
	TaxBreakdown []TaxGroup
	// TaxTotal is the sum of the groups' TaxAmount.
	TaxTotal int64
	// Total is Subtotal less AllowanceTotal plus ChargeTotal plus TaxTotal.
	Total int64
}

// TaxExclusive is the total without tax (BT-109): Subtotal less
// AllowanceTotal plus ChargeTotal.
func (a *Amounts) TaxExclusive() int64 { return a.Subtotal - a.AllowanceTotal + a.ChargeTotal }

// ComputeAmounts returns the amounts of an invoice's lines without
// document allowances or charges: ComputeDocument(lines, nil, nil).
func ComputeAmounts(lines []TaxedLine) (Amounts, error) {
	return ComputeDocument(lines, nil, nil)
}

// ComputeDocument returns the amounts of a document's lines, allowances
// and charges: each line's net, their subtotal, the allowances' and
// charges' amounts, the tax breakdown, tax total and total. A line without
// tax is in no group of the breakdown.
//
// A percent allowance or charge is taken of the net of the lines of its
// category and rate. A group's taxable amount is its lines' net plus its
// charges less its allowances; tax is computed per group, not per line,
// rounded once (TaxAmount, as EN 16931's BR-CO-17 requires). Amounts are
// whole minor units whatever the currency's digits.
//
// It fails with the *TaxLineError of ValidateTaxes when a line's tax
// breaks a rule; with an *AdjustmentError naming the discount, allowance or
// charge at fault (wrapping ErrAllowanceExceedsBase when one is above its
// base, or a *TaxFieldError for its tax); with ErrTotalTooLarge when an
// amount exceeds MaxTotal; and with an error on a negative quantity or
// amount. It never overflows silently.
func ComputeDocument(lines []TaxedLine, allowances, charges []Adjustment) (Amounts, error) {
	taxes := make([]*LineTax, len(lines))
	for i, l := range lines {
		taxes[i] = l.Tax
	}
	if err := checkTaxes(taxes); err != nil {
		return Amounts{}, err
	}
	doc := &document{index: map[taxGroupKey]int{}, breakdown: []TaxGroup{}}
	if err := doc.addLines(lines); err != nil {
		return Amounts{}, err
	}
	if err := doc.checkAdjustmentTaxes(lines, "allowances", allowances); err != nil {
		return Amounts{}, err
	}
	if err := doc.checkAdjustmentTaxes(lines, "charges", charges); err != nil {
		return Amounts{}, err
	}
	var err error
	if doc.Charges, doc.ChargeTotal, err = doc.apply("charges", charges, +1); err != nil {
		return Amounts{}, err
	}
	if doc.Allowances, doc.AllowanceTotal, err = doc.apply("allowances", allowances, -1); err != nil {
		return Amounts{}, err
	}
	if err := doc.tax(); err != nil {
		return Amounts{}, err
	}
	return doc.Amounts, nil
}

// document is ComputeDocument's work in progress: the amounts, the group
// of each tax key, and the taxable amount of a document without tax.
type document struct {
	Amounts
	index     map[taxGroupKey]int
	breakdown []TaxGroup
	// untaxed is the taxable amount of a document whose lines have no tax.
	untaxed int64
}

// addLines computes each line's amounts, the subtotal and the groups.
func (d *document) addLines(lines []TaxedLine) error {
	d.Lines = make([]LineAmounts, len(lines))
	var subtotal uint64
	for i, l := range lines {
		la, err := LineAmountsOf(l.Quantity, l.Amount, l.Discount)
		if errors.Is(err, ErrAllowanceExceedsBase) {
			return &AdjustmentError{Param: fmt.Sprintf("items[%d].discount", i), Err: err}
		}
		if err != nil {
			return err
		}
		d.Lines[i] = la
		// Both at most MaxTotal (< 2^54): no wrap-around.
		subtotal += uint64(la.Net) //nolint:gosec // a net is never negative
		if subtotal > MaxTotal {
			return ErrTotalTooLarge
		}
		if l.Tax == nil {
			continue
		}
		g := d.group(l.Tax)
		g.LinesNet += la.Net
		g.TaxableAmount += la.Net
	}
	d.Subtotal = int64(subtotal)
	d.untaxed = d.Subtotal
	return nil
}

// group returns tax's group, adding it when it is new.
func (d *document) group(tax *LineTax) *TaxGroup {
	k := groupKey(tax)
	i, seen := d.index[k]
	if !seen {
		i = len(d.breakdown)
		d.index[k] = i
		g := TaxGroup{Category: tax.Category, ExemptionReason: tax.ExemptionReason}
		if k.hasRate {
			r := k.rate
			g.Rate = &r
		}
		d.breakdown = append(d.breakdown, g)
	}
	return &d.breakdown[i]
}

// checkAdjustmentTaxes checks the taxes of a document's allowances or
// charges (kind): each has one when the lines have tax and none when they
// have not; it keeps the rules of a line's tax; it is of category O when,
// and only when, the lines are; and it shares its group's exemption reason.
func (d *document) checkAdjustmentTaxes(lines []TaxedLine, kind string, adjs []Adjustment) error {
	linesTaxed, linesO := false, false
	for _, l := range lines {
		if l.Tax != nil {
			linesTaxed, linesO = true, l.Tax.Category == billingv1.TaxNotSubject
			break
		}
	}
	for i := range adjs {
		tax := adjs[i].Tax
		param := fmt.Sprintf("%s[%d].tax", kind, i)
		switch {
		case linesTaxed && tax == nil:
			return &AdjustmentError{Param: param, Err: errors.New("is required: the lines have tax")}
		case !linesTaxed && tax != nil:
			return &AdjustmentError{Param: param, Err: errors.New("must be absent: no line has tax")}
		case tax == nil:
			continue
		}
		if err := checkLineTax(*tax); err != nil {
			return &AdjustmentError{Param: param, Err: err}
		}
		if isO := tax.Category == billingv1.TaxNotSubject; isO != linesO {
			return &AdjustmentError{Param: param, Err: fieldError(TaxFieldCategory,
				"must be O (not subject to tax) when, and only when, the lines are")}
		}
		if gi, seen := d.index[groupKey(tax)]; seen && d.breakdown[gi].ExemptionReason != tax.ExemptionReason {
			return &AdjustmentError{Param: param, Err: fieldError(TaxFieldExemptionReason,
				"%q differs from %q, that of the lines of the same category and rate",
				tax.ExemptionReason, d.breakdown[gi].ExemptionReason)}
		}
	}
	return nil
}

// apply computes the document's allowances (sign -1) or charges (+1) of
// kind, and takes each off, or adds it to, the taxable amount of its group.
// An allowance that takes its group below 0 is ErrAllowanceExceedsBase.
func (d *document) apply(kind string, adjs []Adjustment, sign int64) ([]AppliedAdjustment, int64, error) {
	if len(adjs) == 0 {
		return nil, 0, nil
	}
	out := make([]AppliedAdjustment, len(adjs))
	var total uint64
	for i := range adjs {
		a := &adjs[i]
		taxable := &d.untaxed
		base := d.Subtotal
		if a.Tax != nil {
			g := d.group(a.Tax)
			taxable, base = &g.TaxableAmount, g.LinesNet
		}
		amount, err := a.amountOn(base)
		if err != nil {
			return nil, 0, &AdjustmentError{Param: fmt.Sprintf("%s[%d]", kind, i), Err: err}
		}
		out[i].Amount = amount
		if a.Percent != nil {
			b := base
			out[i].Base = &b
		}
		if sign < 0 && amount > *taxable {
			return nil, 0, &AdjustmentError{Param: fmt.Sprintf("%s[%d]", kind, i),
				Err: fmt.Errorf("%d %w, the %d left of its tax group's base", amount, ErrAllowanceExceedsBase, *taxable)}
		}
		// Both at most MaxTotal (< 2^54): no wrap-around.
		*taxable += sign * amount
		total += uint64(amount) //nolint:gosec // amountOn never returns a negative amount
		if total > MaxTotal || *taxable > MaxTotal {
			return nil, 0, ErrTotalTooLarge
		}
	}
	return out, int64(total), nil
}

// tax computes each group's tax, the tax total and the total.
func (d *document) tax() error {
	var taxTotal uint64
	for i := range d.breakdown {
		g := &d.breakdown[i]
		if g.Rate != nil {
			var err error
			if g.TaxAmount, err = TaxAmount(g.TaxableAmount, *g.Rate); err != nil {
				return err
			}
		}
		// Both at most MaxTotal (< 2^54): no wrap-around.
		taxTotal += uint64(g.TaxAmount) //nolint:gosec // TaxAmount is never negative
		if taxTotal > MaxTotal {
			return ErrTotalTooLarge
		}
	}
	d.TaxBreakdown = d.breakdown
	d.TaxTotal = int64(taxTotal)
	total := d.Subtotal - d.AllowanceTotal + d.ChargeTotal + d.TaxTotal
	if total > MaxTotal || total < 0 {
		return ErrTotalTooLarge
	}
	d.Total = total
	return nil
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
