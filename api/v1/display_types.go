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

// The money of a record written for people, as `kubectl get` shows it: the
// currency and its major units, "USD 680.50", "JPY 500", "KWD 1.250", the
// same way as a customer's status.credit.summary. The controllers derive it
// from the amounts in minor units next to it; the amounts stay the truth.

// InvoiceDisplay is an invoice's money for people.
type InvoiceDisplay struct {
	// total is status.total in the invoice's currency and major units,
	// "USD 680.50", as kubectl shows it. Derived by the controller.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	Total string `json:"total,omitempty"`

	// amountRemaining is status.balance.amountRemaining in the invoice's
	// currency and major units, "USD 0.00" once it is paid, as kubectl
	// shows it. Set once the invoice is issued. Derived by the controller.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	AmountRemaining string `json:"amountRemaining,omitempty"`
}

// CreditNoteDisplay is a credit note's money for people.
type CreditNoteDisplay struct {
	// total is status.total in the credited invoice's currency and major
	// units, "USD 120.00", as kubectl shows it. Derived by the controller.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	Total string `json:"total,omitempty"`
}

// AmountDisplay is the money of a payment, credit application, refund or
// write-off for people.
type AmountDisplay struct {
	// amount is the amount recorded, in its currency and major units,
	// "USD 680.50", as kubectl shows it. Set once it is recorded (or
	// applied). Derived by the controller.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	Amount string `json:"amount,omitempty"`
}
