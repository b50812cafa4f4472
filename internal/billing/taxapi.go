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

// InvoiceAmounts computes the amounts (ComputeAmounts) of items with
// taxes, the effective tax of each item in the same order (nil: none;
// taxes may be nil for items without any tax). A rate that does not
// parse, or a tax that breaks a rule, is a *TaxLineError with the index of
// its item.
func InvoiceAmounts(items []billingv1.LineItem, taxes []*billingv1.Tax) (Amounts, error) {
	lines := make([]TaxedLine, len(items))
	for i, it := range items {
		lines[i] = TaxedLine{Quantity: it.Quantity, Amount: it.Amount}
		if i >= len(taxes) {
			continue
		}
		tax, err := LineTaxOf(taxes[i])
		if err != nil {
			var field *TaxFieldError
			if !errors.As(err, &field) {
				field = &TaxFieldError{Field: TaxFieldRate, Message: err.Error()}
			}
			return Amounts{}, &TaxLineError{Index: i, Err: field}
		}
		lines[i].Tax = tax
	}
	return ComputeAmounts(lines)
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
