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

// The ledger of an issued invoice, kept in its status: which credit notes
// and payments count in its balance. Each is entered exactly once, by name
// and uid, with an optimistic lock on the invoice, so that two credit notes
// or payments handled at the same moment, or again after a crash, are
// neither lost nor counted twice, and credit notes never credit more than
// the invoice has left.

// MaxLedgerEntries is how many credit notes, and how many payments, one
// invoice's ledger holds at most.
const MaxLedgerEntries = 1000

// InvoicePaymentStatus is where an issued invoice is in being settled,
// derived from its ledger; the first that applies wins.
// +kubebuilder:validation:Enum=void;uncollectible;paid;partially_paid;open
type InvoicePaymentStatus string

const (
	// InvoicePaymentVoid is everything credited and nothing paid, the total
	// above 0.
	InvoicePaymentVoid InvoicePaymentStatus = "void"
	// InvoicePaymentUncollectible is something written off that no payment
	// has recovered yet.
	InvoicePaymentUncollectible InvoicePaymentStatus = "uncollectible"
	// InvoicePaymentPaid is nothing remaining to be paid.
	InvoicePaymentPaid InvoicePaymentStatus = "paid"
	// InvoicePaymentPartiallyPaid is something paid and something remains.
	InvoicePaymentPartiallyPaid InvoicePaymentStatus = "partially_paid"
	// InvoicePaymentOpen is nothing paid, something remains.
	InvoicePaymentOpen InvoicePaymentStatus = "open"
)

// LedgerEntry is one credit note, payment, credit application or write-off
// entered in an invoice's ledger.
type LedgerEntry struct {
	// name is the metadata.name of the CreditNote, Payment,
	// CreditApplication or WriteOff.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// uid is its metadata.uid, so that an object deleted and created again
	// under the same name is told apart.
	// +required
	// +kubebuilder:validation:MaxLength=128
	UID string `json:"uid"`

	// amount is the credit note's total, the payment's or the credit
	// application's amount, or what the write-off wrote off, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`
}

// CreditedLine is what the issued credit notes have credited of one line.
type CreditedLine struct {
	// quantity is the sum of the quantities credited by quantity, with at
	// most 4 decimal places.
	// +required
	// +kubebuilder:validation:Type=number
	// +kubebuilder:validation:Minimum=0
	Quantity DecimalQuantity `json:"quantity"` //nolint:kubeapilinter // controller-gen applies bounds only after the field repeats the type

	// net is the sum of the net amounts credited, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	Net int64 `json:"net"`
}

// CreditedGroup is what the issued credit notes have credited of one
// entry of the tax breakdown.
type CreditedGroup struct {
	// taxableAmount is the net credited in the group, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	TaxableAmount int64 `json:"taxableAmount"`

	// taxAmount is the tax credited in the group, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=0
	TaxAmount int64 `json:"taxAmount"`
}

// InvoiceLedger is an issued invoice's credit notes and payments, and what
// they credited of each line and tax group.
type InvoiceLedger struct {
	// creditNotes are the issued credit notes of the invoice, in the order
	// they were entered.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	CreditNotes []LedgerEntry `json:"creditNotes,omitempty"`

	// payments are the recorded payments of the invoice, in the order they
	// were entered.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Payments []LedgerEntry `json:"payments,omitempty"`

	// creditApplications are the applied credit applications of the
	// invoice: the customer's credit applied to it, in the order they were
	// entered.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	CreditApplications []LedgerEntry `json:"creditApplications,omitempty"`

	// writeOffs are the invoice's write-offs, each with what remained when
	// it was entered.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	WriteOffs []LedgerEntry `json:"writeOffs,omitempty"`

	// creditedLines has, for each of spec.items in order, what the credit
	// notes credited of it; absent before the first credit note.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	CreditedLines []CreditedLine `json:"creditedLines,omitempty"`

	// creditedGroups has, for each entry of status.taxBreakdown in order,
	// what the credit notes credited of it.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	CreditedGroups []CreditedGroup `json:"creditedGroups,omitempty"`
}

// InvoiceBalance is an issued invoice's position, derived from its ledger
// by the controller, never set by hand.
type InvoiceBalance struct {
	// amountCredited is the sum of the issued credit notes' totals.
	// +required
	// +kubebuilder:validation:Minimum=0
	AmountCredited int64 `json:"amountCredited"`

	// amountPaid is the sum of the recorded payments' amounts.
	// +required
	// +kubebuilder:validation:Minimum=0
	AmountPaid int64 `json:"amountPaid"`

	// amountApplied is the sum of the applied credit applications'
	// amounts: the customer's credit applied to the invoice.
	// +optional
	// +kubebuilder:validation:Minimum=0
	AmountApplied int64 `json:"amountApplied,omitempty"`

	// amountWrittenOff is what the write-offs wrote off and no later
	// payment has recovered: min(the write-offs' amounts, total -
	// amountCredited - amountPaid - amountApplied), at least 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	AmountWrittenOff int64 `json:"amountWrittenOff,omitempty"`

	// amountRemaining is max(0, total - amountCredited - amountPaid -
	// amountApplied - amountWrittenOff).
	// +required
	// +kubebuilder:validation:Minimum=0
	AmountRemaining int64 `json:"amountRemaining"`

	// amountOverpaid is max(0, amountCredited + amountPaid + amountApplied -
	// total): what is owed back, the customer's credit.
	// +required
	// +kubebuilder:validation:Minimum=0
	AmountOverpaid int64 `json:"amountOverpaid"`

	// paymentStatus is void, uncollectible, paid, partially_paid or open.
	// +required
	PaymentStatus InvoicePaymentStatus `json:"paymentStatus"`

	// overdue is true while dueAt has passed and amountRemaining is above 0.
	// +optional
	Overdue bool `json:"overdue,omitempty"` //nolint:kubeapilinter // the HTTP API's overdue, true or false, derived
}
