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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IdempotencyKeyRetention is how long the HTTP adapter keeps an idempotency
// key after the request that first used it.
const IdempotencyKeyRetention = 24 * time.Hour

// IdempotencyKeySpec records which object an Idempotency-Key of the HTTP
// adapter created, and for which request.
type IdempotencyKeySpec struct {
	// requestHash is the hex SHA-256 of the request (method, path and
	// canonical body) that first used the key. The same key with another
	// request is refused.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{64}$`
	RequestHash string `json:"requestHash"` //nolint:kubeapilinter // the pattern bounds the length

	// resource is the plural resource the request created: "customers",
	// "invoices", "creditnotes", "payments", "periodcloses",
	// "creditapplications", "refunds", "writeoffs" or "emails".
	// +required
	// +kubebuilder:validation:Enum=customers;invoices;creditnotes;payments;periodcloses;creditapplications;refunds;writeoffs;emails
	Resource string `json:"resource"`

	// objectName is the metadata.name (the /v1 id) of the object the request
	// created, in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ObjectName string `json:"objectName"`

	// expiresAt is when the key is forgotten; the controller deletes the
	// record then, and the key may be used again.
	// +required
	ExpiresAt metav1.Time `json:"expiresAt"`
}

// IdempotencyKey is the HTTP adapter's record of one Idempotency-Key header in
// a workspace. Its name is derived from the key, so creating it is the atomic
// claim that makes concurrent retries of one request create one object.
// People do not normally create these; the controller deletes them when they
// expire.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=idemkey
// +kubebuilder:printcolumn:name="Resource",type=string,JSONPath=`.spec.resource`
// +kubebuilder:printcolumn:name="Object",type=string,JSONPath=`.spec.objectName`
// +kubebuilder:printcolumn:name="Expires",type=date,JSONPath=`.spec.expiresAt`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type IdempotencyKey struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what the key stands for. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable"
	Spec IdempotencyKeySpec `json:"spec"`
}

// IdempotencyKeyList contains a list of IdempotencyKey.
// +kubebuilder:object:root=true
type IdempotencyKeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IdempotencyKey `json:"items"`
}

func init() {
	register(&IdempotencyKey{}, &IdempotencyKeyList{})
}
