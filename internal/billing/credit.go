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
	"slices"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file is the arithmetic of credit notes: what is left to credit of
// an invoice, and the amounts of a credit note against it. A credit note
// never edits the invoice; it is a new record whose lines refer to the
// invoice's lines and carry their tax.

// CreditedLine is what the issued credit notes of an invoice have credited
// of one of its lines so far.
type CreditedLine struct {
	// Quantity is the sum of the quantities credited by quantity.
	Quantity billingv1.DecimalQuantity
	// Net is the sum of every net amount credited, by quantity (quantity
	// times the unit amount) or by amount.
	Net int64
}

// CreditedGroup is what the issued credit notes of an invoice have
// credited of one group of its tax breakdown so far.
type CreditedGroup struct {
	TaxableAmount int64
	TaxAmount     int64
}

// Credited is what the issued credit notes of an invoice have credited so
// far: Lines has one entry per invoice line, Groups one per entry of the
// invoice's tax breakdown, in the same orders.
type Credited struct {
	Lines  []CreditedLine
	Groups []CreditedGroup
}

// InvoiceToCredit is an issued invoice as a credit note sees it: its lines
// with their effective taxes, its frozen amounts, and what was credited.
type InvoiceToCredit struct {
	Lines   []TaxedLine
	Amounts Amounts
	// Credited may have nil slices: nothing credited yet.
	Credited Credited
	// CreditedTotal is the sum of the totals of the credit notes issued
	// against the invoice.
	CreditedTotal int64
	// Allowances and Charges are the invoice's document allowances and
	// charges as issued, copied onto a full credit of an invoice nothing
	// was credited of yet.
	Allowances, Charges []billingv1.AppliedAllowanceCharge
}

// CreditLine is one line of a credit note: the invoice line it credits
// (from 0) and either a Quantity of its units (Amount 0) or a net Amount
// in minor units (Quantity 0).
type CreditLine struct {
	InvoiceLine int
	Quantity    billingv1.DecimalQuantity
	Amount      int64
}

// CreditedAmounts are a credit note's amounts: the net of each of its
// lines in order, and its subtotal, breakdown, tax total and total, like
// an invoice's. Its breakdown has the groups of the invoice that it
// credits, in the order its lines first name them (not the invoice's).
type CreditedAmounts struct {
	LineNets []int64
	// NoteAllowances and NoteCharges are the note's own allowances and
	// charges as applied, with their tax (nil: none) and reason.
	NoteAllowances, NoteCharges []billingv1.AppliedAllowanceCharge
	Amounts
	// GroupIndexes holds, for each entry of TaxBreakdown, the index of the
	// invoice's group it credits.
	GroupIndexes []int
}

// Errors of a credit note.
var (
	// ErrFullyCredited is returned when nothing of the invoice is left to
	// credit.
	ErrFullyCredited = errors.New("the invoice is fully credited")
)

// CreditLineError is a credit note's line at fault: Index is the line of
// the credit note (from 0), Field "invoice_line", "quantity" or "amount",
// and Exceeds true when the line credits more than is left of its invoice
// line (rather than being malformed).
type CreditLineError struct {
	Index   int
	Field   string
	Exceeds bool
	Message string
}

// Error writes the line, the field and the message.
func (e *CreditLineError) Error() string {
	return fmt.Sprintf("line %d: %s %s", e.Index, e.Field, e.Message)
}

// creditedLine returns what was credited of invoice line i.
func (inv *InvoiceToCredit) creditedLine(i int) CreditedLine {
	if i < len(inv.Credited.Lines) {
		return inv.Credited.Lines[i]
	}
	return CreditedLine{}
}

// creditedGroup returns what was credited of the invoice's group g.
func (inv *InvoiceToCredit) creditedGroup(g int) CreditedGroup {
	if g < len(inv.Credited.Groups) {
		return inv.Credited.Groups[g]
	}
	return CreditedGroup{}
}

// Remaining returns what is left to credit of the invoice: every line's
// net not yet credited and every group's tax not yet credited; for an
// invoice with document allowances or charges, its total less the totals
// of its issued credit notes. 0 means the invoice is fully credited.
func (inv *InvoiceToCredit) Remaining() int64 {
	if inv.settled() {
		return inv.Amounts.Total - inv.CreditedTotal
	}
	var left int64
	for i := range inv.Lines {
		left += inv.lineNet(i) - inv.creditedLine(i).Net
	}
	for g, group := range inv.Amounts.TaxBreakdown {
		left += group.TaxAmount - inv.creditedGroup(g).TaxAmount
	}
	return left
}

// FullCredit returns the lines of a credit note that credits everything
// still creditable: one line per invoice line with net left, crediting
// that net by amount. It fails with ErrFullyCredited when nothing is left.
func (inv *InvoiceToCredit) FullCredit() ([]CreditLine, error) {
	var lines []CreditLine
	for i := range inv.Lines {
		if left := inv.lineNet(i) - inv.creditedLine(i).Net; left > 0 {
			lines = append(lines, CreditLine{InvoiceLine: i, Amount: left})
		}
	}
	if len(lines) == 0 && (!inv.settled() || inv.Remaining() <= 0) {
		return nil, ErrFullyCredited
	}
	return lines, nil
}

// lineError returns a CreditLineError on field of line i.
func lineError(i int, field string, exceeds bool, format string, args ...any) *CreditLineError {
	return &CreditLineError{Index: i, Field: field, Exceeds: exceeds, Message: fmt.Sprintf(format, args...)}
}

// groupIndexes returns, for each invoice line, the index of its group in
// the invoice's breakdown, -1 for a line without tax.
func (inv *InvoiceToCredit) groupIndexes() []int {
	index := map[taxGroupKey]int{}
	for g := range inv.Amounts.TaxBreakdown {
		group := &inv.Amounts.TaxBreakdown[g]
		index[groupKey(&LineTax{Category: group.Category, Rate: group.Rate})] = g
	}
	out := make([]int, len(inv.Lines))
	for i, l := range inv.Lines {
		out[i] = -1
		if l.Tax != nil {
			if g, ok := index[groupKey(l.Tax)]; ok {
				out[i] = g
			}
		}
	}
	return out
}

// ComputeCredit returns the amounts of a credit note of lines against
// inv, or the *CreditLineError of the first line at fault:
//
//   - InvoiceLine must be one of the invoice's lines;
//   - exactly one of Quantity and Amount is above 0 (both at least 1);
//   - a line never credits more than is left of its invoice line, counting
//     the invoice's issued credit notes and the lines before it in this
//     one: by quantity, neither more units than are left nor more net; by
//     amount, no more net (Exceeds is true).
//
// A line's tax is its invoice line's. The tax of each (category, rate)
// group of the credit note is computed once on the group's net (TaxAmount),
// but never more than is left of that group's tax on the invoice; and a
// credit note that credits the rest of a group's net takes exactly the
// rest of its tax. Crediting a whole invoice, in one credit note or in
// many, therefore credits exactly its total, to the minor unit, and the
// credit notes of an invoice never credit more than its total.
func ComputeCredit(inv *InvoiceToCredit, lines []CreditLine) (CreditedAmounts, error) {
	return ComputeNoteCredit(inv, lines, NoteAdjustments{})
}

// NoteAdjustments are a credit note's own document allowances and
// charges, each with its API form (for its reason) and its arithmetic
// (percent or amount, tax); or, Full, those of a full credit, which
// ComputeNoteCredit derives.
type NoteAdjustments struct {
	Allowances, Charges []billingv1.AppliedAllowanceCharge
	Adjust              struct{ Allowances, Charges []Adjustment }
	Full                bool
}

// ComputeNoteCredit is ComputeCredit with the note's document allowances
// and charges (adj). Each is in one of the invoice's tax groups (its tax's
// category and rate), a percent taken of the note's lines in that group;
// a group's credited base is its lines plus its charges less its
// allowances. No group is credited more than the invoice's base there
// less what earlier notes credited there (Exceeds, on "lines"), and a full
// credit credits exactly what is left of each group's base: the invoice's
// own allowances and charges when nothing was credited yet, else one
// allowance or charge per group for the difference between what is left
// of its base and of its lines.
func ComputeNoteCredit(inv *InvoiceToCredit, lines []CreditLine, adj NoteAdjustments) (CreditedAmounts, error) {
	if len(lines) == 0 && !adj.Full {
		return CreditedAmounts{}, lineError(0, "lines", false, "must have at least one line")
	}
	groupOf := inv.groupIndexes()
	// What this note credits of each invoice line, so far.
	noteQty := map[int]int64{} // in ten-thousandths
	noteNet := map[int]int64{}
	out := CreditedAmounts{LineNets: make([]int64, len(lines)), GroupIndexes: []int{}}
	out.TaxBreakdown = []TaxGroup{}
	noteGroup := map[int]int{} // invoice group -> index in out.TaxBreakdown
	for i, cl := range lines {
		if cl.InvoiceLine < 0 || cl.InvoiceLine >= len(inv.Lines) {
			return CreditedAmounts{}, lineError(i, "invoice_line", false,
				"must be the index of one of the invoice's %d lines, from 0 to %d", len(inv.Lines), len(inv.Lines)-1)
		}
		net, err := inv.creditLineNet(i, cl, noteQty[cl.InvoiceLine], noteNet[cl.InvoiceLine])
		if err != nil {
			return CreditedAmounts{}, err
		}
		noteQty[cl.InvoiceLine] += cl.Quantity.Scaled()
		noteNet[cl.InvoiceLine] += net
		out.LineNets[i] = net
		out.Subtotal += net
		g := groupOf[cl.InvoiceLine]
		if g < 0 {
			continue
		}
		k, seen := noteGroup[g]
		if !seen {
			k = len(out.TaxBreakdown)
			noteGroup[g] = k
			invGroup := inv.Amounts.TaxBreakdown[g]
			out.TaxBreakdown = append(out.TaxBreakdown, TaxGroup{
				Category: invGroup.Category, Rate: invGroup.Rate, ExemptionReason: invGroup.ExemptionReason,
			})
			out.GroupIndexes = append(out.GroupIndexes, g)
		}
		out.TaxBreakdown[k].TaxableAmount += net
	}
	if err := inv.adjust(&out, noteGroup, adj); err != nil {
		return CreditedAmounts{}, err
	}
	for k := range out.TaxBreakdown {
		group := &out.TaxBreakdown[k]
		tax, err := inv.creditGroupTax(out.GroupIndexes[k], group.TaxableAmount)
		if err != nil {
			return CreditedAmounts{}, err
		}
		group.TaxAmount = tax
		out.TaxTotal += tax
	}
	out.Total = out.Subtotal - out.AllowanceTotal + out.ChargeTotal + out.TaxTotal
	return out, nil
}

// creditLineNet checks line i of a credit note, cl, against what is left of
// its invoice line once the issued credit notes and this note's earlier
// lines (noteQty units, noteNet net) are counted, and returns its net.
func (inv *InvoiceToCredit) creditLineNet(i int, cl CreditLine, noteQty, noteNet int64) (int64, error) {
	line := inv.Lines[cl.InvoiceLine]
	lineNet := inv.lineNet(cl.InvoiceLine)
	credited := inv.creditedLine(cl.InvoiceLine)
	netLeft := lineNet - credited.Net - noteNet
	q := cl.Quantity.Scaled()
	switch {
	case q != 0 && cl.Amount != 0:
		return 0, lineError(i, "quantity", false, "and amount cannot both be given: credit either a quantity or an amount")
	case q == 0 && cl.Amount == 0:
		return 0, lineError(i, "quantity", false, "or amount is required: credit a quantity (above 0) or an amount (1 or more)")
	case q < 0:
		return 0, lineError(i, "quantity", false, "must be above 0")
	case cl.Amount < 0:
		return 0, lineError(i, "amount", false, "must be at least 1")
	case cl.Amount > 0:
		if cl.Amount > netLeft {
			return 0, lineError(i, "amount", true, "%d exceeds the %d left to credit of invoice line %d",
				cl.Amount, max(netLeft, 0), cl.InvoiceLine)
		}
		return cl.Amount, nil
	}
	qtyLeft := line.Quantity.Scaled() - credited.Quantity.Scaled() - noteQty
	if q > qtyLeft {
		return 0, lineError(i, "quantity", true, "%s exceeds the %s units left to credit of invoice line %d",
			cl.Quantity, billingv1.QuantityOfScaled(max(qtyLeft, 0)), cl.InvoiceLine)
	}
	net, err := inv.quantityNet(cl.InvoiceLine, credited.Quantity.Scaled()+noteQty, q)
	if err != nil {
		return 0, err
	}
	if net > netLeft {
		return 0, lineError(i, "quantity", true, "%s units (%d) exceed the %d left to credit of invoice line %d",
			cl.Quantity, net, max(netLeft, 0), cl.InvoiceLine)
	}
	return net, nil
}

// lineNet is the net of invoice line i: its gross less its discount.
func (inv *InvoiceToCredit) lineNet(i int) int64 {
	if i < len(inv.Amounts.Lines) {
		return inv.Amounts.Lines[i].Net
	}
	return 0
}

// quantityNet is the net credited by q ten-thousandths of invoice line
// i's quantity when before ten-thousandths were credited by quantity
// already: the line's net pro rata of the quantity credited so far, less
// that of before, each rounded half away from zero. A whole line at its
// unit price credits exactly quantity times price, and crediting a line
// in any number of parts by quantity credits exactly its net.
func (inv *InvoiceToCredit) quantityNet(i int, before, q int64) (int64, error) {
	// All non-negative: nets, quantities and what was credited of them.
	net, whole := uint64(inv.lineNet(i)), uint64(inv.Lines[i].Quantity.Scaled()) //nolint:gosec // non-negative
	upTo, err := mulDivRound(net, uint64(before+q), whole)                       //nolint:gosec // non-negative
	if err != nil {
		return 0, err
	}
	already, err := mulDivRound(net, uint64(before), whole) //nolint:gosec // non-negative
	if err != nil {
		return 0, err
	}
	return upTo - already, nil
}

// creditGroupTax returns the tax a credit note credits of the invoice's
// group g on a taxable amount: the rest of the group's tax when the note
// credits the rest of its net, else the group's rate applied once, but
// never more than is left of the group's tax.
func (inv *InvoiceToCredit) creditGroupTax(g int, taxable int64) (int64, error) {
	group := inv.Amounts.TaxBreakdown[g]
	credited := inv.creditedGroup(g)
	taxLeft := group.TaxAmount - credited.TaxAmount
	if credited.TaxableAmount+taxable >= group.TaxableAmount {
		return taxLeft, nil
	}
	if group.Rate == nil {
		return 0, nil
	}
	tax, err := TaxAmount(taxable, *group.Rate)
	if err != nil {
		return 0, err
	}
	return min(tax, taxLeft), nil
}

// Apply adds an issued credit note of lines, whose amounts ComputeCredit
// returned, to what inv has credited.
func (inv *InvoiceToCredit) Apply(lines []CreditLine, amounts CreditedAmounts) {
	if len(inv.Credited.Lines) < len(inv.Lines) {
		inv.Credited.Lines = append(inv.Credited.Lines, make([]CreditedLine, len(inv.Lines)-len(inv.Credited.Lines))...)
	}
	if n := len(inv.Amounts.TaxBreakdown); len(inv.Credited.Groups) < n {
		inv.Credited.Groups = append(inv.Credited.Groups, make([]CreditedGroup, n-len(inv.Credited.Groups))...)
	}
	for i, cl := range lines {
		c := &inv.Credited.Lines[cl.InvoiceLine]
		c.Quantity = billingv1.QuantityOfScaled(c.Quantity.Scaled() + cl.Quantity.Scaled())
		inv.Credited.Lines[cl.InvoiceLine].Net += amounts.LineNets[i]
	}
	inv.CreditedTotal += amounts.Total
	for k, g := range amounts.GroupIndexes {
		inv.Credited.Groups[g].TaxableAmount += amounts.TaxBreakdown[k].TaxableAmount
		inv.Credited.Groups[g].TaxAmount += amounts.TaxBreakdown[k].TaxAmount
	}
}

// adjust applies a note's allowances and charges (adj) to its amounts out,
// whose groups noteGroup indexes by the invoice's group, and checks that
// no group is credited more than is left of its base.
func (inv *InvoiceToCredit) adjust(out *CreditedAmounts, noteGroup map[int]int, adj NoteAdjustments) error {
	untaxed := len(inv.Amounts.TaxBreakdown) == 0
	base := out.Subtotal // the note's base without tax
	// taxableOf returns the note's taxable amount of the invoice's group g
	// (-1: a document without tax), adding the group when it is new.
	taxableOf := func(g int) *int64 {
		if g < 0 {
			return &base
		}
		k, seen := noteGroup[g]
		if !seen {
			k = len(out.TaxBreakdown)
			noteGroup[g] = k
			ig := inv.Amounts.TaxBreakdown[g]
			out.TaxBreakdown = append(out.TaxBreakdown, TaxGroup{Category: ig.Category, Rate: ig.Rate, ExemptionReason: ig.ExemptionReason})
			out.GroupIndexes = append(out.GroupIndexes, g)
		}
		return &out.TaxBreakdown[k].TaxableAmount
	}
	if adj.Full {
		if err := inv.fullAdjustments(out, taxableOf, untaxed); err != nil {
			return err
		}
	} else {
		for _, kind := range []struct {
			name    string
			adjs    []Adjustment
			applied []billingv1.AppliedAllowanceCharge
			sign    int64
		}{{"charges", adj.Adjust.Charges, adj.Charges, +1}, {"allowances", adj.Adjust.Allowances, adj.Allowances, -1}} {
			for i := range kind.adjs {
				a := &kind.adjs[i]
				g, err := inv.groupOfTax(a.Tax, untaxed)
				if err != nil {
					return lineError(i, fmt.Sprintf("%s[%d].tax", kind.name, i), false, "%s", err)
				}
				taxable := taxableOf(g)
				linesNet := *taxable
				amount, err := a.amountOn(linesNet)
				if err != nil {
					return lineError(i, fmt.Sprintf("%s[%d]", kind.name, i), false, "%s", err)
				}
				if kind.sign < 0 && amount > *taxable {
					return lineError(i, fmt.Sprintf("%s[%d]", kind.name, i), false,
						"%d %s, the %d the note credits in its tax group", amount, ErrAllowanceExceedsBase, *taxable)
				}
				*taxable += kind.sign * amount
				applied := kind.applied[i]
				applied.Amount = amount
				if a.Percent != nil {
					b := linesNet
					applied.Base = &b
				}
				if kind.sign < 0 {
					out.NoteAllowances = append(out.NoteAllowances, applied)
					out.AllowanceTotal += amount
				} else {
					out.NoteCharges = append(out.NoteCharges, applied)
					out.ChargeTotal += amount
				}
			}
		}
	}
	// No group credited beyond what is left of its base.
	if untaxed {
		if left := inv.Remaining(); base > left {
			return lineError(0, "lines", true, "credit %d, more than the %d left to credit of the invoice", base, max(left, 0))
		}
		return nil
	}
	for k, g := range out.GroupIndexes {
		ig, credited := inv.Amounts.TaxBreakdown[g], inv.creditedGroup(g)
		if left := ig.TaxableAmount - credited.TaxableAmount; out.TaxBreakdown[k].TaxableAmount > left {
			return lineError(0, "lines", true, "credit %d of tax group %s, more than the %d left to credit there",
				out.TaxBreakdown[k].TaxableAmount, groupName(ig), max(left, 0))
		}
	}
	return nil
}

// fullAdjustments adds to out the allowances and charges of a full credit:
// the invoice's own when nothing was credited of it yet, else per group
// the difference between what is left of its base and the note's lines.
func (inv *InvoiceToCredit) fullAdjustments(out *CreditedAmounts, taxableOf func(int) *int64, untaxed bool) error {
	if !inv.settled() {
		// A ledger of lines only: what is left of each line is what is
		// left of the invoice.
		return nil
	}
	if inv.CreditedTotal == 0 && len(inv.Credited.Lines) == 0 {
		for _, kind := range []struct {
			src  []billingv1.AppliedAllowanceCharge
			sign int64
		}{{inv.Charges, +1}, {inv.Allowances, -1}} {
			for _, a := range kind.src {
				g := -1
				if !untaxed {
					lt, err := LineTaxOf(a.Tax)
					if err != nil {
						return fmt.Errorf("the invoice's allowance or charge of %d: %w", a.Amount, err)
					}
					if g, err = inv.groupOfTax(lt, untaxed); err != nil {
						return fmt.Errorf("the invoice's allowance or charge of %d: its tax %w", a.Amount, err)
					}
				}
				t := taxableOf(g)
				*t += kind.sign * a.Amount
				a.Base = nil
				a.Percent = nil
				if kind.sign < 0 {
					out.NoteAllowances = append(out.NoteAllowances, a)
					out.AllowanceTotal += a.Amount
				} else {
					out.NoteCharges = append(out.NoteCharges, a)
					out.ChargeTotal += a.Amount
				}
			}
		}
		return nil
	}
	settle := func(g int, left int64, tax *billingv1.Tax) {
		t := taxableOf(g)
		diff := *t - left
		switch {
		case diff > 0:
			*t -= diff
			out.NoteAllowances = append(out.NoteAllowances, billingv1.AppliedAllowanceCharge{Amount: diff,
				Reason: "What is left of the invoice's allowances", Tax: tax})
			out.AllowanceTotal += diff
		case diff < 0:
			*t -= diff
			out.NoteCharges = append(out.NoteCharges, billingv1.AppliedAllowanceCharge{Amount: -diff,
				Reason: "What is left of the invoice's charges", Tax: tax})
			out.ChargeTotal -= diff
		}
	}
	if untaxed {
		// The note's lines are what is left of the invoice's lines; what is
		// left to credit is the total less the notes'.
		settle(-1, inv.Remaining(), nil)
		return nil
	}
	for g, ig := range inv.Amounts.TaxBreakdown {
		left := ig.TaxableAmount - inv.creditedGroup(g).TaxableAmount
		if left == 0 {
			if !slices.Contains(out.GroupIndexes, g) {
				continue
			}
		}
		settle(g, left, TaxOf(&LineTax{Category: ig.Category, Rate: ig.Rate, ExemptionReason: ig.ExemptionReason}))
	}
	return nil
}

// groupOfTax is the index of the invoice's group of tax, -1 for a
// document without tax; an error when the tax is missing, extra or of no
// group of the invoice.
func (inv *InvoiceToCredit) groupOfTax(tax *LineTax, untaxed bool) (int, error) {
	switch {
	case untaxed && tax != nil:
		return 0, errors.New("must be absent: the invoice has no tax")
	case untaxed:
		return -1, nil
	case tax == nil:
		return 0, errors.New("is required: the invoice has tax")
	}
	k := groupKey(tax)
	for g := range inv.Amounts.TaxBreakdown {
		ig := &inv.Amounts.TaxBreakdown[g]
		if groupKey(&LineTax{Category: ig.Category, Rate: ig.Rate}) == k {
			return g, nil
		}
	}
	return 0, errors.New("is none of the invoice's tax categories and rates")
}

// groupName writes a tax group for a message: "S 19".
func groupName(g TaxGroup) string {
	if g.Rate == nil {
		return string(g.Category)
	}
	return string(g.Category) + " " + g.Rate.String()
}

// settled reports whether what is left of the invoice is its total less
// its credit notes' totals: it has document allowances or charges, or its
// ledger counts the totals of the notes issued against it (a ledger of
// credited lines alone, as written before notes carried allowances, is
// read line by line).
func (inv *InvoiceToCredit) settled() bool {
	return inv.Amounts.AllowanceTotal != 0 || inv.Amounts.ChargeTotal != 0 || inv.CreditedTotal != 0
}
