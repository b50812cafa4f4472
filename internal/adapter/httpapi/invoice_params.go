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
	"net/url"
	"regexp"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// maxObjectNameLength is the CRD's bound of a customer_id (the name of an
// object, config/crd/bases).
const maxObjectNameLength = 253

// InvoiceParams is a validated POST /v1/invoices body. Currency is
// upper-case, USD when the body has none.
type InvoiceParams struct {
	CustomerID string           `json:"customer_id"`
	Currency   string           `json:"currency"`
	Items      []apiobject.Item `json:"items"`
	// Total is computed by billing.Total; it is not part of the body.
	Total int64 `json:"-"`
}

var itemFields = map[string]kind{"description": kindString, "quantity": kindNumber, "amount": kindNumber}

// DecodeInvoice parses and validates a POST /v1/invoices body, with the same
// guarantees as DecodeCustomer. The total of the items is computed with
// billing.Total and must not exceed billing.MaxTotal.
func DecodeInvoice(body []byte) (*InvoiceParams, *Error) {
	root, e := parseBody(body)
	if e != nil {
		return nil, e
	}
	fields, e := checkObject(root, "", map[string]kind{
		"customer_id": kindString, "currency": kindString, "items": kindArray,
	})
	if e != nil {
		return nil, e
	}
	// All 400s (structure and JSON types) come before any 422 (values).
	var items []map[string]*node
	if list := fields["items"]; list != nil {
		items = make([]map[string]*node, len(list.elems))
		for i, el := range list.elems {
			path := elem("items", i)
			if el.kind != kindObject {
				return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, path,
					"%s must be an object with description, quantity and amount.", path)
			}
			if items[i], e = checkObject(el, path, itemFields); e != nil {
				return nil, e
			}
		}
	}

	p := &InvoiceParams{Currency: billing.DefaultCurrency}
	if p.CustomerID, e = requiredString(fields, "", "customer_id", maxObjectNameLength); e != nil {
		return nil, e
	}
	if fields["items"] == nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, "items", "items is required.")
	}
	if n := len(items); n < billing.MinItems || n > billing.MaxItems {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "items",
			"items must have %d to %d line items; it has %d.", billing.MinItems, billing.MaxItems, n)
	}
	p.Items = make([]apiobject.Item, len(items))
	lines := make([]billing.Line, len(items))
	for i, item := range items {
		path := elem("items", i)
		it := &p.Items[i]
		if it.Description, e = requiredString(item, path, "description", billing.MaxDescription); e != nil {
			return nil, e
		}
		if it.Quantity, e = requiredWhole(item, path, "quantity", billing.MinQuantity, billing.MaxQuantity); e != nil {
			return nil, e
		}
		if it.Amount, e = requiredWhole(item, path, "amount", billing.MinAmount, billing.MaxAmount); e != nil {
			return nil, e
		}
		lines[i] = billing.Line{Quantity: it.Quantity, Amount: it.Amount}
	}
	if c := fields["currency"]; c != nil {
		if !billing.ValidCurrency(c.s) {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "currency",
				"currency must be an ISO 4217 currency code such as USD.")
		}
		p.Currency = strings.ToUpper(c.s)
	}
	total, err := billing.Total(lines)
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "items",
			"The invoice total exceeds %d minor units (2^53-1).", int64(billing.MaxTotal))
	}
	p.Total = total
	return p, nil
}

// invoiceStatusFilters are the values of the status filter of GET
// /v1/invoices, and the phases they select.
var invoiceStatusFilters = map[string]billingv1.InvoicePhase{
	apiobject.Status(billingv1.InvoicePending): billingv1.InvoicePending,
	apiobject.Status(billingv1.InvoiceIssued):  billingv1.InvoiceIssued,
	apiobject.Status(billingv1.InvoiceInvalid): billingv1.InvoiceInvalid,
}

// orderSequence is the value of the order parameter of GET /v1/invoices
// that lists issued invoices by sequence: the feed.
const orderSequence = "sequence"

// invoiceFilters reads the filters of GET /v1/invoices: customer_id (not
// empty; one that is no object name selects nothing), status (pending,
// issued or invalid) and order (sequence, only with status=issued and
// without customer_id). A bad value is 400 parameter_invalid.
func invoiceFilters(q url.Values) (listFilters, billingv1.InvoicePhase, *Error) {
	var f listFilters
	if q.Has(queryCustomerID) {
		if f.CustomerID = q.Get(queryCustomerID); f.CustomerID == "" {
			return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryCustomerID, "customer_id must not be empty.")
		}
	}
	var phase billingv1.InvoicePhase
	if q.Has(queryStatus) {
		f.Status = q.Get(queryStatus)
		var ok bool
		if phase, ok = invoiceStatusFilters[f.Status]; !ok {
			return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryStatus,
				"status must be pending, issued or invalid.")
		}
	}
	if q.Has(queryOrder) {
		f.Order = q.Get(queryOrder)
		switch {
		case f.Order != orderSequence:
			return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryOrder,
				"order must be sequence (or left out, for the order of ids).")
		case phase != billingv1.InvoiceIssued:
			return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryStatus,
				"order=sequence lists issued invoices: add status=issued.")
		case f.CustomerID != "":
			return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryCustomerID,
				"order=sequence lists the whole workspace's issued invoices: leave customer_id out.")
		}
	}
	if q.Has(queryAfterSequence) && f.Order != orderSequence {
		return f, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryAfterSequence,
			"after_sequence belongs to order=sequence (with status=issued).")
	}
	return f, phase, nil
}

// sequencePattern matches a sequence as a query parameter or an event id: a
// whole number without sign or leading zeros, at most 16 digits.
var sequencePattern = regexp.MustCompile(`^(0|[1-9][0-9]{0,15})$`)

// parseSequence reads a sequence from 0 to maxSequence written as
// sequencePattern says; ok is false for anything else.
func parseSequence(s string) (n int64, ok bool) {
	if !sequencePattern.MatchString(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n <= maxSequence
}

// feedStart reads where a page of the feed (order=sequence) starts: after
// the sequence of the cursor, or of after_sequence (default 0, the first
// issued invoice). The two cannot be combined.
func feedStart(q url.Values, after string) (int64, *Error) {
	if !q.Has(queryAfterSequence) {
		if after == "" {
			return 0, nil
		}
		// A cursor of the feed holds a sequence; decodeCursor checked it
		// belongs to this list.
		n, ok := parseSequence(after)
		if !ok {
			return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, queryCursor,
				"cursor must be the next_cursor of a previous page.")
		}
		return n, nil
	}
	if q.Has(queryCursor) {
		return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, queryAfterSequence,
			"Send either cursor or after_sequence, not both.")
	}
	n, ok := parseSequence(q.Get(queryAfterSequence))
	if !ok {
		return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, queryAfterSequence,
			"after_sequence must be a whole number from 0 to %d.", maxSequence)
	}
	return n, nil
}

// maxSequence is the highest sequence: 2^53-1, exact in every JSON client.
const maxSequence = 1<<53 - 1
