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
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/schedule"
)

// createInvoiceSchedule serves POST /v1/invoice_schedules. Its invoice is
// checked as POST /v1/invoices checks one (the customer exists, the taxes
// keep their rules, no allowance exceeds its base), and its lines carry
// their effective taxes, the workspace's default written in, so that each
// period is issued with the total the create computed.
func (a *Adapter) createInvoiceSchedule(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return create(a, w, r, c, invoiceScheduleKind, DecodeInvoiceSchedule,
		func(p *InvoiceScheduleParams) (*creation[*billingv1.InvoiceSchedule], *Error) {
			defaultTax, e := a.invoiceContext(r, c, &p.Invoice)
			if e != nil {
				return nil, e
			}
			items, _, e := invoiceItems(&p.Invoice, defaultTax)
			if e != nil {
				return nil, e
			}
			allowances, charges := p.Invoice.adjustments(defaultTax)
			return &creation[*billingv1.InvoiceSchedule]{
				object: &billingv1.InvoiceSchedule{Spec: p.spec(items, allowances, charges)},
				answer: func(s *billingv1.InvoiceSchedule, _ bool) any { return apiobject.InvoiceScheduleOf(s) }}, nil
		})
}

// getInvoiceSchedule serves GET /v1/invoice_schedules/{invoice_schedule_id}.
func (a *Adapter) getInvoiceSchedule(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "an invoice schedule", "invoice_schedule_id", apiobject.InvoiceScheduleOf)
}

// listInvoiceSchedules serves GET /v1/invoice_schedules: a page of the
// workspace's schedules, ordered by id.
func (a *Adapter) listInvoiceSchedules(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return listPage(w, r, c, listing{resource: resourceInvoiceSchedules, what: "invoice schedules",
		sel: store.Selection{}}, a.store, apiobject.InvoiceScheduleOf, a.encoded)
}

// The changes of a schedule over HTTP, each its path's last segment.
const (
	actionPause  = "pause"
	actionResume = "resume"
	actionCancel = "cancel"
)

// queryCount is how many upcoming periods GET .../upcoming answers.
const queryCount = "count"

// The bounds of queryCount, and its default.
const (
	maxUpcoming     = 24
	defaultUpcoming = 12
)

// getUpcomingInvoices serves GET
// /v1/invoice_schedules/{invoice_schedule_id}/upcoming: the schedule's next
// count periods (1 to 24, default 12) from the first it has not handled,
// each with when it is issued and the amounts its invoice would have,
// computed as the controller will issue it; nothing is created. A schedule
// that has ended, or cannot issue (its calendar or template is invalid),
// has none.
func (a *Adapter) getUpcomingInvoices(w http.ResponseWriter, r *http.Request, c *call) *Error {
	count, e := upcomingCount(c.query)
	if e != nil {
		return e
	}
	s, e := pathRecord[billingv1.InvoiceSchedule](a, r, c, "an invoice schedule", "invoice_schedule_id")
	if e != nil {
		return e
	}
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the billing profile")
	}
	data := []json.RawMessage{}
	cal, policy, err := schedule.CalendarOf(&s.Spec, profile.TimeZone)
	ended := s.Status.Phase == billingv1.SchedulePhaseCompleted || s.Status.Phase == billingv1.SchedulePhaseCancelled
	for n := schedule.NextIndex(cal, &s.Status); err == nil && !ended && len(data) < count && !cal.Ended(n, policy.End); n++ {
		p := cal.PeriodAt(n)
		spec := schedule.InvoiceSpecOf(s, p)
		var defaultTax *billingv1.Tax
		if spec.DefaultTaxFrom != billingv1.DefaultTaxNone {
			defaultTax = profile.DefaultTax
		}
		amounts, err := billing.InvoiceAmounts(&spec, billing.EffectiveDocumentTaxes(&spec, defaultTax))
		if err != nil {
			break
		}
		b, err := json.Marshal(apiobject.UpcomingInvoiceOf(p.Start.String(), p.End.String(), cal.IssueAt(p), amounts))
		if err != nil {
			return apiError(r.Context(), err, "Unable to answer the upcoming invoices")
		}
		data = append(data, b)
	}
	writeList(w, r, data, false, nil)
	return nil
}

// upcomingCount reads the count query parameter: 1 to maxUpcoming, else
// 400 parameter_invalid; defaultUpcoming without one.
func upcomingCount(q url.Values) (int, *Error) {
	if !q.Has(queryCount) {
		return defaultUpcoming, nil
	}
	n, err := strconv.Atoi(q.Get(queryCount))
	if err != nil || n < 1 || n > maxUpcoming {
		return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, queryCount,
			"count must be a whole number from 1 to %d.", maxUpcoming)
	}
	return n, nil
}

// changeInvoiceSchedule serves POST
// /v1/invoice_schedules/{invoice_schedule_id}/<action>: pause sets
// spec.paused, resume clears it (with the body's missed_periods, when it
// has one, for the periods passed while paused), cancel sets
// spec.cancelled; each answers the schedule as changed, and the controller
// acts on it. A schedule that has ended (completed or cancelled) is 409
// schedule_ended, and nothing changes.
func (a *Adapter) changeInvoiceSchedule(action string) apiHandler {
	return func(w http.ResponseWriter, r *http.Request, c *call) *Error {
		body, e := readOptionalBody(w, r)
		if e != nil {
			return e
		}
		missed, e := decodeResume(body, action)
		if e != nil {
			return e
		}
		s, e := pathRecord[billingv1.InvoiceSchedule](a, r, c, "an invoice schedule", "invoice_schedule_id")
		if e != nil {
			return e
		}
		if ended := scheduleEnded(s); ended != "" {
			return errorf(http.StatusConflict, CodeScheduleEnded, "",
				"The invoice schedule %s has ended (%s): it cannot be paused, resumed or cancelled.", s.Name, ended)
		}
		patch := client.MergeFrom(s.DeepCopy())
		switch action {
		case actionPause:
			s.Spec.Paused = true
		case actionResume:
			s.Spec.Paused = false
			if missed != "" {
				s.Spec.MissedPeriods = billingv1.MissedPeriods(missed)
			}
		default:
			s.Spec.Cancelled = true
		}
		if err := a.claims.Patch(r.Context(), s, patch); err != nil {
			return apiError(r.Context(), err, "Unable to change the invoice schedule")
		}
		writeJSON(w, r, http.StatusOK, apiobject.InvoiceScheduleOf(s))
		return nil
	}
}

// decodeResume reads the body of a pause, resume or cancel (an empty body
// is {}: readOptionalBody): {},
// and for resume optionally {"missed_periods": issue_all | issue_latest |
// skip}.
func decodeResume(body []byte, action string) (string, *Error) {
	known := map[string]kind{}
	if action == actionResume {
		known["missed_periods"] = kindString
	}
	fields, e := bodyFields(body, known)
	if e != nil || fields["missed_periods"] == nil {
		return "", e
	}
	return oneOf(fields, "missed_periods", []string{string(billingv1.MissedIssueAll),
		string(billingv1.MissedIssueLatest), string(billingv1.MissedSkip)}, "")
}
