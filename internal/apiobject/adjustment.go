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

// Discount is a line's discount (EN 16931 BG-27) as given, a percent or an
// amount, with Amount what it takes off the line: computed by
// internal/billing for a percent, null when the line's amounts cannot be
// computed. Reason and ReasonCode are null when not given.
type Discount struct {
	Percent    *string `json:"percent"`
	Amount     *int64  `json:"amount"`
	Reason     *string `json:"reason"`
	ReasonCode *string `json:"reason_code"`
}

// AllowanceCharge is a document allowance (BG-20) or charge (BG-21): as
// given, with its Amount as applied and, for a percent, the Base it was
// taken of (BT-93, BT-100); both null when the document's amounts cannot
// be computed (Base is null for an amount given as such). Tax is its
// effective tax, null when the document has none.
type AllowanceCharge struct {
	Percent    *string `json:"percent"`
	Amount     *int64  `json:"amount"`
	Base       *int64  `json:"base"`
	Reason     *string `json:"reason"`
	ReasonCode *string `json:"reason_code"`
	Tax        *Tax    `json:"tax"`
}

// discountJSON is the /v1 representation of d, a line's discount, which
// takes amounts off the line (nil: they cannot be computed); nil for nil.
func discountJSON(d *billingv1.LineDiscount, amounts *billing.LineAmounts) *Discount {
	if d == nil {
		return nil
	}
	out := &Discount{Percent: percentJSON(d.Percent), Reason: optional(d.Reason), ReasonCode: optional(string(d.ReasonCode))}
	if amounts != nil {
		out.Amount = copyInt(&amounts.Discount)
	}
	return out
}

// percentJSON is the percent as written, nil for nil.
func percentJSON(p *billingv1.Percent) *string {
	if p == nil {
		return nil
	}
	s := string(*p)
	return &s
}

// AllowanceChargesOf is the /v1 representation of a document's allowances
// or charges as applied (billing.TotalsOf, or frozen in a status); empty,
// not nil, when there is none.
func AllowanceChargesOf(applied []billingv1.AppliedAllowanceCharge) []AllowanceCharge {
	out := make([]AllowanceCharge, len(applied))
	for i, a := range applied {
		out[i] = AllowanceCharge{Percent: percentJSON(a.Percent), Amount: copyInt(&a.Amount), Reason: optional(a.Reason),
			ReasonCode: optional(a.ReasonCode), Tax: taxJSON(a.Tax)}
		if a.Base != nil {
			out[i].Base = copyInt(a.Base)
		}
	}
	return out
}

// givenAdjustments is the /v1 representation of spec's allowances and
// charges as given, when the invoice's amounts cannot be computed: an
// amount given as such is shown, a percent's is null. taxes are their
// effective taxes.
func givenAdjustments(spec *billingv1.InvoiceSpec, taxes billing.DocumentTaxes) (allowances, charges []AllowanceCharge) {
	allowances, charges = make([]AllowanceCharge, len(spec.Allowances)), make([]AllowanceCharge, len(spec.Charges))
	for i, a := range spec.Allowances {
		allowances[i] = givenAdjustment(a.Percent, a.Amount, a.Reason, string(a.ReasonCode), taxes.Allowances[i])
	}
	for i, c := range spec.Charges {
		charges[i] = givenAdjustment(c.Percent, c.Amount, c.Reason, string(c.ReasonCode), taxes.Charges[i])
	}
	return allowances, charges
}

// givenAdjustment is the /v1 representation of an allowance or a charge as
// given, of tax its effective tax.
func givenAdjustment(percent *billingv1.Percent, amount *int64, reason, code string, tax *billingv1.Tax) AllowanceCharge {
	return AllowanceCharge{Percent: percentJSON(percent), Amount: amount, Reason: optional(reason),
		ReasonCode: optional(code), Tax: taxJSON(tax)}
}
