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
	"net/http"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/schedule"
)

// The path parameters of a schedule's pending items.
const (
	paramSchedule    = "invoice_schedule_id"
	paramPendingItem = "pending_item_id"
)

// pendingItemsPath is the path of the pending items of schedule id.
func pendingItemsPath(id string) string {
	return recordkind.InvoiceSchedule.Path + id + "/pending_items/"
}

// createPendingItem serves POST
// /v1/invoice_schedules/{invoice_schedule_id}/pending_items: a one-off line
// for the schedule's next invoice, checked as a line of POST /v1/invoices
// is and then with the schedule's template, so that the invoice that takes
// it can be issued. The line carries its effective tax, the workspace's
// default written in when it names none, as the schedule's own lines do.
// An unknown schedule is 404 resource_missing; one that has ended
// (completed or cancelled) 409 schedule_ended.
func (a *Adapter) createPendingItem(w http.ResponseWriter, r *http.Request, c *call) *Error {
	id := r.PathValue(paramSchedule)
	kind := createKind{resource: resourcePendingItems, prefix: recordkind.PendingItem.IDPrefix,
		path: pendingItemsPath(id)}
	return create(a, w, r, c, kind, DecodePendingItem, func(p *ItemParams) (*creation[*billingv1.PendingItem], *Error) {
		s := &billingv1.InvoiceSchedule{}
		if e := a.readRecord(r, c.ns, id, s, http.StatusNotFound, "an invoice schedule", paramSchedule); e != nil {
			return nil, e
		}
		if ended := scheduleEnded(s); ended != "" {
			return nil, errorf(http.StatusConflict, CodeScheduleEnded, "",
				"The invoice schedule %s has ended (%s): no invoice will take a pending item.", s.Name, ended)
		}
		profile, err := a.store.Profile(r.Context(), c.ns)
		if err != nil {
			return nil, apiError(r.Context(), err, "Unable to read the billing profile")
		}
		items, _, e := invoiceItems(&InvoiceParams{Currency: s.Spec.Template.Currency, Items: []ItemParams{*p}},
			profile.DefaultTax)
		if e != nil {
			return nil, asItem(e)
		}
		spec := schedule.InvoiceSpecOf(s, schedule.Period{})
		spec.Items = append(spec.Items, items[0])
		if err := schedule.SpecFault(&spec, profile.DefaultTax); err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "",
				"The item cannot be invoiced with the schedule's lines: %s.", err)
		}
		return &creation[*billingv1.PendingItem]{
			object: &billingv1.PendingItem{Spec: billingv1.PendingItemSpec{
				ScheduleRef: billingv1.InvoiceScheduleReference{Name: s.Name}, Item: items[0]}},
			answer: func(item *billingv1.PendingItem, _ bool) any { return apiobject.PendingItemOf(item) }}, nil
	})
}

// asItem is e, an error about items[0] of an invoice made of the pending
// item alone, about the body itself: its param without "items[0]".
func asItem(e *Error) *Error {
	const prefix = "items[0]"
	if rest, ok := strings.CutPrefix(e.Param, prefix); ok {
		e.Param = strings.TrimPrefix(rest, ".")
		e.Message = strings.ReplaceAll(e.Message, prefix+".", "")
	}
	return e
}

// scheduleEnded is "completed" or "cancelled" for a schedule that has
// ended, "" for one that has not.
func scheduleEnded(s *billingv1.InvoiceSchedule) string {
	switch {
	case s.Spec.Cancelled || s.Status.Phase == billingv1.SchedulePhaseCancelled:
		return "cancelled"
	case s.Status.Phase == billingv1.SchedulePhaseCompleted:
		return "completed"
	}
	return ""
}

// listPendingItems serves GET
// /v1/invoice_schedules/{invoice_schedule_id}/pending_items: a page of the
// schedule's pending items, taken or not, ordered by id. An unknown
// schedule is 404 resource_missing.
func (a *Adapter) listPendingItems(w http.ResponseWriter, r *http.Request, c *call) *Error {
	id := r.PathValue(paramSchedule)
	if e := a.readRecord(r, c.ns, id, &billingv1.InvoiceSchedule{}, http.StatusNotFound, "an invoice schedule",
		paramSchedule); e != nil {
		return e
	}
	return listPage(w, r, c, listing{resource: resourcePendingItems, what: "pending items",
		filters: listFilters{ScheduleID: id}, sel: store.Selection{ScheduleID: id}}, a.store,
		apiobject.PendingItemOf, a.encoded)
}

// getPendingItem serves GET
// /v1/invoice_schedules/{invoice_schedule_id}/pending_items/{pending_item_id}:
// 404 resource_missing unless the item is the schedule's.
func (a *Adapter) getPendingItem(w http.ResponseWriter, r *http.Request, c *call) *Error {
	item, e := pathRecord[billingv1.PendingItem](a, r, c, "a pending item", paramPendingItem)
	if e != nil {
		return e
	}
	if id := r.PathValue(paramSchedule); item.Spec.ScheduleRef.Name != id {
		return errorf(http.StatusNotFound, CodeResourceMissing, paramPendingItem,
			"There is no pending item %q of invoice schedule %q in workspace %q.", c.id, id, c.ns)
	}
	writeJSON(w, r, http.StatusOK, apiobject.PendingItemOf(item))
	return nil
}
