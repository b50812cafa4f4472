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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file reads an issued invoice and a credit note of the API's types
// for the arithmetic of credit.go, and writes its results back in the
// API's types. The HTTP adapter (to check a credit note and answer its
// amounts) and the controller (to issue it) both credit an invoice with
// these functions and no other, so the amounts a create answers are those
// the credit note is issued with.

// ToCredit returns an issued invoice as a credit note sees it: its lines
// with their effective taxes (ItemTaxes), its amounts as frozen in its
// status (computed from its items when it was issued before tax existed),
// and what its issued credit notes have credited (status.ledger). The
// frozen amounts are the record: an issued invoice's amounts never
// change, and the ledger's creditedGroups follow the order of its
// status.taxBreakdown. It fails when a rate does not parse, which the API
// server's patterns prevent.
func ToCredit(inv *billingv1.Invoice) (*InvoiceToCredit, error) {
	taxes := DocumentTaxesOf(inv).Items
	out := &InvoiceToCredit{Lines: make([]TaxedLine, len(inv.Spec.Items))}
	lineAmounts, err := ItemAmounts(inv.Spec.Items)
	if err != nil {
		return nil, fmt.Errorf("the lines of invoice %s: %w", inv.Name, err)
	}
	for i, it := range inv.Spec.Items {
		tax, err := LineTaxOf(taxes[i])
		if err != nil {
			return nil, fmt.Errorf("the tax of invoice line %d: %w", i, err)
		}
		out.Lines[i] = TaxedLine{Quantity: it.Quantity, Amount: it.Amount, Tax: tax}
	}
	st := &inv.Status
	if frozenAmounts(st) {
		out.Amounts = Amounts{Lines: lineAmounts, Subtotal: *st.Subtotal, TaxTotal: *st.TaxTotal, Total: *st.Total,
			TaxBreakdown: make([]TaxGroup, len(st.TaxBreakdown))}
		if st.AllowanceTotal != nil {
			out.Amounts.AllowanceTotal = *st.AllowanceTotal
		}
		if st.ChargeTotal != nil {
			out.Amounts.ChargeTotal = *st.ChargeTotal
		}
		for g, e := range st.TaxBreakdown {
			group := TaxGroup{Category: e.Category, TaxableAmount: e.TaxableAmount, TaxAmount: e.TaxAmount,
				ExemptionReason: e.ExemptionReason}
			if e.Rate != nil {
				r, err := ParseRate(*e.Rate)
				if err != nil {
					return nil, fmt.Errorf("the rate of tax group %d: %w", g, err)
				}
				group.Rate = &r
			}
			out.Amounts.TaxBreakdown[g] = group
		}
	} else {
		a, err := InvoiceAmounts(&inv.Spec, DocumentTaxesOf(inv))
		if err != nil {
			return nil, fmt.Errorf("the amounts of invoice %s: %w", inv.Name, err)
		}
		out.Amounts = a
	}
	out.Allowances = append(out.Allowances, st.Allowances...)
	out.Charges = append(out.Charges, st.Charges...)
	if l := st.Ledger; l != nil {
		for _, e := range l.CreditNotes {
			out.CreditedTotal += e.Amount
		}
		for _, c := range l.CreditedLines {
			out.Credited.Lines = append(out.Credited.Lines, CreditedLine{Quantity: c.Quantity, Net: c.Net})
		}
		for _, c := range l.CreditedGroups {
			out.Credited.Groups = append(out.Credited.Groups,
				CreditedGroup{TaxableAmount: c.TaxableAmount, TaxAmount: c.TaxAmount})
		}
	}
	return out, nil
}

// CreditLines returns the lines of a credit note's spec against inv: its
// own lines, or for a full credit those of inv.FullCredit (which fails with
// ErrFullyCredited when nothing is left).
func CreditLines(spec *billingv1.CreditNoteSpec, inv *InvoiceToCredit) ([]CreditLine, error) {
	if spec.FullCredit {
		return inv.FullCredit()
	}
	lines := make([]CreditLine, len(spec.Lines))
	for i, l := range spec.Lines {
		lines[i] = CreditLine{InvoiceLine: int(l.InvoiceLine)}
		if l.Quantity != nil {
			lines[i].Quantity = *l.Quantity
		}
		if l.Amount != nil {
			lines[i].Amount = *l.Amount
		}
	}
	return lines, nil
}

// CreditNoteTotals are a credit note's lines and amounts in the API's
// types, as its status records them once the controller computed them.
type CreditNoteTotals struct {
	Lines    []billingv1.CreditNoteLineStatus
	Subtotal int64
	// Allowances and Charges are the note's, nil when it has none;
	// AllowanceTotal and ChargeTotal their sums.
	Allowances, Charges         []billingv1.AppliedAllowanceCharge
	AllowanceTotal, ChargeTotal int64
	// TaxBreakdown is empty, not nil, when no line has tax.
	TaxBreakdown []billingv1.TaxBreakdownEntry
	TaxTotal     int64
	Total        int64
}

// CreditNoteTotalsOf writes the lines and amounts of a credit note of
// lines against inv, whose amounts ComputeCredit returned: each line with
// the invoice line's description and effective tax.
func CreditNoteTotalsOf(inv *billingv1.Invoice, lines []CreditLine, amounts CreditedAmounts) CreditNoteTotals {
	taxes := DocumentTaxesOf(inv).Items
	out := CreditNoteTotals{Lines: make([]billingv1.CreditNoteLineStatus, len(lines)),
		Subtotal: amounts.Subtotal, TaxBreakdown: Breakdown(amounts.TaxBreakdown), TaxTotal: amounts.TaxTotal,
		Total: amounts.Total, Allowances: amounts.NoteAllowances, Charges: amounts.NoteCharges,
		AllowanceTotal: amounts.AllowanceTotal, ChargeTotal: amounts.ChargeTotal}
	for i, l := range lines {
		line := billingv1.CreditNoteLineStatus{
			InvoiceLine: int32(l.InvoiceLine), //nolint:gosec // an index of at most MaxItems lines
			Description: inv.Spec.Items[l.InvoiceLine].Description,
			Amount:      amounts.LineNets[i],
			Tax:         taxes[l.InvoiceLine].DeepCopy(),
		}
		if l.Quantity.Scaled() > 0 {
			quantity := l.Quantity
			line.Quantity = &quantity
		}
		if u := inv.Spec.Items[l.InvoiceLine].UnitCode; u != billingv1.UnitOne {
			line.UnitCode = u
		}
		out.Lines[i] = line
	}
	return out
}

// NoteCredit is what a credit note credits of its invoice: the invoice as
// the credit note sees it (ToCredit), the note's lines (CreditLines) and
// their amounts (ComputeCredit).
type NoteCredit struct {
	Invoice *InvoiceToCredit
	Lines   []CreditLine
	Amounts CreditedAmounts
}

// CreditOf composes what a credit note of spec credits of inv, the one
// composition that the adapter's create (to check and answer it), the
// controller (to issue it) and PendingCreditNote share. It returns nil and
// ToCredit's error when inv cannot be read as an invoice to credit;
// otherwise the credit, its Invoice set, and the error of CreditLines
// (ErrFullyCredited) or ComputeCredit (a *CreditLineError) when the note
// cannot credit it.
func CreditOf(spec *billingv1.CreditNoteSpec, inv *billingv1.Invoice) (*NoteCredit, error) {
	toCredit, err := ToCredit(inv)
	if err != nil {
		return nil, err
	}
	credit := &NoteCredit{Invoice: toCredit}
	if credit.Lines, err = CreditLines(spec, toCredit); err != nil {
		return credit, err
	}
	adj, err := noteAdjustments(spec)
	if err != nil {
		return credit, err
	}
	credit.Amounts, err = ComputeNoteCredit(toCredit, credit.Lines, adj)
	return credit, err
}

// noteAdjustments are the allowances and charges of a credit note's spec,
// or a full credit's; a percent or rate that does not parse is a
// *CreditLineError on it.
func noteAdjustments(spec *billingv1.CreditNoteSpec) (NoteAdjustments, error) {
	adj := NoteAdjustments{Full: spec.FullCredit}
	for i, a := range spec.Allowances {
		x, err := AdjustmentOf(a.Percent, a.Amount, a.Tax)
		if err != nil {
			return adj, lineError(i, fmt.Sprintf("allowances[%d]", i), false, "%s", err)
		}
		adj.Adjust.Allowances = append(adj.Adjust.Allowances, *x)
		adj.Allowances = append(adj.Allowances, billingv1.AppliedAllowanceCharge{Percent: a.Percent,
			Reason: a.Reason, ReasonCode: string(a.ReasonCode), Tax: a.Tax.DeepCopy()})
	}
	for i, c := range spec.Charges {
		x, err := AdjustmentOf(c.Percent, c.Amount, c.Tax)
		if err != nil {
			return adj, lineError(i, fmt.Sprintf("charges[%d]", i), false, "%s", err)
		}
		adj.Adjust.Charges = append(adj.Adjust.Charges, *x)
		adj.Charges = append(adj.Charges, billingv1.AppliedAllowanceCharge{Percent: c.Percent,
			Reason: c.Reason, ReasonCode: string(c.ReasonCode), Tax: c.Tax.DeepCopy()})
	}
	return adj, nil
}

// Totals writes the credit's lines and amounts against inv, the invoice
// it was composed of (CreditNoteTotalsOf).
func (c *NoteCredit) Totals(inv *billingv1.Invoice) CreditNoteTotals {
	return CreditNoteTotalsOf(inv, c.Lines, c.Amounts)
}

// PendingCreditNote computes the lines and amounts a credit note of spec
// would be issued with against inv as it is now (CreditOf); ok is false
// when it cannot be (inv is not issued, or has not that much left to
// credit).
func PendingCreditNote(spec *billingv1.CreditNoteSpec, inv *billingv1.Invoice) (totals CreditNoteTotals, ok bool) {
	if inv.EffectivePhase() != billingv1.InvoiceIssued {
		return CreditNoteTotals{}, false
	}
	credit, err := CreditOf(spec, inv)
	if err != nil {
		return CreditNoteTotals{}, false
	}
	return credit.Totals(inv), true
}
