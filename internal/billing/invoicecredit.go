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
// with their effective taxes (DocumentTaxesOf), its amounts as frozen in
// its status (computed from its items when it was issued before tax
// existed), its allowances and charges as applied, and what its issued
// credit notes have credited (status.ledger). The frozen amounts are the
// record: an issued invoice's amounts never change, and the ledger's
// creditedGroups follow the order of its status.taxBreakdown; what was
// credited in no tax group is the credit notes' totals less what the
// groups took. It fails when a rate does not parse, which the API server's
// patterns prevent.
func ToCredit(inv *billingv1.Invoice) (*InvoiceToCredit, error) {
	taxes := DocumentTaxesOf(inv)
	out := &InvoiceToCredit{Lines: make([]TaxedLine, len(inv.Spec.Items))}
	lineAmounts, err := ItemAmounts(inv.Spec.Items)
	if err != nil {
		return nil, fmt.Errorf("the lines of invoice %s: %w", inv.Name, err)
	}
	for i, it := range inv.Spec.Items {
		tax, err := LineTaxOf(taxes.Items[i])
		if err != nil {
			return nil, fmt.Errorf("the tax of invoice line %d: %w", i, err)
		}
		out.Lines[i] = TaxedLine{Quantity: it.Quantity, Amount: it.Amount, Tax: tax}
	}
	st := &inv.Status
	if frozenAmounts(st) {
		t := frozenTotals(st, lineAmounts)
		out.Amounts = Amounts{Lines: lineAmounts, Subtotal: t.Subtotal, AllowanceTotal: t.AllowanceTotal,
			ChargeTotal: t.ChargeTotal, TaxTotal: t.TaxTotal, Total: t.Total,
			TaxBreakdown: make([]TaxGroup, len(st.TaxBreakdown))}
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
		out.Amounts.Allowances, out.Amounts.Charges = appliedOf(t.Allowances), appliedOf(t.Charges)
	} else {
		a, err := InvoiceAmounts(&inv.Spec, taxes)
		if err != nil {
			return nil, fmt.Errorf("the amounts of invoice %s: %w", inv.Name, err)
		}
		out.Amounts = a
	}
	if out.Allowances, err = adjustmentsOf("allowances", out.Amounts.Allowances, taxes.Allowances); err != nil {
		return nil, err
	}
	if out.Charges, err = adjustmentsOf("charges", out.Amounts.Charges, taxes.Charges); err != nil {
		return nil, err
	}
	if l := st.Ledger; l != nil {
		for _, c := range l.CreditedLines {
			out.Credited.Lines = append(out.Credited.Lines, CreditedLine{Quantity: c.Quantity, Net: c.Net})
		}
		var untaxed int64
		for _, e := range l.CreditNotes {
			untaxed += e.Amount
		}
		for _, c := range l.CreditedGroups {
			out.Credited.Groups = append(out.Credited.Groups,
				CreditedGroup{TaxableAmount: c.TaxableAmount, TaxAmount: c.TaxAmount})
			untaxed -= c.TaxableAmount + c.TaxAmount
		}
		out.Credited.Untaxed = max(untaxed, 0)
	}
	return out, nil
}

// appliedOf returns the amounts of frozen allowances or charges.
func appliedOf(frozen []billingv1.AppliedAllowanceCharge) []AppliedAdjustment {
	if len(frozen) == 0 {
		return nil
	}
	out := make([]AppliedAdjustment, len(frozen))
	for i, a := range frozen {
		out[i] = AppliedAdjustment{Amount: a.Amount, Base: a.Base}
	}
	return out
}

// adjustmentsOf returns an invoice's allowances or charges (kind) as
// applied, each its amount with its tax from taxes.
func adjustmentsOf(kind string, applied []AppliedAdjustment, taxes []*billingv1.Tax) ([]Adjustment, error) {
	if len(applied) == 0 {
		return nil, nil
	}
	out := make([]Adjustment, len(applied))
	for i, a := range applied {
		amount := a.Amount
		adj, err := adjustmentAt(kind, i, nil, &amount, taxes)
		if err != nil {
			return nil, fmt.Errorf("the invoice's %w", err)
		}
		out[i] = *adj
	}
	return out, nil
}

// CreditPartsOf returns the parts of a credit note's spec against inv:
// its own lines, allowances and charges (each with its own tax), or for a
// full credit those of inv.FullCredit (which fails with ErrFullyCredited
// when nothing is left). A percent or rate that does not parse is an
// *AdjustmentError, which the API server's patterns prevent.
func CreditPartsOf(spec *billingv1.CreditNoteSpec, inv *InvoiceToCredit) (CreditParts, error) {
	if spec.FullCredit {
		return inv.FullCredit()
	}
	parts := CreditParts{Lines: make([]CreditLine, len(spec.Lines))}
	for i, l := range spec.Lines {
		parts.Lines[i] = CreditLine{InvoiceLine: int(l.InvoiceLine)}
		if l.Quantity != nil {
			parts.Lines[i].Quantity = *l.Quantity
		}
		if l.Amount != nil {
			parts.Lines[i].Amount = *l.Amount
		}
	}
	own := EffectiveDocumentTaxes(&billingv1.InvoiceSpec{Allowances: spec.Allowances, Charges: spec.Charges}, nil)
	var err error
	if parts.Allowances, parts.Charges, err = documentAdjustments(spec.Allowances, spec.Charges, own); err != nil {
		return CreditParts{}, err
	}
	return parts, nil
}

// CreditNoteTotals are a credit note's lines and amounts in the API's
// types, as its status records them once the controller computed them.
type CreditNoteTotals struct {
	Lines    []billingv1.CreditNoteLineStatus
	Subtotal int64
	// Allowances and Charges are the note's as applied, nil when it has
	// none; AllowanceTotal and ChargeTotal their sums.
	Allowances, Charges         []billingv1.AppliedAllowanceCharge
	AllowanceTotal, ChargeTotal int64
	// TaxBreakdown is empty, not nil, when no line has tax.
	TaxBreakdown []billingv1.TaxBreakdownEntry
	TaxTotal     int64
	Total        int64
}

// CreditNoteTotalsOf writes the lines and amounts of a credit note of spec
// with parts against inv, whose amounts ComputeCredit returned: each line
// with the invoice line's description, unit and effective tax; each
// allowance and charge as the spec gives it, or, on a full credit, as the
// invoice applied the one it repeats (creditRestOf for the rest of a
// group).
func CreditNoteTotalsOf(inv *billingv1.Invoice, spec *billingv1.CreditNoteSpec, parts CreditParts,
	amounts CreditedAmounts) CreditNoteTotals {
	taxes := DocumentTaxesOf(inv).Items
	out := CreditNoteTotals{Lines: make([]billingv1.CreditNoteLineStatus, len(parts.Lines)),
		Subtotal: amounts.Subtotal, AllowanceTotal: amounts.AllowanceTotal, ChargeTotal: amounts.ChargeTotal,
		TaxBreakdown: Breakdown(amounts.TaxBreakdown), TaxTotal: amounts.TaxTotal, Total: amounts.Total}
	for i, l := range parts.Lines {
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
	var invoiced InvoiceTotals
	var allowances, charges []givenAdjustment
	if spec.FullCredit {
		invoiced, _ = TotalsOf(inv, DocumentTaxesOf(inv))
	} else {
		for _, a := range spec.Allowances {
			allowances = append(allowances, givenAdjustment{a.Percent, a.Reason, string(a.ReasonCode), a.Tax})
		}
		for _, c := range spec.Charges {
			charges = append(charges, givenAdjustment{c.Percent, c.Reason, string(c.ReasonCode), c.Tax})
		}
	}
	out.Allowances = noteAdjustments(amounts.Allowances, parts.Allowances, parts.AllowanceOf, allowances,
		invoiced.Allowances, allowanceRest)
	out.Charges = noteAdjustments(amounts.Charges, parts.Charges, parts.ChargeOf, charges, invoiced.Charges, chargeRest)
	return out
}

// givenAdjustment is an allowance or charge as a credit note's spec gives
// it.
type givenAdjustment struct {
	percent      *billingv1.Percent
	reason, code string
	tax          *billingv1.Tax
}

// noteAdjustments writes a credit note's allowances or charges, applied
// as amounts says, adjs being their arithmetic: each as given when the
// spec gives it; on a full credit, as the invoice applied the one it
// repeats (of, from invoiced), or as the rest of a group (creditRestOf,
// fallback its reason code).
func noteAdjustments(amounts []AppliedAdjustment, adjs []Adjustment, of []int, given []givenAdjustment,
	invoiced []billingv1.AppliedAllowanceCharge, fallback string) []billingv1.AppliedAllowanceCharge {
	var out []billingv1.AppliedAllowanceCharge
	for i, a := range amounts {
		switch {
		case i < len(given):
			g := given[i]
			out = append(out, applied(a, g.percent, g.reason, g.code, NormalizedTaxes([]*billingv1.Tax{g.tax})[0]))
		case i < len(of) && of[i] >= 0 && of[i] < len(invoiced):
			out = append(out, *invoiced[of[i]].DeepCopy())
		default:
			out = append(out, creditRestOf(a, adjs[i], invoiced, fallback))
		}
	}
	return out
}

// The reason codes of the rest of a group's base on a full credit, when
// the invoice has no allowance (or charge) of the group whose reason it
// can repeat: UNTDID 5189's 95 (discount) and UNTDID 7161's ZZZ (mutually
// defined).
const (
	allowanceRest = "95"
	chargeRest    = "ZZZ"
)

// creditRestOf is the rest of a group's base, a, that a full credit
// credits as an allowance or charge (adj, with its tax): with the reason
// of the invoice's first allowance or charge (invoiced) of the same tax,
// else the reason code fallback.
func creditRestOf(a AppliedAdjustment, adj Adjustment, invoiced []billingv1.AppliedAllowanceCharge,
	fallback string) billingv1.AppliedAllowanceCharge {
	out := billingv1.AppliedAllowanceCharge{Amount: a.Amount, ReasonCode: fallback, Tax: TaxOf(adj.Tax)}
	for _, inv := range invoiced {
		tax, err := LineTaxOf(inv.Tax)
		if err != nil || (tax == nil) != (adj.Tax == nil) || (tax != nil && groupKey(tax) != groupKey(adj.Tax)) {
			continue
		}
		out.Reason, out.ReasonCode = inv.Reason, inv.ReasonCode
		break
	}
	return out
}

// NoteCredit is what a credit note credits of its invoice: the invoice as
// the credit note sees it (ToCredit), the note's spec, its parts
// (CreditPartsOf) and their amounts (ComputeCredit).
type NoteCredit struct {
	Invoice *InvoiceToCredit
	Spec    *billingv1.CreditNoteSpec
	Parts   CreditParts
	Amounts CreditedAmounts
}

// CreditOf composes what a credit note of spec credits of inv, the one
// composition that the adapter's create (to check and answer it), the
// controller (to issue it) and PendingCreditNote share. It returns nil and
// ToCredit's error when inv cannot be read as an invoice to credit;
// otherwise the credit, its Invoice set, and the error of CreditPartsOf
// (ErrFullyCredited) or ComputeCredit (a *CreditLineError, an
// *AdjustmentError or ErrExceedsCreditable) when the note cannot credit
// it.
func CreditOf(spec *billingv1.CreditNoteSpec, inv *billingv1.Invoice) (*NoteCredit, error) {
	toCredit, err := ToCredit(inv)
	if err != nil {
		return nil, err
	}
	credit := &NoteCredit{Invoice: toCredit, Spec: spec}
	if credit.Parts, err = CreditPartsOf(spec, toCredit); err != nil {
		return credit, err
	}
	credit.Amounts, err = ComputeCredit(toCredit, credit.Parts)
	return credit, err
}

// Totals writes the credit's lines and amounts against inv, the invoice
// it was composed of (CreditNoteTotalsOf).
func (c *NoteCredit) Totals(inv *billingv1.Invoice) CreditNoteTotals {
	return CreditNoteTotalsOf(inv, c.Spec, c.Parts, c.Amounts)
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
