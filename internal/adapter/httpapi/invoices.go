/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"net/http"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// createInvoice serves POST /v1/invoices. The customer must exist in the
// workspace. Each item without a tax of its own takes the workspace's
// default tax (its BillingProfile "default"'s spec.defaultTax) now, written
// into the invoice (invoiceItems): the total answered is the total issued.
func (a *Adapter) createInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	key, e := idempotencyKey(r.Header)
	if e != nil {
		return e
	}
	body, e := readBody(w, r)
	if e != nil {
		return e
	}
	p, e := DecodeInvoice(body)
	if e != nil {
		return e
	}
	found, err := a.store.Get(r.Context(), c.ns, p.CustomerID, &billingv1.Customer{})
	if err != nil {
		return apiError(r.Context(), err, "Unable to read a customer")
	}
	if !found {
		return errorf(http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id",
			"There is no customer %q in workspace %q.", p.CustomerID, c.ns)
	}
	var defaultTax *billingv1.Tax
	if p.needsDefaultTax() {
		profile, err := a.store.Profile(r.Context(), c.ns)
		if err != nil {
			return apiError(r.Context(), err, "Unable to read the billing profile")
		}
		defaultTax = profile.DefaultTax
	}
	items, e := invoiceItems(p, defaultTax)
	if e != nil {
		return e
	}
	obj, replayed, err := a.claims.Create(r.Context(), idempotency.Request{
		Namespace: c.ns,
		Key:       key,
		Resource:  resourceInvoices,
		Hash:      keyHash(key, r, p),
		Prefix:    billing.InvoiceIDPrefix,
		Build: func(id string) client.Object {
			spec := billingv1.InvoiceSpec{
				CustomerRef:    billingv1.CustomerReference{Name: p.CustomerID},
				Currency:       p.Currency,
				Items:          items,
				DefaultTaxFrom: billingv1.DefaultTaxNone,
				BuyerReference: p.BuyerReference,
				PurchaseOrder:  p.PurchaseOrder,
			}
			return &billingv1.Invoice{
				ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: c.ns},
				Spec:       *spec.DeepCopy(),
			}
		},
		Empty: func() client.Object { return &billingv1.Invoice{} },
	})
	if err != nil {
		return createError(r.Context(), err)
	}
	a.store.Created(obj)
	writeCreated(w, r, "/v1/invoices/"+obj.GetName(), replayed, apiobject.InvoiceOf(obj.(*billingv1.Invoice)))
	return nil
}

// getInvoice serves GET /v1/invoices/{invoice_id}.
func (a *Adapter) getInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	inv, e := a.pathInvoice(r, c)
	if e != nil {
		return e
	}
	writeJSON(w, r, http.StatusOK, apiobject.InvoiceOf(inv))
	return nil
}

// pathInvoice reads the invoice the path names: 404 resource_missing when
// the workspace has none of that id.
func (a *Adapter) pathInvoice(r *http.Request, c *call) (*billingv1.Invoice, *Error) {
	inv := &billingv1.Invoice{}
	found, err := a.store.Get(r.Context(), c.ns, c.id, inv)
	if err != nil {
		return nil, apiError(r.Context(), err, "Unable to read an invoice")
	}
	if !found {
		return nil, errorf(http.StatusNotFound, CodeResourceMissing, "invoice_id",
			"There is no invoice %q in workspace %q.", c.id, c.ns)
	}
	return inv, nil
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
	scope := listScope{workspace: c.ns, resource: resourceInvoices, filters: filters}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	if filters.Order == orderSequence {
		if wantsEventStream(r) {
			return a.streamInvoiceFeed(w, r, c, after)
		}
		return a.listInvoiceFeed(w, r, c, scope, after, limit)
	}
	page, more, err := a.store.Invoices(r.Context(), sel, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list invoices")
	}
	writePage(w, r, scope, page, more, apiobject.InvoiceOf, a.encoded)
	return nil
}

// listInvoiceFeed serves GET /v1/invoices?status=issued&order=sequence: the
// feed, a page of the workspace's issued invoices in sequence order after
// after_sequence or the cursor's sequence. A page ends before a sequence
// this replica has not seen yet, with has_more true when it has seen a
// higher one, so that a consumer never skips an invoice; next_cursor is
// always set, to where the next page starts, since more may be issued
// later.
func (a *Adapter) listInvoiceFeed(w http.ResponseWriter, r *http.Request, c *call, scope listScope,
	cursorAfter string, limit int) *Error {
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
