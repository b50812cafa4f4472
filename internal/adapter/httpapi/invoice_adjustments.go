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

package httpapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// The parts of POST /v1/invoices that issue 48 added: a line's decimal
// quantity, unit code and discount (BG-27), and the document's allowances
// and charges (BG-20, BG-21). They are read here; what they amount to is
// internal/billing's arithmetic (invoiceItems).

// maxAdjustments is the most allowances, and the most charges, a document
// has: the CRD's bound of spec.allowances and spec.charges.
const maxAdjustments = 20

// maxAdjustmentAmount is the CRD's bound of the amount of a discount,
// allowance or charge.
const maxAdjustmentAmount = 1_000_000_000_000_000

// fieldReason is the field that says why a discount, allowance or
// charge is given.
const fieldReason = "reason"

// maxAdjustmentReason is the CRD's bound of a reason's length.
const maxAdjustmentReason = 200

// AdjustmentParams is a validated discount of a line, or allowance or
// charge of the document: a percent (billing.ParsePercent's form, kept as
// written) or an amount, a reason or a reason code, and, on an allowance
// or charge, its tax (nil when the body gives none: it takes the
// workspace's default tax as an item does).
type AdjustmentParams struct {
	Percent    *string    `json:"percent,omitempty"`
	Amount     *int64     `json:"amount,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	ReasonCode string     `json:"reason_code,omitempty"`
	Tax        *TaxParams `json:"tax,omitempty"`
}

var discountFields = map[string]kind{
	"percent": kindString, fieldAmount: kindNumber, fieldReason: kindString, "reason_code": kindString,
}

var documentAdjustmentFields = map[string]kind{
	"percent": kindString, fieldAmount: kindNumber, fieldReason: kindString, "reason_code": kindString, "tax": kindObject,
}

// adjustmentNodes are the fields of a discount, allowance or charge of a
// body, and those of its tax (nil when it has none).
type adjustmentNodes struct {
	fields, tax map[string]*node
}

// checkAdjustment checks the structure and JSON types of the discount,
// allowance or charge at path: the 400s.
func checkAdjustment(obj *node, path string, known map[string]kind) (adjustmentNodes, *Error) {
	var out adjustmentNodes
	var e *Error
	if out.fields, e = checkObject(obj, path, known); e != nil {
		return out, e
	}
	if tax := out.fields["tax"]; tax != nil {
		if out.tax, e = checkObject(tax, join(path, "tax"), taxFields); e != nil {
			return out, e
		}
	}
	return out, nil
}

// checkAdjustments checks the list of allowances or charges name (nil:
// absent): at most maxAdjustments objects, each checked by checkAdjustment.
func checkAdjustments(list *node, name string, known map[string]kind) ([]adjustmentNodes, *Error) {
	return checkObjects(list, name, "percent or amount, reason or reason_code, and tax",
		func(obj *node, path string) (adjustmentNodes, *Error) { return checkAdjustment(obj, path, known) })
}

// decodeAdjustments validates the values of the allowances or charges name:
// the 422s.
func decodeAdjustments(list []adjustmentNodes, name string, code reasonCodeRule) ([]AdjustmentParams, *Error) {
	if len(list) > maxAdjustments {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
			"%s must have at most %d entries; it has %d.", name, maxAdjustments, len(list))
	}
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]AdjustmentParams, len(list))
	for i, a := range list {
		adj, e := decodeAdjustment(a, elem(name, i), code)
		if e != nil {
			return nil, e
		}
		out[i] = *adj
	}
	return out, nil
}

// decodeAdjustment validates the discount, allowance or charge at path:
// exactly one of percent (above 0, at most 100, at most 2 decimals) and
// amount (1 to maxAdjustmentAmount); one of reason (1 to 200 characters)
// and reason_code (code's list), or both; and its tax, when it has one,
// keeps the rules of its category (decodeTax).
func decodeAdjustment(a adjustmentNodes, path string, code reasonCodeRule) (*AdjustmentParams, *Error) {
	f := a.fields
	out := &AdjustmentParams{}
	switch {
	case f["percent"] == nil && f[fieldAmount] == nil:
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, path,
			"%s needs a percent (such as \"10\") or an amount in minor units.", path)
	case f["percent"] != nil && f[fieldAmount] != nil:
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, path,
			"%s has a percent or an amount, not both.", path)
	case f["percent"] != nil:
		p := join(path, "percent")
		if _, err := billing.ParsePercent(f["percent"].s); err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p, "%s %s.", p, err)
		}
		s := f["percent"].s
		out.Percent = &s
	default:
		n, e := requiredWhole(f, path, fieldAmount, 1, maxAdjustmentAmount)
		if e != nil {
			return nil, e
		}
		out.Amount = &n
	}
	var e *Error
	if out.Reason, e = optionalString(f, path, fieldReason, maxAdjustmentReason); e != nil {
		return nil, e
	}
	if c := f["reason_code"]; c != nil {
		if !code.valid(c.s) {
			p := join(path, "reason_code")
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p, "%s must be %s.", p, code.says)
		}
		out.ReasonCode = c.s
	}
	if out.Reason == "" && out.ReasonCode == "" {
		p := join(path, fieldReason)
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, p,
			"%s is required, or reason_code: say why.", p)
	}
	if a.tax != nil {
		if out.Tax, e = decodeTax(a.tax, join(path, "tax")); e != nil {
			return nil, e
		}
	}
	return out, nil
}

// reasonCodeRule is which reason codes a discount, allowance or charge
// may have, and how a message says so.
type reasonCodeRule struct {
	valid func(string) bool
	says  string
}

// allowanceReasonCodes are the codes of UNTDID 5189 that the CRD's
// AllowanceReasonCode enum lists.
var allowanceReasonCodes = []string{"41", "42", "60", "62", "63", "64", "65", "66", "67", "68", "70", "71", "88",
	"95", "100", "102", "103", "104", "105"}

// allowanceReasonCode is the rule of the reason code of a discount or
// allowance: a code of UNTDID 5189.
var allowanceReasonCode = reasonCodeRule{
	valid: func(s string) bool { return slices.Contains(allowanceReasonCodes, s) },
	says:  "a code of UNTDID 5189: one of " + strings.Join(allowanceReasonCodes, ", "),
}

// chargeReasonCodePattern is the CRD's pattern of a ChargeReasonCode.
var chargeReasonCodePattern = regexp.MustCompile(`^[A-Z]{1,3}$`)

// chargeReasonCode is the rule of the reason code of a charge: a code of
// UNTDID 7161, one to three upper-case letters.
var chargeReasonCode = reasonCodeRule{
	valid: chargeReasonCodePattern.MatchString,
	says:  "a code of UNTDID 7161: one to three upper-case letters, such as FC (freight) or ABL (packaging)",
}

// requiredQuantity returns the quantity of the item at path: a JSON number
// (a string is refused here, a 422, not by the type check's 400) above 0,
// at most billing.MaxQuantity, with at most 4 decimal places once trailing
// zeros are dropped (7.50000 is 7.5, as the CRD reads it), read exactly
// from its text.
func requiredQuantity(fields map[string]*node, path string) (billingv1.DecimalQuantity, *Error) {
	p := join(path, "quantity")
	v := fields["quantity"]
	if v == nil {
		return billingv1.DecimalQuantity{}, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, p, "%s is required.", p)
	}
	q, err := billingv1.ParseDecimalQuantity(v.s)
	if err != nil || v.kind != kindNumber || q.Scaled() <= 0 || q.Scaled() > billing.MaxQuantity*billingv1.QuantityScale {
		return billingv1.DecimalQuantity{}, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be a number above 0 and at most %d with at most 4 decimal places, such as 3, 7.5 or 0.25.",
			p, billing.MaxQuantity)
	}
	return q, nil
}

// optionalUnitCode returns the unit code of the item at path, "" when the
// body names none: a code of UN/ECE Recommendation 20 or 21 that EN 16931
// accepts (billing.ValidUnitCode).
func optionalUnitCode(fields map[string]*node, path string) (string, *Error) {
	v := fields["unit_code"]
	if v == nil {
		return "", nil
	}
	if !billing.ValidUnitCode(v.s) {
		p := join(path, "unit_code")
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be a unit code of UN/ECE Recommendation 20 or 21, in upper case, such as HUR (hour), DAY, KGM (kilogram), KWH, MTR or C62 (one).", p)
	}
	return v.s, nil
}

// discount is a as the Invoice's spec holds a line's discount; nil for nil.
func (a *AdjustmentParams) discount() *billingv1.LineDiscount {
	if a == nil {
		return nil
	}
	return &billingv1.LineDiscount{Percent: a.percent(), Amount: a.amount(), Reason: a.Reason,
		ReasonCode: billingv1.AllowanceReasonCode(a.ReasonCode)}
}

// allowance is a as the Invoice's spec holds a document allowance.
func (a *AdjustmentParams) allowance() billingv1.DocumentAllowance {
	return billingv1.DocumentAllowance{Percent: a.percent(), Amount: a.amount(), Reason: a.Reason,
		ReasonCode: billingv1.AllowanceReasonCode(a.ReasonCode), Tax: a.Tax.crd()}
}

// charge is a as the Invoice's spec holds a document charge.
func (a *AdjustmentParams) charge() billingv1.DocumentCharge {
	return billingv1.DocumentCharge{Percent: a.percent(), Amount: a.amount(), Reason: a.Reason,
		ReasonCode: billingv1.ChargeReasonCode(a.ReasonCode), Tax: a.Tax.crd()}
}

func (a *AdjustmentParams) percent() *billingv1.Percent {
	if a.Percent == nil {
		return nil
	}
	p := billingv1.Percent(*a.Percent)
	return &p
}

func (a *AdjustmentParams) amount() *int64 {
	if a.Amount == nil {
		return nil
	}
	n := *a.Amount
	return &n
}
