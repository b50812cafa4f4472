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

// EventInvoiceIssued is the type of the event sent when an invoice is
// issued, in webhooks and in the /v1 stream.
const EventInvoiceIssued = "invoice.issued"

// EventsAll in a WebhookEndpoint's spec.events subscribes it to every event
// type, including types added later.
const EventsAll = "*"

// WebhookStalledAfterFailures is how many delivery attempts in a row must
// fail before a WebhookEndpoint is marked Stalled. Delivery goes on retrying
// after that; Stalled tells a person that the receiver needs attention.
const WebhookStalledAfterFailures = 5

// SecretKeyRef names one key of a Secret in the object's own namespace.
type SecretKeyRef struct {
	// name is the metadata.name of the Secret, in the same namespace as the
	// WebhookEndpoint.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// key is the key in the Secret's data whose value is the signing secret.
	// Use at least 32 random bytes.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	Key string `json:"key"`
}

// WebhookEndpointSpec is where and how the workspace's events are pushed.
type WebhookEndpointSpec struct {
	// url is where events are POSTed: an https URL of at most 2048
	// characters. Plain http is accepted only for loopback addresses when the
	// manager runs with --webhook-allow-insecure-loopback (local development).
	// Addresses in link-local and cloud metadata ranges are refused after DNS
	// resolution.
	// +required
	// +kubebuilder:validation:MinLength=8
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://[^\s/?#]+([/?#]\S*)?$`
	URL string `json:"url"`

	// secretRef names the Secret key holding the secret each delivery is
	// signed with (HMAC-SHA256, header Invoicing-Signature).
	// +required
	SecretRef SecretKeyRef `json:"secretRef"`

	// events are the event types sent to the endpoint: any of
	// invoice.issued, credit_note.issued, payment.recorded, invoice.paid,
	// invoice.voided, invoice.overdue, period.closed, ledger.sealed,
	// credit.applied, refund.recorded, invoice.marked_uncollectible,
	// invoice.reminder_sent, invoice_schedule.completed,
	// invoice_schedule.stalled, bank_transaction.matched and
	// bank_transaction.unmatched, or "*" for every type. Matching
	// events are sent in the order of the workspace's event sequence; a
	// change applies to the events after status.deliveredEventSequence.
	// +required
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=17
	// +kubebuilder:validation:items:Enum=invoice.issued;credit_note.issued;payment.recorded;invoice.paid;invoice.voided;invoice.overdue;period.closed;ledger.sealed;credit.applied;refund.recorded;invoice.marked_uncollectible;invoice.reminder_sent;invoice_schedule.completed;invoice_schedule.stalled;bank_transaction.matched;bank_transaction.unmatched;*
	Events []string `json:"events"`

	// paused stops delivery while true. Nothing is lost: delivery resumes
	// after status.deliveredEventSequence when paused is false again.
	// +optional
	Paused bool `json:"paused,omitempty"` //nolint:kubeapilinter // the field's name and type are a published contract, as Flux's spec.suspend

	// startAfterSequence is an INVOICE sequence: invoice.issued events of
	// invoices with this sequence or a lower one are never sent. 0 (the
	// default) skips none. It does not apply to the other event types.
	// +optional
	// +kubebuilder:validation:Minimum=0
	StartAfterSequence int64 `json:"startAfterSequence,omitempty"`

	// startAfterEventSequence is where a new endpoint starts in the
	// workspace's EVENT sequence: the first event considered is the one
	// after it. 0 (the default) starts at the workspace's first event. It
	// applies only while status.deliveredEventSequence is unset; afterwards
	// the status is where delivery resumes.
	// +optional
	// +kubebuilder:validation:Minimum=0
	StartAfterEventSequence int64 `json:"startAfterEventSequence,omitempty"`
}

// WebhookEndpointStatus is how far delivery has come.
type WebhookEndpointStatus struct {
	// conditions describe the endpoint's state in the standard Kubernetes
	// way. "Ready" is True with reason Delivered while attempts succeed;
	// False with reason Paused, DeliveryFailing, SecretNotFound or
	// URLNotAllowed otherwise. "Stalled" is True once 5 attempts in a row
	// have failed, or at once when the secret or URL is wrong.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// deliveredSequence is an INVOICE sequence: every invoice of the
	// workspace with this sequence or a lower one (above
	// spec.startAfterSequence) is done with: its invoice.issued event was
	// accepted with a 2xx answer, or the endpoint does not subscribe to
	// invoice.issued. Delivery never sends the invoice.issued event of such
	// an invoice.
	// +optional
	// +kubebuilder:validation:Minimum=0
	DeliveredSequence *int64 `json:"deliveredSequence,omitempty"`

	// deliveredEventSequence is the cursor in the workspace's EVENT
	// sequence: every event with this sequence or a lower one (above
	// spec.startAfterEventSequence) that matches spec.events was accepted
	// with a 2xx answer. Delivery resumes after it.
	// +optional
	// +kubebuilder:validation:Minimum=0
	DeliveredEventSequence *int64 `json:"deliveredEventSequence,omitempty"`

	// lastAttempt is when the last delivery attempt ended, successful or not.
	// +optional
	LastAttempt *metav1.Time `json:"lastAttempt,omitempty"`

	// lastError is why the last attempt failed; empty after a success.
	// At most 1024 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	LastError string `json:"lastError,omitempty"`

	// failures is how many attempts in a row have failed; the wait before
	// the next one doubles with each, from 1 second up to 5 minutes.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Failures int32 `json:"failures,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// WebhookEndpoint pushes the workspace's events of the types it subscribes
// to a URL, one at a time and in event-sequence order, signed with a shared
// secret. Delivery is at
// least once: an event is sent again until the endpoint answers 2xx, and
// after a restart of the manager at most the last batch is sent again.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=whe,categories=invoicing
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.spec.url`
// +kubebuilder:printcolumn:name="Delivered",type=integer,JSONPath=`.status.deliveredSequence`
// +kubebuilder:printcolumn:name="Event",type=integer,JSONPath=`.status.deliveredEventSequence`
// +kubebuilder:printcolumn:name="Paused",type=boolean,JSONPath=`.spec.paused`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Error",type=string,JSONPath=`.status.lastError`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type WebhookEndpoint struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is where and how events are pushed.
	// +required
	Spec WebhookEndpointSpec `json:"spec"`

	// status is maintained by the controller.
	// +optional
	Status WebhookEndpointStatus `json:"status,omitempty"`
}

// WebhookEndpointList contains a list of WebhookEndpoint.
// +kubebuilder:object:root=true
type WebhookEndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebhookEndpoint `json:"items"`
}

func init() {
	register(&WebhookEndpoint{}, &WebhookEndpointList{})
}
