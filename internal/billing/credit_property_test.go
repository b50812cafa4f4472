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

// TestPartialCreditsOfRandomInvoicesSumToTheirTotal credits random
// invoices with allowances and charges in random partial credit notes,
// then in a full credit: no note ever takes the credited sum above the
// total, and the full credit brings it to the total exactly.
func TestPartialCreditsOfRandomInvoicesSumToTheirTotal(t *testing.T) {
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
			var adj billing.NoteAdjustments
			if r.IntN(3) == 0 {
				lt, _ := billing.LineTaxOf(inv.Status.Items[i].Tax)
				adj.Adjust.Allowances = []billing.Adjustment{{Amount: 1 + r.Int64N(500), Tax: lt}}
				adj.Allowances = []billingv1.AppliedAllowanceCharge{{Reason: "Returned goods"}}
			}
			amounts, err := billing.ComputeNoteCredit(toCredit, []billing.CreditLine{line}, adj)
			if err != nil {
				var lineErr *billing.CreditLineError
				if !errors.As(err, &lineErr) {
					t.Fatalf("invoice %d: %v", n, err)
				}
				continue // refused: more than is left, or an allowance above its base
			}
			toCredit.Apply([]billing.CreditLine{line}, amounts)
			credited += amounts.Total
			if credited > total {
				t.Fatalf("invoice %d: partial credits of %d exceed its total %d", n, credited, total)
			}
		}
		lines, err := toCredit.FullCredit()
		if errors.Is(err, billing.ErrFullyCredited) {
			if credited != total {
				t.Fatalf("invoice %d: fully credited at %d of %d", n, credited, total)
			}
			continue
		}
		amounts, err := billing.ComputeNoteCredit(toCredit, lines, billing.NoteAdjustments{Full: true})
		if err != nil {
			t.Fatalf("invoice %d: the full credit: %v", n, err)
		}
		if credited+amounts.Total != total {
			t.Fatalf("invoice %d (%+v): credited %d + full credit %d != total %d", n, inv.Spec, credited, amounts.Total, total)
		}
	}
}
