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

package apiobject

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// DocumentAmounts are the amounts of an invoice or a credit note as /v1
// shows them, in the order both write them: the subtotal; the document's
// allowances (BG-20) and charges (BG-21), as applied, empty when it has
// none, and their sums (BT-107, BT-108), 0 when it has none; the tax
// breakdown, the tax and the total. When they cannot be computed, the
// numbers are null and the breakdown is empty.
type DocumentAmounts struct {
	Subtotal       *int64              `json:"subtotal"`
	Allowances     []AllowanceCharge   `json:"allowances"`
	Charges        []AllowanceCharge   `json:"charges"`
	AllowanceTotal *int64              `json:"allowance_total"`
	ChargeTotal    *int64              `json:"charge_total"`
	TaxBreakdown   []TaxBreakdownEntry `json:"tax_breakdown"`
	TaxTotal       *int64              `json:"tax_total"`
	Total          *int64              `json:"total"`
}

// renderedAmounts are an invoice's amounts as /v1 shows them, and Lines
// each line's gross, discount and net (nil when they cannot be computed).
type renderedAmounts struct {
	DocumentAmounts
	Lines []billing.LineAmounts
}

// invoiceAmounts renders inv's amounts (billing.TotalsOf), taxes being
// billing.DocumentTaxesOf(inv). When they cannot be computed, the
// allowances and charges are shown as given.
func invoiceAmounts(inv *billingv1.Invoice, taxes billing.DocumentTaxes) renderedAmounts {
	t, ok := billing.TotalsOf(inv, taxes)
	if !ok {
		given := renderedAmounts{DocumentAmounts: DocumentAmounts{TaxBreakdown: []TaxBreakdownEntry{}}}
		given.Allowances, given.Charges = givenAdjustments(&inv.Spec, taxes)
		return given
	}
	return renderedAmounts{DocumentAmounts: DocumentAmounts{Subtotal: &t.Subtotal, TaxBreakdown: breakdownJSON(t.TaxBreakdown),
		TaxTotal: &t.TaxTotal, Total: &t.Total, Allowances: AllowanceChargesOf(t.Allowances),
		Charges: AllowanceChargesOf(t.Charges), AllowanceTotal: &t.AllowanceTotal, ChargeTotal: &t.ChargeTotal}, Lines: t.Lines}
}

func copyInt(p *int64) *int64 {
	v := *p
	return &v
}

// taxJSON is the /v1 representation of a line's tax, nil for none.
func taxJSON(t *billingv1.Tax) *Tax {
	if t == nil {
		return nil
	}
	out := &Tax{Category: string(t.Category), ExemptionReason: optional(t.ExemptionReason)}
	if t.Rate != nil {
		out.Rate = shortRate(*t.Rate)
	}
	return out
}

// shortRate is billing.ShortRate of rate.
func shortRate(rate string) *string {
	rate = billing.ShortRate(rate)
	return &rate
}

// breakdownJSON is the /v1 representation of a tax breakdown; empty, not
// nil, when there is none.
func breakdownJSON(entries []billingv1.TaxBreakdownEntry) []TaxBreakdownEntry {
	out := make([]TaxBreakdownEntry, len(entries))
	for i, e := range entries {
		out[i] = TaxBreakdownEntry{
			Category: string(e.Category), TaxableAmount: e.TaxableAmount, TaxAmount: e.TaxAmount,
			ExemptionReason: optional(e.ExemptionReason),
		}
		if e.Rate != nil {
			out[i].Rate = shortRate(*e.Rate)
		}
	}
	return out
}
