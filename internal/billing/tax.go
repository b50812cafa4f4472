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
	"fmt"
	"unicode/utf8"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The tax categories are api/v1's (billingv1.TaxCategory, the VAT category
// codes of EN 16931, code list UNCL5305, in upper case: "s" is not a
// category). This file names them, once, for error messages and documents.

// taxCategoryNames names each category: "standard rate".
var taxCategoryNames = map[billingv1.TaxCategory]string{
	billingv1.TaxStandard:       "standard rate",
	billingv1.TaxZeroRated:      "zero rated",
	billingv1.TaxExempt:         "exempt",
	billingv1.TaxReverseCharge:  "reverse charge",
	billingv1.TaxIntraCommunity: "intra-community supply",
	billingv1.TaxExport:         "export outside the EU",
	billingv1.TaxNotSubject:     "not subject to tax",
}

// TaxCategories returns every tax category, in the order of api/v1's
// constants.
func TaxCategories() []billingv1.TaxCategory {
	return []billingv1.TaxCategory{
		billingv1.TaxStandard, billingv1.TaxZeroRated, billingv1.TaxExempt, billingv1.TaxReverseCharge,
		billingv1.TaxIntraCommunity, billingv1.TaxExport, billingv1.TaxNotSubject,
	}
}

// TaxCategoryName is c's name in lower case, "reverse charge", as a
// sentence uses it; "" for a code that is not a category.
func TaxCategoryName(c billingv1.TaxCategory) string {
	return taxCategoryNames[c]
}

// ValidTaxCategory reports whether c is one of the tax categories.
func ValidTaxCategory(c billingv1.TaxCategory) bool {
	_, ok := taxCategoryNames[c]
	return ok
}

// RequiresTaxIDs reports whether an invoice with a line of category c must
// show the tax ids of both its issuer and its customer: true for reverse
// charge (AE) and intra-community supply (K) only.
func RequiresTaxIDs(c billingv1.TaxCategory) bool {
	return c == billingv1.TaxReverseCharge || c == billingv1.TaxIntraCommunity
}

// describe writes c with its name, "category AE (reverse charge)".
func describe(c billingv1.TaxCategory) string {
	return fmt.Sprintf("category %s (%s)", string(c), taxCategoryNames[c])
}

// MaxExemptionReason is the most characters (Unicode code points, not
// bytes) an exemption reason may have; it has at least 1 when required.
const MaxExemptionReason = 500

// The fields of a line's tax, as TaxFieldError names them.
const (
	TaxFieldCategory        = "category"
	TaxFieldRate            = "rate"
	TaxFieldExemptionReason = "exemption_reason"
)

// LineTax is the tax of one line item.
type LineTax struct {
	// Category is the line's tax category.
	Category billingv1.TaxCategory
	// Rate is the tax rate: above 0 for S, 0 for Z, E, AE, K and G, and
	// nil (no rate) for O only.
	Rate *Rate
	// ExemptionReason is the reason printed on the invoice why no tax is
	// charged, such as "Reverse charge": required for E, AE, K, G and O,
	// and empty for S and Z.
	ExemptionReason string
}

// TaxFieldError is a line's tax that breaks a rule, and the field at fault:
// TaxFieldCategory, TaxFieldRate or TaxFieldExemptionReason.
type TaxFieldError struct {
	Field string
	// Message says what is wrong, to follow the field's name.
	Message string
}

// Error writes the field followed by the message: "rate must be above 0 ...".
func (e *TaxFieldError) Error() string {
	return e.Field + " " + e.Message
}

// TaxLineError is a TaxFieldError on the line item at Index (from 0) of an
// invoice; errors.As finds the TaxFieldError too.
type TaxLineError struct {
	Index int
	Err   *TaxFieldError
}

// Error writes the item and the field: "item 2: tax rate must be above 0 ...".
func (e *TaxLineError) Error() string {
	return fmt.Sprintf("item %d: tax %s", e.Index, e.Err)
}

// Unwrap returns the TaxFieldError.
func (e *TaxLineError) Unwrap() error {
	return e.Err
}

// fieldError returns a TaxFieldError on field.
func fieldError(field, format string, args ...any) *TaxFieldError {
	return &TaxFieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// ValidateLineTax checks one line's tax against the rules of its category,
// and returns a *TaxFieldError that names the field at fault, or nil:
//
//   - S: a rate above 0, no exemption reason;
//   - Z: a rate of 0 (present), no exemption reason;
//   - E, AE, K and G: a rate of 0 (present) and an exemption reason;
//   - O: no rate, and an exemption reason;
//   - any other category, the empty one included, is an error on category.
//
// An exemption reason has 1 to MaxExemptionReason characters of valid
// UTF-8. A rate must be from 0 to MaxRate. The category is checked first,
// then the rate, then the exemption reason.
func ValidateLineTax(tax LineTax) error {
	if err := checkLineTax(tax); err != nil {
		return err
	}
	return nil
}

// checkLineTax is ValidateLineTax with a concrete error type.
func checkLineTax(tax LineTax) *TaxFieldError {
	c := tax.Category
	if c == "" {
		return fieldError(TaxFieldCategory, "is required: one of S, Z, E, AE, K, G and O")
	}
	if !ValidTaxCategory(c) {
		return fieldError(TaxFieldCategory, "%q is not a tax category: one of S, Z, E, AE, K, G and O", string(c))
	}
	if tax.Rate != nil && !tax.Rate.Valid() {
		return fieldError(TaxFieldRate, "%s is not from 0 to 100", tax.Rate)
	}
	switch c {
	case billingv1.TaxStandard:
		switch {
		case tax.Rate == nil:
			return fieldError(TaxFieldRate, "is required for %s", describe(c))
		case *tax.Rate == 0:
			return fieldError(TaxFieldRate, "must be above 0 for %s; a rate of 0 is category Z (zero rated)", describe(c))
		}
		return checkNoReason(tax)
	case billingv1.TaxZeroRated:
		if err := checkZeroRate(tax); err != nil {
			return err
		}
		return checkNoReason(tax)
	case billingv1.TaxNotSubject:
		if tax.Rate != nil {
			return fieldError(TaxFieldRate, "must be absent for %s", describe(c))
		}
		return checkReason(tax)
	default: // E, AE, K, G
		if err := checkZeroRate(tax); err != nil {
			return err
		}
		return checkReason(tax)
	}
}

// checkZeroRate checks that tax has a rate, of 0.
func checkZeroRate(tax LineTax) *TaxFieldError {
	switch {
	case tax.Rate == nil:
		return fieldError(TaxFieldRate, "is required, and must be 0, for %s", describe(tax.Category))
	case *tax.Rate != 0:
		return fieldError(TaxFieldRate, "must be 0 for %s, not %s", describe(tax.Category), tax.Rate)
	}
	return nil
}

// checkNoReason checks that tax has no exemption reason.
func checkNoReason(tax LineTax) *TaxFieldError {
	if tax.ExemptionReason != "" {
		return fieldError(TaxFieldExemptionReason, "must be empty for %s", describe(tax.Category))
	}
	return nil
}

// checkReason checks that tax has an exemption reason of 1 to
// MaxExemptionReason characters.
func checkReason(tax LineTax) *TaxFieldError {
	reason := tax.ExemptionReason
	switch {
	case reason == "":
		return fieldError(TaxFieldExemptionReason,
			"is required for %s: the reason printed on the invoice why no tax is charged, such as \"Reverse charge\"",
			describe(tax.Category))
	case !utf8.ValidString(reason):
		return fieldError(TaxFieldExemptionReason, "must be valid UTF-8")
	}
	if n := utf8.RuneCountInString(reason); n > MaxExemptionReason {
		return fieldError(TaxFieldExemptionReason, "has %d characters, more than %d", n, MaxExemptionReason)
	}
	return nil
}
