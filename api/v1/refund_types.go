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

// RefundPhase is where a refund is in its life.
// +kubebuilder:validation:Enum=Pending;Recorded;Rejected
type RefundPhase string

const (
	// RefundPending means the controller has not recorded it yet.
	RefundPending RefundPhase = "Pending"
	// RefundRecorded means it is taken from the customer's credit.
	RefundRecorded RefundPhase = "Recorded"
	// RefundRejected means it never will be: more than the customer's
	// credit in its currency (ExceedsCredit), dated in a closed period
	// (PeriodClosed), or a sealed record's name (AlreadySealed).
	RefundRejected RefundPhase = "Rejected"
)

// RefundSpec is money paid back to a customer out of its credit. It cannot
// be changed once the refund exists.
type RefundSpec struct {
	// customerRef names the Customer, in the same namespace, paid back.
	// +required
	CustomerRef CustomerReference `json:"customerRef"`

	// amount is what was paid back, in minor units of currency: 1 to
	// 9,007,199,254,740,991.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// currency is the ISO 4217 code of the credit paid back.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// refundedAt is when the money was paid back; absent means when the
	// refund was created.
	// +optional
	RefundedAt *metav1.Time `json:"refundedAt,omitempty"`

	// method is how it was paid back: bank_transfer, card, cash, cheque,
	// direct_debit or other (the default).
	// +optional
	// +kubebuilder:default=other
	Method PaymentMethod `json:"method,omitempty"`

	// reference is the bank's or the payee's reference, at most 128
	// characters.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Reference string `json:"reference,omitempty"`
}

// RefundStatus is the controller's record of a refund. Once recorded or
// rejected, nothing in it changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.recordedAt) || (has(self.recordedAt) && self.recordedAt == oldSelf.recordedAt)",message="status.recordedAt cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type RefundStatus struct {
	// conditions describe the refund's state in the standard Kubernetes
	// way: "Ready" is True once it is recorded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, then Recorded or Rejected.
	// +optional
	Phase RefundPhase `json:"phase,omitempty"`

	// currency is the credit's currency, written just before the refund is
	// entered in the customer's credit: from then on it is retained.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	Currency string `json:"currency,omitempty"`

	// recordedAt is when the refund was entered in the customer's credit.
	// +optional
	RecordedAt *metav1.Time `json:"recordedAt,omitempty"`

	// events are the workspace's events about this refund:
	// refund.recorded, written together with phase Recorded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// display is the amount paid back for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *AmountDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Refund records money paid back to a customer out of its credit (its
// money on account). Its spec is immutable; the controller records it
// exactly once, or rejects it.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=rf,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.customerRef.name`
// +kubebuilder:printcolumn:name="Customer",type=string,JSONPath=`.spec.customerRef.name`
// +kubebuilder:printcolumn:name="Amount",type=string,JSONPath=`.status.display.amount`,description="The amount paid back, in its currency"
// +kubebuilder:printcolumn:name="Method",type=string,JSONPath=`.spec.method`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Refund struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// refund's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the money paid back. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: a refund is a fact; record a new one instead"
	Spec RefundSpec `json:"spec"`

	// status is the controller's record.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status RefundStatus `json:"status,omitempty"`
}

// RefundList contains a list of Refund.
// +kubebuilder:object:root=true
type RefundList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Refund `json:"items"`
}

func init() {
	register(&Refund{}, &RefundList{})
}
