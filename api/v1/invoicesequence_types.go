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

// InvoiceSequenceName is the name of the one InvoiceSequence of a workspace.
const InvoiceSequenceName = "invoices"

// MaxSequenceReservations is how many reservations an InvoiceSequence holds
// at most: sequences handed out whose invoices do not carry them yet. It
// keeps the object far below the API server's size limit.
const MaxSequenceReservations = 2048

// SequenceReservation binds one sequence to one invoice until that invoice's
// status carries it.
type SequenceReservation struct {
	// sequence is the reserved sequence, 1 or more.
	// +required
	// +kubebuilder:validation:Minimum=1
	Sequence int64 `json:"sequence"`

	// invoice is the metadata.name of the invoice the sequence is reserved
	// for. Empty when the sequence is free: the invoice it was reserved for
	// was deleted before its number was written, and the next invoice to be
	// numbered takes it, so that no gap appears.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Invoice string `json:"invoice,omitempty"`

	// uid is the metadata.uid of that invoice, so that an invoice deleted and
	// created again under the same name is told apart. Empty when the
	// sequence is free.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	UID string `json:"uid,omitempty"`

	// fact is the event the sequence is reserved for, in a workspace's
	// "events" sequence, where one object (invoice, credit note or payment)
	// takes a sequence for each of its facts; absent in the invoice and
	// credit note series.
	// +optional
	Fact EventType `json:"fact,omitempty"`

	// issuedAt is the issue time that goes with the sequence. Issue times
	// never decrease along the sequence.
	// +required
	IssuedAt metav1.Time `json:"issuedAt"`
}

// InvoiceSequenceSpec is the numbering state of a workspace.
// +kubebuilder:validation:XValidation:rule="self.next >= oldSelf.next",message="next never decreases: a sequence is never handed out twice"
// +kubebuilder:validation:XValidation:rule="!has(self.reserved) || self.reserved.all(r, r.sequence < self.next)",message="every reserved sequence is below next"
type InvoiceSequenceSpec struct {
	// next is the next sequence to hand out. The sequences below it are each
	// either written on exactly one invoice or listed in reserved.
	// +required
	// +kubebuilder:validation:Minimum=1
	Next int64 `json:"next"`

	// lastIssuedAt is the latest issue time handed out. A new sequence is
	// issued no earlier than it, so issue times follow the sequence even when
	// the clocks of two controller replicas disagree.
	// +optional
	LastIssuedAt *metav1.Time `json:"lastIssuedAt,omitempty"`

	// reserved is the journal of sequences handed out whose invoices do not
	// carry them yet, at most 2048. An entry is binding: its invoice gets
	// that sequence and no other, however often it asks. It is removed once
	// the invoice's status carries the sequence.
	// +optional
	// +listType=map
	// +listMapKey=sequence
	// +kubebuilder:validation:MaxItems=2048
	Reserved []SequenceReservation `json:"reserved,omitempty"`
}

// InvoiceSequence is the invoice numbering state of a workspace: the next
// sequence and the journal of sequences reserved but not yet written on
// their invoices. There is one per workspace, named "invoices"; the
// controller creates and updates it, people only read it.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=invseq
// +kubebuilder:printcolumn:name="Next",type=integer,JSONPath=`.spec.next`
// +kubebuilder:printcolumn:name="Last Issued",type=date,JSONPath=`.spec.lastIssuedAt`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type InvoiceSequence struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is "invoices".
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the numbering state. The controller owns it.
	// +required
	Spec InvoiceSequenceSpec `json:"spec"`
}

// InvoiceSequenceList contains a list of InvoiceSequence.
// +kubebuilder:object:root=true
type InvoiceSequenceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InvoiceSequence `json:"items"`
}

func init() {
	register(&InvoiceSequence{}, &InvoiceSequenceList{})
}
