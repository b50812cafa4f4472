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
	"math/rand/v2"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Whatever the decimal quantities, discounts, allowances and charges of an
// invoice in several tax groups, and whatever partial credit notes, each
// with allowances and charges of its own, credit it before a full credit:
// no credit note is refused that keeps within what is left, none above it
// is accepted, the notes never credit more than the invoice's total, and
// with the full credit they credit exactly its total.
func TestRandomPartialCreditsAndAFullCreditSumToExactlyTheInvoicesTotal(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 6))
	for round := range 3_000 {
		inv := randomAdjustedInvoice(r)
		var credited int64
		for notes := 0; inv.Remaining() > 0; notes++ {
			note := billing.CreditParts{}
			full := notes >= 8 || r.IntN(5) == 0
			if full {
				var err error
				if note, err = inv.FullCredit(); err != nil {
					t.Fatalf("round %d: FullCredit: %v", round, err)
				}
			} else if note = randomNote(r, inv); note.Lines == nil {
				continue
			}
			amounts, err := billing.ComputeCredit(inv, note)
			if err != nil {
				t.Fatalf("round %d: a note within what is left (full %v) is refused: %v\nnote %+v\ninvoice %+v",
					round, full, err, note, inv)
			}
			if over, ok := aboveWhatIsLeft(r, inv, note, amounts); ok {
				if _, err := billing.ComputeCredit(inv, over); !errors.Is(err, billing.ErrExceedsCreditable) {
					t.Fatalf("round %d: a note above what is left gives %v, want ErrExceedsCreditable", round, err)
				}
			}
			inv.Apply(note, amounts)
			credited += amounts.Total
			if amounts.Total < 0 || credited > inv.Amounts.Total {
				t.Fatalf("round %d: credited %d (this note %d), above the invoice's total %d", round, credited,
					amounts.Total, inv.Amounts.Total)
			}
		}
		if credited != inv.Amounts.Total {
			t.Fatalf("round %d: credited %d in all, want exactly the total %d", round, credited, inv.Amounts.Total)
		}
	}
}

// randomAdjustedInvoice is an invoice of 1 to 5 lines of decimal
// quantities, some discounted, in up to three tax groups (or none), with
// up to two allowances and two charges of those groups.
func randomAdjustedInvoice(r *rand.Rand) *billing.InvoiceToCredit {
	rates := []string{"19", "7", "5.5", "8.875", "0.0001"}
	taxed := r.IntN(5) > 0
	for {
		lines := make([]billing.TaxedLine, 1+r.IntN(5))
		var taxes []*billing.LineTax
		for i := range lines {
			lines[i] = billing.TaxedLine{Quantity: billingv1.QuantityOfScaled(1 + r.Int64N(100_000)), Amount: r.Int64N(200_000)}
			switch r.IntN(4) {
			case 0:
				p := billing.Percent(1 + r.Int64N(int64(billing.MaxPercent)))
				lines[i].Discount = &billing.Adjustment{Percent: &p}
			case 1:
				lines[i].Discount = &billing.Adjustment{Amount: r.Int64N(1_000)}
			}
			if taxed {
				lines[i].Tax = standard(rates[r.IntN(3)])
				taxes = append(taxes, lines[i].Tax)
			}
		}
		adjustments := func() []billing.Adjustment {
			out := make([]billing.Adjustment, r.IntN(3))
			for i := range out {
				out[i].Amount = r.Int64N(50_000)
				if r.IntN(3) == 0 {
					p := billing.Percent(1 + r.Int64N(5_000))
					out[i] = billing.Adjustment{Percent: &p}
				}
				if taxed {
					out[i].Tax = taxes[r.IntN(len(taxes))]
				}
			}
			return out
		}
		if inv, err := adjustedInvoice(lines, adjustments(), adjustments()); err == nil {
			return inv
		}
	}
}

// randomNote is a credit note of one or two lines that credit part of
// what is left of random invoice lines, by quantity or by amount, with an
// allowance in each of its tax groups that keeps it within what is left
// there, and sometimes a charge up to what is left; nil lines when the
// lines picked cannot be credited so.
func randomNote(r *rand.Rand, inv *billing.InvoiceToCredit) billing.CreditParts {
	var note billing.CreditParts
	for _, i := range r.Perm(len(inv.Lines))[:min(len(inv.Lines), 1+r.IntN(2))] {
		var c billing.CreditedLine
		if i < len(inv.Credited.Lines) {
			c = inv.Credited.Lines[i]
		}
		qtyLeft := inv.Lines[i].Quantity.Scaled() - c.Quantity.Scaled()
		netLeft := inv.Amounts.Lines[i].Net - c.Net
		switch {
		case netLeft <= 0:
		case r.IntN(2) == 0 && qtyLeft > 0:
			note.Lines = append(note.Lines, billing.CreditLine{InvoiceLine: i,
				Quantity: billingv1.QuantityOfScaled(1 + r.Int64N(qtyLeft))})
		default:
			note.Lines = append(note.Lines, billing.CreditLine{InvoiceLine: i, Amount: 1 + r.Int64N(netLeft)})
		}
	}
	if note.Lines == nil {
		return note
	}
	amounts, err := billing.ComputeCredit(inv, note)
	if err != nil && !errors.Is(err, billing.ErrExceedsCreditable) {
		// A quantity whose share of the net exceeds what amounts left.
		return billing.CreditParts{}
	}
	for k, g := range amounts.GroupIndexes {
		base := amounts.TaxBreakdown[k].TaxableAmount
		switch over := base - baseLeft(inv, g); {
		case over > 0:
			note.Allowances = append(note.Allowances, billing.Adjustment{Amount: over + r.Int64N(base-over+1),
				Tax: groupTax(inv, g)})
		case over < 0 && r.IntN(3) == 0:
			note.Charges = append(note.Charges, billing.Adjustment{Amount: 1 + r.Int64N(-over), Tax: groupTax(inv, g)})
		}
	}
	if len(inv.Amounts.TaxBreakdown) == 0 {
		if over := amounts.Untaxed - (inv.Amounts.TaxExclusive() - inv.Credited.Untaxed); over > 0 {
			note.Allowances = append(note.Allowances, billing.Adjustment{Amount: over + r.Int64N(amounts.Untaxed-over+1)})
		}
	}
	return note
}

// baseLeft is what is left to credit of the base of the invoice's group g.
func baseLeft(inv *billing.InvoiceToCredit, g int) int64 {
	left := inv.Amounts.TaxBreakdown[g].TaxableAmount
	if g < len(inv.Credited.Groups) {
		left -= inv.Credited.Groups[g].TaxableAmount
	}
	return left
}

func groupTax(inv *billing.InvoiceToCredit, g int) *billing.LineTax {
	group := inv.Amounts.TaxBreakdown[g]
	return &billing.LineTax{Category: group.Category, Rate: group.Rate, ExemptionReason: group.ExemptionReason}
}

// aboveWhatIsLeft is note with a charge that takes one of its groups just
// above what is left there; ok is false when note has no group.
func aboveWhatIsLeft(r *rand.Rand, inv *billing.InvoiceToCredit, note billing.CreditParts,
	amounts billing.CreditedAmounts) (billing.CreditParts, bool) {
	if len(amounts.TaxBreakdown) == 0 {
		return note, false
	}
	k := r.IntN(len(amounts.TaxBreakdown))
	g := amounts.GroupIndexes[k]
	over := note
	over.Charges = append(append([]billing.Adjustment(nil), note.Charges...),
		billing.Adjustment{Amount: baseLeft(inv, g) - amounts.TaxBreakdown[k].TaxableAmount + 1, Tax: groupTax(inv, g)})
	return over, true
}

// randomDocumentInvoice is an issued invoice of random decimal quantities,
// discounts, and document allowances and charges in up to three tax
// groups, its amounts frozen as the controller freezes them.
func randomDocumentInvoice(r *rand.Rand) *billingv1.Invoice {
	rates := []string{"21", "7", "0"}
	tax := func(i int) *billingv1.Tax {
		rate := rates[i]
		cat := billingv1.TaxStandard
		if rate == "0" {
			cat = billingv1.TaxZeroRated
		}
		return &billingv1.Tax{Category: cat, Rate: &rate}
	}
	spec := billingv1.InvoiceSpec{}
	groups := 1 + r.IntN(3)
	for i := range 1 + r.IntN(5) {
		it := billingv1.LineItem{Description: fmt.Sprintf("Line %d", i), Quantity: billingv1.QuantityOfScaled(1 + r.Int64N(200_000)),
			Amount: r.Int64N(50_000), Tax: tax(i % groups)}
		if r.IntN(3) == 0 {
			p := billingv1.Percent(fmt.Sprint(1 + r.IntN(50)))
			it.Discount = &billingv1.LineDiscount{Percent: &p, Reason: "Loyalty"}
		}
		spec.Items = append(spec.Items, it)
	}
	for range r.IntN(3) {
		p := billingv1.Percent(fmt.Sprintf("%d.%d", r.IntN(30), 1+r.IntN(9)))
		spec.Allowances = append(spec.Allowances, billingv1.DocumentAllowance{Percent: &p, Reason: "Volume", Tax: tax(r.IntN(groups))})
	}
	for range r.IntN(3) {
		a := 1 + r.Int64N(5_000)
		spec.Charges = append(spec.Charges, billingv1.DocumentCharge{Amount: &a, Reason: "Freight", Tax: tax(r.IntN(groups))})
	}
	inv := &billingv1.Invoice{Spec: spec}
	taxes := billing.EffectiveDocumentTaxes(&inv.Spec, nil)
	a, err := billing.InvoiceAmounts(&inv.Spec, taxes)
	if err != nil {
		return nil
	}
	billing.SetAmounts(&inv.Status, &inv.Spec, a, taxes)
	inv.Status.Phase = billingv1.InvoiceIssued
	return inv
}

// TestPartialCreditsOfRandomIssuedInvoicesNeverExceedAndFullCreditReachesTheirTotal credits random
// invoices with allowances and charges in random partial credit notes,
// then in a full credit: no note ever takes the credited sum above the
// total, and the full credit brings it to the total exactly.
func TestPartialCreditsOfRandomIssuedInvoicesNeverExceedAndFullCreditReachesTheirTotal(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 6))
	for n := 0; n < 500; n++ {
		inv := randomDocumentInvoice(r)
		if inv == nil {
			continue // an allowance above its group's base: refused, as it should be
		}
		toCredit, err := billing.ToCredit(inv)
		if err != nil {
			t.Fatal(err)
		}
		total := *inv.Status.Total
		var credited int64
		for range r.IntN(4) {
			i := r.IntN(len(inv.Spec.Items))
			line := billing.CreditLine{InvoiceLine: i}
			if r.IntN(2) == 0 {
				line.Quantity = billingv1.QuantityOfScaled(1 + r.Int64N(inv.Spec.Items[i].Quantity.Scaled()))
			} else {
				line.Amount = 1 + r.Int64N(20_000)
			}
			note := billing.CreditParts{Lines: []billing.CreditLine{line}}
			if r.IntN(3) == 0 {
				lt, _ := billing.LineTaxOf(inv.Status.Items[i].Tax)
				note.Allowances = []billing.Adjustment{{Amount: 1 + r.Int64N(500), Tax: lt}}
			}
			amounts, err := billing.ComputeCredit(toCredit, note)
			if err != nil {
				var lineErr *billing.CreditLineError
				var adjErr *billing.AdjustmentError
				if !errors.As(err, &lineErr) && !errors.As(err, &adjErr) && !errors.Is(err, billing.ErrExceedsCreditable) {
					t.Fatalf("invoice %d: %v", n, err)
				}
				continue // refused: more than is left, or an allowance above its base
			}
			toCredit.Apply(note, amounts)
			credited += amounts.Total
			if credited > total {
				t.Fatalf("invoice %d: partial credits of %d exceed its total %d", n, credited, total)
			}
		}
		full, err := toCredit.FullCredit()
		if errors.Is(err, billing.ErrFullyCredited) {
			if credited != total {
				t.Fatalf("invoice %d: fully credited at %d of %d", n, credited, total)
			}
			continue
		}
		amounts, err := billing.ComputeCredit(toCredit, full)
		if err != nil {
			t.Fatalf("invoice %d: the full credit: %v", n, err)
		}
		if credited+amounts.Total != total {
			t.Fatalf("invoice %d (%+v): credited %d + full credit %d != total %d", n, inv.Spec, credited, amounts.Total, total)
		}
	}
}
