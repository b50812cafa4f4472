/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package apiobject

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Amounts are an invoice's amounts as /v1 shows them; the numbers are
// null, and the breakdown empty, when they cannot be computed.
type Amounts struct {
	Subtotal     *int64
	TaxBreakdown []TaxBreakdownEntry
	TaxTotal     *int64
	Total        *int64
}

// ItemTaxes returns the effective tax of each of inv's items (nil: none):
// those the controller froze in status.items once it has looked at the
// invoice, else the items' own. An invoice made with kubectl therefore
// shows the billing profile's default tax only once the controller has
// applied it; one created over HTTP carries it in its spec from the start.
func ItemTaxes(inv *billingv1.Invoice) []*billingv1.Tax {
	taxes := make([]*billingv1.Tax, len(inv.Spec.Items))
	if status := inv.Status.Items; len(status) == len(inv.Spec.Items) {
		for i := range status {
			taxes[i] = status[i].Tax
		}
		return taxes
	}
	for i := range inv.Spec.Items {
		taxes[i] = inv.Spec.Items[i].Tax
	}
	return taxes
}

// InvoiceAmounts returns inv's amounts, taxes being ItemTaxes(inv):
//
//   - the controller's, frozen in the status, once it has computed them;
//   - for an invoice issued before tax existed (a total, no subtotal): the
//     total as subtotal, and no tax;
//   - otherwise computed from the items and taxes, with the same code as
//     the controller's, so that the amounts a create answers are those
//     the invoice is issued with.
func InvoiceAmounts(inv *billingv1.Invoice, taxes []*billingv1.Tax) Amounts {
	st := &inv.Status
	switch {
	case st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil:
		return Amounts{
			Subtotal: copyInt(st.Subtotal), TaxBreakdown: breakdownJSON(st.TaxBreakdown),
			TaxTotal: copyInt(st.TaxTotal), Total: copyInt(st.Total),
		}
	case inv.EffectivePhase() == billingv1.InvoiceIssued && st.Total != nil:
		var zero int64
		return Amounts{Subtotal: copyInt(st.Total), TaxBreakdown: []TaxBreakdownEntry{}, TaxTotal: &zero, Total: copyInt(st.Total)}
	}
	a, err := billing.InvoiceAmounts(inv.Spec.Items, taxes)
	if err != nil {
		return Amounts{TaxBreakdown: []TaxBreakdownEntry{}}
	}
	return Amounts{
		Subtotal: &a.Subtotal, TaxBreakdown: breakdownJSON(billing.Breakdown(a.TaxBreakdown)),
		TaxTotal: &a.TaxTotal, Total: &a.Total,
	}
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

// shortRate is rate in its shortest form ("19" for "19.00"), or rate as
// it is when it does not parse (the API server's pattern refuses such).
func shortRate(rate string) *string {
	if r, err := billing.ParseRate(rate); err == nil {
		rate = r.String()
	}
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
