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

package v1

// TaxCategory is a VAT category code of EN 16931 (code list UNCL5305).
// +kubebuilder:validation:Enum=S;Z;E;AE;K;G;O
type TaxCategory string

// The tax categories a line item may have.
const (
	// TaxStandard is a taxable supply at a rate above 0.
	TaxStandard TaxCategory = "S"
	// TaxZeroRated is a taxable supply at a rate of 0.
	TaxZeroRated TaxCategory = "Z"
	// TaxExempt is a supply exempt from tax.
	TaxExempt TaxCategory = "E"
	// TaxReverseCharge is a supply on which the customer owes the tax.
	TaxReverseCharge TaxCategory = "AE"
	// TaxIntraCommunity is a supply to another EU member state, exempt.
	TaxIntraCommunity TaxCategory = "K"
	// TaxExport is an export outside the EU, exempt.
	TaxExport TaxCategory = "G"
	// TaxNotSubject is a supply not subject to tax at all.
	TaxNotSubject TaxCategory = "O"
)

// Tax is the tax of a line item: its category, its rate and, when no tax
// is charged, the reason printed on the invoice. The rules are those of
// EN 16931: S has a rate above 0; Z a rate of 0; E, AE, K and G a rate of 0
// and an exemption reason; O no rate and an exemption reason.
// +kubebuilder:validation:XValidation:rule="self.category != 'S' || (has(self.rate) && !self.rate.matches('^0([.]0+)?$'))",message="rate must be above 0 for category S (standard rate); a rate of 0 is category Z (zero rated)",fieldPath=".rate",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="!(self.category in ['Z', 'E', 'AE', 'K', 'G']) || (has(self.rate) && self.rate.matches('^0([.]0+)?$'))",message="rate is required, and must be 0, for categories Z, E, AE, K and G",fieldPath=".rate",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="self.category != 'O' || !has(self.rate)",message="rate must be absent for category O (not subject to tax)",fieldPath=".rate",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="!(self.category in ['S', 'Z']) || !has(self.exemptionReason)",message="exemptionReason must be empty for categories S and Z",fieldPath=".exemptionReason",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="self.category in ['S', 'Z'] || has(self.exemptionReason)",message="exemptionReason is required for categories E, AE, K, G and O: the reason printed on the invoice why no tax is charged, such as \"Reverse charge\"",fieldPath=".exemptionReason",reason=FieldValueRequired
type Tax struct {
	// category is the EN 16931 tax category: S (standard rate), Z (zero
	// rated), E (exempt), AE (reverse charge), K (intra-community supply),
	// G (export outside the EU) or O (not subject to tax).
	// +required
	Category TaxCategory `json:"category"`

	// rate is the tax rate in percent, a decimal from 0 to 100 with at most
	// 4 decimals and no leading zeros, written as a string: "19", "5.5",
	// "8.875", "0". Above 0 for S; 0 for Z, E, AE, K and G; absent for O.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=8
	// +kubebuilder:validation:Pattern=`^(100(\.0{1,4})?|(0|[1-9][0-9]?)(\.[0-9]{1,4})?)$`
	Rate *string `json:"rate,omitempty"`

	// exemptionReason says why no tax is charged, printed on the invoice,
	// for example "Reverse charge" or "Exempt under Article 135(1)(g)":
	// 1 to 500 characters, required for E, AE, K, G and O, and absent for
	// S and Z.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=500
	ExemptionReason string `json:"exemptionReason,omitempty"`
}

// DefaultTaxSource says where the lines of an invoice that have no tax of
// their own take one from.
// +kubebuilder:validation:Enum=Profile;None
type DefaultTaxSource string

const (
	// DefaultTaxFromProfile gives each line without a tax of its own the
	// workspace BillingProfile's spec.defaultTax in force when the invoice
	// is issued (no tax when the profile has none).
	DefaultTaxFromProfile DefaultTaxSource = "Profile"
	// DefaultTaxNone leaves a line without a tax of its own untaxed. The
	// HTTP API writes it: it resolves the profile's default when the
	// invoice is created, so that the total it answers is the total issued.
	DefaultTaxNone DefaultTaxSource = "None"
)

// TaxBreakdownEntry is the tax of one (category, rate) group of an
// invoice's lines.
type TaxBreakdownEntry struct {
	// category is the group's tax category.
	// +required
	Category TaxCategory `json:"category"`

	// rate is the group's rate in percent, in its shortest form ("19", not
	// "19.0000"); absent for category O.
	// +optional
	// +kubebuilder:validation:MaxLength=8
	Rate *string `json:"rate,omitempty"`

	// taxableAmount is the sum of quantity times amount over the group's
	// lines, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	TaxableAmount int64 `json:"taxableAmount"`

	// taxAmount is taxableAmount times rate / 100, rounded once, half away
	// from zero, to a whole minor unit (EN 16931 BR-CO-17); 0 for E, AE, K,
	// G, O and Z.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	TaxAmount int64 `json:"taxAmount"`

	// exemptionReason is the group's exemption reason; absent for S and Z.
	// +optional
	// +kubebuilder:validation:MaxLength=500
	ExemptionReason string `json:"exemptionReason,omitempty"`
}

// InvoiceItemStatus is what the controller decided for one line item.
type InvoiceItemStatus struct {
	// tax is the line's effective tax: its own spec tax, or else the
	// billing profile's defaultTax when the invoice was issued; absent when
	// the line has no tax.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}
