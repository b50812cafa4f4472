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

// CustomerFinalizer holds the deletion of a Customer while any Invoice in its
// namespace still references it, live or held by a LedgerSeal, so a careless
// `kubectl delete customer` cannot orphan issued invoices. Deleting the
// namespace deletes both, and so lets the customer go.
const CustomerFinalizer = "billing.invoicing.dev/referenced-by-invoices"

// CustomerSpec is who gets billed.
type CustomerSpec struct {
	// name is the customer's display name as it appears on invoices,
	// for example "Ada Lovelace" or "Acme Corporation". 1 to 256 characters.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Name string `json:"name"`

	// email is the address invoices are sent to: a plain address such as
	// "billing@example.com", without a display name or angle brackets.
	// At most 254 characters.
	// +required
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Format=email
	// +kubebuilder:validation:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	Email string `json:"email"`

	// address is the customer's postal address, printed on its invoices.
	// +optional
	Address *Address `json:"address,omitempty"`

	// taxId is the customer's tax or VAT identification number, for example
	// "FR40303265045", printed on its invoices. 1 to 64 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	TaxID string `json:"taxId,omitempty"`

	// electronicAddress is the customer's Peppol participant identifier,
	// where it receives e-invoices (BT-49); Peppol and XRechnung require it.
	// +optional
	ElectronicAddress *ElectronicAddress `json:"electronicAddress,omitempty"`

	// preferredLocale is the language (and region) the customer's
	// documents and e-mails are written in: a BCP 47 tag such as "de",
	// "fr-CA" or "pt-BR". Without it, the billing profile's locale is used,
	// then English. A tag the documents cannot format is ignored as if
	// absent (the HTTP API refuses it). 2 to 35 characters.
	// +optional
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:MaxLength=35
	// +kubebuilder:validation:Pattern=`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`
	PreferredLocale string `json:"preferredLocale,omitempty"`
}

// CustomerStatus is the observed state of a Customer.
type CustomerStatus struct {
	// conditions describe the customer's state. "Ready" is True while the
	// customer can be billed, and False with reason "DeletionBlocked" while a
	// requested deletion waits for the invoices that reference it.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// invoiceCount is how many invoices in the namespace reference this customer.
	// While it is above zero, deleting the customer waits for them to go.
	// +optional
	// +kubebuilder:validation:Minimum=0
	InvoiceCount int32 `json:"invoiceCount,omitempty"`

	// credit is the customer's money on account: its overpaid invoices,
	// the credit applications and refunds that spent it, and the balance
	// per currency. Derived by the controller, never set by hand.
	// +optional
	Credit *CustomerCredit `json:"credit,omitempty"`

	// deliveries are the messages sent about this object (Emails), the
	// newest MaxDeliveries, as each Email last reported. Kept by the
	// controller.
	// +optional
	// +listType=map
	// +listMapKey=email
	// +kubebuilder:validation:MaxItems=20
	Deliveries []Delivery `json:"deliveries,omitempty"`
}

// Customer is someone a workspace bills: invoices in the same namespace
// reference it by name.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=cust,categories=invoicing
// +kubebuilder:printcolumn:name="Name",type=string,JSONPath=`.spec.name`
// +kubebuilder:printcolumn:name="Email",type=string,JSONPath=`.spec.email`
// +kubebuilder:printcolumn:name="Credit",type=string,JSONPath=`.status.credit.summary`,description="The customer's credit per currency"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Customer struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// customer's id, referenced by invoices.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is who gets billed.
	// +required
	Spec CustomerSpec `json:"spec"`

	// status is maintained by the controller.
	// +optional
	Status CustomerStatus `json:"status,omitempty"`
}

// CustomerList contains a list of Customer.
// +kubebuilder:object:root=true
type CustomerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Customer `json:"items"`
}

func init() {
	register(&Customer{}, &CustomerList{})
}
