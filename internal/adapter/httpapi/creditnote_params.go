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
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Names of body fields several bodies have: the amount of an item, a
// credit note's line, a payment, a credit application and a refund; the
// invoice of a credit note, a payment, a credit application and a
// write-off; the currency of an invoice, a payment and a refund; the
// allowances and charges of an invoice and a credit note.
const (
	fieldAmount     = "amount"
	fieldInvoiceID  = "invoice_id"
	fieldCurrency   = "currency"
	fieldAllowances = "allowances"
	fieldCharges    = "charges"
)

// Bounds of a credit note's body, as the CreditNote CRD has them.
const (
	maxCreditNoteLines = 500
	maxMemo            = 1000
	maxInvoiceLine     = 499
)

// creditNoteReasons are the values of a credit note's reason.
var creditNoteReasons = []string{
	"duplicate", "fraudulent", "order_change", "product_unsatisfactory", "issued_in_error", "other",
}

// CreditNoteParams is a validated POST /v1/credit_notes body: Lines, with
// Allowances and Charges of its own (BG-20, BG-21), or FullCredit true.
// Its JSON is what the request's fingerprint is computed from; the
// allowances and charges are left out of it when absent.
type CreditNoteParams struct {
	InvoiceID  string                 `json:"invoice_id"`
	Reason     string                 `json:"reason"`
	Memo       string                 `json:"memo,omitempty"`
	Lines      []CreditNoteLineParams `json:"lines,omitempty"`
	FullCredit bool                   `json:"full_credit,omitempty"`
	Allowances []AdjustmentParams     `json:"allowances,omitempty"`
	Charges    []AdjustmentParams     `json:"charges,omitempty"`
}

// invoiceID is the invoice p names (invoiceRecordParams).
func (p *CreditNoteParams) invoiceID() string { return p.InvoiceID }

// CreditNoteLineParams is a validated line of a credit note's body: a
// Quantity (at most 4 decimals, written in its shortest form, so that a
// whole one has the fingerprint it had before decimals existed) or an
// Amount (net, in minor units) of an invoice line; the other is 0.
type CreditNoteLineParams struct {
	InvoiceLine int                       `json:"invoice_line"`
	Quantity    billingv1.DecimalQuantity `json:"quantity,omitzero"`
	Amount      int64                     `json:"amount,omitempty"`
}

var creditNoteLineFields = map[string]kind{"invoice_line": kindNumber, "quantity": kindQuantity, fieldAmount: kindNumber}

// DecodeCreditNote parses and validates a POST /v1/credit_notes body, with
// the same guarantees as DecodeInvoice: structure and JSON types first
// (400), then values (422). Its allowances and charges are read as an
// invoice's (decodeAdjustments), and go with lines only: a full credit
// credits the invoice's itself. Whether the lines, allowances and charges
// fit what is left of the invoice is the handler's to check, against the
// invoice.
func DecodeCreditNote(body []byte) (*CreditNoteParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{
		fieldInvoiceID: kindString, "reason": kindString, "memo": kindString, "lines": kindArray, "full_credit": kindBool,
		fieldAllowances: kindArray, fieldCharges: kindArray,
	})
	if e != nil {
		return nil, e
	}
	lines, e := checkCreditNoteLines(fields["lines"])
	if e != nil {
		return nil, e
	}
	allowances, e := checkAdjustments(fields[fieldAllowances], fieldAllowances, documentAdjustmentFields)
	if e != nil {
		return nil, e
	}
	charges, e := checkAdjustments(fields[fieldCharges], fieldCharges, documentAdjustmentFields)
	if e != nil {
		return nil, e
	}

	p := &CreditNoteParams{}
	if p.InvoiceID, e = requiredString(fields, "", fieldInvoiceID, maxObjectNameLength); e != nil {
		return nil, e
	}
	if p.Reason, e = oneOf(fields, "reason", creditNoteReasons, ""); e != nil {
		return nil, e
	}
	if p.Memo, e = optionalString(fields, "", "memo", maxMemo); e != nil {
		return nil, e
	}
	full := fields["full_credit"]
	p.FullCredit = full != nil && full.s == literalTrue
	if e := checkFullCredit(fields, p.FullCredit); e != nil {
		return nil, e
	}
	if p.FullCredit {
		return p, nil
	}
	if n := len(lines); n < 1 || n > maxCreditNoteLines {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "lines",
			"lines must have 1 to %d lines; it has %d.", maxCreditNoteLines, n)
	}
	p.Lines = make([]CreditNoteLineParams, len(lines))
	for i, line := range lines {
		if p.Lines[i], e = decodeCreditNoteLine(line, elem("lines", i)); e != nil {
			return nil, e
		}
	}
	if p.Allowances, e = decodeAdjustments(allowances, fieldAllowances, allowanceReasonCode); e != nil {
		return nil, e
	}
	if p.Charges, e = decodeAdjustments(charges, fieldCharges, chargeReasonCode); e != nil {
		return nil, e
	}
	return p, nil
}

// checkCreditNoteLines checks the structure and JSON types of the lines of
// a body (nil: absent): each an object of creditNoteLineFields.
func checkCreditNoteLines(list *node) ([]map[string]*node, *Error) {
	return checkObjects(list, "lines", "invoice_line and quantity or amount",
		func(obj *node, path string) (map[string]*node, *Error) {
			return checkObject(obj, path, creditNoteLineFields)
		})
}

// checkFullCredit checks that a body has lines or full true, not both, and
// allowances or charges only with lines.
func checkFullCredit(fields map[string]*node, full bool) *Error {
	switch {
	case full && fields["lines"] != nil:
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "full_credit",
			"Send either lines or full_credit: true, not both.")
	case full && (fields[fieldAllowances] != nil || fields[fieldCharges] != nil):
		name := fieldAllowances
		if fields[name] == nil {
			name = fieldCharges
		}
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
			"A full credit credits what is left of the invoice's allowances and charges itself: send %s only with lines.", name)
	case !full && fields["lines"] == nil:
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "full_credit",
			"Send the lines to credit, or full_credit: true to credit everything that is left.")
	}
	return nil
}

// decodeCreditNoteLine validates the values of the line at path.
func decodeCreditNoteLine(fields map[string]*node, path string) (CreditNoteLineParams, *Error) {
	var l CreditNoteLineParams
	n, e := requiredWhole(fields, path, "invoice_line", 0, maxInvoiceLine)
	if e != nil {
		return l, e
	}
	l.InvoiceLine = int(n)
	switch {
	case fields["quantity"] != nil && fields[fieldAmount] != nil:
		return l, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, join(path, fieldAmount),
			"%s: send either quantity or amount, not both.", path)
	case fields["quantity"] != nil:
		l.Quantity, e = requiredQuantity(fields, path)
	case fields[fieldAmount] != nil:
		l.Amount, e = requiredWhole(fields, path, fieldAmount, 1, billing.MaxTotal)
	default:
		return l, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, join(path, "quantity"),
			"%s: send quantity (units of the invoice line) or amount (net, in minor units).", path)
	}
	return l, e
}

// oneOf returns the string field name of fields, which must be one of
// values; def when it is absent, or 422 parameter_missing when def is "".
func oneOf(fields map[string]*node, name string, values []string, def string) (string, *Error) {
	v := fields[name]
	if v == nil {
		if def == "" {
			return "", errorf(http.StatusUnprocessableEntity, CodeParameterMissing, name, "%s is required.", name)
		}
		return def, nil
	}
	for _, ok := range values {
		if v.s == ok {
			return v.s, nil
		}
	}
	return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
		"%s must be one of %s.", name, joinValues(values))
}

// joinValues writes values as "a, b or c".
func joinValues(values []string) string {
	out := ""
	for i, v := range values {
		switch {
		case i == 0:
		case i == len(values)-1:
			out += " or "
		default:
			out += ", "
		}
		out += v
	}
	return out
}

// spec is the CreditNote spec of p: its allowances and charges with their
// own taxes (a credit note takes no default tax).
func (p *CreditNoteParams) spec() billingv1.CreditNoteSpec {
	spec := billingv1.CreditNoteSpec{
		InvoiceRef: billingv1.InvoiceReference{Name: p.InvoiceID},
		Reason:     billingv1.CreditNoteReason(p.Reason), Memo: p.Memo, FullCredit: p.FullCredit,
	}
	for _, a := range p.Allowances {
		spec.Allowances = append(spec.Allowances, a.allowance())
	}
	for _, c := range p.Charges {
		spec.Charges = append(spec.Charges, c.charge())
	}
	for _, l := range p.Lines {
		line := billingv1.CreditNoteLine{InvoiceLine: int32(l.InvoiceLine)} //nolint:gosec // at most 499
		if l.Quantity.Scaled() > 0 {
			q := l.Quantity
			line.Quantity = &q
		}
		if l.Amount > 0 {
			a := l.Amount
			line.Amount = &a
		}
		spec.Lines = append(spec.Lines, line)
	}
	return spec
}

// creditNoteStatusFilters are the values of the status filter of GET
// /v1/credit_notes, and the phases they select.
var creditNoteStatusFilters = map[string]billingv1.CreditNotePhase{
	"pending": billingv1.CreditNotePending, "issued": billingv1.CreditNoteIssued, "rejected": billingv1.CreditNoteRejected,
}

// recordFilters reads the filters every list of records against invoices
// takes (credit notes, payments): invoice_id and customer_id.
func recordFilters(q url.Values) (listFilters, *Error) {
	var f listFilters
	var e *Error
	if f.InvoiceID, e = idFilter(q, queryInvoiceID); e != nil {
		return f, e
	}
	f.CustomerID, e = idFilter(q, queryCustomerID)
	return f, e
}

// idFilter reads the query parameter name, an id that must not be empty
// (one that is no object name selects nothing).
func idFilter(q url.Values, name string) (string, *Error) {
	if !q.Has(name) {
		return "", nil
	}
	v := q.Get(name)
	if v == "" {
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, name, "%s must not be empty.", name)
	}
	return v, nil
}
