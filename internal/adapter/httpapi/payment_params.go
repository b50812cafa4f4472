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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Bounds of a payment's (and a refund's) body.
const (
	maxReference = 128
	// maxPaidAtAhead is how far in the future paid_at may be: clocks differ.
	maxPaidAtAhead = 5 * time.Minute
)

// paymentMethods are the values of a payment's method; the last is the
// default.
var paymentMethods = []string{"bank_transfer", "card", "cash", "cheque", "direct_debit", "other"}

// PaymentParams is a validated POST /v1/payments body. Currency is
// upper-case, "" when the body has none (the invoice's); PaidAt is in UTC,
// nil when the body has none (when the payment is created); Method is
// "other" when the body has none. Its JSON is the request's fingerprint.
type PaymentParams struct {
	InvoiceID string     `json:"invoice_id"`
	Amount    int64      `json:"amount"`
	Currency  string     `json:"currency,omitempty"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	Method    string     `json:"method"`
	Reference string     `json:"reference,omitempty"`
}

// invoiceID is the invoice p names (invoiceRecordParams).
func (p *PaymentParams) invoiceID() string { return p.InvoiceID }

// DecodePayment parses and validates a POST /v1/payments body at now, with
// the same guarantees as DecodeInvoice. paid_at is an RFC 3339 time not
// more than 5 minutes after now.
func DecodePayment(body []byte, now time.Time) (*PaymentParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{
		fieldInvoiceID: kindString, fieldAmount: kindNumber, fieldCurrency: kindString, "paid_at": kindString,
		"method": kindString, "reference": kindString,
	})
	if e != nil {
		return nil, e
	}
	p := &PaymentParams{}
	if p.InvoiceID, p.Amount, e = invoiceAndAmount(fields); e != nil {
		return nil, e
	}
	if p.Currency, e = currencyField(fields); e != nil {
		return nil, e
	}
	if p.PaidAt, e = pastTime(fields, "paid_at", now); e != nil {
		return nil, e
	}
	if p.Method, p.Reference, e = methodAndReference(fields); e != nil {
		return nil, e
	}
	return p, nil
}

// invoiceAndAmount reads the invoice_id (required) and the amount (a whole
// number from 1 to billing.MaxTotal, required) of a body of a record of an
// invoice that moves money: a payment's or a credit application's.
func invoiceAndAmount(fields map[string]*node) (invoiceID string, amount int64, e *Error) {
	if invoiceID, e = requiredString(fields, "", fieldInvoiceID, maxObjectNameLength); e != nil {
		return "", 0, e
	}
	if amount, e = requiredWhole(fields, "", fieldAmount, 1, billing.MaxTotal); e != nil {
		return "", 0, e
	}
	return invoiceID, amount, nil
}

// currencyField reads the optional currency of a payment's or refund's
// body: an ISO 4217 code in any case, answered in upper case; "" when
// absent.
func currencyField(fields map[string]*node) (string, *Error) {
	c := fields[fieldCurrency]
	if c == nil {
		return "", nil
	}
	if !billing.ValidCurrency(c.s) {
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, fieldCurrency,
			"currency must be an ISO 4217 currency code such as USD.")
	}
	return strings.ToUpper(c.s), nil
}

// pastTime reads the optional time name of a payment's or refund's body,
// when the money moved: an RFC 3339 time not more than 5 minutes after
// now, answered in UTC to the second; nil when absent.
func pastTime(fields map[string]*node, name string, now time.Time) (*time.Time, *Error) {
	v := fields[name]
	if v == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v.s)
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
			"%s must be an RFC 3339 time such as 2026-11-23T09:30:00Z.", name)
	}
	if t.After(now.Add(maxPaidAtAhead)) {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
			"%s must not be in the future.", name)
	}
	t = t.UTC().Truncate(time.Second)
	return &t, nil
}

// methodAndReference reads how money moved, in a payment's or refund's
// body: method, one of paymentMethods ("other" when absent), and the
// optional reference, at most 128 characters.
func methodAndReference(fields map[string]*node) (method, reference string, e *Error) {
	if method, e = oneOf(fields, "method", paymentMethods, paymentMethods[len(paymentMethods)-1]); e != nil {
		return "", "", e
	}
	if reference, e = optionalString(fields, "", "reference", maxReference); e != nil {
		return "", "", e
	}
	return method, reference, nil
}

// spec is the Payment spec of p; the currency is the invoice's when the
// body has none.
func (p *PaymentParams) spec(currency string) billingv1.PaymentSpec {
	spec := billingv1.PaymentSpec{
		InvoiceRef: billingv1.InvoiceReference{Name: p.InvoiceID}, Amount: p.Amount, Currency: currency,
		Method: billingv1.PaymentMethod(p.Method), Reference: p.Reference,
	}
	if p.PaidAt != nil {
		t := metav1.NewTime(*p.PaidAt)
		spec.PaidAt = &t
	}
	return spec
}
