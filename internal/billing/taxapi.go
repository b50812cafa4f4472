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
	"errors"
	"fmt"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file converts between the API's taxes (api/v1, rates as strings)
// and this package's (rates as Rate), so that the controller, the HTTP
// adapter and the documents compute an invoice's amounts in one way.

// LineTaxOf returns the LineTax of the API's tax, nil for nil. A rate that
// ParseRate refuses is its *TaxFieldError on "rate"; the category and
// exemption reason are not checked here (ValidateLineTax does).
func LineTaxOf(tax *billingv1.Tax) (*LineTax, error) {
	if tax == nil {
		return nil, nil
	}
	out := &LineTax{Category: tax.Category, ExemptionReason: tax.ExemptionReason}
	if tax.Rate != nil {
		r, err := ParseRate(*tax.Rate)
		if err != nil {
			return nil, err
		}
		out.Rate = &r
	}
	return out, nil
}

// TaxOf returns the API's tax of tax, nil for nil, with the rate in its
// shortest form ("19", not "19.0000").
func TaxOf(tax *LineTax) *billingv1.Tax {
	if tax == nil {
		return nil
	}
	return &billingv1.Tax{
		Category:        tax.Category,
		Rate:            rateString(tax.Rate),
		ExemptionReason: tax.ExemptionReason,
	}
}

// rateString is r in its shortest form, nil for nil.
func rateString(r *Rate) *string {
	if r == nil {
		return nil
	}
	s := r.String()
	return &s
}

// EffectiveTaxes returns the tax of each of items: its own, or else
// defaultTax (nil: none). The result shares no memory with its inputs.
func EffectiveTaxes(items []billingv1.LineItem, defaultTax *billingv1.Tax) []*billingv1.Tax {
	taxes := make([]*billingv1.Tax, len(items))
	for i := range items {
		if items[i].Tax != nil {
			taxes[i] = items[i].Tax.DeepCopy()
		} else {
			taxes[i] = defaultTax.DeepCopy()
		}
	}
	return taxes
}

// DocumentTaxes are the effective taxes of a document's parts, each in
// the order of its list (nil: none; a list may be shorter than its parts
// when the rest have no tax).
type DocumentTaxes struct {
	Items      []*billingv1.Tax
	Allowances []*billingv1.Tax
	Charges    []*billingv1.Tax
}

// EffectiveDocumentTaxes returns the tax of each of spec's items,
// allowances and charges: its own, or else defaultTax (nil: none). The
// result shares no memory with its inputs.
func EffectiveDocumentTaxes(spec *billingv1.InvoiceSpec, defaultTax *billingv1.Tax) DocumentTaxes {
	return DocumentTaxes{
		Items:      EffectiveTaxes(spec.Items, defaultTax),
		Allowances: effective(len(spec.Allowances), func(i int) *billingv1.Tax { return spec.Allowances[i].Tax }, defaultTax),
		Charges:    effective(len(spec.Charges), func(i int) *billingv1.Tax { return spec.Charges[i].Tax }, defaultTax),
	}
}

// effective returns, for each of n parts, its own tax (own(i)) or else
// defaultTax, copied.
func effective(n int, own func(int) *billingv1.Tax, defaultTax *billingv1.Tax) []*billingv1.Tax {
	taxes := make([]*billingv1.Tax, n)
	for i := range taxes {
		if t := own(i); t != nil {
			taxes[i] = t.DeepCopy()
		} else {
			taxes[i] = defaultTax.DeepCopy()
		}
	}
	return taxes
}

// Normalized returns t with each rate in its shortest form (NormalizedTaxes).
func (t DocumentTaxes) Normalized() DocumentTaxes {
	return DocumentTaxes{Items: NormalizedTaxes(t.Items), Allowances: NormalizedTaxes(t.Allowances),
		Charges: NormalizedTaxes(t.Charges)}
}

// InvoiceAmounts computes the amounts (ComputeDocument) of spec's items,
// allowances and charges with taxes, their effective taxes. A rate that
// does not parse, or a tax that breaks a rule, is a *TaxLineError with the
// index of its item, or an *AdjustmentError naming the allowance or charge.
func InvoiceAmounts(spec *billingv1.InvoiceSpec, taxes DocumentTaxes) (Amounts, error) {
	lines := make([]TaxedLine, len(spec.Items))
	for i := range spec.Items {
		it := &spec.Items[i]
		lines[i] = TaxedLine{Quantity: it.Quantity, Amount: it.Amount}
		d, err := DiscountOf(spec.Items, i)
		if err != nil {
			return Amounts{}, err
		}
		lines[i].Discount = d
		if i >= len(taxes.Items) {
			continue
		}
		tax, err := LineTaxOf(taxes.Items[i])
		if err != nil {
			var field *TaxFieldError
			if !errors.As(err, &field) {
				field = &TaxFieldError{Field: TaxFieldRate, Message: err.Error()}
			}
			return Amounts{}, &TaxLineError{Index: i, Err: field}
		}
		lines[i].Tax = tax
	}
	allowances, charges, err := documentAdjustments(spec.Allowances, spec.Charges, taxes)
	if err != nil {
		return Amounts{}, err
	}
	return ComputeDocument(lines, allowances, charges)
}

// documentAdjustments are the adjustments of a document's allowances and
// charges, each with its tax from taxes (adjustmentAt); nil when it has
// none.
func documentAdjustments(allowances []billingv1.DocumentAllowance, charges []billingv1.DocumentCharge,
	taxes DocumentTaxes) (allowanceAdjs, chargeAdjs []Adjustment, err error) {
	for i, a := range allowances {
		adj, err := adjustmentAt("allowances", i, a.Percent, a.Amount, taxes.Allowances)
		if err != nil {
			return nil, nil, err
		}
		allowanceAdjs = append(allowanceAdjs, *adj)
	}
	for i, c := range charges {
		adj, err := adjustmentAt("charges", i, c.Percent, c.Amount, taxes.Charges)
		if err != nil {
			return nil, nil, err
		}
		chargeAdjs = append(chargeAdjs, *adj)
	}
	return allowanceAdjs, chargeAdjs, nil
}

// adjustmentAt is the adjustment of the i-th allowance or charge (kind)
// with its tax from taxes; an *AdjustmentError on its percent or tax rate
// when one does not parse.
func adjustmentAt(kind string, i int, percent *billingv1.Percent, amount *int64, taxes []*billingv1.Tax) (*Adjustment, error) {
	var tax *billingv1.Tax
	if i < len(taxes) {
		tax = taxes[i]
	}
	adj, err := AdjustmentOf(percent, amount, nil)
	if err != nil {
		return nil, &AdjustmentError{Param: fmt.Sprintf("%s[%d].percent", kind, i), Err: err}
	}
	if adj.Tax, err = LineTaxOf(tax); err != nil {
		var field *TaxFieldError
		if !errors.As(err, &field) {
			field = &TaxFieldError{Field: TaxFieldRate, Message: err.Error()}
		}
		return nil, &AdjustmentError{Param: fmt.Sprintf("%s[%d].tax", kind, i), Err: field}
	}
	return adj, nil
}

// Breakdown returns the API's tax breakdown of groups, rates in their
// shortest form; empty, not nil, when groups is.
func Breakdown(groups []TaxGroup) []billingv1.TaxBreakdownEntry {
	out := make([]billingv1.TaxBreakdownEntry, len(groups))
	for i, g := range groups {
		out[i] = billingv1.TaxBreakdownEntry{
			Category:        g.Category,
			Rate:            rateString(g.Rate),
			TaxableAmount:   g.TaxableAmount,
			TaxAmount:       g.TaxAmount,
			ExemptionReason: g.ExemptionReason,
		}
	}
	return out
}

// NormalizedTaxes returns taxes with each rate in its shortest form, for
// a status that shows them; a tax whose rate does not parse is kept as it
// is (InvoiceAmounts refuses it first).
func NormalizedTaxes(taxes []*billingv1.Tax) []*billingv1.Tax {
	out := make([]*billingv1.Tax, len(taxes))
	for i, t := range taxes {
		lt, err := LineTaxOf(t)
		if err != nil {
			out[i] = t.DeepCopy()
			continue
		}
		out[i] = TaxOf(lt)
	}
	return out
}
