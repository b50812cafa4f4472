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

// UnitCode is a unit of measure of UN/ECE Recommendation 20 (with
// Recommendation 21): two or three upper-case letters and digits, such
// as HUR, DAY, KGM or C62.
// +kubebuilder:validation:MinLength=2
// +kubebuilder:validation:MaxLength=3
// +kubebuilder:validation:Pattern=`^[A-Z0-9]{2,3}$`
type UnitCode string

// UnitOne is the unit code of a plain count, "one": the unit of a line
// that names none.
const UnitOne UnitCode = "C62"

// AppliedAllowanceCharge is a document allowance or charge as issued: its
// amount in minor units, the base a percent was taken of, and its tax in
// force at issue. Frozen with the document.
type AppliedAllowanceCharge struct {
	// amount is the allowance or charge in minor units of the currency.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// percent is the percent given, when it was given as a percent.
	// +optional
	Percent *Percent `json:"percent,omitempty"`

	// base is the amount the percent was taken of (BT-93, BT-100): the net
	// of the lines in its tax category and rate; absent for an amount.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Base *int64 `json:"base,omitempty"`

	// reason says why: 1 to 200 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=200
	Reason string `json:"reason,omitempty"`

	// reasonCode is the reason's code: UNTDID 5189 for an allowance, 7161
	// for a charge.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	ReasonCode string `json:"reasonCode,omitempty"`

	// tax is its tax category and rate; absent when the document has no tax.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}
