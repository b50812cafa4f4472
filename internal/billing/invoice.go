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
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file is what an invoice shows of its taxes and amounts, in the API's
// types: the controller freezes them in the status when it looks at the
// invoice, and everything that shows an invoice (the /v1 JSON of the HTTP
// adapter and of the webhooks, the documents, the e-invoices) reads them
// here, so that all show the amounts the invoice is issued with.

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

// InvoiceTotals are an invoice's amounts in the API's types, in minor
// units of its currency.
type InvoiceTotals struct {
	Subtotal int64
	// TaxBreakdown is empty, not nil, when no line has tax. Its rates are
	// as the status holds them: ShortRate writes them.
	TaxBreakdown []billingv1.TaxBreakdownEntry
	TaxTotal     int64
	Total        int64
}

// TotalsOf returns inv's amounts, taxes being ItemTaxes(inv):
//
//   - the controller's, frozen in the status, once it has computed them:
//     an issued invoice's amounts never change;
//   - for an invoice issued before tax existed (a total, no subtotal): the
//     total as subtotal, and no tax;
//   - otherwise computed from the items and taxes, with the same code as
//     the controller's, so that the amounts a create answers are those
//     the invoice is issued with.
//
// ok is false when they cannot be computed: the amounts exceed MaxTotal or
// a tax breaks a rule, and the controller marks the invoice invalid.
func TotalsOf(inv *billingv1.Invoice, taxes []*billingv1.Tax) (totals InvoiceTotals, ok bool) {
	st := &inv.Status
	switch {
	case frozenAmounts(st):
		return frozenTotals(st), true
	case inv.EffectivePhase() == billingv1.InvoiceIssued && st.Total != nil:
		return InvoiceTotals{Subtotal: *st.Total, TaxBreakdown: []billingv1.TaxBreakdownEntry{}, Total: *st.Total}, true
	}
	a, err := InvoiceAmounts(inv.Spec.Items, taxes)
	if err != nil {
		return InvoiceTotals{}, false
	}
	var computed billingv1.InvoiceStatus
	SetAmounts(&computed, a, taxes)
	return frozenTotals(&computed), true
}

// frozenTotals reads the amounts SetAmounts wrote into st.
func frozenTotals(st *billingv1.InvoiceStatus) InvoiceTotals {
	return InvoiceTotals{Subtotal: *st.Subtotal, TaxTotal: *st.TaxTotal, Total: *st.Total,
		TaxBreakdown: append([]billingv1.TaxBreakdownEntry{}, st.TaxBreakdown...)}
}

// frozenAmounts reports whether the controller has written an invoice's
// amounts in its status st.
func frozenAmounts(st *billingv1.InvoiceStatus) bool {
	return st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil
}
