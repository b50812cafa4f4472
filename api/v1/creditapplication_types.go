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

// CreditApplicationPhase is where a credit application is in its life.
// +kubebuilder:validation:Enum=Pending;Applied;Rejected
type CreditApplicationPhase string

const (
	// CreditApplicationPending means the controller has not applied it yet.
	CreditApplicationPending CreditApplicationPhase = "Pending"
	// CreditApplicationApplied means the credit is taken from the customer's
	// credit and counts in the invoice's balance as amountApplied.
	CreditApplicationApplied CreditApplicationPhase = "Applied"
	// CreditApplicationRejected means it never will be: more than the
	// customer's credit (ExceedsCredit), more than the invoice leaves to
	// pay (ExceedsRemaining), or a sealed record's name (AlreadySealed).
	CreditApplicationRejected CreditApplicationPhase = "Rejected"
)

// CreditApplicationSpec applies some of a customer's credit to one of its
// invoices. It cannot be changed once the application exists.
type CreditApplicationSpec struct {
	// invoiceRef names the issued Invoice, in the same namespace, that the
	// credit is applied to; the credit is its customer's, in its currency.
	// +required
	InvoiceRef InvoiceReference `json:"invoiceRef"`

	// amount is how much credit is applied, in minor units of the
	// invoice's currency: 1 to 9,007,199,254,740,991.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// currency is the ISO 4217 code of the credit applied; it must be the
	// invoice's. Absent means the invoice's.
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency,omitempty"` //nolint:kubeapilinter // the pattern bounds the length
}

// CreditApplicationStatus is the controller's record of a credit
// application. Once applied or rejected, nothing in it changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.appliedAt) || (has(self.appliedAt) && self.appliedAt == oldSelf.appliedAt)",message="status.appliedAt cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type CreditApplicationStatus struct {
	// conditions describe the application's state in the standard
	// Kubernetes way: "Ready" is True once it is applied.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, then Applied or Rejected.
	// +optional
	Phase CreditApplicationPhase `json:"phase,omitempty"`

	// customerName is the invoice's customer, whose credit is applied.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	CustomerName string `json:"customerName,omitempty"`

	// currency is the invoice's currency.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	Currency string `json:"currency,omitempty"`

	// appliedAt is when the credit was entered in the invoice's ledger.
	// +optional
	AppliedAt *metav1.Time `json:"appliedAt,omitempty"`

	// events are the workspace's events about this application:
	// credit.applied, written together with phase Applied.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// display is the credit applied for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *AmountDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// CreditApplication applies some of a customer's credit (its money on
// account) to one of its issued invoices in the same namespace. Its spec is
// immutable; the controller applies it exactly once, or rejects it.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=capp,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Customer",type=string,JSONPath=`.status.customerName`
// +kubebuilder:printcolumn:name="Amount",type=string,JSONPath=`.status.display.amount`,description="The credit applied, in its currency"
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type CreditApplication struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// application's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the credit applied. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: apply credit again with a new CreditApplication"
	Spec CreditApplicationSpec `json:"spec"`

	// status is the controller's record.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status CreditApplicationStatus `json:"status,omitempty"`
}

// CreditApplicationList contains a list of CreditApplication.
// +kubebuilder:object:root=true
type CreditApplicationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CreditApplication `json:"items"`
}

func init() {
	register(&CreditApplication{}, &CreditApplicationList{})
}
