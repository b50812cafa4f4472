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

package einvoice

import (
	"math/big"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// This file gathers a line's quantity, unit, price and discount (BG-25,
// BG-27), and the document's allowances and charges (BG-20, BG-21), from
// the amounts internal/billing computed: it writes them, and computes no
// amount of its own.
//
// Peppol checks a line's net against quantity times price (R120), and an
// allowance's amount against its percent of its base (R040), each within
// 0.02 of the currency. A rounding to a whole minor unit stays within it
// in a currency with decimals, but not in one without (JPY): there a line
// of a fractional quantity is priced for its whole quantity (BT-149 is the
// quantity, BT-146 the line's gross), and a discount, allowance or charge
// is written by its amount alone (BT-94, BT-93 left out).

// invoiceLine is the i-th line (from 0) of an invoice: item, with its
// amounts and tax, in cur.
func invoiceLine(i int, item *billingv1.LineItem, amounts billing.LineAmounts, tax *billingv1.Tax,
	cur billing.Currency) line {
	l := newLine(i, item.Description, item.Quantity, item.UnitCode, amounts.Net, tax)
	l.Price = item.Amount
	if cur.Digits == 0 && item.Quantity.Scaled()%billingv1.QuantityScale != 0 {
		l.Price, l.BaseQuantity = amounts.Gross, l.Quantity
	}
	if dc := item.Discount; dc != nil {
		a := adjustment{Amount: amounts.Discount, Reason: dc.Reason, ReasonCode: string(dc.ReasonCode)}
		if dc.Percent != nil && cur.Digits > 0 {
			a.Percent, a.Base = shortPercent(*dc.Percent), amounts.Gross
		}
		l.Allowances = []adjustment{a}
	}
	return l
}

// creditedLine is the i-th line (from 0) of a credit note. A line that
// credits an amount is one unit (C62) at that amount; one that credits a
// quantity, that quantity in the invoice line's unit, at the unit price
// the amount is when quantity divides it exactly, else at the amount for
// the whole quantity (BT-149), so that quantity times price is the net.
func creditedLine(i int, cl *billingv1.CreditNoteLineStatus) line {
	if cl.Quantity == nil || cl.Quantity.Scaled() <= 0 {
		l := newLine(i, cl.Description, billingv1.Units(1), billingv1.UnitOne, cl.Amount, cl.Tax)
		l.Price = cl.Amount
		return l
	}
	l := newLine(i, cl.Description, *cl.Quantity, cl.UnitCode, cl.Amount, cl.Tax)
	// amount / quantity = amount × QuantityScale / scaled, exactly or not
	// at all.
	price, rest := new(big.Int).QuoRem(
		new(big.Int).Mul(big.NewInt(cl.Amount), big.NewInt(billingv1.QuantityScale)),
		big.NewInt(cl.Quantity.Scaled()), new(big.Int))
	if rest.Sign() == 0 && price.IsInt64() {
		l.Price = price.Int64()
	} else {
		l.Price, l.BaseQuantity = cl.Amount, l.Quantity
	}
	return l
}

// adjustments are a document's allowances (charge false) or charges as
// applied, in cur.
func adjustments(applied []billingv1.AppliedAllowanceCharge, charge bool, cur billing.Currency) []adjustment {
	if len(applied) == 0 {
		return nil
	}
	out := make([]adjustment, 0, len(applied))
	for _, ac := range applied {
		a := adjustment{Charge: charge, Amount: ac.Amount, Reason: ac.Reason, ReasonCode: ac.ReasonCode}
		if ac.Percent != nil && ac.Base != nil && cur.Digits > 0 {
			a.Percent, a.Base = shortPercent(*ac.Percent), *ac.Base
		}
		if ac.Tax != nil {
			a.Category, a.Rate = string(ac.Tax.Category), shortRate(ac.Tax.Rate)
		}
		out = append(out, a)
	}
	return out
}

// shortPercent writes a percent in its shortest form: "12.5" for
// "12.50"; as it is when it is not one.
func shortPercent(p billingv1.Percent) string {
	if v, err := billing.ParsePercent(string(p)); err == nil {
		return v.String()
	}
	return string(p)
}

// taxExclusive is the total without tax (BT-109) of a document whose
// lines' nets, allowances and charges sum to subtotal, allowanceTotal and
// chargeTotal, as internal/billing computes it.
func taxExclusive(subtotal, allowanceTotal, chargeTotal int64) int64 {
	a := billing.Amounts{Subtotal: subtotal, AllowanceTotal: allowanceTotal, ChargeTotal: chargeTotal}
	return a.TaxExclusive()
}
