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

// maxReferenceLength is the CRD's bound of spec.buyerReference and
// spec.purchaseOrder.
const maxReferenceLength = 200

// InvoiceParams is a validated POST /v1/invoices body. Currency is
// upper-case, USD when the body has none. Its JSON is what the request's
// fingerprint (requestHash) is computed from: an item without tax has no
// "tax" key, so that a request without taxes has the fingerprint it had
// before taxes existed.
type InvoiceParams struct {
	CustomerID string       `json:"customer_id"`
	Currency   string       `json:"currency"`
	Items      []ItemParams `json:"items"`
	// BuyerReference (BT-10) and PurchaseOrder (BT-13) are left out of the
	// request hash when absent.
	BuyerReference string `json:"buyer_reference,omitempty"`
	PurchaseOrder  string `json:"purchase_order,omitempty"`
	// SupplyDate (BT-72), YYYY-MM-DD, is left out of the request hash
	// when absent.
	SupplyDate string `json:"supply_date,omitempty"`
	// Allowances and Charges (BG-20, BG-21) are left out of the request
	// hash when absent.
	Allowances []AdjustmentParams `json:"allowances,omitempty"`
	Charges    []AdjustmentParams `json:"charges,omitempty"`
	// Subtotal is the sum of the items' gross amounts (quantity times
	// amount), before discounts and tax, computed by billing.Total; it is
	// not part of the body.
	Subtotal int64 `json:"-"`
}

// ItemParams is a validated line item of a POST /v1/invoices body.
type ItemParams struct {
	Description string `json:"description"`
	// Quantity is written as the body wrote it, in its shortest form: a
	// whole quantity has the fingerprint it had before decimals existed.
	Quantity billingv1.DecimalQuantity `json:"quantity"`
	// UnitCode is "" when the body names none (C62, one).
	UnitCode string `json:"unit_code,omitempty"`
	Amount   int64  `json:"amount"`
	// Discount is nil when the body gives none.
	Discount *AdjustmentParams `json:"discount,omitempty"`
	// Tax is the item's own tax; nil when the body gives it none, and the
	// item takes the workspace's default tax (invoiceItems).
	Tax *TaxParams `json:"tax,omitempty"`
}

var itemFields = map[string]kind{
	"description": kindString, "quantity": kindQuantity, "unit_code": kindString, fieldAmount: kindNumber,
	"discount": kindObject, "tax": kindObject,
}

// DecodeInvoice parses and validates a POST /v1/invoices body, with the same
// guarantees as DecodeCustomer. Each item's tax, when it has one, keeps the
// rules of its category (decodeTax); the rules across items, which depend
// on the workspace's default tax, are invoiceItems'. The subtotal of the
// items is computed with billing.Total and must not exceed
// billing.MaxTotal.
func DecodeInvoice(body []byte) (*InvoiceParams, *Error) {
	fields, e := bodyFields(body, invoiceFields)
	if e != nil {
		return nil, e
	}
	return invoiceParamsOf(fields)
}

// invoiceFields are the fields of a POST /v1/invoices body.
var invoiceFields = map[string]kind{
	"customer_id": kindString, fieldCurrency: kindString, "items": kindArray,
	"buyer_reference": kindString, "purchase_order": kindString, "supply_date": kindString,
	"allowances": kindArray, "charges": kindArray,
}

// invoiceParamsOf validates the fields of an invoice in a body, of
// POST /v1/invoices or of a schedule's template: first their structure
// and JSON types (400s), then their values (422s).
func invoiceParamsOf(fields map[string]*node) (*InvoiceParams, *Error) {
	var e *Error
	var items []itemNodes
	if list := fields["items"]; list != nil {
		if items, e = checkItems(list); e != nil {
			return nil, e
		}
	}
	allowances, e := checkAdjustments(fields["allowances"], "allowances", documentAdjustmentFields)
	if e != nil {
		return nil, e
	}
	charges, e := checkAdjustments(fields["charges"], "charges", documentAdjustmentFields)
	if e != nil {
		return nil, e
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
	p.Items = make([]ItemParams, len(items))
	lines := make([]billing.Line, len(items))
	for i, item := range items {
		if p.Items[i], e = decodeItem(item, itemPath(i)); e != nil {
			return nil, e
		}
		lines[i] = billing.Line{Quantity: p.Items[i].Quantity, Amount: p.Items[i].Amount}
	}
	if c := fields[fieldCurrency]; c != nil {
		if !billing.ValidCurrency(c.s) {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, fieldCurrency,
				"currency must be an ISO 4217 currency code such as USD.")
		}
		p.Currency = strings.ToUpper(c.s)
	}
	if p.BuyerReference, e = optionalString(fields, "", "buyer_reference", maxReferenceLength); e != nil {
		return nil, e
	}
	if p.PurchaseOrder, e = optionalString(fields, "", "purchase_order", maxReferenceLength); e != nil {
		return nil, e
	}
	if p.SupplyDate, e = optionalDay(fields, "", "supply_date"); e != nil {
		return nil, e
	}
	if p.Allowances, e = decodeAdjustments(allowances, "allowances", allowanceReasonCode); e != nil {
		return nil, e
	}
	if p.Charges, e = decodeAdjustments(charges, "charges", chargeReasonCode); e != nil {
		return nil, e
	}
	subtotal, err := billing.Total(lines)
	if err != nil {
		return nil, totalTooLarge()
	}
	p.Subtotal = subtotal
	return p, nil
}

// itemNodes are the fields of an item of a body, and those of its tax and
// of its discount (nil when it has none).
type itemNodes struct {
	fields, tax map[string]*node
	discount    adjustmentNodes
}

// checkItems checks the structure and JSON types of the items of a body,
// their taxes included: the 400s.
func checkItems(list *node) ([]itemNodes, *Error) {
	return checkObjects(list, "items", "description, quantity and amount, and optionally unit_code, discount and tax",
		func(obj *node, path string) (itemNodes, *Error) {
			fields, e := checkObject(obj, path, itemFields)
			if e != nil {
				return itemNodes{}, e
			}
			return checkItem(fields, path)
		})
}

// checkItem checks the structure and JSON types of the tax and discount
// of the item at path, whose fields are checked: the 400s.
func checkItem(fields map[string]*node, path string) (itemNodes, *Error) {
	item := itemNodes{fields: fields}
	var e *Error
	if tax := fields["tax"]; tax != nil {
		if item.tax, e = checkObject(tax, join(path, "tax"), taxFields); e != nil {
			return item, e
		}
	}
	if d := fields["discount"]; d != nil {
		if item.discount, e = checkAdjustment(d, join(path, "discount"), discountFields); e != nil {
			return item, e
		}
	}
	return item, nil
}

// decodeItem validates the values of the item at path: the 422s.
func decodeItem(item itemNodes, path string) (ItemParams, *Error) {
	var it ItemParams
	var e *Error
	if it.Description, e = requiredString(item.fields, path, "description", billing.MaxDescription); e != nil {
		return it, e
	}
	if it.Quantity, e = requiredQuantity(item.fields, path); e != nil {
		return it, e
	}
	if it.UnitCode, e = optionalUnitCode(item.fields, path); e != nil {
		return it, e
	}
	if it.Amount, e = requiredWhole(item.fields, path, "amount", billing.MinAmount, billing.MaxAmount); e != nil {
		return it, e
	}
	if item.discount.fields != nil {
		if it.Discount, e = decodeAdjustment(item.discount, join(path, "discount"), allowanceReasonCode); e != nil {
			return it, e
		}
	}
	if item.tax != nil {
		if it.Tax, e = decodeTax(item.tax, join(path, "tax")); e != nil {
			return it, e
		}
	}
	return it, nil
}

// itemPath is the JSON path of the item at index i of a body: items[i].
func itemPath(i int) string { return elem("items", i) }

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
	return sequenceStart(q, queryAfterSequence, after)
}

// sequenceStart reads where a page of a list in sequence order starts:
// after the sequence of the cursor (after, as decodeCursor read it: it
// belongs to this list), or of the query's param (default 0, the first).
// The two cannot be combined.
func sequenceStart(q url.Values, param, after string) (int64, *Error) {
	if !q.Has(param) {
		if after == "" {
			return 0, nil
		}
		n, ok := parseSequence(after)
		if !ok {
			return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, queryCursor,
				"cursor must be the next_cursor of a previous page.")
		}
		return n, nil
	}
	if q.Has(queryCursor) {
		return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, param,
			"Send either cursor or %s, not both.", param)
	}
	n, ok := parseSequence(q.Get(param))
	if !ok {
		return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, param,
			"%s must be a whole number from 0 to %d.", param, maxSequence)
	}
	return n, nil
}

// maxSequence is the highest sequence: 2^53-1, exact in every JSON client.
const maxSequence = 1<<53 - 1
