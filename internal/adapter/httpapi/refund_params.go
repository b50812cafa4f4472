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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// RefundParams is a validated POST /v1/refunds body. Currency is
// upper-case; RefundedAt is in UTC, nil when the body has none (when the
// refund is created); Method is "other" when the body has none. Its JSON
// is the request's fingerprint.
type RefundParams struct {
	CustomerID string     `json:"customer_id"`
	Amount     int64      `json:"amount"`
	Currency   string     `json:"currency"`
	RefundedAt *time.Time `json:"refunded_at,omitempty"`
	Method     string     `json:"method"`
	Reference  string     `json:"reference,omitempty"`
}

// DecodeRefund parses and validates a POST /v1/refunds body at now, with
// the same guarantees as DecodeInvoice and the same fields as a payment's
// (DecodePayment): customer_id, amount and currency are required (a
// customer may have credit in several currencies); refunded_at is an RFC
// 3339 time not more than 5 minutes after now. Whether the customer's
// credit takes that much is the handler's to check.
func DecodeRefund(body []byte, now time.Time) (*RefundParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{
		"customer_id": kindString, fieldAmount: kindNumber, fieldCurrency: kindString, "refunded_at": kindString,
		"method": kindString, "reference": kindString,
	})
	if e != nil {
		return nil, e
	}
	p := &RefundParams{}
	if p.CustomerID, e = requiredString(fields, "", "customer_id", maxObjectNameLength); e != nil {
		return nil, e
	}
	if p.Amount, e = requiredWhole(fields, "", fieldAmount, 1, billing.MaxTotal); e != nil {
		return nil, e
	}
	if p.Currency, e = currencyField(fields); e != nil {
		return nil, e
	}
	if p.Currency == "" {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, fieldCurrency, "currency is required.")
	}
	if p.RefundedAt, e = pastTime(fields, "refunded_at", now); e != nil {
		return nil, e
	}
	if p.Method, p.Reference, e = methodAndReference(fields); e != nil {
		return nil, e
	}
	return p, nil
}

// spec is the Refund spec of p.
func (p *RefundParams) spec() billingv1.RefundSpec {
	spec := billingv1.RefundSpec{
		CustomerRef: billingv1.CustomerReference{Name: p.CustomerID}, Amount: p.Amount, Currency: p.Currency,
		Method: billingv1.PaymentMethod(p.Method), Reference: p.Reference,
	}
	if p.RefundedAt != nil {
		t := metav1.NewTime(*p.RefundedAt)
		spec.RefundedAt = &t
	}
	return spec
}
