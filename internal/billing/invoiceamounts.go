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

// This file is an invoice's amounts as its status holds them, decided
// once: the one writer of the amounts into a status (SetAmounts), which the
// controller freezes at issue, the create's answer shows and TotalsOf
// reads back; and whose tax breaks which rule when they cannot be
// computed (TaxFaultOf).

// SetAmounts writes amounts, computed from spec with taxes (the
// effective tax of each item, allowance and charge, nil: none), into
// status: subtotal, tax total and total always; the tax breakdown and each
// item's tax, rates in their shortest form, only when a line has tax (both
// nil otherwise); the allowances and charges as applied, and their totals,
// only when spec has some.
func SetAmounts(status *billingv1.InvoiceStatus, spec *billingv1.InvoiceSpec, amounts Amounts, taxes DocumentTaxes) {
	subtotal, taxTotal, total := amounts.Subtotal, amounts.TaxTotal, amounts.Total
	status.Subtotal, status.TaxTotal, status.Total = &subtotal, &taxTotal, &total
	status.TaxBreakdown, status.Items = nil, nil
	status.Allowances, status.Charges, status.AllowanceTotal, status.ChargeTotal = nil, nil, nil, nil
	normalized := taxes.Normalized()
	if len(spec.Allowances) > 0 {
		at := amounts.AllowanceTotal
		status.AllowanceTotal = &at
		status.Allowances = make([]billingv1.AppliedAllowanceCharge, len(spec.Allowances))
		for i, a := range spec.Allowances {
			status.Allowances[i] = applied(amounts.Allowances[i], a.Percent, a.Reason, string(a.ReasonCode), taxAt(normalized.Allowances, i))
		}
	}
	if len(spec.Charges) > 0 {
		ct := amounts.ChargeTotal
		status.ChargeTotal = &ct
		status.Charges = make([]billingv1.AppliedAllowanceCharge, len(spec.Charges))
		for i, c := range spec.Charges {
			status.Charges[i] = applied(amounts.Charges[i], c.Percent, c.Reason, string(c.ReasonCode), taxAt(normalized.Charges, i))
		}
	}
	if len(amounts.TaxBreakdown) == 0 {
		return
	}
	status.TaxBreakdown = Breakdown(amounts.TaxBreakdown)
	status.Items = make([]billingv1.InvoiceItemStatus, len(normalized.Items))
	for i, t := range normalized.Items {
		status.Items[i].Tax = t
	}
}

// applied is the status of an allowance or charge as computed.
func applied(a AppliedAdjustment, percent *billingv1.Percent, reason, code string, tax *billingv1.Tax) billingv1.AppliedAllowanceCharge {
	out := billingv1.AppliedAllowanceCharge{Amount: a.Amount, Reason: reason, ReasonCode: code, Tax: tax}
	if percent != nil {
		p := *percent
		out.Percent = &p
	}
	if a.Base != nil {
		b := *a.Base
		out.Base = &b
	}
	return out
}

// taxAt is taxes[i], nil beyond its end.
func taxAt(taxes []*billingv1.Tax, i int) *billingv1.Tax {
	if i < len(taxes) {
		return taxes[i]
	}
	return nil
}

// ClearAmounts removes every amount from status: they cannot be computed.
func ClearAmounts(status *billingv1.InvoiceStatus) {
	status.Subtotal, status.TaxTotal, status.Total = nil, nil, nil
	status.TaxBreakdown, status.Items = nil, nil
	status.Allowances, status.Charges, status.AllowanceTotal, status.ChargeTotal = nil, nil, nil, nil
}

// TaxFault is whose tax breaks which rule when the amounts of an invoice's
// items with their effective taxes (each item's own, or else the default
// tax) cannot be computed.
//
// Two answers read it, each as it has always been given:
//
//   - the controller's verdict on an invoice made with kubectl asks
//     whether a new default could still issue it: not when the items'
//     own taxes, as the invoice holds them (an item without one is a line
//     without tax), break a rule (Own): the invoice is Stalled;
//   - the 422 of POST /v1/invoices names the field to fix: the tax of the
//     item that took the default (DefaultAt) when the item at fault took
//     it, or when the items' own taxes, those without one left out, keep
//     the rules among themselves; else the field at fault (Err).
//
// The two differ in two corners, pinned by the tests: an item without tax
// next to one of category O under another default (a new default O would
// issue it; the controller says Stalled, the 422 names the default), and an item at fault that took
// the default while the own taxes break a rule as well (the controller says
// Stalled, the 422 names the default). Bringing them to one rule changes
// an answer a client sees, so it is left to an issue of its own.
type TaxFault struct {
	// Err is the rule the effective taxes break, at the first item at
	// fault; nil when the amounts fail for another reason.
	Err *TaxLineError
	// Own is the error of the amounts of the items' own taxes as the
	// invoice holds them, nil when they can be computed or fail only on
	// their total (ErrTotalTooLarge).
	Own error
	// DefaultAt is the item whose default tax the 422 names, -1 when the
	// 422 names the field at fault (Err).
	DefaultAt int
}

// TaxFaultOf decides whose tax breaks which rule: err is the error, not
// ErrTotalTooLarge, of the amounts of spec with its effective taxes,
// defaultTax (nil: none) standing for the tax of the items without one.
func TaxFaultOf(spec *billingv1.InvoiceSpec, defaultTax *billingv1.Tax, err error) TaxFault {
	fault := TaxFault{DefaultAt: -1}
	items := spec.Items
	own := EffectiveDocumentTaxes(spec, nil)
	if _, ownErr := InvoiceAmounts(spec, own); ownErr != nil && !errors.Is(ownErr, ErrTotalTooLarge) {
		fault.Own = ownErr
	}
	if !errors.As(err, &fault.Err) || defaultTax == nil {
		return fault
	}
	switch {
	case items[fault.Err.Index].Tax == nil:
		fault.DefaultAt = fault.Err.Index
	case ownTaxesKeepTheRules(items):
		fault.DefaultAt = firstWithoutTax(items)
	}
	return fault
}

// ownTaxesKeepTheRules reports whether the taxes that items have of their
// own keep the rules across items among themselves, the items without one
// left out.
func ownTaxesKeepTheRules(items []billingv1.LineItem) bool {
	var own []*LineTax
	for _, it := range items {
		if it.Tax == nil {
			continue
		}
		tax, err := LineTaxOf(it.Tax)
		if err != nil {
			return false
		}
		own = append(own, tax)
	}
	return ValidateTaxes(own) == nil
}

// firstWithoutTax is the index of the first of items without a tax of its
// own, -1 when all have one.
func firstWithoutTax(items []billingv1.LineItem) int {
	for i, it := range items {
		if it.Tax == nil {
			return i
		}
	}
	return -1
}
