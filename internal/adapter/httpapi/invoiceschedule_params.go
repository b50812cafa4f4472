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

package httpapi

import (
	"maps"
	"net/http"
	"slices"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/schedule"
)

// InvoiceScheduleParams is a validated POST /v1/invoice_schedules body:
// the invoice each period issues (its customer, currency, items,
// references, allowances and charges, as POST /v1/invoices takes them)
// and the schedule's calendar.
type InvoiceScheduleParams struct {
	Invoice       InvoiceParams
	IntervalUnit  string
	IntervalCount int32
	StartDate     string
	// TimeZone is "" when the body names none: the profile's, then UTC.
	TimeZone string
	Billing  string
	// EndCount and EndDate are the end, when the body gives one.
	EndCount      int32
	EndDate       string
	MissedPeriods string
	// MaxCatchUp is 0 when the body gives none (12).
	MaxCatchUp int32
	Paused     bool
}

// The bounds of a schedule's numbers.
const (
	maxEndCount   = 100_000
	maxMaxCatchUp = 120
)

// invoiceScheduleFields are the fields of a POST /v1/invoice_schedules
// body: an invoice's without its date of supply, which each period
// states, and the schedule's own.
var invoiceScheduleFields = func() map[string]kind {
	fields := maps.Clone(invoiceFields)
	delete(fields, "supply_date")
	maps.Copy(fields, map[string]kind{
		"interval": kindObject, "start_date": kindString, "time_zone": kindString, "billing": kindString,
		"end": kindObject, "missed_periods": kindString, "max_catch_up": kindNumber, "paused": kindBool,
	})
	return fields
}()

var (
	intervalFields = map[string]kind{"unit": kindString, "count": kindNumber}
	endFields      = map[string]kind{"count": kindNumber, "date": kindString}
)

// DecodeInvoiceSchedule parses and validates a POST /v1/invoice_schedules
// body, with the guarantees of DecodeInvoice for its invoice's fields: all
// 400s (structure and JSON types) before any 422 (values).
func DecodeInvoiceSchedule(body []byte) (*InvoiceScheduleParams, *Error) {
	fields, e := bodyFields(body, invoiceScheduleFields)
	if e != nil {
		return nil, e
	}
	var interval, end map[string]*node
	if n := fields["interval"]; n != nil {
		if interval, e = checkObject(n, "interval", intervalFields); e != nil {
			return nil, e
		}
	}
	if n := fields["end"]; n != nil {
		if end, e = checkObject(n, "end", endFields); e != nil {
			return nil, e
		}
	}
	inv, e := invoiceParamsOf(fields)
	if e != nil {
		return nil, e
	}
	p := &InvoiceScheduleParams{Invoice: *inv}
	if e := p.decodeCalendar(fields, interval); e != nil {
		return nil, e
	}
	if e := p.decodePolicy(fields, end); e != nil {
		return nil, e
	}
	return p, nil
}

// decodeCalendar validates the interval, start date, time zone and billing.
func (p *InvoiceScheduleParams) decodeCalendar(fields, interval map[string]*node) *Error {
	if interval == nil {
		return errorf(http.StatusUnprocessableEntity, CodeParameterMissing, "interval",
			"interval is required: {\"unit\": \"month\", \"count\": 1} bills monthly.")
	}
	units := []string{"day", "week", "month", "year"}
	if u := interval["unit"]; u == nil || !slices.Contains(units, u.s) {
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "interval.unit",
			"interval.unit must be one of %s.", joinValues(units))
	}
	p.IntervalUnit = interval["unit"].s
	count, e := requiredWhole(interval, "interval", "count", 1, schedule.MaxCount)
	if e != nil {
		return e
	}
	p.IntervalCount = int32(count) //nolint:gosec // at most schedule.MaxCount
	if fields["start_date"] == nil {
		return errorf(http.StatusUnprocessableEntity, CodeParameterMissing, "start_date",
			"start_date is required: the first period's first day, YYYY-MM-DD.")
	}
	if p.StartDate, e = optionalDay(fields, "", "start_date"); e != nil {
		return e
	}
	if z := fields["time_zone"]; z != nil {
		if _, err := billing.Location(z.s); err != nil || z.s == "" || len(z.s) > 64 {
			return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "time_zone",
				"time_zone must be an IANA time zone name, such as Europe/Berlin.")
		}
		p.TimeZone = z.s
	}
	p.Billing, e = oneOf(fields, "billing", []string{string(billingv1.BillingInAdvance), string(billingv1.BillingInArrears)},
		string(billingv1.BillingInAdvance))
	return e
}

// decodePolicy validates the end, the missed-periods policy, the catch-up
// bound and paused.
func (p *InvoiceScheduleParams) decodePolicy(fields, end map[string]*node) *Error {
	var e *Error
	if end != nil {
		switch {
		case (end["count"] == nil) == (end["date"] == nil):
			return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "end",
				"end must have either a count of periods or a date, not both.")
		case end["count"] != nil:
			n, e := requiredWhole(end, "end", "count", 1, maxEndCount)
			if e != nil {
				return e
			}
			p.EndCount = int32(n) //nolint:gosec // at most maxEndCount
		default:
			if p.EndDate, e = optionalDay(end, "end", "date"); e != nil {
				return e
			}
		}
	}
	if p.MissedPeriods, e = oneOf(fields, "missed_periods", []string{string(billingv1.MissedIssueAll),
		string(billingv1.MissedIssueLatest), string(billingv1.MissedSkip)}, string(billingv1.MissedIssueAll)); e != nil {
		return e
	}
	if fields["max_catch_up"] != nil {
		n, e := requiredWhole(fields, "", "max_catch_up", 1, maxMaxCatchUp)
		if e != nil {
			return e
		}
		p.MaxCatchUp = int32(n) //nolint:gosec // at most maxMaxCatchUp
	}
	if b := fields["paused"]; b != nil {
		p.Paused = b.s == literalTrue
	}
	return nil
}

// spec is the schedule p creates, billing items, allowances and charges
// (with their effective taxes, as an invoice created over HTTP carries
// them: the total of each period is the one the create computed).
func (p *InvoiceScheduleParams) spec(items []billingv1.LineItem, allowances []billingv1.DocumentAllowance,
	charges []billingv1.DocumentCharge) billingv1.InvoiceScheduleSpec {
	spec := billingv1.InvoiceScheduleSpec{
		CustomerRef: billingv1.CustomerReference{Name: p.Invoice.CustomerID},
		Template: billingv1.InvoiceTemplate{Currency: p.Invoice.Currency, Items: items,
			DefaultTaxFrom: billingv1.DefaultTaxNone, BuyerReference: p.Invoice.BuyerReference,
			PurchaseOrder: p.Invoice.PurchaseOrder, Allowances: allowances, Charges: charges},
		Interval:      billingv1.ScheduleInterval{Unit: billingv1.IntervalUnit(p.IntervalUnit), Count: p.IntervalCount},
		StartDate:     p.StartDate,
		TimeZone:      p.TimeZone,
		Billing:       billingv1.ScheduleBilling(p.Billing),
		MissedPeriods: billingv1.MissedPeriods(p.MissedPeriods),
		Paused:        p.Paused,
	}
	if p.EndCount > 0 {
		spec.End = &billingv1.ScheduleEnd{Count: &p.EndCount}
	} else if p.EndDate != "" {
		spec.End = &billingv1.ScheduleEnd{Date: p.EndDate}
	}
	if p.MaxCatchUp > 0 {
		spec.MaxCatchUp = &p.MaxCatchUp
	}
	return spec
}
