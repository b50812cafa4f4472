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
	"strconv"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// createInvoice serves POST /v1/invoices. The customer must exist in the
// workspace. Each item without a tax of its own takes the workspace's
// default tax (its BillingProfile "default"'s spec.defaultTax) now, written
// into the invoice (invoiceItems): the total answered is the total issued,
// computed once.
func (a *Adapter) createInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return create(a, w, r, c, invoiceKind, DecodeInvoice,
		func(p *InvoiceParams) (*creation[*billingv1.Invoice], *Error) {
			defaultTax, e := a.invoiceContext(r, c, p)
			if e != nil {
				return nil, e
			}
			items, amounts, e := invoiceItems(p, defaultTax)
			if e != nil {
				return nil, e
			}
			allowances, charges := p.adjustments(defaultTax)
			return &creation[*billingv1.Invoice]{object: p.invoice(items, allowances, charges),
				answer: func(inv *billingv1.Invoice, replayed bool) any {
					if replayed {
						return apiobject.InvoiceOf(inv)
					}
					return apiobject.InvoiceOf(withAmounts(inv, amounts))
				}}, nil
		})
}

// invoiceContext checks that the customer of p exists in the workspace
// (else 422 resource_missing), and returns the workspace's default tax
// when an item of p takes it (nil: none, or not needed).
func (a *Adapter) invoiceContext(r *http.Request, c *call, p *InvoiceParams) (*billingv1.Tax, *Error) {
	if e := a.readRecord(r, c.ns, p.CustomerID, &billingv1.Customer{}, http.StatusUnprocessableEntity,
		"a customer", "customer_id"); e != nil {
		return nil, e
	}
	if !p.needsDefaultTax() {
		return nil, nil
	}
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return nil, apiError(r.Context(), err, "Unable to read the billing profile")
	}
	return profile.DefaultTax, nil
}

// invoice is the invoice p creates, of items (invoiceItems'), allowances
// and charges (adjustments'): with spec.defaultTaxFrom None, since they
// carry their taxes already.
func (p *InvoiceParams) invoice(items []billingv1.LineItem, allowances []billingv1.DocumentAllowance,
	charges []billingv1.DocumentCharge) *billingv1.Invoice {
	return &billingv1.Invoice{Spec: billingv1.InvoiceSpec{
		CustomerRef:    billingv1.CustomerReference{Name: p.CustomerID},
		Currency:       p.Currency,
		Items:          items,
		DefaultTaxFrom: billingv1.DefaultTaxNone,
		BuyerReference: p.BuyerReference,
		PurchaseOrder:  p.PurchaseOrder,
		SupplyDate:     p.SupplyDate,
		Allowances:     allowances,
		Charges:        charges,
	}}
}

// withAmounts is inv, just created, with amounts (those invoiceItems
// computed of its items, whose taxes its spec carries) in its status,
// written as the controller freezes them at issue (billing.SetAmounts): apiobject.InvoiceOf renders them instead of
// computing them again. inv itself, which the store keeps, is left as it
// is.
func withAmounts(inv *billingv1.Invoice, amounts billing.Amounts) *billingv1.Invoice {
	shown := *inv
	shown.Status = billingv1.InvoiceStatus{}
	billing.SetAmounts(&shown.Status, &shown.Spec, amounts, billing.DocumentTaxesOf(&shown))
	return &shown
}

// getInvoice serves GET /v1/invoices/{invoice_id}.
func (a *Adapter) getInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "an invoice", "invoice_id", apiobject.InvoiceOf)
}

// listInvoices serves GET /v1/invoices: a page of the workspace's invoices,
// or of one customer's (customer_id), optionally in one status, one payment
// status and overdue, ordered by id.
func (a *Adapter) listInvoices(w http.ResponseWriter, r *http.Request, c *call) *Error {
	filters, phase, e := invoiceFilters(c.query)
	if e != nil {
		return e
	}
	sel, e := invoiceSelection(c.query, c.ns, &filters, phase)
	if e != nil {
		return e
	}
	if filters.Order == orderSequence {
		return a.listInvoiceFeed(w, r, c, listScope{workspace: c.ns, resource: resourceInvoices, filters: filters})
	}
	return listPage(w, r, c, listing{resource: resourceInvoices, what: "invoices", filters: filters, sel: sel},
		a.store, apiobject.InvoiceOf, a.encoded)
}

// listInvoiceFeed serves GET /v1/invoices?status=issued&order=sequence: the
// feed, a page of the workspace's issued invoices in sequence order after
// after_sequence or the cursor's sequence. A page ends before a sequence
// this replica has not seen yet, with has_more true when it has seen a
// higher one, so that a consumer never skips an invoice; next_cursor is
// always set, to where the next page starts, since more may be issued
// later. A client that asks for an event stream is sent the feed as it
// grows instead (streamInvoiceFeed).
func (a *Adapter) listInvoiceFeed(w http.ResponseWriter, r *http.Request, c *call, scope listScope) *Error {
	limit, cursorAfter, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	if wantsEventStream(r) {
		return a.streamInvoiceFeed(w, r, c, cursorAfter)
	}
	after, e := feedStart(c.query, cursorAfter)
	if e != nil {
		return e
	}
	page, more, err := a.store.Feed(r.Context(), c.ns, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list invoices")
	}
	data, err := encodeEach(a.encoded, page, apiobject.InvoiceOf)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list invoices")
	}
	next := encodeCursor(scope, strconv.FormatInt(after+int64(len(page)), 10))
	writeList(w, r, data, more, &next)
	return nil
}
