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

package document

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// This file formats what changes a document's amounts besides its lines'
// prices: a line's discount (BG-27) and the document's allowances and
// charges (BG-20, BG-21). The amounts are internal/billing's, frozen at
// issue; they are only formatted here.

// adjustmentRow is a document allowance or charge as its row above the tax
// breakdown shows it.
type adjustmentRow struct {
	// Label is what it is and why: "Discount · Early payment", "Charge ·
	// Freight".
	Label string
	// Detail is how a percent was taken: "5% of €1,000.00"; "" for an
	// amount.
	Detail string
	// Tax is its tax rate (lineTaxLabel); shown when the document has tax.
	Tax string
	// Amount is the amount, an allowance's negative: "−€50.00", "€10.00".
	Amount string
}

// withReason is label, then the reason after a middle dot when there is
// one: "Discount 10% · Loyalty". A reason given only as a code (UNTDID
// 5189 or 7161) is for machines, the e-invoice's; the label says what it
// is.
func withReason(label, reason string) string {
	if reason == "" {
		return label
	}
	return label + " · " + reason
}

// discountLabel is what a line's discount shows under its description, in
// p's language and amounts of currency code: "Discount 10% · Loyalty:
// -$67.50", "Rabatt · Treue: -5,00 €". amount is the discount
// internal/billing computed; "" for a line without one.
func discountLabel(p *locale.Printer, code string, d *billingv1.LineDiscount, amount int64) string {
	if d == nil {
		return ""
	}
	label := p.T("line.discount")
	if d.Percent != nil {
		label = p.T("line.discount.percent", p.Percent(string(*d.Percent)))
	}
	return p.T("label.value", withReason(label, d.Reason), p.Money(code, -amount))
}

// adjustmentRows are a document's allowances, then its charges, as they
// were issued, in p's language and amounts of currency code.
func adjustmentRows(p *locale.Printer, code string, allowances, charges []billingv1.AppliedAllowanceCharge) []adjustmentRow {
	rows := make([]adjustmentRow, 0, len(allowances)+len(charges))
	for _, a := range allowances {
		rows = append(rows, adjustment(p, code, "adjustment.allowance", a, -a.Amount))
	}
	for _, c := range charges {
		rows = append(rows, adjustment(p, code, "adjustment.charge", c, c.Amount))
	}
	return rows
}

// adjustment is the row of a, labelled by the message key kind, its
// amount signed.
func adjustment(p *locale.Printer, code, kind string, a billingv1.AppliedAllowanceCharge, signed int64) adjustmentRow {
	row := adjustmentRow{
		Label:  withReason(p.T(kind), a.Reason),
		Tax:    lineTaxLabel(p, a.Tax),
		Amount: p.Money(code, signed),
	}
	if a.Percent != nil && a.Base != nil {
		row.Detail = p.T("adjustment.percentOf", p.Percent(string(*a.Percent)), p.Money(code, *a.Base))
	}
	return row
}

// adjust sets what v shows of a document's allowances and charges as
// issued and their totals, in p's language and amounts of currency code: a
// row each, the totals under the subtotal when there are any, and the
// totals summed then. v.Taxed is set.
func (v *view) adjust(p *locale.Printer, code string, allowances, charges []billingv1.AppliedAllowanceCharge,
	allowanceTotal, chargeTotal int64) {
	v.Adjustments = adjustmentRows(p, code, allowances, charges)
	if len(allowances) > 0 {
		v.AllowanceTotal = p.Money(code, -allowanceTotal)
	}
	if len(charges) > 0 {
		v.ChargeTotal = p.Money(code, chargeTotal)
	}
	v.Summed = v.Taxed || len(v.Adjustments) > 0
}
