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

// DefaultBillingProfileName is the name of the one BillingProfile in a
// workspace that applies to its invoices. A profile with any other name is
// kept but not used, and says so in its Ready condition.
const DefaultBillingProfileName = "default"

// DefaultNumberPrefix is the prefix of invoice numbers in a workspace without
// a BillingProfile, and the default of spec.numberPrefix.
const DefaultNumberPrefix = "INV-"

// DefaultPaymentTermsDays is the number of days from issue to due date in a
// workspace without a BillingProfile, and the default of spec.paymentTermsDays.
const DefaultPaymentTermsDays = 30

// Issuer is who issues the workspace's invoices, as printed on them.
type Issuer struct {
	// name is the issuer's legal name, for example "Example GmbH".
	// 1 to 256 characters.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Name string `json:"name"`

	// email is the address customers can write to about an invoice: a plain
	// address such as "billing@example.com". At most 254 characters.
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Format=email
	// +kubebuilder:validation:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	Email string `json:"email,omitempty"`

	// address is the issuer's postal address.
	// +optional
	Address *Address `json:"address,omitempty"`

	// taxId is the issuer's tax or VAT identification number, for example
	// "DE123456789". 1 to 64 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	TaxID string `json:"taxId,omitempty"`

	// legalRegistrationId is the issuer's registration in a trade or
	// company register, for example "HRB 12345 B". It is the seller's legal
	// registration identifier (BT-30) of its e-invoices. 1 to 64 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	LegalRegistrationID string `json:"legalRegistrationId,omitempty"`

	// contact is whom a buyer can reach about an invoice (name, phone,
	// e-mail); XRechnung requires all three.
	// +optional
	Contact *Contact `json:"contact,omitempty"`

	// electronicAddress is the issuer's Peppol participant identifier, where
	// it receives e-invoices (BT-34); Peppol and XRechnung require it.
	// +optional
	ElectronicAddress *ElectronicAddress `json:"electronicAddress,omitempty"`
}

// BillingProfileSpec is how a workspace issues its invoices. Every field is
// optional; an invoice freezes the values it was issued with.
type BillingProfileSpec struct {
	// issuer is who issues the invoices, printed on each one. Without it,
	// invoices carry no issuer block.
	// +optional
	Issuer *Issuer `json:"issuer,omitempty"`

	// numberPrefix is put in front of each invoice's sequence to make its
	// number, for example "INV-" gives "INV-000042". 0 to 20 characters from
	// A-Z, 0-9, "-", "/" and "."; empty means numbers without a prefix.
	// Defaults to "INV-". Changing it affects invoices issued afterwards only;
	// the sequence continues.
	// +optional
	// +kubebuilder:default="INV-"
	// +kubebuilder:validation:MaxLength=20
	// +kubebuilder:validation:Pattern=`^[A-Z0-9./-]*$`
	NumberPrefix *string `json:"numberPrefix,omitempty"`

	// creditNotePrefix is put in front of each credit note's sequence to
	// make its number, for example "CN-" gives "CN-000001". Credit notes
	// are a gapless series of their own. 0 to 20 characters from A-Z, 0-9,
	// "-", "/" and "."; defaults to "CN-".
	// +optional
	// +kubebuilder:default="CN-"
	// +kubebuilder:validation:MaxLength=20
	// +kubebuilder:validation:Pattern=`^[A-Z0-9./-]*$`
	CreditNotePrefix *string `json:"creditNotePrefix,omitempty"`

	// paymentTermsDays is how many days after issue an invoice is due: a
	// whole number from 0 (due on issue) to 365. Defaults to 30.
	// +optional
	// +kubebuilder:default=30
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=365
	PaymentTermsDays *int32 `json:"paymentTermsDays,omitempty"`

	// footer is free text printed at the bottom of each invoice, for example
	// bank details or a legal notice. 0 to 2000 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=2000
	Footer string `json:"footer,omitempty"`

	// locale is the workspace's language for documents and e-mails: a BCP
	// 47 tag such as "en", "de", "fr-CA" or "pt-BR", used for every
	// customer without a preferredLocale. Empty means "en". Invoices,
	// credit notes, statements and e-mails are translated in full into en,
	// de, fr, es, it, nl, pl and pt; any other tag falls back along its
	// parents (de-AT to de) to English for the words, and formats numbers,
	// amounts and dates for the full tag. 2 to 35 characters.
	// +optional
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:MaxLength=35
	// +kubebuilder:validation:Pattern=`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`
	Locale string `json:"locale,omitempty"`

	// defaultTax is the tax of every invoice line that has none of its
	// own, for example {category: S, rate: "19"}. An invoice created over
	// HTTP takes it when it is created; one applied with kubectl when it
	// is issued, frozen in its status. Changing it never changes an issued
	// invoice.
	// +optional
	DefaultTax *Tax `json:"defaultTax,omitempty"`

	// payment is the bank account invoices are paid to by SEPA credit
	// transfer: printed on each invoice and written in its e-invoice
	// (XRechnung requires it). An invoice freezes it when it is issued.
	// +optional
	Payment *PaymentAccount `json:"payment,omitempty"`

	// timeZone is the workspace's time zone, an IANA name such as
	// "Europe/Berlin": a PeriodClose through a month or a day closes it at
	// its end in this zone. Defaults to "UTC".
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_+/-]*$`
	TimeZone string `json:"timeZone,omitempty"`

	// closeMonthsAfterDays closes each month automatically that many days
	// after it ends (1 to 90), as a PeriodClose the controller creates.
	// Unset: the books are closed by hand only.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=90
	CloseMonthsAfterDays *int32 `json:"closeMonthsAfterDays,omitempty"`

	// applyCreditOnIssue makes the controller, when true, apply the
	// customer's available credit in the invoice's currency to each newly
	// issued invoice, up to its total, as a CreditApplication of its own.
	// Default false.
	// +optional
	ApplyCreditOnIssue *bool `json:"applyCreditOnIssue,omitempty"` //nolint:kubeapilinter // the contract pins a boolean: applyCreditOnIssue: true

	// email is how the workspace sends invoices, credit notes, reminders
	// and statements by e-mail. Without it nothing is sent, and a request
	// to send is refused (email_not_configured).
	// +optional
	Email *EmailSettings `json:"email,omitempty"`

	// reminders are the payment reminders sent to every invoice still open
	// or partially paid, each once, at its days relative to the due date.
	// Up to 5, each days value once. They need email.
	// +optional
	// +listType=map
	// +listMapKey=days
	// +kubebuilder:validation:MaxItems=5
	Reminders []Reminder `json:"reminders,omitempty"`
}

// BillingProfileStatus is the controller's verdict on a BillingProfile.
type BillingProfileStatus struct {
	// conditions describe the profile's state in the standard Kubernetes way.
	// "Ready" is True with reason Default for the profile named "default",
	// which applies to the workspace's invoices. A profile of any other name
	// applies to none: "Ready" is False and "Stalled" True, reason NotDefault.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// BillingProfile is how a workspace issues its invoices: the issuer printed
// on them, the prefix of their numbers and their payment terms. The profile
// named "default" applies; a workspace without one issues invoices with the
// prefix "INV-", 30 days of payment terms and no issuer block.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=bp,categories=invoicing
// +kubebuilder:printcolumn:name="Issuer",type=string,JSONPath=`.spec.issuer.name`
// +kubebuilder:printcolumn:name="Prefix",type=string,JSONPath=`.spec.numberPrefix`
// +kubebuilder:printcolumn:name="Terms",type=integer,JSONPath=`.spec.paymentTermsDays`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type BillingProfile struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata. Only the profile named
	// "default" applies to the workspace's invoices.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is how the workspace issues its invoices.
	// +optional
	// +kubebuilder:default={}
	Spec BillingProfileSpec `json:"spec,omitempty"`

	// status is maintained by the controller.
	// +optional
	Status BillingProfileStatus `json:"status,omitempty"`
}

// BillingProfileList contains a list of BillingProfile.
// +kubebuilder:object:root=true
type BillingProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BillingProfile `json:"items"`
}

func init() {
	register(&BillingProfile{}, &BillingProfileList{})
}
