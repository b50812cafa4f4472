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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
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
