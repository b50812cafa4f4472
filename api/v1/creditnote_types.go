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

// DefaultCreditNotePrefix is the prefix of credit note numbers in a
// workspace without a BillingProfile, and the default of
// spec.creditNotePrefix.
const DefaultCreditNotePrefix = "CN-"

// CreditNoteSequenceName is the name of the InvoiceSequence that numbers a
// workspace's credit notes, a gapless series of their own.
const CreditNoteSequenceName = "credit-notes"

// CreditNotePhase is where a credit note is in its life.
// +kubebuilder:validation:Enum=Pending;Issued;Rejected;Invalid
type CreditNotePhase string

const (
	// CreditNotePending means the controller has not yet decided on it.
	CreditNotePending CreditNotePhase = "Pending"
	// CreditNoteIssued means the credit note is final: it has its number
	// and credits its invoice. An issued credit note stays issued.
	CreditNoteIssued CreditNotePhase = "Issued"
	// CreditNoteRejected means it can never be issued as it stands: its
	// invoice cannot be credited that much (another credit note took what
	// was left), or it names no line of the invoice. It takes no number.
	CreditNoteRejected CreditNotePhase = "Rejected"
	// CreditNoteInvalid means its name is already held by a LedgerSeal
	// (reason AlreadySealed): a manifest of a sealed credit note applied
	// again. It takes no number and enters no ledger.
	CreditNoteInvalid CreditNotePhase = "Invalid"
)

// CreditNoteReason is why a credit note is issued, as Stripe names it.
// +kubebuilder:validation:Enum=duplicate;fraudulent;order_change;product_unsatisfactory;issued_in_error;other
type CreditNoteReason string

// InvoiceReference names an Invoice in the object's own namespace.
type InvoiceReference struct {
	// name is the metadata.name of an Invoice in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// CreditNoteLine credits part of one line of the invoice: a quantity of
// its units at its unit price, or a net amount.
// +kubebuilder:validation:XValidation:rule="has(self.quantity) != has(self.amount)",message="exactly one of quantity and amount is required"
type CreditNoteLine struct {
	// invoiceLine is the index, from 0, of the invoice's line item that
	// this line credits.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=499
	InvoiceLine int32 `json:"invoiceLine"`

	// quantity is how many units of the invoice line are credited, at its
	// net price per unit: above 0, at most 1,000,000 and at most what
	// remains creditable of the line, with at most 4 decimal places.
	// +optional
	// +kubebuilder:validation:Type=number
	// +kubebuilder:validation:Minimum=0.0001
	// +kubebuilder:validation:XValidation:rule="self >= 0.0001",message="must be above 0"
	// +kubebuilder:validation:Maximum=1000000
	Quantity *DecimalQuantity `json:"quantity,omitempty"` //nolint:kubeapilinter // controller-gen applies bounds only after the field repeats the type

	// amount is the net amount credited, in minor units of the invoice's
	// currency, tax excluded: 1 to 9,007,199,254,740,991.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount *int64 `json:"amount,omitempty"`
}

// CreditNoteSpec is what a credit note credits, and why. It cannot be
// changed once the credit note exists.
// +kubebuilder:validation:XValidation:rule="has(self.lines) != (has(self.fullCredit) && self.fullCredit)",message="exactly one of lines and fullCredit: true is required"
type CreditNoteSpec struct {
	// invoiceRef names the issued Invoice, in the same namespace, that the
	// credit note credits.
	// +required
	InvoiceRef InvoiceReference `json:"invoiceRef"`

	// reason is why the invoice is credited: duplicate, fraudulent,
	// order_change, product_unsatisfactory, issued_in_error or other.
	// +required
	Reason CreditNoteReason `json:"reason"`

	// memo is free text printed on the credit note, at most 1000 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=1000
	Memo string `json:"memo,omitempty"`

	// lines are the parts of the invoice's lines that are credited, 1 to
	// 500 of them. Each line's tax is its invoice line's.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=500
	Lines []CreditNoteLine `json:"lines,omitempty"`

	// fullCredit credits, when true, everything of the invoice that is
	// still creditable: it voids an unpaid invoice.
	// +optional
	FullCredit bool `json:"fullCredit,omitempty"` //nolint:kubeapilinter // the HTTP API's full_credit: true, a yes or no with no third value

	// allowances are taken off the credited amount (BG-20), each off the
	// base of its tax category and rate, as on the invoice: at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Allowances []DocumentAllowance `json:"allowances,omitempty"`

	// charges are added to the credited amount (BG-21), each to the base of
	// its tax category and rate, as on the invoice: at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Charges []DocumentCharge `json:"charges,omitempty"`
}

// CreditNoteLineStatus is one line of an issued credit note as printed.
type CreditNoteLineStatus struct {
	// invoiceLine is the index of the credited invoice line.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=499
	InvoiceLine int32 `json:"invoiceLine"`

	// description is the invoice line's description.
	// +required
	// +kubebuilder:validation:MaxLength=1000
	Description string `json:"description"`

	// quantity is the quantity credited; absent for a line that credits an
	// amount.
	// +optional
	// +kubebuilder:validation:Type=number
	// +kubebuilder:validation:Minimum=0.0001
	// +kubebuilder:validation:XValidation:rule="self >= 0.0001",message="must be above 0"
	// +kubebuilder:validation:Maximum=1000000
	Quantity *DecimalQuantity `json:"quantity,omitempty"` //nolint:kubeapilinter // controller-gen applies bounds only after the field repeats the type

	// unitCode is the invoice line's unit; absent for C62 ("one").
	// +optional
	UnitCode UnitCode `json:"unitCode,omitempty"`

	// amount is the line's net amount credited, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// tax is the invoice line's tax; absent when it has none.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}

// CreditNoteStatus is the controller's verdict on a credit note. Once it is
// issued, nothing in it changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.sequence) && self.sequence == oldSelf.sequence)",message="status.sequence cannot change once assigned"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.number) || (has(self.number) && self.number == oldSelf.number)",message="status.number cannot change once assigned"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.total) || (has(self.total) && self.total == oldSelf.total)",message="status.total cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
type CreditNoteStatus struct {
	// conditions describe the credit note's state in the standard
	// Kubernetes way: "Ready" is True once it is issued, and False with a
	// reason while it waits (Reconciling) or once it is rejected (Stalled).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending until the controller has decided, then Issued or
	// Rejected.
	// +optional
	Phase CreditNotePhase `json:"phase,omitempty"`

	// sequence is the credit note's place in its workspace's gapless series
	// of credit notes, 1, 2, ... Set when it is issued.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Sequence *int64 `json:"sequence,omitempty"`

	// number is the printed number: the BillingProfile's creditNotePrefix
	// followed by the sequence, zero-padded to 6 digits ("CN-000001").
	// +optional
	// +kubebuilder:validation:MaxLength=64
	Number string `json:"number,omitempty"`

	// issuedAt is when the credit note was issued.
	// +optional
	IssuedAt *metav1.Time `json:"issuedAt,omitempty"`

	// customerName is the credited invoice's customer (spec.customerRef.name).
	// +optional
	// +kubebuilder:validation:MaxLength=253
	CustomerName string `json:"customerName,omitempty"`

	// currency is the credited invoice's currency.
	// +optional
	// +kubebuilder:validation:MaxLength=3
	Currency string `json:"currency,omitempty"`

	// invoiceNumber is the credited invoice's number, printed on the
	// credit note.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	InvoiceNumber string `json:"invoiceNumber,omitempty"`

	// invoiceIssuedAt is the credited invoice's issue time, printed on
	// the credit note.
	// +optional
	InvoiceIssuedAt *metav1.Time `json:"invoiceIssuedAt,omitempty"`

	// lines are the credited lines with their descriptions, net amounts
	// and taxes, frozen when the credit note is issued.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	Lines []CreditNoteLineStatus `json:"lines,omitempty"`

	// subtotal is the sum of the lines' net amounts, in minor units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Subtotal *int64 `json:"subtotal,omitempty"`

	// allowances are the credit note's allowances as issued; for a full
	// credit, what remains of the invoice's. Absent when it has none.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Allowances []AppliedAllowanceCharge `json:"allowances,omitempty"`

	// charges are the credit note's charges as issued; for a full credit,
	// what remains of the invoice's. Absent when it has none.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Charges []AppliedAllowanceCharge `json:"charges,omitempty"`

	// allowanceTotal is the sum of allowances, in minor units; absent when
	// there are none.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	AllowanceTotal *int64 `json:"allowanceTotal,omitempty"`

	// chargeTotal is the sum of charges, in minor units; absent when there
	// are none.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	ChargeTotal *int64 `json:"chargeTotal,omitempty"`

	// taxBreakdown has one entry per (category, rate) group of the lines.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	TaxBreakdown []TaxBreakdownEntry `json:"taxBreakdown,omitempty"`

	// taxTotal is the sum of the breakdown's tax amounts, in minor units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	TaxTotal *int64 `json:"taxTotal,omitempty"`

	// total is subtotal less allowanceTotal plus chargeTotal plus taxTotal,
	// in minor units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Total *int64 `json:"total,omitempty"`

	// billTo is the credited invoice's, frozen.
	// +optional
	BillTo *BillTo `json:"billTo,omitempty"`

	// issuer is the credited invoice's, frozen.
	// +optional
	Issuer *Issuer `json:"issuer,omitempty"`

	// paymentAccount is the credited invoice's, frozen.
	// +optional
	PaymentAccount *PaymentAccount `json:"paymentAccount,omitempty"`

	// buyerReference is the credited invoice's spec.buyerReference, frozen:
	// the credit note quotes it too (BT-10).
	// +optional
	// +kubebuilder:validation:MaxLength=200
	BuyerReference string `json:"buyerReference,omitempty"`

	// events are the workspace's events about this credit note:
	// credit_note.issued, written together with its number. An event once
	// recorded never changes.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// deliveries are the messages sent about this object (Emails), the
	// newest MaxDeliveries, as each Email last reported. Kept by the
	// controller.
	// +optional
	// +listType=map
	// +listMapKey=email
	// +kubebuilder:validation:MaxItems=20
	Deliveries []Delivery `json:"deliveries,omitempty"`

	// display is the credit note's total for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *CreditNoteDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// CreditNote credits part or all of an issued Invoice in the same
// namespace. Its spec is immutable; the controller issues it, with a number
// of its own series, or rejects it when the invoice has not that much left
// to credit.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=cn,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Number",type=string,JSONPath=`.status.number`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Total",type=string,JSONPath=`.status.display.total`,description="The credit note's total, in its currency"
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type CreditNote struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// credit note's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what is credited, and why. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: create a new credit note instead"
	Spec CreditNoteSpec `json:"spec"`

	// status is the controller's verdict.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status CreditNoteStatus `json:"status,omitempty"`
}

// CreditNoteList contains a list of CreditNote.
// +kubebuilder:object:root=true
type CreditNoteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CreditNote `json:"items"`
}

func init() {
	register(&CreditNote{}, &CreditNoteList{})
}
