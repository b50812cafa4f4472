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
	"net/url"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
)

// invoicePaymentStatuses are the values of the payment_status filter of
// GET /v1/invoices.
var invoicePaymentStatuses = map[string]billingv1.InvoicePaymentStatus{
	string(billingv1.InvoicePaymentVoid):          billingv1.InvoicePaymentVoid,
	string(billingv1.InvoicePaymentUncollectible): billingv1.InvoicePaymentUncollectible,
	string(billingv1.InvoicePaymentPaid):          billingv1.InvoicePaymentPaid,
	string(billingv1.InvoicePaymentPartiallyPaid): billingv1.InvoicePaymentPartiallyPaid,
	string(billingv1.InvoicePaymentOpen):          billingv1.InvoicePaymentOpen,
}

// invoiceSelection reads the balance filters of GET /v1/invoices into f and
// returns the selection of the list: payment_status (void, uncollectible,
// paid, partially_paid or open) and overdue (true), each selecting issued
// invoices only, so that status may be left out or be issued with them; the
// feed (order=sequence) takes neither. A bad value is 400
// parameter_invalid.
func invoiceSelection(q url.Values, ns string, f *listFilters, phase billingv1.InvoicePhase) (store.Selection, *Error) {
	if q.Has(queryScheduleID) {
		return scheduleSelection(q, ns, f)
	}
	sel := store.Selection{Namespace: ns, CustomerID: f.CustomerID, Phase: phase}
	if q.Has(queryPaymentStatus) {
		f.PaymentStatus = q.Get(queryPaymentStatus)
		var ok bool
		if sel.PaymentStatus, ok = invoicePaymentStatuses[f.PaymentStatus]; !ok {
			return sel, errorf(http.StatusBadRequest, CodeParameterInvalid, queryPaymentStatus,
				"payment_status must be void, uncollectible, paid, partially_paid or open.")
		}
	}
	if q.Has(queryOverdue) {
		if q.Get(queryOverdue) != literalTrue {
			return sel, errorf(http.StatusBadRequest, CodeParameterInvalid, queryOverdue,
				"overdue must be true (or left out, for every invoice).")
		}
		f.Overdue, sel.Overdue = true, true
	}
	if sel.PaymentStatus == "" && !sel.Overdue {
		return sel, nil
	}
	param := queryPaymentStatus
	if sel.PaymentStatus == "" {
		param = queryOverdue
	}
	switch {
	case f.Order != "":
		return sel, errorf(http.StatusBadRequest, CodeParameterInvalid, param,
			"%s does not filter the feed (order=sequence): leave one of them out.", param)
	case phase != "" && phase != billingv1.InvoiceIssued:
		return sel, errorf(http.StatusBadRequest, CodeParameterInvalid, queryStatus,
			"%s selects issued invoices: leave status out, or make it issued.", param)
	}
	// Only issued invoices have a balance: the phase adds nothing.
	sel.Phase = ""
	return sel, nil
}

// scheduleSelection is the selection of schedule_id, the invoices one
// InvoiceSchedule issued: it filters alone (a 400 beside another filter)
// and must not be empty.
func scheduleSelection(q url.Values, ns string, f *listFilters) (store.Selection, *Error) {
	f.ScheduleID = q.Get(queryScheduleID)
	if f.ScheduleID == "" {
		return store.Selection{}, errorf(http.StatusBadRequest, CodeParameterInvalid, queryScheduleID,
			"schedule_id must not be empty.")
	}
	for _, other := range []string{queryCustomerID, queryStatus, queryPaymentStatus, queryOverdue, queryOrder} {
		if q.Has(other) {
			return store.Selection{}, errorf(http.StatusBadRequest, CodeParameterInvalid, queryScheduleID,
				"schedule_id lists the invoices of one schedule and takes no other filter: leave %s out.", other)
		}
	}
	return store.Selection{Namespace: ns, ScheduleID: f.ScheduleID}, nil
}
