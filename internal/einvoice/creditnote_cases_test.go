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

package einvoice_test

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// creditLine credits qty units (a decimal; or, qty "", the net amount) of
// the i-th line of inv.
type creditLine struct {
	line   int
	qty    string
	amount int64
}

// creditNote is an issued credit note of inv, issued on 2026-03-15, with
// its amounts computed as the controller does: per tax group, over the
// lines' net amounts. Without lines it credits every line in full.
func creditNote(inv *billingv1.Invoice, lines ...creditLine) *billingv1.CreditNote {
	return adjustedCreditNote(inv, nil, nil, lines...)
}

// adjustedCreditNote is creditNote with allowances and charges of its own.
func adjustedCreditNote(inv *billingv1.Invoice, allowances []billingv1.DocumentAllowance,
	charges []billingv1.DocumentCharge, lines ...creditLine) *billingv1.CreditNote {
	at := metav1.NewTime(time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC))
	st := billingv1.CreditNoteStatus{
		Phase: billingv1.CreditNoteIssued, Number: "CN-000007", IssuedAt: &at,
		Currency: inv.Spec.Currency, InvoiceNumber: inv.Status.Number, InvoiceIssuedAt: inv.Status.IssuedAt,
		Issuer: inv.Status.Issuer, BillTo: inv.Status.BillTo,
		PaymentAccount: inv.Status.PaymentAccount, BuyerReference: inv.Spec.BuyerReference,
	}
	full := len(lines) == 0
	if full {
		for i, it := range inv.Spec.Items {
			lines = append(lines, creditLine{line: i, qty: it.Quantity.String()})
		}
	}
	net := billingv1.Invoice{
		Spec:   billingv1.InvoiceSpec{Allowances: allowances, Charges: charges},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoicePending},
	}
	for _, l := range lines {
		it := inv.Spec.Items[l.line]
		sl := billingv1.CreditNoteLineStatus{InvoiceLine: int32(l.line), Description: it.Description, Amount: l.amount,
			UnitCode: it.UnitCode, Tax: it.Tax}
		if l.qty != "" {
			q := quantity(l.qty)
			sl.Quantity, sl.Amount = &q, creditedNet(it, q)
		}
		st.Lines = append(st.Lines, sl)
		net.Spec.Items = append(net.Spec.Items, billingv1.LineItem{Description: it.Description, Quantity: billingv1.Units(1),
			Amount: sl.Amount, Tax: it.Tax})
	}
	a, ok := billing.TotalsOf(&net, billing.DocumentTaxesOf(&net))
	if !ok {
		panic("the credit note's amounts cannot be computed")
	}
	st.Subtotal, st.TaxTotal, st.Total = &a.Subtotal, &a.TaxTotal, &a.Total
	if len(a.TaxBreakdown) > 0 {
		st.TaxBreakdown = a.TaxBreakdown
	}
	setAdjustments(&st, a)
	spec := billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Reason: "order_change", FullCredit: full,
		Allowances: allowances, Charges: charges}
	return &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: inv.Namespace}, Spec: spec, Status: st}
}

// creditedNet is the net crediting q of it credits: its net when q is all
// of it, else q at its unit price (the cases credit part of a line by
// quantity only on lines without a discount).
func creditedNet(it billingv1.LineItem, q billingv1.DecimalQuantity) int64 {
	if q == it.Quantity {
		a, err := billing.ItemAmounts([]billingv1.LineItem{it})
		if err != nil {
			panic(err)
		}
		return a[0].Net
	}
	net, err := billing.Gross(q, it.Amount)
	if err != nil {
		panic(err)
	}
	return net
}

// setAdjustments writes the allowances and charges of a, and their totals,
// into st, as the controller freezes them: absent when there are none.
func setAdjustments(st *billingv1.CreditNoteStatus, a billing.InvoiceTotals) {
	st.Allowances, st.Charges = a.Allowances, a.Charges
	if len(a.Allowances) > 0 {
		st.AllowanceTotal = &a.AllowanceTotal
	}
	if len(a.Charges) > 0 {
		st.ChargeTotal = &a.ChargeTotal
	}
}

// creditNoteCases are a partial credit note (a quantity of one line, an
// amount of another, of different rates) and a full one; credit notes of
// decimal quantities in units, and with allowances and charges of their
// own.
func creditNoteCases() []struct {
	name string
	cn   *billingv1.CreditNote
} {
	two := taxCases()[0].inv
	decimals, adjustments := adjustmentCases()[0].inv, adjustmentCases()[2].inv
	s19, s7 := tax(billingv1.TaxStandard, "19", ""), tax(billingv1.TaxStandard, "7", "")
	return []struct {
		name string
		cn   *billingv1.CreditNote
	}{
		{"partial credit note", creditNote(two, creditLine{line: 0, qty: "1"}, creditLine{line: 1, amount: 1_000})},
		{"full credit note", creditNote(two)},
		{"full credit note of a reverse charge", creditNote(taxCases()[3].inv)},
		{"credit note of decimal quantities in hours and kilograms", creditNote(decimals,
			creditLine{line: 0, qty: "2.5"}, creditLine{line: 2, qty: "34.5678"}, creditLine{line: 1, amount: 5_000})},
		{"credit note with allowances and charges of its own", adjustedCreditNote(adjustments,
			[]billingv1.DocumentAllowance{allowance(0, "10", "Goods returned under the discount", s19)},
			[]billingv1.DocumentCharge{charge(900, "", "ABL", s7), charge(700, "", "FC", tax(billingv1.TaxStandard, "21", ""))},
			creditLine{line: 0, amount: 20_000}, creditLine{line: 1, qty: "1.5"})},
		{"full credit note of an invoice with allowances and charges in JPY", adjustedCreditNote(adjustmentCases()[4].inv,
			adjustmentCases()[4].inv.Spec.Allowances, adjustmentCases()[4].inv.Spec.Charges)},
	}
}
