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

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PaymentPhase is where a payment is in its life.
// +kubebuilder:validation:Enum=Pending;Recorded;Invalid
type PaymentPhase string

const (
	// PaymentPending means the controller has not yet recorded it.
	PaymentPending PaymentPhase = "Pending"
	// PaymentRecorded means the payment counts in its invoice's balance.
	// A payment is a fact: it is never rejected, and an amount above what
	// remained is recorded as overpaid.
	PaymentRecorded PaymentPhase = "Recorded"
	// PaymentInvalid means the controller will never record it: its
	// paidAt is in a closed period (reason PeriodClosed), or its name is
	// already held by a LedgerSeal (reason AlreadySealed).
	PaymentInvalid PaymentPhase = "Invalid"
)

// PaymentMethod is how a payment was made.
// +kubebuilder:validation:Enum=bank_transfer;card;cash;cheque;direct_debit;other
type PaymentMethod string

// PaymentMethodBankTransfer is a credit transfer to the workspace's
// account, the method of every payment a bank statement records.
const PaymentMethodBankTransfer PaymentMethod = "bank_transfer"

// PaymentSpec is a payment received for an invoice. It cannot be changed
// once the payment exists.
type PaymentSpec struct {
	// invoiceRef names the issued Invoice, in the same namespace, that the
	// payment is for.
	// +required
	InvoiceRef InvoiceReference `json:"invoiceRef"`

	// amount is what was paid, in minor units of the invoice's currency:
	// 1 to 9,007,199,254,740,991.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// currency is the ISO 4217 code of the payment's currency; it must be
	// the invoice's. Absent means the invoice's.
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency,omitempty"` //nolint:kubeapilinter // the pattern bounds the length

	// paidAt is when the payment was made; absent means when it was created.
	// +optional
	PaidAt *metav1.Time `json:"paidAt,omitempty"`

	// method is how it was paid: bank_transfer, card, cash, cheque,
	// direct_debit or other (the default).
	// +optional
	// +kubebuilder:default=other
	Method PaymentMethod `json:"method,omitempty"`

	// reference is the payer's or the bank's reference, at most 128
	// characters.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Reference string `json:"reference,omitempty"`
}

// PaymentStatus is the controller's record of a payment. Once recorded,
// nothing in it changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.recordedAt) || (has(self.recordedAt) && self.recordedAt == oldSelf.recordedAt)",message="status.recordedAt cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type PaymentStatus struct {
	// conditions describe the payment's state in the standard Kubernetes
	// way: "Ready" is True once it is recorded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending until the controller has recorded the payment in its
	// invoice's balance, then Recorded.
	// +optional
	Phase PaymentPhase `json:"phase,omitempty"`

	// customerName is the invoice's customer (spec.customerRef.name).
	// +optional
	// +kubebuilder:validation:MaxLength=253
	CustomerName string `json:"customerName,omitempty"`

	// currency is the invoice's currency.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	Currency string `json:"currency,omitempty"`

	// appliedAmount is the part of amount that settled the invoice.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	AppliedAmount *int64 `json:"appliedAmount,omitempty"`

	// overpaidAmount is the part of amount above what remained to be paid
	// when the payment was recorded: what is owed back.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	OverpaidAmount *int64 `json:"overpaidAmount,omitempty"`

	// recordedAt is when the payment was recorded in the invoice's balance.
	// +optional
	RecordedAt *metav1.Time `json:"recordedAt,omitempty"`

	// events are the workspace's events about this payment:
	// payment.recorded, written together with phase Recorded. An event once
	// recorded never changes.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// display is the payment's amount for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *AmountDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Payment records money received for an Invoice in the same namespace.
// Its spec is immutable; the controller records it in the invoice's
// balance exactly once.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pay,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Amount",type=string,JSONPath=`.status.display.amount`,description="The amount recorded, in its currency"
// +kubebuilder:printcolumn:name="Method",type=string,JSONPath=`.spec.method`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Payment struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// payment's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the payment received. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: a payment is a fact; record a new one instead"
	Spec PaymentSpec `json:"spec"`

	// status is the controller's record.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status PaymentStatus `json:"status,omitempty"`
}

// PaymentList contains a list of Payment.
// +kubebuilder:object:root=true
type PaymentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Payment `json:"items"`
}

func init() {
	register(&Payment{}, &PaymentList{})
}
