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

// WriteOffPhase is where a write-off is in its life.
// +kubebuilder:validation:Enum=Pending;Recorded;Rejected
type WriteOffPhase string

const (
	// WriteOffPending means the controller has not entered it yet.
	WriteOffPending WriteOffPhase = "Pending"
	// WriteOffRecorded means what remained of the invoice is written off:
	// the invoice is uncollectible.
	WriteOffRecorded WriteOffPhase = "Recorded"
	// WriteOffRejected means it never will be: nothing remained of the
	// invoice (NothingRemaining), or a sealed record's name (AlreadySealed).
	WriteOffRejected WriteOffPhase = "Rejected"
)

// WriteOffSpec writes off what remains of an issued invoice, a bad debt.
// It cannot be changed once the write-off exists.
type WriteOffSpec struct {
	// invoiceRef names the issued Invoice, in the same namespace, written
	// off.
	// +required
	InvoiceRef InvoiceReference `json:"invoiceRef"`

	// reason says why the invoice will not be paid, 1 to 500 characters.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=500
	Reason string `json:"reason"`
}

// WriteOffStatus is the controller's record of a write-off. Once recorded
// or rejected, nothing in it changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.recordedAt) || (has(self.recordedAt) && self.recordedAt == oldSelf.recordedAt)",message="status.recordedAt cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type WriteOffStatus struct {
	// conditions describe the write-off's state in the standard Kubernetes
	// way: "Ready" is True once it is recorded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, then Recorded or Rejected.
	// +optional
	Phase WriteOffPhase `json:"phase,omitempty"`

	// customerName is the invoice's customer.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	CustomerName string `json:"customerName,omitempty"`

	// currency is the invoice's currency.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	Currency string `json:"currency,omitempty"`

	// amount is what remained of the invoice when the write-off was
	// entered: what it wrote off, in minor units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount *int64 `json:"amount,omitempty"`

	// recordedAt is when the write-off was entered in the invoice's ledger.
	// +optional
	RecordedAt *metav1.Time `json:"recordedAt,omitempty"`

	// events are the workspace's events about this write-off:
	// invoice.marked_uncollectible, written together with phase Recorded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// display is the amount written off for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *AmountDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// WriteOff writes off what remains of an issued Invoice in the same
// namespace: the invoice becomes uncollectible, is no longer overdue and
// gets no more reminders. A payment recorded later recovers it. Its spec
// is immutable.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wo,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Amount",type=string,JSONPath=`.status.display.amount`,description="The amount written off, in its currency"
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type WriteOff struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// write-off's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the write-off. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: a write-off is a record; a later payment recovers it"
	Spec WriteOffSpec `json:"spec"`

	// status is the controller's record.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status WriteOffStatus `json:"status,omitempty"`
}

// WriteOffList contains a list of WriteOff.
// +kubebuilder:object:root=true
type WriteOffList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WriteOff `json:"items"`
}

func init() {
	register(&WriteOff{}, &WriteOffList{})
}
