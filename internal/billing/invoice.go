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

// DocumentTaxesOf returns the effective tax of each of inv's items,
// allowances and charges (nil: none): those the controller froze in the
// status once it has looked at the invoice, else their own. An invoice
// made with kubectl therefore shows the billing profile's default tax
// only once the controller has applied it; one created over HTTP carries
// it in its spec from the start.
func DocumentTaxesOf(inv *billingv1.Invoice) DocumentTaxes {
	spec, st := &inv.Spec, &inv.Status
	own := EffectiveDocumentTaxes(spec, nil)
	if len(st.Items) == len(spec.Items) {
		for i := range st.Items {
			own.Items[i] = st.Items[i].Tax
		}
	}
	if len(st.Allowances) == len(spec.Allowances) {
		for i := range st.Allowances {
			own.Allowances[i] = st.Allowances[i].Tax
		}
	}
	if len(st.Charges) == len(spec.Charges) {
		for i := range st.Charges {
			own.Charges[i] = st.Charges[i].Tax
		}
	}
	return own
}

// InvoiceTotals are an invoice's amounts in the API's types, in minor
// units of its currency.
type InvoiceTotals struct {
	// Lines are each line's gross, discount and net, computed from the
	// spec (which never changes).
	Lines    []LineAmounts
	Subtotal int64
	// Allowances and Charges are the document's as applied, nil when it
	// has none; AllowanceTotal and ChargeTotal their sums.
	Allowances, Charges         []billingv1.AppliedAllowanceCharge
	AllowanceTotal, ChargeTotal int64
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
func TotalsOf(inv *billingv1.Invoice, taxes DocumentTaxes) (totals InvoiceTotals, ok bool) {
	st := &inv.Status
	lines, err := ItemAmounts(inv.Spec.Items)
	if err != nil {
		return InvoiceTotals{}, false
	}
	switch {
	case frozenAmounts(st):
		return frozenTotals(st, lines), true
	case inv.EffectivePhase() == billingv1.InvoiceIssued && st.Total != nil:
		return InvoiceTotals{Lines: lines, Subtotal: *st.Total, TaxBreakdown: []billingv1.TaxBreakdownEntry{}, Total: *st.Total}, true
	}
	a, err := InvoiceAmounts(&inv.Spec, taxes)
	if err != nil {
		return InvoiceTotals{}, false
	}
	var computed billingv1.InvoiceStatus
	SetAmounts(&computed, &inv.Spec, a, taxes)
	return frozenTotals(&computed, lines), true
}

// frozenTotals reads the amounts SetAmounts wrote into st; lines are the
// lines' amounts.
func frozenTotals(st *billingv1.InvoiceStatus, lines []LineAmounts) InvoiceTotals {
	t := InvoiceTotals{Lines: lines, Subtotal: *st.Subtotal, TaxTotal: *st.TaxTotal, Total: *st.Total,
		TaxBreakdown: append([]billingv1.TaxBreakdownEntry{}, st.TaxBreakdown...),
		Allowances:   append([]billingv1.AppliedAllowanceCharge(nil), st.Allowances...),
		Charges:      append([]billingv1.AppliedAllowanceCharge(nil), st.Charges...)}
	if st.AllowanceTotal != nil {
		t.AllowanceTotal = *st.AllowanceTotal
	}
	if st.ChargeTotal != nil {
		t.ChargeTotal = *st.ChargeTotal
	}
	return t
}

// frozenAmounts reports whether the controller has written an invoice's
// amounts in its status st.
func frozenAmounts(st *billingv1.InvoiceStatus) bool {
	return st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil
}
