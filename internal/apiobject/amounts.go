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

// renderedAmounts are an invoice's amounts as /v1 shows them; the numbers are
// null, the breakdown empty and Lines nil when they cannot be computed.
type renderedAmounts struct {
	Subtotal     *int64
	TaxBreakdown []TaxBreakdownEntry
	TaxTotal     *int64
	Total        *int64
	// Lines are each line's gross, discount and net.
	Lines []billing.LineAmounts
	// Allowances and Charges are the document's as applied, empty when it
	// has none; AllowanceTotal and ChargeTotal their sums.
	Allowances, Charges         []AllowanceCharge
	AllowanceTotal, ChargeTotal *int64
}

// invoiceAmounts renders inv's amounts (billing.TotalsOf), taxes being
// billing.DocumentTaxesOf(inv). When they cannot be computed, the
// allowances and charges are shown as given.
func invoiceAmounts(inv *billingv1.Invoice, taxes billing.DocumentTaxes) renderedAmounts {
	t, ok := billing.TotalsOf(inv, taxes)
	if !ok {
		return renderedAmounts{TaxBreakdown: []TaxBreakdownEntry{}, Allowances: givenAllowances(&inv.Spec, taxes.Allowances),
			Charges: givenCharges(&inv.Spec, taxes.Charges)}
	}
	return renderedAmounts{Subtotal: &t.Subtotal, TaxBreakdown: breakdownJSON(t.TaxBreakdown), TaxTotal: &t.TaxTotal,
		Total: &t.Total, Lines: t.Lines, Allowances: AllowanceChargesOf(t.Allowances), Charges: AllowanceChargesOf(t.Charges),
		AllowanceTotal: &t.AllowanceTotal, ChargeTotal: &t.ChargeTotal}
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
