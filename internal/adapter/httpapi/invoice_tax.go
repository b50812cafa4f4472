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
	"errors"
	"fmt"
	"net/http"
	"slices"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// The taxes of POST /v1/invoices: each item's own (decodeTax), and the
// workspace's default tax for the items without one (invoiceItems). The
// rules are internal/billing's, the controller's: the adapter refuses what
// the controller would mark invalid, before anything is created.

// TaxParams is a validated tax of a line item. Rate is in its shortest form
// ("19" for 19, "19.0000" and "19"), nil for none; ExemptionReason is ""
// for none.
type TaxParams struct {
	Category        string  `json:"category"`
	Rate            *string `json:"rate,omitempty"`
	ExemptionReason string  `json:"exemption_reason,omitempty"`
}

var taxFields = map[string]kind{"category": kindString, "rate": kindDecimal, "exemption_reason": kindString}

// maxQuotedRate is the longest rate that an error message quotes back.
const maxQuotedRate = 16

// decodeTax validates the tax of the item at path (items[i].tax), whose
// fields checkObject has checked: category is one of UNCL5305's codes S,
// Z, E, AE, K, G and O; rate, a JSON string or number, is read from its
// text by billing.ParseRate (a decimal from 0 to 100 with at most 4
// decimals, never through a float); exemption_reason has 1 to
// billing.MaxExemptionReason characters; and the three keep the rules of
// the category (billing.ValidateLineTax). Errors are 422s on the field at
// fault, checked in that order.
func decodeTax(fields map[string]*node, path string) (*TaxParams, *Error) {
	catPath := join(path, billing.TaxFieldCategory)
	c := fields["category"]
	if c == nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, catPath,
			"%s is required: one of S, Z, E, AE, K, G and O.", catPath)
	}
	category := billingv1.TaxCategory(c.s)
	if !billing.ValidTaxCategory(category) {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, catPath,
			"%s must be one of S, Z, E, AE, K, G and O (EN 16931's tax categories, code list UNCL5305, in upper case).",
			catPath)
	}
	tax := billing.LineTax{Category: category}
	out := &TaxParams{Category: string(category)}
	if v := fields["rate"]; v != nil {
		r, err := billing.ParseRate(v.s)
		if err != nil {
			return nil, rateError(join(path, billing.TaxFieldRate), v.s, err)
		}
		s := r.String()
		tax.Rate, out.Rate = &r, &s
	}
	var e *Error
	if out.ExemptionReason, e = optionalString(fields, path, "exemption_reason", billing.MaxExemptionReason); e != nil {
		return nil, e
	}
	tax.ExemptionReason = out.ExemptionReason
	if err := billing.ValidateLineTax(tax); err != nil {
		return nil, taxFieldError(path, err)
	}
	return out, nil
}

// rateError is the 422 of a rate that billing.ParseRate refused with err.
// A long rate is not quoted back.
func rateError(path, rate string, err error) *Error {
	var field *billing.TaxFieldError
	if len(rate) > maxQuotedRate || !errors.As(err, &field) {
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, path,
			`%s must be a percentage from 0 to 100 with at most 4 decimals, such as "19" or "5.5".`, path)
	}
	return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, path, "%s %s.", path, field.Message)
}

// taxFieldError is the 422 of err, a *billing.TaxFieldError, on a field of
// the tax at path.
func taxFieldError(path string, err error) *Error {
	var field *billing.TaxFieldError
	if !errors.As(err, &field) {
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, path, "%s: %s.", path, err)
	}
	p := join(path, field.Field)
	return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p, "%s %s.", p, field.Message)
}

// crd is t as the Invoice's spec holds it; nil for nil.
func (t *TaxParams) crd() *billingv1.Tax {
	if t == nil {
		return nil
	}
	out := &billingv1.Tax{Category: billingv1.TaxCategory(t.Category), ExemptionReason: t.ExemptionReason}
	if t.Rate != nil {
		r := *t.Rate
		out.Rate = &r
	}
	return out
}

// needsDefaultTax reports whether an item, allowance or charge of p has no
// tax of its own, and so takes the workspace's default tax.
func (p *InvoiceParams) needsDefaultTax() bool {
	for _, it := range p.Items {
		if it.Tax == nil {
			return true
		}
	}
	for _, a := range append(slices.Clip(p.Allowances), p.Charges...) {
		if a.Tax == nil {
			return true
		}
	}
	return false
}

// adjustments returns the allowances and charges of the invoice that p
// creates, each with its effective tax, rate in its shortest form: its
// own, or else defaultTax, the workspace's (nil: none), as an item takes
// it (invoiceItems).
func (p *InvoiceParams) adjustments(defaultTax *billingv1.Tax) ([]billingv1.DocumentAllowance, []billingv1.DocumentCharge) {
	spec := &billingv1.InvoiceSpec{}
	for _, a := range p.Allowances {
		spec.Allowances = append(spec.Allowances, a.allowance())
	}
	for _, c := range p.Charges {
		spec.Charges = append(spec.Charges, c.charge())
	}
	taxes := billing.EffectiveDocumentTaxes(spec, defaultTax).Normalized()
	for i := range spec.Allowances {
		spec.Allowances[i].Tax = taxes.Allowances[i]
	}
	for i := range spec.Charges {
		spec.Charges[i].Tax = taxes.Charges[i]
	}
	return spec.Allowances, spec.Charges
}

// invoiceItems returns the line items of the invoice that p creates, each
// with its effective tax, rate in its shortest form: its own, or else
// defaultTax, the workspace's (nil: none); and the invoice's amounts, which
// the create answers. The invoice is created with
// them and with spec.defaultTaxFrom None, so that it is issued with the
// amounts the create answers, whatever the profile says by then.
//
// It checks what depends on every item's tax (billing.InvoiceAmounts): an
// invoice with an item of category O has only such items; the items of one
// category and rate share one exemption reason; the total, tax included,
// is at most billing.MaxTotal. A broken rule is a 422 on the field at fault,
// items[i].tax.<field>; or on items[i].tax, the first item that took the
// default tax, when the default tax is what breaks it. It checks p's
// discounts, allowances and charges with the items (adjustmentError): a
// discount above its line's gross, or an allowance above its tax group's
// base, is 422 allowance_exceeds_base.
func invoiceItems(p *InvoiceParams, defaultTax *billingv1.Tax) ([]billingv1.LineItem, billing.Amounts, *Error) {
	items := make([]billingv1.LineItem, len(p.Items))
	for i, it := range p.Items {
		items[i] = billingv1.LineItem{Description: it.Description, Quantity: it.Quantity,
			UnitCode: billingv1.UnitCode(it.UnitCode), Amount: it.Amount, Discount: it.Discount.discount(), Tax: it.Tax.crd()}
	}
	spec := &billingv1.InvoiceSpec{Items: items}
	spec.Allowances, spec.Charges = p.adjustments(defaultTax)
	taxes := billing.EffectiveDocumentTaxes(spec, defaultTax).Normalized()
	amounts, err := billing.InvoiceAmounts(spec, taxes)
	var line *billing.TaxLineError
	var adj *billing.AdjustmentError
	switch {
	case errors.As(err, &line):
		return nil, billing.Amounts{}, taxRuleError(billing.TaxFaultOf(spec, defaultTax, err), defaultTax)
	case errors.As(err, &adj):
		return nil, billing.Amounts{}, adjustmentError(adj)
	case errors.Is(err, billing.ErrTotalTooLarge):
		return nil, billing.Amounts{}, totalTooLarge()
	case err != nil:
		// billing.Total's errors on negative numbers, which DecodeInvoice
		// has refused.
		return nil, billing.Amounts{}, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "items",
			"The invoice's amounts cannot be computed: %s.", err)
	}
	for i := range items {
		items[i].Tax = taxes.Items[i]
	}
	return items, amounts, nil
}

// adjustmentError is the 422 of err, a discount, allowance or charge at
// fault: allowance_exceeds_base when it is above its base, else
// parameter_invalid on its field (its tax, missing, present when no line
// has tax, or breaking a rule of its category).
func adjustmentError(err *billing.AdjustmentError) *Error {
	if errors.Is(err, billing.ErrAllowanceExceedsBase) {
		return errorf(http.StatusUnprocessableEntity, CodeAllowanceExceedsBase, err.Param,
			"%s: %s.", err.Param, err.Err)
	}
	var field *billing.TaxFieldError
	if errors.As(err, &field) {
		return taxFieldError(err.Param, field)
	}
	return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, err.Param, "%s %s.", err.Param, err.Err)
}

// totalTooLarge is the 422 of an invoice whose total exceeds
// billing.MaxTotal.
func totalTooLarge() *Error {
	return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "items",
		"The invoice total, tax included, exceeds %d minor units (2^53-1).", int64(billing.MaxTotal))
}

// taxRuleError is the 422 of fault, a rule that the items' effective
// taxes break (billing.TaxFaultOf decides whose): on the field at fault,
// or, when the default tax is at fault, on the tax of the item that took
// it, saying so.
func taxRuleError(fault billing.TaxFault, defaultTax *billingv1.Tax) *Error {
	if fault.DefaultAt < 0 {
		return taxFieldError(join(itemPath(fault.Err.Index), "tax"), fault.Err.Err)
	}
	item := itemPath(fault.DefaultAt)
	return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, join(item, "tax"),
		"%s has no tax of its own, so it takes the workspace's default tax (spec.defaultTax of the BillingProfile %q: %s), "+
			"and with it the invoice breaks a tax rule: %s. Give %s a tax of its own, or change the workspace's default tax.",
		item, billingv1.DefaultBillingProfileName, describeTax(defaultTax), fault.Err, item)
}

// describeTax writes t for a message: `category S, rate 19`.
func describeTax(t *billingv1.Tax) string {
	s := "category " + string(t.Category)
	if t.Rate != nil {
		s += ", rate " + *t.Rate
	}
	if t.ExemptionReason != "" {
		s += fmt.Sprintf(", exemption reason %q", t.ExemptionReason)
	}
	return s
}
