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

// InvoicePhase is where an invoice is in its life.
// +kubebuilder:validation:Enum=Pending;Issued;Invalid
type InvoicePhase string

const (
	// InvoicePending means the controller has not yet decided on the invoice.
	InvoicePending InvoicePhase = "Pending"
	// InvoiceIssued means the invoice is final: its customer existed, its
	// total is computed and its billTo is frozen. An issued invoice stays issued.
	InvoiceIssued InvoicePhase = "Issued"
	// InvoiceInvalid means the invoice cannot be issued as it stands; the Ready
	// condition's reason says why. An invoice whose customer is missing is issued
	// as soon as that customer is created.
	InvoiceInvalid InvoicePhase = "Invalid"
)

// CustomerReference names a Customer in the invoice's own namespace.
type CustomerReference struct {
	// name is the metadata.name of a Customer in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// LineItem is one line of an invoice: quantity times amount, less its
// discount.
type LineItem struct {
	// description says what is billed, for example "Consulting, March".
	// 1 to 1000 characters.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1000
	Description string `json:"description"`

	// quantity is how many units are billed (BT-129): a number above 0 and
	// at most 1,000,000 with at most 4 decimal places, such as 3, 7.5 or
	// 0.25.
	// +required
	// +kubebuilder:validation:Type=number
	// +kubebuilder:validation:Minimum=0.0001
	// +kubebuilder:validation:XValidation:rule="self >= 0.0001",message="must be above 0"
	// +kubebuilder:validation:Maximum=1000000
	Quantity DecimalQuantity `json:"quantity"` //nolint:kubeapilinter // controller-gen applies bounds only after the field repeats the type

	// unitCode is the unit the quantity counts (BT-130): a code of UN/ECE
	// Recommendation 20 (with Recommendation 21), such as HUR (hour), DAY,
	// KGM (kilogram), KWH or MTR. Absent, the unit is C62 ("one").
	// +optional
	UnitCode UnitCode `json:"unitCode,omitempty"`

	// amount is the price of one unit in minor units of the invoice's currency
	// (cents for USD): a whole number from 0 to 1,000,000,000,000.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000000000000
	Amount int64 `json:"amount"`

	// discount is taken off the line's gross (quantity times amount, rounded
	// half away from zero to a minor unit) before tax (BG-27).
	// +optional
	Discount *LineDiscount `json:"discount,omitempty"`

	// tax is the line's tax. Without it the line takes the workspace
	// BillingProfile's defaultTax (see defaultTaxFrom), or has no tax.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}

// LineDiscount is an allowance on one line (EN 16931 BG-27): a percent of
// the line's gross or an amount, and why.
// +kubebuilder:validation:XValidation:rule="has(self.percent) != has(self.amount)",message="exactly one of percent and amount is required"
// +kubebuilder:validation:XValidation:rule="has(self.reason) || has(self.reasonCode)",message="one of reason and reasonCode is required"
type LineDiscount struct {
	// percent is the discount in percent of the line's gross, a decimal
	// string above 0 and at most 100 with at most 2 decimals: "10", "12.5".
	// +optional
	Percent *Percent `json:"percent,omitempty"`

	// amount is the discount in minor units of the invoice's currency: 1 to
	// 1,000,000,000,000,000 and at most the line's gross.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000000000000
	Amount *int64 `json:"amount,omitempty"`

	// reason says why, printed on the invoice (BT-139): 1 to 200 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Reason string `json:"reason,omitempty"`

	// reasonCode is the reason's code of UNTDID 5189 (BT-140), such as 95
	// (discount) or 100 (special agreement).
	// +optional
	ReasonCode AllowanceReasonCode `json:"reasonCode,omitempty"`
}

// Percent is a percentage as a decimal string above 0 and at most 100
// with at most 2 decimals and no leading zeros: "10", "12.5", "0.25".
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=6
// +kubebuilder:validation:Pattern=`^(100(\.0{1,2})?|(0|[1-9][0-9]?)(\.[0-9]{1,2})?)$`
// +kubebuilder:validation:XValidation:rule="self.matches('[1-9]')",message="percent must be above 0"
type Percent string

// AllowanceReasonCode is a code of UNTDID 5189, the reasons for an
// allowance: 41, 42, 60, 62, 63, 64, 65, 66, 67, 68, 70, 71, 88, 95, 100,
// 102, 103, 104 or 105.
// +kubebuilder:validation:Enum="41";"42";"60";"62";"63";"64";"65";"66";"67";"68";"70";"71";"88";"95";"100";"102";"103";"104";"105"
type AllowanceReasonCode string

// ChargeReasonCode is a code of UNTDID 7161, the reasons for a charge,
// such as FC (freight service), ABL (packaging) or SAA (shipping and
// handling): one to three upper-case letters of the list.
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=3
// +kubebuilder:validation:Pattern=`^[A-Z]{1,3}$`
type ChargeReasonCode string

// DocumentAllowance is an allowance on the whole document (EN 16931
// BG-20): an amount, or a percent of the net of the lines in its tax
// category and rate, taken off that tax group's base.
// +kubebuilder:validation:XValidation:rule="has(self.percent) != has(self.amount)",message="exactly one of percent and amount is required"
// +kubebuilder:validation:XValidation:rule="has(self.reason) || has(self.reasonCode)",message="one of reason and reasonCode is required"
type DocumentAllowance struct {
	// percent is the allowance in percent of its base, the net of the
	// lines in its tax category and rate (BT-94), a decimal string above 0
	// and at most 100 with at most 2 decimals.
	// +optional
	Percent *Percent `json:"percent,omitempty"`

	// amount is the allowance in minor units of the currency (BT-92): 1 to
	// 1,000,000,000,000,000.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000000000000
	Amount *int64 `json:"amount,omitempty"`

	// reason says why, printed on the document (BT-97): 1 to 200 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Reason string `json:"reason,omitempty"`

	// reasonCode is the reason's code of UNTDID 5189 (BT-98).
	// +optional
	ReasonCode AllowanceReasonCode `json:"reasonCode,omitempty"`

	// tax is the tax category and rate whose base the allowance lowers
	// (BT-95, BT-96): required when the lines have tax, absent when none has.
	// Without it on an invoice whose lines take the profile's default, it
	// takes that default too.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}

// DocumentCharge is a charge on the whole document (EN 16931 BG-21), such
// as freight: an amount, or a percent of the net of the lines in its tax
// category and rate, added to that tax group's base.
// +kubebuilder:validation:XValidation:rule="has(self.percent) != has(self.amount)",message="exactly one of percent and amount is required"
// +kubebuilder:validation:XValidation:rule="has(self.reason) || has(self.reasonCode)",message="one of reason and reasonCode is required"
type DocumentCharge struct {
	// percent is the charge in percent of its base, the net of the lines
	// in its tax category and rate (BT-101), a decimal string above 0 and
	// at most 100 with at most 2 decimals.
	// +optional
	Percent *Percent `json:"percent,omitempty"`

	// amount is the charge in minor units of the currency (BT-99): 1 to
	// 1,000,000,000,000,000.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000000000000
	Amount *int64 `json:"amount,omitempty"`

	// reason says why, printed on the document (BT-104): 1 to 200
	// characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Reason string `json:"reason,omitempty"`

	// reasonCode is the reason's code of UNTDID 7161 (BT-105).
	// +optional
	ReasonCode ChargeReasonCode `json:"reasonCode,omitempty"`

	// tax is the tax category and rate whose base the charge raises
	// (BT-102, BT-103): required when the lines have tax, absent when none
	// has. Without it on an invoice whose lines take the profile's default,
	// it takes that default too.
	// +optional
	Tax *Tax `json:"tax,omitempty"`
}

// InvoiceSpec is what is billed, to whom. It cannot be changed once the
// invoice exists: to correct an invoice, create a new one.
// +kubebuilder:validation:XValidation:rule="!self.items.exists(i, has(i.tax) && i.tax.category == 'O') || self.items.all(i, has(i.tax) && i.tax.category == 'O')",message="an invoice with a line of tax category O (not subject to tax) has only lines of category O",fieldPath=".items",reason=FieldValueInvalid
type InvoiceSpec struct {
	// customerRef names the Customer, in the same namespace, that the invoice bills.
	// +required
	CustomerRef CustomerReference `json:"customerRef"`

	// currency is the ISO 4217 code of the currency that amounts are in:
	// three upper-case letters. Defaults to "USD".
	// +optional
	// +kubebuilder:default=USD
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency,omitempty"` //nolint:kubeapilinter // the pattern bounds the length; a maxLength would replace its error message

	// items are the invoice's line items, 1 to 500 of them, in the order
	// they are printed.
	// +required
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=500
	Items []LineItem `json:"items"`

	// defaultTaxFrom says what tax the items without a tax of their own
	// get: "Profile" (when absent) the workspace BillingProfile's
	// defaultTax in force when the invoice is issued, frozen in
	// status.items; "None" no tax. The HTTP API writes "None", as it has
	// already put the profile's default on each item at create time.
	// +optional
	DefaultTaxFrom DefaultTaxSource `json:"defaultTaxFrom,omitempty"`

	// buyerReference is the reference the buyer asked to be quoted on the
	// invoice (BT-10), for example a German public buyer's Leitweg-ID
	// "04011000-12345-34"; XRechnung requires it. 1 to 200 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	BuyerReference string `json:"buyerReference,omitempty"`

	// purchaseOrder is the buyer's purchase order number (BT-13), for
	// example "PO-2026-0042". 1 to 200 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	PurchaseOrder string `json:"purchaseOrder,omitempty"`

	// supplyDate is the day the goods or services were supplied (BT-72,
	// the "date of supply" of EU VAT Directive art. 226(7), the
	// "Leistungsdatum" of §14(4) UStG), YYYY-MM-DD. Absent, the documents
	// state that the date of supply is the invoice date.
	// +optional
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Format=date
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	SupplyDate string `json:"supplyDate,omitempty"`

	// invoicingPeriod is the period the invoice bills (BG-14), its first
	// and last days. An InvoiceSchedule sets it on each invoice it issues.
	// +optional
	InvoicingPeriod *InvoicingPeriod `json:"invoicingPeriod,omitempty"`

	// allowances are taken off the document (BG-20), each off the base of
	// its tax category and rate: at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Allowances []DocumentAllowance `json:"allowances,omitempty"`

	// charges are added to the document (BG-21), each to the base of its
	// tax category and rate: at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Charges []DocumentCharge `json:"charges,omitempty"`
}

// BillTo is the customer's name, e-mail, address and tax id as they were when
// the invoice was issued.
type BillTo struct {
	// name is the customer's spec.name at issue time.
	// +required
	// +kubebuilder:validation:MaxLength=256
	Name string `json:"name"`

	// email is the customer's spec.email at issue time.
	// +required
	// +kubebuilder:validation:MaxLength=254
	Email string `json:"email"`

	// address is the customer's spec.address at issue time.
	// +optional
	Address *Address `json:"address,omitempty"`

	// taxId is the customer's spec.taxId at issue time.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	TaxID string `json:"taxId,omitempty"`

	// electronicAddress is the customer's spec.electronicAddress at issue
	// time.
	// +optional
	ElectronicAddress *ElectronicAddress `json:"electronicAddress,omitempty"`
}

// InvoiceStatus is the controller's verdict on an invoice. Its number,
// sequence, issuer and due date, once written, never change.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.sequence) && self.sequence == oldSelf.sequence)",message="status.sequence cannot change once assigned"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.number) || (has(self.number) && self.number == oldSelf.number)",message="status.number cannot change once assigned"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.dueAt) || (has(self.dueAt) && self.dueAt == oldSelf.dueAt)",message="status.dueAt cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.issuer) || (has(self.issuer) && self.issuer == oldSelf.issuer)",message="status.issuer cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.total) == has(oldSelf.total) && (!has(self.total) || self.total == oldSelf.total))",message="status.total cannot change once the invoice is issued"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.taxTotal) == has(oldSelf.taxTotal) && (!has(self.taxTotal) || self.taxTotal == oldSelf.taxTotal))",message="status.taxTotal cannot change once the invoice is issued"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.allowanceTotal) == has(oldSelf.allowanceTotal) && (!has(self.allowanceTotal) || self.allowanceTotal == oldSelf.allowanceTotal))",message="status.allowanceTotal cannot change once the invoice is issued"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.sequence) || (has(self.chargeTotal) == has(oldSelf.chargeTotal) && (!has(self.chargeTotal) || self.chargeTotal == oldSelf.chargeTotal))",message="status.chargeTotal cannot change once the invoice is issued"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.paymentAccount) || (has(self.paymentAccount) && self.paymentAccount == oldSelf.paymentAccount)",message="status.paymentAccount cannot change once set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.paymentReference) || (has(self.paymentReference) && self.paymentReference == oldSelf.paymentReference)",message="status.paymentReference cannot change once set"
type InvoiceStatus struct {
	// conditions describe the invoice's state in the standard Kubernetes way.
	// "Ready" is True once the invoice is issued, and False with reason
	// CustomerNotFound, TaxIDRequired, InvalidTax or TotalTooLarge when it
	// is invalid. "Reconciling" is True while the invoice waits for its
	// customer or for tax ids; "Stalled" is True when it can never be
	// issued as it stands (TotalTooLarge, InvalidTax of its own items).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending until the controller has looked at the invoice, then
	// Issued or Invalid. An issued invoice stays issued.
	// +optional
	Phase InvoicePhase `json:"phase,omitempty"`

	// total is subtotal less allowanceTotal plus chargeTotal plus
	// taxTotal, in minor units of the currency. It
	// is at most 9,007,199,254,740,991 (2^53-1), so that every JSON client
	// reads it exactly; a larger total makes the invoice Invalid with reason
	// TotalTooLarge. Invoices issued before tax existed have a total but no
	// subtotal: their subtotal is their total, their tax 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Total *int64 `json:"total,omitempty"`

	// subtotal is the sum of the items' net amounts (quantity times
	// amount, less the line's discount), tax excluded, in minor units of
	// the currency (BT-106).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Subtotal *int64 `json:"subtotal,omitempty"`

	// allowanceTotal is the sum of spec.allowances, in minor units
	// (BT-107); absent when the invoice has none. Frozen at issue.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	AllowanceTotal *int64 `json:"allowanceTotal,omitempty"`

	// chargeTotal is the sum of spec.charges, in minor units (BT-108);
	// absent when the invoice has none. Frozen at issue.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	ChargeTotal *int64 `json:"chargeTotal,omitempty"`

	// allowances are spec.allowances as issued: each one's amount, base
	// and effective tax. Absent when the invoice has none.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Allowances []AppliedAllowanceCharge `json:"allowances,omitempty"`

	// charges are spec.charges as issued: each one's amount, base and
	// effective tax. Absent when the invoice has none.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Charges []AppliedAllowanceCharge `json:"charges,omitempty"`

	// taxTotal is the sum of taxBreakdown's taxAmount, in minor units.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	TaxTotal *int64 `json:"taxTotal,omitempty"`

	// taxBreakdown has one entry per (category, rate) group of the items'
	// effective taxes, in the order the groups first appear; empty when no
	// item has tax. Frozen when the invoice is issued.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	TaxBreakdown []TaxBreakdownEntry `json:"taxBreakdown,omitempty"`

	// items holds, for each of spec.items in the same order, the line's
	// effective tax, frozen when the invoice is issued. Absent when no
	// item has tax.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=500
	Items []InvoiceItemStatus `json:"items,omitempty"`

	// billTo is the customer's name, e-mail, address and tax id copied when
	// the invoice was issued; later edits of the customer do not change it.
	// +optional
	BillTo *BillTo `json:"billTo,omitempty"`

	// issuedAt is when the invoice was issued.
	// +optional
	IssuedAt *metav1.Time `json:"issuedAt,omitempty"`

	// sequence is the invoice's place in its workspace's numbering: the
	// issued invoices of a namespace hold exactly 1, 2, ... N, in issue
	// order, with no gap and no repeat. Set when the invoice is issued.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Sequence *int64 `json:"sequence,omitempty"`

	// number is the invoice number printed on the invoice: the workspace's
	// BillingProfile numberPrefix followed by the sequence, zero-padded to
	// at least 6 digits, for example "INV-000042". Set when the invoice is
	// issued.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	Number string `json:"number,omitempty"`

	// dueAt is when payment is due: issuedAt plus the BillingProfile's
	// paymentTermsDays (30 without a profile) at issue time.
	// +optional
	DueAt *metav1.Time `json:"dueAt,omitempty"`

	// issuer is the workspace's BillingProfile issuer at issue time; absent
	// when the workspace had no profile named "default" or it named no
	// issuer. Later edits of the profile do not change it.
	// +optional
	Issuer *Issuer `json:"issuer,omitempty"`

	// paymentAccount is the workspace's BillingProfile spec.payment at issue
	// time, the account the invoice is paid to; absent when it named none.
	// Later edits of the profile do not change it.
	// +optional
	PaymentAccount *PaymentAccount `json:"paymentAccount,omitempty"`

	// paymentReference is the invoice's structured creditor reference
	// (ISO 11649), for example "RF29INV000042": RF, two check digits and
	// up to 21 of its number's letters and digits, upper case (the last
	// 21 when there are more). Set at issue when paymentAccount's
	// reference is "iso11649" (its default), then never changed; bank
	// transfers quote it and imported statements are matched by it.
	// +optional
	// +kubebuilder:validation:MinLength=5
	// +kubebuilder:validation:MaxLength=25
	// +kubebuilder:validation:Pattern=`^RF[0-9]{2}[A-Z0-9]{1,21}$`
	PaymentReference string `json:"paymentReference,omitempty"`

	// ledger is the issued invoice's credit notes and payments, entered
	// exactly once each by the controller.
	// +optional
	Ledger *InvoiceLedger `json:"ledger,omitempty"`

	// balance is what the issued invoice's ledger makes of its total:
	// credited, paid, remaining, overpaid, its payment status and whether
	// it is overdue. Set when the invoice is issued.
	// +optional
	Balance *InvoiceBalance `json:"balance,omitempty"`

	// events are the workspace's events about this invoice, each at most
	// once: invoice.issued (written together with the number),
	// invoice.paid, invoice.voided and invoice.overdue. An event once
	// recorded never changes.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=4
	Events []RecordedEvent `json:"events,omitempty"`

	// deliveries are the messages sent about this object (Emails), the
	// newest MaxDeliveries, as each Email last reported. Kept by the
	// controller.
	// +optional
	// +listType=map
	// +listMapKey=email
	// +kubebuilder:validation:MaxItems=20
	Deliveries []Delivery `json:"deliveries,omitempty"`

	// display is the invoice's total and what is left to pay for people, in the currency
	// and its major units ("USD 680.50"), as `kubectl get` shows it.
	// Derived by the controller from the amounts in minor units, never
	// set by hand; not part of the HTTP API's answers.
	// +optional
	Display *InvoiceDisplay `json:"display,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Invoice bills a Customer in the same namespace for a list of line items.
// Its spec is immutable; the controller issues it once its customer exists.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=inv,categories=invoicing
// +kubebuilder:selectablefield:JSONPath=`.spec.customerRef.name`
// +kubebuilder:printcolumn:name="Number",type=string,JSONPath=`.status.number`
// +kubebuilder:printcolumn:name="Customer",type=string,JSONPath=`.spec.customerRef.name`
// +kubebuilder:printcolumn:name="Total",type=string,JSONPath=`.status.display.total`,description="The invoice's total, in its currency"
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Payment",type=string,JSONPath=`.status.balance.paymentStatus`
// +kubebuilder:printcolumn:name="Remaining",type=string,JSONPath=`.status.display.amountRemaining`,description="What is left to pay, in the invoice's currency"
// +kubebuilder:printcolumn:name="Overdue",type=boolean,JSONPath=`.status.balance.overdue`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Invoice struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// invoice's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what is billed, to whom. It is immutable.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: create a new invoice instead"
	Spec InvoiceSpec `json:"spec"`

	// status is the controller's verdict on the invoice. Until the controller
	// has looked at the invoice, its phase reads Pending.
	// +optional
	// +kubebuilder:default={phase: Pending}
	Status InvoiceStatus `json:"status,omitempty"`
}

// EffectivePhase is the invoice's phase: Pending until the controller has
// set Issued or Invalid, whatever else status.phase holds.
func (in *Invoice) EffectivePhase() InvoicePhase {
	switch in.Status.Phase {
	case InvoiceIssued, InvoiceInvalid:
		return in.Status.Phase
	default:
		return InvoicePending
	}
}

// InvoiceList contains a list of Invoice.
// +kubebuilder:object:root=true
type InvoiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Invoice `json:"items"`
}

func init() {
	register(&Invoice{}, &InvoiceList{})
}
