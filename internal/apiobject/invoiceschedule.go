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

package apiobject

import (
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// InvoiceSchedule is the /v1 representation of an InvoiceSchedule: the
// invoice each period issues (as an invoice answers it: items with their
// net amounts, allowances, charges, references), its calendar and policy
// as given, and the controller's account in snake case.
type InvoiceSchedule struct {
	ID             string            `json:"id"`
	Object         string            `json:"object"`
	Workspace      string            `json:"workspace"`
	CustomerID     string            `json:"customer_id"`
	Currency       string            `json:"currency"`
	Items          []Item            `json:"items"`
	Allowances     []AllowanceCharge `json:"allowances"`
	Charges        []AllowanceCharge `json:"charges"`
	BuyerReference *string           `json:"buyer_reference"`
	PurchaseOrder  *string           `json:"purchase_order"`
	Interval       Interval          `json:"interval"`
	StartDate      string            `json:"start_date"`
	// TimeZone is null when the schedule names none: the profile's, then
	// UTC.
	TimeZone       *string      `json:"time_zone"`
	Billing        string       `json:"billing"`
	End            *ScheduleEnd `json:"end"`
	MissedPeriods  string       `json:"missed_periods"`
	MaxCatchUp     *int32       `json:"max_catch_up"`
	Paused         bool         `json:"paused"`
	Status         string       `json:"status"`
	StatusReason   *string      `json:"status_reason"`
	NextPeriod     *Period      `json:"next_period"`
	NextIssueAt    *string      `json:"next_issue_at"`
	IssuedCount    int64        `json:"issued_count"`
	SkippedPeriods int64        `json:"skipped_periods"`
	LastInvoiceID  *string      `json:"last_invoice_id"`
	CreatedAt      string       `json:"created_at"`
}

// Interval is a schedule's period length.
type Interval struct {
	Unit  string `json:"unit"`
	Count int32  `json:"count"`
}

// ScheduleEnd is where a schedule ends: Count periods or with Date; the
// other is null.
type ScheduleEnd struct {
	Count *int32  `json:"count"`
	Date  *string `json:"date"`
}

// InvoiceScheduleOf is the /v1 representation of s. Its status is
// "pending" until the controller has planned it, then its phase in lower
// case; status_reason is the reason of an invalid one, in snake case.
func InvoiceScheduleOf(s *billingv1.InvoiceSchedule) InvoiceSchedule {
	t := &s.Spec.Template
	template := InvoiceOf(&billingv1.Invoice{Spec: billingv1.InvoiceSpec{CustomerRef: s.Spec.CustomerRef,
		Currency: t.Currency, Items: t.Items, DefaultTaxFrom: t.DefaultTaxFrom, Allowances: t.Allowances,
		Charges: t.Charges}})
	out := InvoiceSchedule{
		ID: s.Name, Object: "invoice_schedule", Workspace: s.Namespace, CustomerID: s.Spec.CustomerRef.Name,
		Currency: template.Currency, Items: template.Items, Allowances: template.Allowances, Charges: template.Charges,
		BuyerReference: optional(t.BuyerReference), PurchaseOrder: optional(t.PurchaseOrder),
		Interval:  Interval{Unit: string(s.Spec.Interval.Unit), Count: s.Spec.Interval.Count},
		StartDate: s.Spec.StartDate, TimeZone: optional(s.Spec.TimeZone),
		Billing: string(s.Spec.Billing), MissedPeriods: string(s.Spec.MissedPeriods),
		MaxCatchUp: s.Spec.MaxCatchUp, Paused: s.Spec.Paused,
		Status: "pending", NextPeriod: periodJSON(s.Status.NextPeriod),
		NextIssueAt: optionalTimestamp(s.Status.NextIssueAt), IssuedCount: s.Status.IssuedCount,
		SkippedPeriods: s.Status.SkippedPeriods, LastInvoiceID: optional(s.Status.LastInvoice),
		CreatedAt: timestamp(s.CreationTimestamp.Time),
	}
	if out.Billing == "" {
		out.Billing = string(billingv1.BillingInAdvance)
	}
	if out.MissedPeriods == "" {
		out.MissedPeriods = string(billingv1.MissedIssueAll)
	}
	if e := s.Spec.End; e != nil {
		out.End = &ScheduleEnd{Count: e.Count, Date: optional(e.Date)}
	}
	if p := s.Status.Phase; p != "" {
		out.Status = strings.ToLower(string(p))
	}
	if s.Status.Phase == billingv1.SchedulePhaseInvalid {
		for _, c := range s.Status.Conditions {
			if c.Type == billingv1.ConditionStalled {
				out.StatusReason = optional(snakeCase(c.Reason))
			}
		}
	}
	return out
}

// UpcomingInvoice is one upcoming period of a schedule: the period, when
// its invoice is issued (UTC), and its amounts as the invoice would have
// them.
type UpcomingInvoice struct {
	Object   string `json:"object"`
	Period   Period `json:"period"`
	IssueAt  string `json:"issue_at"`
	Subtotal int64  `json:"subtotal"`
	TaxTotal int64  `json:"tax_total"`
	Total    int64  `json:"total"`
}

// UpcomingInvoiceOf renders the period from start to end (YYYY-MM-DD),
// issued at issueAt, of amounts (internal/billing's).
func UpcomingInvoiceOf(start, end string, issueAt time.Time, amounts billing.Amounts) UpcomingInvoice {
	return UpcomingInvoice{Object: "upcoming_invoice", Period: Period{Start: start, End: end}, IssueAt: timestamp(issueAt),
		Subtotal: amounts.Subtotal, TaxTotal: amounts.TaxTotal, Total: amounts.Total}
}
