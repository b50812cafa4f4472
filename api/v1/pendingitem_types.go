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

// AnnotationPendingItems is the annotation of an invoice a schedule issued
// that names the PendingItems it took, separated by commas, written with
// the invoice's create: after a crash between the create and the pending
// items' status, it says which invoice took which.
const AnnotationPendingItems = "billing.invoicing.dev/pending-items"

// InvoiceScheduleReference names an InvoiceSchedule in the same namespace.
type InvoiceScheduleReference struct {
	// name is the metadata.name of an InvoiceSchedule in the same
	// namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=244
	Name string `json:"name"`
}

// PendingItemSpec is a one-off line for a schedule's next invoice.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a pending item's spec is immutable: delete it while it is pending, and create another"
type PendingItemSpec struct {
	// scheduleRef names the InvoiceSchedule whose next invoice takes the
	// line.
	// +required
	ScheduleRef InvoiceScheduleReference `json:"scheduleRef"`

	// item is the line, as an invoice's items hold one: description,
	// quantity, unit, amount, discount and tax.
	// +required
	Item LineItem `json:"item"`
}

// PendingItemPhase is where a pending item is.
// +kubebuilder:validation:Enum=Pending;Taken;Invalid
type PendingItemPhase string

// The phases of a pending item.
const (
	// PendingItemPending waits for its schedule's next invoice (also while
	// the schedule is paused, or after it ended: it is then never taken).
	PendingItemPending PendingItemPhase = "Pending"
	// PendingItemTaken is a line of the invoice status.invoice names.
	PendingItemTaken PendingItemPhase = "Taken"
	// PendingItemInvalid cannot be invoiced with its schedule's template
	// (status.message says why) and is never taken.
	PendingItemInvalid PendingItemPhase = "Invalid"
)

// PendingItemStatus says whether an invoice took the item.
type PendingItemStatus struct {
	// conditions are Ready (True, Taken, once an invoice took it) and, for
	// an Invalid item, Ready False and Stalled True (InvalidPendingItem);
	// none while it waits.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, Taken or Invalid; empty until the controller has
	// seen the item.
	// +optional
	Phase PendingItemPhase `json:"phase,omitempty"`

	// invoice is the name of the invoice that took the item: set once,
	// never changed.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Invoice string `json:"invoice,omitempty"`

	// takenAt is when the invoice that took it was created.
	// +optional
	TakenAt *metav1.Time `json:"takenAt,omitempty"`

	// message says why an Invalid item cannot be invoiced.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Message string `json:"message,omitempty"`

	// observedGeneration is the metadata.generation the status was written
	// for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// PendingItem is a one-off line that the next invoice of its
// InvoiceSchedule takes, exactly once: the schedule's controller writes its
// name on that invoice (AnnotationPendingItems) in the invoice's create,
// and the invoice's name in its status.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pitem,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.scheduleRef.name`
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=`.spec.scheduleRef.name`
// +kubebuilder:printcolumn:name="Description",type=string,JSONPath=`.spec.item.description`
// +kubebuilder:printcolumn:name="Amount",type=integer,JSONPath=`.spec.item.amount`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.status.invoice`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type PendingItem struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// item's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the line and its schedule.
	// +required
	Spec PendingItemSpec `json:"spec"`

	// status is the controller's account.
	// +optional
	Status PendingItemStatus `json:"status,omitempty"`
}

// PendingItemList contains a list of PendingItem.
// +kubebuilder:object:root=true
type PendingItemList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PendingItem `json:"items"`
}

func init() {
	register(&PendingItem{}, &PendingItemList{})
}
