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

// LabelSchedule is the label of an invoice that a schedule issued: the
// schedule's name.
const LabelSchedule = "billing.invoicing.dev/schedule"

// InvoicingPeriod is the period an invoice bills (EN 16931 BG-14): its
// first and last days, inclusive.
// +kubebuilder:validation:XValidation:rule="self.start <= self.end",message="the period's end is on or after its start"
type InvoicingPeriod struct {
	// start is the period's first day, YYYY-MM-DD (BT-73).
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Format=date
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	Start string `json:"start"`

	// end is the period's last day, YYYY-MM-DD (BT-74).
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Format=date
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	End string `json:"end"`
}

// IntervalUnit is the unit of a schedule's interval.
// +kubebuilder:validation:Enum=day;week;month;year
type IntervalUnit string

// ScheduleInterval is how long each period of a schedule is.
type ScheduleInterval struct {
	// unit is day, week, month or year. A month or year is counted from
	// the start date alone: a monthly schedule from the 31st starts each
	// period on the 31st, or on the month's last day when it is shorter.
	// +required
	Unit IntervalUnit `json:"unit"`

	// count is how many units a period lasts, 1 to 36 (3 months: a
	// quarter).
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=36
	Count int32 `json:"count"`
}

// ScheduleBilling is on which day a period's invoice is issued.
// +kubebuilder:validation:Enum=in_advance;in_arrears
type ScheduleBilling string

// The days a period is billed on.
const (
	// BillingInAdvance issues a period's invoice on its first day.
	BillingInAdvance ScheduleBilling = "in_advance"
	// BillingInArrears issues it on the day after its last day.
	BillingInArrears ScheduleBilling = "in_arrears"
)

// MissedPeriods is what a schedule does with the periods that came due
// before it was active: before it was created, or while it was paused.
// +kubebuilder:validation:Enum=issue_all;issue_latest;skip
type MissedPeriods string

// The policies of missed periods.
const (
	// MissedIssueAll issues them, at most maxCatchUp, the latest ones.
	MissedIssueAll MissedPeriods = "issue_all"
	// MissedIssueLatest issues the latest of them alone.
	MissedIssueLatest MissedPeriods = "issue_latest"
	// MissedSkip issues none of them.
	MissedSkip MissedPeriods = "skip"
)

// ScheduleEnd is where a schedule ends: after a count of periods, or with
// the last period that starts on or before a date.
// +kubebuilder:validation:XValidation:rule="has(self.count) != has(self.date)",message="an end has either a count or a date"
type ScheduleEnd struct {
	// count ends the schedule after this many periods, at least 1.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	Count *int32 `json:"count,omitempty"`

	// date ends the schedule with the last period that starts on or before
	// it, YYYY-MM-DD.
	// +optional
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Format=date
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	Date string `json:"date,omitempty"`
}

// InvoiceTemplate is what each invoice of a schedule bills: an invoice's
// spec without its customer, which the schedule names, and without a
// supply date, which its period states.
type InvoiceTemplate struct {
	// currency is the ISO 4217 code of the currency that amounts are in:
	// three upper-case letters. Defaults to "USD".
	// +optional
	// +kubebuilder:default=USD
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency,omitempty"` //nolint:kubeapilinter // the pattern bounds the length, as on an Invoice

	// items are each invoice's line items, 1 to 500, as on an Invoice.
	// +required
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=500
	Items []LineItem `json:"items"`

	// defaultTaxFrom says what tax the items without a tax of their own
	// get, as on an Invoice: "Profile" (when absent) the profile's default
	// when each invoice is issued, "None" no tax.
	// +optional
	DefaultTaxFrom DefaultTaxSource `json:"defaultTaxFrom,omitempty"`

	// buyerReference is quoted on each invoice (BT-10), 1 to 200
	// characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	BuyerReference string `json:"buyerReference,omitempty"`

	// purchaseOrder is the buyer's purchase order number (BT-13), 1 to 200
	// characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	PurchaseOrder string `json:"purchaseOrder,omitempty"`

	// allowances are taken off each invoice (BG-20): at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Allowances []DocumentAllowance `json:"allowances,omitempty"`

	// charges are added to each invoice (BG-21): at most 20.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Charges []DocumentCharge `json:"charges,omitempty"`
}

// InvoiceScheduleSpec is a customer's recurring invoice: what it bills and
// on which calendar. A change applies to the periods whose invoice does
// not exist yet; an invoice once issued never changes.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.cancelled) || !oldSelf.cancelled || (has(self.cancelled) && self.cancelled)",message="a cancelled schedule stays cancelled: create a new one"
type InvoiceScheduleSpec struct {
	// customerRef names the Customer, in the same namespace, billed.
	// +required
	CustomerRef CustomerReference `json:"customerRef"`

	// template is what each period's invoice bills.
	// +required
	Template InvoiceTemplate `json:"template"`

	// interval is each period's length.
	// +required
	Interval ScheduleInterval `json:"interval"`

	// startDate is the first period's first day, YYYY-MM-DD. Every period
	// is computed from it alone, as calendar days in timeZone.
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Format=date
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	StartDate string `json:"startDate"`

	// timeZone is the IANA time zone whose calendar days the periods are,
	// such as "Europe/Berlin": a period's invoice is issued at 00:00 of
	// its day there. Absent: the BillingProfile's timeZone, then UTC.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_+/-]*$`
	TimeZone string `json:"timeZone,omitempty"`

	// billing is in_advance (a period's invoice is issued on its first
	// day, the default) or in_arrears (on the day after its last day).
	// +optional
	// +kubebuilder:default=in_advance
	Billing ScheduleBilling `json:"billing,omitempty"`

	// end ends the schedule: after a count of periods or with a date.
	// Absent, it never ends.
	// +optional
	End *ScheduleEnd `json:"end,omitempty"`

	// missedPeriods is what the schedule does with the periods that came
	// due before it was created or while it was paused: issue_all (the
	// default, at most maxCatchUp, the latest ones), issue_latest or skip.
	// A period that comes due while it is active is always issued.
	// +optional
	// +kubebuilder:default=issue_all
	MissedPeriods MissedPeriods `json:"missedPeriods,omitempty"`

	// maxCatchUp is how many missed periods issue_all issues at most, 1 to
	// 120; 12 when absent.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=120
	MaxCatchUp *int32 `json:"maxCatchUp,omitempty"`

	// paused stops issuing. Periods that come due while paused are missed
	// periods when it resumes.
	// +optional
	Paused bool `json:"paused,omitempty"` //nolint:kubeapilinter // a contract of the issue (spec.paused), as a webhook endpoint's

	// cancelled ends the schedule now, for good: it issues nothing more
	// and its invoices stay. It cannot be set back to false.
	// +optional
	Cancelled bool `json:"cancelled,omitempty"` //nolint:kubeapilinter // an end that cannot be undone, as POST .../cancel sets it
}

// InvoiceSchedulePhase is where a schedule is in its life.
// +kubebuilder:validation:Enum=Active;Paused;Completed;Cancelled;Invalid
type InvoiceSchedulePhase string

// The phases of a schedule.
const (
	// SchedulePhaseActive issues each period's invoice when it comes due.
	SchedulePhaseActive InvoiceSchedulePhase = "Active"
	// SchedulePhasePaused issues nothing until resumed.
	SchedulePhasePaused InvoiceSchedulePhase = "Paused"
	// SchedulePhaseCompleted has reached its end and issues nothing more.
	SchedulePhaseCompleted InvoiceSchedulePhase = "Completed"
	// SchedulePhaseCancelled was ended by hand and issues nothing more.
	SchedulePhaseCancelled InvoiceSchedulePhase = "Cancelled"
	// SchedulePhaseInvalid cannot issue: Stalled says why.
	SchedulePhaseInvalid InvoiceSchedulePhase = "Invalid"
)

// InvoiceScheduleStatus is the controller's account of a schedule.
type InvoiceScheduleStatus struct {
	// conditions describe the schedule in the standard Kubernetes way:
	// Ready is True while it issues as planned; Stalled is True, with its
	// reason, when it cannot (the customer is missing, the template is
	// invalid).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Active, Paused, Completed, Cancelled or Invalid.
	// +optional
	Phase InvoiceSchedulePhase `json:"phase,omitempty"`

	// nextPeriod is the first period neither issued nor skipped yet.
	// +optional
	NextPeriod *InvoicingPeriod `json:"nextPeriod,omitempty"`

	// nextIssueAt is when nextPeriod's invoice is issued, RFC 3339.
	// +optional
	NextIssueAt *metav1.Time `json:"nextIssueAt,omitempty"`

	// issuedCount is how many invoices the schedule has created.
	// +optional
	// +kubebuilder:validation:Minimum=0
	IssuedCount int64 `json:"issuedCount,omitempty"`

	// skippedPeriods is how many periods it skipped as missed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	SkippedPeriods int64 `json:"skippedPeriods,omitempty"`

	// lastInvoice is the name of the last invoice it created.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	LastInvoice string `json:"lastInvoice,omitempty"`

	// activeSince is when the schedule last became active (created or
	// resumed): periods that came due before it are missed periods.
	// +optional
	ActiveSince *metav1.Time `json:"activeSince,omitempty"`

	// events holds the schedule's events: invoice_schedule.stalled the
	// first time it stalled, invoice_schedule.completed once it completed.
	// Each is recorded in the status patch after the one that wrote the
	// phase it is about, so that a sequence is only ever taken for a fact
	// the status already holds.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=2
	Events []RecordedEvent `json:"events,omitempty"`

	// observedGeneration is the metadata.generation this status was
	// computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// InvoiceSchedule issues one Invoice per period for a Customer in the
// same namespace, named <schedule>-<YYYYMMDD> after its period's first
// day and created, never updated, so that no period is ever issued twice.
// Its invoices are records: deleting the schedule deletes none of them.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=isch,categories=invoicing
// +kubebuilder:printcolumn:name="Customer",type=string,JSONPath=`.spec.customerRef.name`
// +kubebuilder:printcolumn:name="Every",type=integer,JSONPath=`.spec.interval.count`
// +kubebuilder:printcolumn:name="Unit",type=string,JSONPath=`.spec.interval.unit`
// +kubebuilder:printcolumn:name="Next Issue",type=string,JSONPath=`.status.nextIssueAt`
// +kubebuilder:printcolumn:name="Issued",type=integer,JSONPath=`.status.issuedCount`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="size(self.metadata.name) <= 244",message="a schedule's name is at most 244 characters: its invoices are named <schedule>-<YYYYMMDD>"
type InvoiceSchedule struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// schedule's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the schedule.
	// +required
	Spec InvoiceScheduleSpec `json:"spec"`

	// status is the controller's account.
	// +optional
	Status InvoiceScheduleStatus `json:"status,omitempty"`
}

// InvoiceScheduleList contains a list of InvoiceSchedule.
// +kubebuilder:object:root=true
type InvoiceScheduleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InvoiceSchedule `json:"items"`
}

func init() {
	register(&InvoiceSchedule{}, &InvoiceScheduleList{})
}
