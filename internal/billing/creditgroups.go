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
	"fmt"
)

// This file is what a credit note credits of each tax group of its
// invoice: what is left to credit there (the invoice's base, its lines
// less its allowances plus its charges, less what earlier credit notes
// credited there), a credit note's own allowances and charges, and the
// full credit that credits exactly what is left.

// groupTax is the tax of the invoice's group g, as a line of it has.
func (inv *InvoiceToCredit) groupTax(g int) *LineTax {
	group := &inv.Amounts.TaxBreakdown[g]
	return &LineTax{Category: group.Category, Rate: group.Rate, ExemptionReason: group.ExemptionReason}
}

// groupIndex returns the index of each of the invoice's groups by key.
func (inv *InvoiceToCredit) groupIndex() map[taxGroupKey]int {
	index := make(map[taxGroupKey]int, len(inv.Amounts.TaxBreakdown))
	for g := range inv.Amounts.TaxBreakdown {
		index[groupKey(inv.groupTax(g))] = g
	}
	return index
}

// untaxedBase is the invoice's base in no tax group: its total without tax
// less the bases of its groups.
func (inv *InvoiceToCredit) untaxedBase() int64 {
	base := inv.Amounts.TaxExclusive()
	for _, group := range inv.Amounts.TaxBreakdown {
		base -= group.TaxableAmount
	}
	return base
}

// groupBaseLeft is what is left to credit of the base of the invoice's
// group g; g == len(TaxBreakdown) is the base in no group.
func (inv *InvoiceToCredit) groupBaseLeft(g int) int64 {
	if g == len(inv.Amounts.TaxBreakdown) {
		return inv.untaxedBase() - inv.Credited.Untaxed
	}
	return inv.Amounts.TaxBreakdown[g].TaxableAmount - inv.creditedGroup(g).TaxableAmount
}

// Remaining returns what is left to credit of the invoice: every group's
// base and tax not yet credited, and the base in no group. 0 means the
// invoice is fully credited.
func (inv *InvoiceToCredit) Remaining() int64 {
	left := inv.groupBaseLeft(len(inv.Amounts.TaxBreakdown))
	for g, group := range inv.Amounts.TaxBreakdown {
		left += inv.groupBaseLeft(g) + group.TaxAmount - inv.creditedGroup(g).TaxAmount
	}
	return left
}

// adjustNote applies a credit note's charges, then its allowances, to doc,
// which holds the note's lines, as an invoice's are applied
// (ComputeDocument): each must have a tax when, and only when, the
// invoice's lines have, and that tax must be the category, rate and
// exemption reason of one of the invoice's groups.
func (inv *InvoiceToCredit) adjustNote(doc *document, note CreditParts) error {
	for _, kind := range []struct {
		name string
		adjs []Adjustment
	}{{"charges", note.Charges}, {"allowances", note.Allowances}} {
		if err := doc.checkAdjustmentTaxes(inv.Lines, kind.name, kind.adjs); err != nil {
			return err
		}
		if err := inv.checkAdjustmentGroups(kind.name, kind.adjs); err != nil {
			return err
		}
	}
	var err error
	if doc.Charges, doc.ChargeTotal, err = doc.apply("charges", note.Charges, +1); err != nil {
		return err
	}
	doc.Allowances, doc.AllowanceTotal, err = doc.apply("allowances", note.Allowances, -1)
	return err
}

// checkAdjustmentGroups checks that the tax of each of a credit note's
// allowances or charges (kind) is that of one of the invoice's groups.
func (inv *InvoiceToCredit) checkAdjustmentGroups(kind string, adjs []Adjustment) error {
	index := inv.groupIndex()
	for i := range adjs {
		tax := adjs[i].Tax
		if tax == nil {
			continue
		}
		param := fmt.Sprintf("%s[%d].tax", kind, i)
		g, ok := index[groupKey(tax)]
		if !ok {
			field := TaxFieldCategory
			for _, group := range inv.Amounts.TaxBreakdown {
				if group.Category == tax.Category {
					field = TaxFieldRate
				}
			}
			return &AdjustmentError{Param: param, Err: fieldError(field,
				"must be the category and rate of one of the invoice's tax groups: the invoice has nothing else to credit")}
		}
		if want := inv.Amounts.TaxBreakdown[g].ExemptionReason; tax.ExemptionReason != want {
			return &AdjustmentError{Param: param, Err: fieldError(TaxFieldExemptionReason,
				"%q differs from %q, that of the invoice's group of the same category and rate", tax.ExemptionReason, want)}
		}
	}
	return nil
}

// creditGroups completes out with the tax of breakdown, the note's groups
// (doc.breakdown): each credits the invoice's group of its key, and its
// tax follows creditGroupTax. It returns ErrExceedsCreditable, wrapped, for
// the first group whose base exceeds what is left of the invoice's there,
// the base in no group counting as a group of its own, once out is
// complete all the same.
func (inv *InvoiceToCredit) creditGroups(breakdown []TaxGroup, out *CreditedAmounts) error {
	index := inv.groupIndex()
	out.TaxBreakdown, out.GroupIndexes = breakdown, make([]int, len(breakdown))
	out.Untaxed = out.TaxExclusive()
	out.TaxTotal = 0
	var exceeds error
	for k := range breakdown {
		group := &breakdown[k]
		g := index[groupKey(&LineTax{Category: group.Category, Rate: group.Rate})]
		out.GroupIndexes[k] = g
		if left := inv.groupBaseLeft(g); group.TaxableAmount > left && exceeds == nil {
			name := string(group.Category)
			if group.Rate != nil {
				name += " " + group.Rate.String() + "%"
			}
			exceeds = fmt.Errorf("its base of %d in tax group %s %w there, %d", group.TaxableAmount, name,
				ErrExceedsCreditable, max(left, 0))
		}
		tax, err := inv.creditGroupTax(g, group.TaxableAmount)
		if err != nil {
			return err
		}
		group.TaxAmount = tax
		out.TaxTotal += tax
		out.Untaxed -= group.TaxableAmount
	}
	if left := inv.groupBaseLeft(len(inv.Amounts.TaxBreakdown)); out.Untaxed > left && exceeds == nil {
		exceeds = fmt.Errorf("its base of %d without tax %w, %d", out.Untaxed, ErrExceedsCreditable, max(left, 0))
	}
	out.Total = out.TaxExclusive() + out.TaxTotal
	return exceeds
}

// FullCredit returns the parts of a credit note that credits exactly what
// is left of the invoice. It credits every line with net left by amount;
// and, in each tax group (and the base in no group), what is left of the
// base: in a group that no credit note has touched, with the invoice's own
// allowances and charges there as they were applied; in any other, with
// one allowance (or charge) of the group for what the lines left exceed
// (or fall short of) the base left. It fails with ErrFullyCredited when
// nothing is left.
func (inv *InvoiceToCredit) FullCredit() (CreditParts, error) {
	if inv.Remaining() <= 0 {
		return CreditParts{}, ErrFullyCredited
	}
	n := len(inv.Amounts.TaxBreakdown)
	groupOf := inv.groupIndexes()
	linesLeft := make([]int64, n+1)
	touched := make([]bool, n+1)
	touched[n] = inv.Credited.Untaxed != 0
	for g := range n {
		touched[g] = inv.creditedGroup(g).TaxableAmount != 0
	}
	var note CreditParts
	for i := range inv.Lines {
		g, c := groupOf[i], inv.creditedLine(i)
		if g < 0 {
			g = n
		}
		touched[g] = touched[g] || c.Net != 0 || c.Quantity.Scaled() != 0
		if left := inv.lineNet(i) - c.Net; left > 0 {
			note.Lines = append(note.Lines, CreditLine{InvoiceLine: i, Amount: left})
			linesLeft[g] += left
		}
	}
	adjGroup := inv.adjustmentGroups()
	repeated := append([]int64(nil), linesLeft...)
	for _, c := range inv.Charges {
		repeated[adjGroup(c.Tax)] += c.Amount
	}
	for _, a := range inv.Allowances {
		repeated[adjGroup(a.Tax)] -= a.Amount
	}
	for g := range touched {
		// Frozen amounts always add up; should they not, the rest says it.
		touched[g] = touched[g] || repeated[g] != inv.groupBaseLeft(g)
	}
	for k, c := range inv.Charges {
		if !touched[adjGroup(c.Tax)] {
			note.Charges, note.ChargeOf = append(note.Charges, c), append(note.ChargeOf, k)
		}
	}
	for k, a := range inv.Allowances {
		if !touched[adjGroup(a.Tax)] {
			note.Allowances, note.AllowanceOf = append(note.Allowances, a), append(note.AllowanceOf, k)
		}
	}
	for g := range touched {
		if touched[g] {
			inv.creditRest(&note, g, inv.groupBaseLeft(g)-linesLeft[g])
		}
	}
	return note, nil
}

// creditRest adds to note the allowance (rest below 0) or charge (above 0)
// of the invoice's group g (n: no group) that takes the note's lines there
// to what is left of the group's base.
func (inv *InvoiceToCredit) creditRest(note *CreditParts, g int, rest int64) {
	var tax *LineTax
	if g < len(inv.Amounts.TaxBreakdown) {
		tax = inv.groupTax(g)
	}
	switch {
	case rest > 0:
		note.Charges = append(note.Charges, Adjustment{Amount: rest, Tax: tax})
		note.ChargeOf = append(note.ChargeOf, -1)
	case rest < 0:
		note.Allowances = append(note.Allowances, Adjustment{Amount: -rest, Tax: tax})
		note.AllowanceOf = append(note.AllowanceOf, -1)
	}
}

// adjustmentGroups returns the function that gives the invoice's group of
// one of its allowances or charges by its tax: len(TaxBreakdown) for none.
func (inv *InvoiceToCredit) adjustmentGroups() func(*LineTax) int {
	index := inv.groupIndex()
	return func(tax *LineTax) int {
		if tax == nil {
			return len(inv.Amounts.TaxBreakdown)
		}
		if g, ok := index[groupKey(tax)]; ok {
			return g
		}
		return len(inv.Amounts.TaxBreakdown)
	}
}
