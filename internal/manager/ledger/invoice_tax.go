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

package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// effectiveTaxes returns the tax of each of inv's items, allowances and
// charges: its own, or else the profile's defaultTax, unless
// spec.defaultTaxFrom is None (the HTTP API resolved the default at create
// time) or there is no profile or no default. A nil entry is a part
// without tax.
func effectiveTaxes(inv *billingv1.Invoice, profile *billingv1.BillingProfile) billing.DocumentTaxes {
	return billing.EffectiveDocumentTaxes(&inv.Spec, defaultTax(inv, profile))
}

// defaultTax is the tax of inv's items without one of their own (nil:
// none): profile's defaultTax, unless spec.defaultTaxFrom is None.
func defaultTax(inv *billingv1.Invoice, profile *billingv1.BillingProfile) *billingv1.Tax {
	if inv.Spec.DefaultTaxFrom != billingv1.DefaultTaxNone && profile != nil {
		return profile.Spec.DefaultTax
	}
	return nil
}

// invoiceAmounts computes the amounts of inv's items with taxes, its
// effective taxes under profile, or says why they cannot be: TotalTooLarge
// (Stalled), or InvalidTax, Stalled when the items' own taxes break a rule
// (the spec is immutable) and Reconciling when only the profile's default
// does (a new default issues the invoice): billing.TaxFaultOf decides.
func invoiceAmounts(inv *billingv1.Invoice, profile *billingv1.BillingProfile,
	taxes billing.DocumentTaxes) (billing.Amounts, *reconciler.Verdict) {
	amounts, err := billing.InvoiceAmounts(&inv.Spec, taxes)
	if err == nil {
		return amounts, nil
	}
	if errors.Is(err, billing.ErrTotalTooLarge) {
		return amounts, &reconciler.Verdict{Reason: billingv1.ReasonTotalTooLarge, Message: err.Error(), Also: billingv1.ConditionStalled}
	}
	if errors.Is(err, billing.ErrAllowanceExceedsBase) {
		return amounts, &reconciler.Verdict{Reason: billingv1.ReasonAllowanceExceedsBase,
			Message: fmt.Sprintf("%v; create a new invoice", err), Also: billingv1.ConditionStalled}
	}
	if fault := billing.TaxFaultOf(&inv.Spec, defaultTax(inv, profile), err); fault.Own != nil {
		return amounts, &reconciler.Verdict{Reason: billingv1.ReasonInvalidTax,
			Message: fmt.Sprintf("The items' taxes break a rule: %v; create a new invoice", fault.Own), Also: billingv1.ConditionStalled}
	}
	return amounts, &reconciler.Verdict{Reason: billingv1.ReasonInvalidTax,
		Message: fmt.Sprintf("With the BillingProfile's defaultTax the items' taxes break a rule: %v; "+
			"the invoice is issued when the default no longer does", err), Also: billingv1.ConditionReconciling}
}

// missingTaxIDs names the tax ids that an invoice with taxes needs and
// lacks: a line of category AE (reverse charge) or K (intra-community
// supply) needs the issuer's (the profile's spec.issuer.taxId) and the
// customer's (spec.taxId). It returns nil when none is missing.
func missingTaxIDs(taxes billing.DocumentTaxes, profile *billingv1.BillingProfile, customer *billingv1.Customer) []string {
	needs := false
	for _, t := range slices.Concat(taxes.Items, taxes.Allowances, taxes.Charges) {
		if t != nil && billing.RequiresTaxIDs(t.Category) {
			needs = true
			break
		}
	}
	if !needs {
		return nil
	}
	var missing []string
	if profile == nil || profile.Spec.Issuer == nil || profile.Spec.Issuer.TaxID == "" {
		missing = append(missing, fmt.Sprintf("the BillingProfile %q's spec.issuer.taxId", billingv1.DefaultBillingProfileName))
	}
	if customer.Spec.TaxID == "" {
		missing = append(missing, fmt.Sprintf("Customer %q's spec.taxId", customer.Name))
	}
	return missing
}

// taxIDsMessage is the message of TaxIDRequired for the missing ids.
func taxIDsMessage(missing []string) string {
	return fmt.Sprintf("A line of tax category AE (reverse charge) or K (intra-community supply) needs "+
		"the issuer's and the customer's tax ids; missing: %s. The invoice is issued as soon as they are set",
		strings.Join(missing, " and "))
}
