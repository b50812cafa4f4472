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

// The hash chain of a workspace's sealed records (docs/ledger.md#seals).
// Everything in a LedgerSeal's spec is pinned so that anyone can check the
// chain without this code.

// ZeroHash is spec.previousHash of a workspace's first seal: 64 zeros.
const ZeroHash = "0000000000000000000000000000000000000000000000000000000000000000"

// SealNamePrefix starts every LedgerSeal's name: "seal-" and its sequence
// in six digits or more, "seal-000001".
const SealNamePrefix = "seal-"

// SealCounts is how many records of each kind a seal holds.
type SealCounts struct {
	// invoices is the number of Invoices in the seal, 1 or more.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	Invoices int32 `json:"invoices"`

	// creditNotes is the number of CreditNotes in the seal.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	CreditNotes int32 `json:"creditNotes"`

	// payments is the number of Payments in the seal.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	Payments int32 `json:"payments"`

	// creditApplications is the number of CreditApplications in the seal:
	// each is sealed with the invoice its credit was applied to. Absent in
	// seals made before credit applications were sealed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	CreditApplications int32 `json:"creditApplications,omitempty"`

	// writeOffs is the number of WriteOffs in the seal: each is sealed
	// with the invoice it wrote off. Absent in seals made before write-offs
	// were sealed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	WriteOffs int32 `json:"writeOffs,omitempty"`

	// refunds is the number of Refunds in the seal: each is sealed once
	// the period it is dated in is closed. Absent in seals made before
	// refunds were sealed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	Refunds int32 `json:"refunds,omitempty"`

	// emails is the number of Emails in the seal: each is sealed with the
	// record it sent once it is final (Sent, Failed or Skipped). Absent in
	// seals made before e-mails were sealed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000
	Emails int32 `json:"emails,omitempty"`
}

// LedgerSealSpec is one link of a workspace's hash chain: settled records
// of closed periods, compressed, and the hashes that chain them. It is
// written once, by the manager, and never changes.
// +kubebuilder:validation:XValidation:rule="self.shortHash == self.hash.substring(0, 12)",message="shortHash is the first 12 characters of hash"
type LedgerSealSpec struct {
	// sequence is the seal's place in its workspace's chain: 1, 2, 3, ...
	// without a gap.
	// +required
	// +kubebuilder:validation:Minimum=1
	Sequence int64 `json:"sequence"`

	// payload is the standard base64 (with padding) of the gzip (RFC 1952)
	// of the sealed records: UTF-8 JSON lines, one record per line, each
	// the object as the API server stored it without managedFields,
	// resourceVersion, generation and finalizers. Whole families (an
	// invoice, then its credit notes, then its payments), in invoice-number
	// order.
	// +required
	// +kubebuilder:validation:MinLength=4
	// +kubebuilder:validation:MaxLength=1048576
	Payload string `json:"payload"`

	// payloadSHA256 is the lower-case hex SHA-256 of the uncompressed
	// payload bytes.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{64}$`
	PayloadSHA256 string `json:"payloadSHA256"` //nolint:kubeapilinter // the pattern bounds the length

	// previousHash is the previous seal's hash, or 64 zeros for seal 1.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{64}$`
	PreviousHash string `json:"previousHash"` //nolint:kubeapilinter // the pattern bounds the length

	// hash is the lower-case hex SHA-256 of the ASCII text
	// "<namespace>\n<sequence>\n<previousHash>\n<payloadSHA256>\n".
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{64}$`
	Hash string `json:"hash"` //nolint:kubeapilinter // the pattern bounds the length

	// shortHash is the first 12 characters of hash, for kubectl's column.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{12}$`
	ShortHash string `json:"shortHash"` //nolint:kubeapilinter // the pattern bounds the length

	// counts is how many records of each kind the payload holds.
	// +required
	Counts SealCounts `json:"counts"`

	// closedThrough is the workspace's closed_through when the seal was
	// made: every invoice in it was issued at or before it.
	// +required
	ClosedThrough metav1.Time `json:"closedThrough"`

	// firstInvoiceNumber is the number of the seal's first invoice.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	FirstInvoiceNumber string `json:"firstInvoiceNumber"`

	// lastInvoiceNumber is the number of the seal's last invoice.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	LastInvoiceNumber string `json:"lastInvoiceNumber"`
}

// LedgerSealStatus is the manager's record of a seal: its event.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type LedgerSealStatus struct {
	// events are the workspace's events about this seal: ledger.sealed,
	// written once the seal is verified.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`
}

// LedgerSeal holds settled records of a workspace's closed periods,
// compressed and hash-chained to the seal before it. Only the manager
// writes one; nobody changes or deletes it but with its workspace.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=seal;seals,categories=invoicing
// +kubebuilder:printcolumn:name="Sequence",type=integer,JSONPath=`.spec.sequence`
// +kubebuilder:printcolumn:name="Invoices",type=integer,JSONPath=`.spec.counts.invoices`
// +kubebuilder:printcolumn:name="Credit-Notes",type=integer,JSONPath=`.spec.counts.creditNotes`
// +kubebuilder:printcolumn:name="Payments",type=integer,JSONPath=`.spec.counts.payments`
// +kubebuilder:printcolumn:name="Credit-Applications",type=integer,JSONPath=`.spec.counts.creditApplications`,priority=1
// +kubebuilder:printcolumn:name="Write-Offs",type=integer,JSONPath=`.spec.counts.writeOffs`,priority=1
// +kubebuilder:printcolumn:name="Refunds",type=integer,JSONPath=`.spec.counts.refunds`,priority=1
// +kubebuilder:printcolumn:name="Emails",type=integer,JSONPath=`.spec.counts.emails`,priority=1
// +kubebuilder:printcolumn:name="Hash",type=string,JSONPath=`.spec.shortHash`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type LedgerSeal struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is
	// "seal-" and the sequence in six digits or more.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the seal. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: a seal is a link of the workspace's hash chain"
	Spec LedgerSealSpec `json:"spec"`

	// status holds the seal's event.
	// +optional
	Status LedgerSealStatus `json:"status,omitempty"`
}

// LedgerSealList contains a list of LedgerSeal.
// +kubebuilder:object:root=true
type LedgerSealList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LedgerSeal `json:"items"`
}

func init() {
	register(&LedgerSeal{}, &LedgerSealList{})
}
