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

// PeriodClosePhase is where a period close is in its life.
// +kubebuilder:validation:Enum=Pending;Closed;Superseded;Invalid
type PeriodClosePhase string

const (
	// PeriodClosePending means the controller has not closed it yet, or
	// its moment is not past yet.
	PeriodClosePending PeriodClosePhase = "Pending"
	// PeriodCloseClosed means it moved its workspace's closed_through
	// forward to status.closedThrough. It stays Closed.
	PeriodCloseClosed PeriodClosePhase = "Closed"
	// PeriodCloseSuperseded means the workspace was already closed through
	// its moment or later (reason AlreadyClosed); it changed nothing.
	PeriodCloseSuperseded PeriodClosePhase = "Superseded"
	// PeriodCloseInvalid means spec.through is no month, day or instant, or
	// the workspace's time zone is unknown (reason InvalidThrough).
	PeriodCloseInvalid PeriodClosePhase = "Invalid"
)

// PeriodCloseSpec closes a workspace's books through a moment. It cannot be
// changed once created.
type PeriodCloseSpec struct {
	// through closes everything dated up to a moment: a month "YYYY-MM"
	// (through its end), a day "YYYY-MM-DD" (through its end), both in the
	// workspace's time zone (BillingProfile spec.timeZone, default UTC), or
	// an RFC 3339 instant such as "2026-10-31T23:59:59Z".
	// +required
	// +kubebuilder:validation:MinLength=7
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}(-[0-9]{2}([Tt][0-9:.]+([Zz]|[+-][0-9]{2}:[0-9]{2}))?)?$`
	Through string `json:"through"`
}

// PeriodCloseStatus is the controller's record of a period close.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.closedThrough) || (has(self.closedThrough) && self.closedThrough == oldSelf.closedThrough)",message="status.closedThrough cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type PeriodCloseStatus struct {
	// conditions describe the close in the standard Kubernetes way:
	// "Ready" is True once it closed the books.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, then Closed, Superseded or Invalid.
	// +optional
	Phase PeriodClosePhase `json:"phase,omitempty"`

	// closedThrough is spec.through resolved to an instant in the
	// workspace's time zone: the last moment it closes (a month or day
	// closes through its end, the instant itself is closed).
	// +optional
	ClosedThrough *metav1.Time `json:"closedThrough,omitempty"`

	// closedAt is when the controller closed the books.
	// +optional
	ClosedAt *metav1.Time `json:"closedAt,omitempty"`

	// events are the workspace's events about this close: period.closed,
	// written together with phase Closed.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// PeriodClose closes a workspace's books through a moment, for good: no
// payment may be dated in the closed span, and the settled records of it
// are sealed into LedgerSeals. Closes only move forward: the workspace is
// closed through the latest one.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pclose,categories=invoicing
// +kubebuilder:printcolumn:name="Through",type=string,JSONPath=`.spec.through`
// +kubebuilder:printcolumn:name="Closed-Through",type=string,JSONPath=`.status.closedThrough`,description="The instant the books are closed through"
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type PeriodClose struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// close's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the moment to close through. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: books close only forward; create a new PeriodClose instead"
	Spec PeriodCloseSpec `json:"spec"`

	// status is the controller's record.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status PeriodCloseStatus `json:"status,omitempty"`
}

// PeriodCloseList contains a list of PeriodClose.
// +kubebuilder:object:root=true
type PeriodCloseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PeriodClose `json:"items"`
}

func init() {
	register(&PeriodClose{}, &PeriodCloseList{})
}
