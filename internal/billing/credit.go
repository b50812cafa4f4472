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
// credited of one group of its tax breakdown so far: its base (their
// lines, less their allowances, plus their charges in the group) and tax.
type CreditedGroup struct {
	TaxableAmount int64
	TaxAmount     int64
}

// Credited is what the issued credit notes of an invoice have credited so
// far: Lines has one entry per invoice line, Groups one per entry of the
// invoice's tax breakdown, in the same orders; Untaxed is what they
// credited of the base in no tax group (lines without tax).
type Credited struct {
	Lines   []CreditedLine
	Groups  []CreditedGroup
	Untaxed int64
}

// InvoiceToCredit is an issued invoice as a credit note sees it: its lines
// with their effective taxes, its frozen amounts, its document allowances
// and charges, and what was credited.
type InvoiceToCredit struct {
	Lines   []TaxedLine
	Amounts Amounts
	// Allowances and Charges are the invoice's document allowances and
	// charges, each as the Amount applied (no Percent) with its Tax.
	Allowances, Charges []Adjustment
	// Credited may have nil slices: nothing credited yet.
	Credited Credited
}

// CreditLine is one line of a credit note: the invoice line it credits
// (from 0) and either a Quantity of its units (Amount 0) or a net Amount
// in minor units (Quantity 0).
type CreditLine struct {
	InvoiceLine int
	Quantity    billingv1.DecimalQuantity
	Amount      int64
}

// CreditParts are what a credit note credits: lines of the invoice, and
// document allowances and charges of its own (BG-20, BG-21), each an
// Adjustment with its tax, as on an invoice.
type CreditParts struct {
	Lines               []CreditLine
	Allowances, Charges []Adjustment
	// AllowanceOf and ChargeOf are set by FullCredit only: for each of its
	// allowances and charges, the index of the invoice's that it repeats,
	// -1 for the rest of a tax group's base (creditRest).
	AllowanceOf, ChargeOf []int
}

// CreditedAmounts are a credit note's amounts: the net of each of its
// lines in order, and its subtotal, allowances, charges, breakdown, tax
// total and total, like an invoice's. Its breakdown has the groups of the
// invoice that it credits, in the order its lines, then its charges, then
// its allowances first name them (not the invoice's).
type CreditedAmounts struct {
	LineNets []int64
	Amounts
	// GroupIndexes holds, for each entry of TaxBreakdown, the index of the
	// invoice's group it credits.
	GroupIndexes []int
	// Untaxed is the note's base in no tax group: its lines without tax,
	// and, on an invoice without tax, its allowances and charges.
	Untaxed int64
}

// Errors of a credit note.
var (
	// ErrFullyCredited is returned when nothing of the invoice is left to
	// credit.
	ErrFullyCredited = errors.New("the invoice is fully credited")
	// ErrExceedsCreditable is the cause of a credit note whose base in a
	// tax group (its lines, less its allowances, plus its charges there)
	// exceeds what is left to credit of the invoice's base in that group.
	ErrExceedsCreditable = errors.New("exceeds what is left to credit")
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

// ComputeCredit returns the amounts of a credit note of note's parts
// against inv, or the error of the first part at fault:
//
//   - a *CreditLineError when a line is at fault: InvoiceLine must be one
//     of the invoice's lines; exactly one of Quantity and Amount is above
//     0; a line never credits more than is left of its invoice line,
//     counting the invoice's issued credit notes and the lines before it in
//     this one: by quantity, neither more units than are left nor more net;
//     by amount, no more net (Exceeds is true);
//   - an *AdjustmentError when an allowance or charge is: its tax is not
//     that of one of the invoice's groups (or it has one on an invoice
//     without tax), or it is above the base it is taken off
//     (ErrAllowanceExceedsBase), as on an invoice;
//   - ErrExceedsCreditable, wrapped, when the note's base in a tax group,
//     its lines less its allowances plus its charges there, exceeds what is
//     left of the invoice's base in that group: the amounts are returned
//     all the same, for a caller to see by how much.
//
// A line's tax is its invoice line's. The tax of each (category, rate)
// group of the credit note is computed once on the group's base
// (TaxAmount), but never more than is left of that group's tax on the
// invoice; and a credit note that credits the rest of a group's base
// takes exactly the rest of its tax. Crediting a whole invoice, in one
// credit note or in many, therefore credits exactly its total, to the
// minor unit, and the credit notes of an invoice never credit more than
// its total.
func ComputeCredit(inv *InvoiceToCredit, note CreditParts) (CreditedAmounts, error) {
	if len(note.Lines) == 0 && len(note.Allowances) == 0 && len(note.Charges) == 0 {
		return CreditedAmounts{}, lineError(0, "lines", false, "must have at least one line")
	}
	groupOf := inv.groupIndexes()
	// What this note credits of each invoice line, so far.
	noteQty := map[int]int64{} // in ten-thousandths
	noteNet := map[int]int64{}
	out := CreditedAmounts{LineNets: make([]int64, len(note.Lines))}
	doc := &document{index: map[taxGroupKey]int{}, breakdown: []TaxGroup{}}
	for i, cl := range note.Lines {
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
		doc.Subtotal += net
		if g := groupOf[cl.InvoiceLine]; g >= 0 {
			group := doc.group(inv.groupTax(g))
			group.LinesNet += net
			group.TaxableAmount += net
		}
	}
	doc.untaxed = doc.Subtotal
	if err := inv.adjustNote(doc, note); err != nil {
		return CreditedAmounts{}, err
	}
	out.Amounts = doc.Amounts
	if err := inv.creditGroups(doc.breakdown, &out); err != nil {
		if errors.Is(err, ErrExceedsCreditable) {
			return out, err
		}
		return CreditedAmounts{}, err
	}
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

// Apply adds an issued credit note of note's parts, whose amounts
// ComputeCredit returned, to what inv has credited.
func (inv *InvoiceToCredit) Apply(note CreditParts, amounts CreditedAmounts) {
	if len(inv.Credited.Lines) < len(inv.Lines) {
		inv.Credited.Lines = append(inv.Credited.Lines, make([]CreditedLine, len(inv.Lines)-len(inv.Credited.Lines))...)
	}
	if n := len(inv.Amounts.TaxBreakdown); len(inv.Credited.Groups) < n {
		inv.Credited.Groups = append(inv.Credited.Groups, make([]CreditedGroup, n-len(inv.Credited.Groups))...)
	}
	for i, cl := range note.Lines {
		c := &inv.Credited.Lines[cl.InvoiceLine]
		c.Quantity = billingv1.QuantityOfScaled(c.Quantity.Scaled() + cl.Quantity.Scaled())
		inv.Credited.Lines[cl.InvoiceLine].Net += amounts.LineNets[i]
	}
	for k, g := range amounts.GroupIndexes {
		inv.Credited.Groups[g].TaxableAmount += amounts.TaxBreakdown[k].TaxableAmount
		inv.Credited.Groups[g].TaxAmount += amounts.TaxBreakdown[k].TaxAmount
	}
	inv.Credited.Untaxed += amounts.Untaxed
}
