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

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// createRefund serves POST /v1/refunds: money paid back to a customer out
// of its credit. The customer must exist (422 resource_missing) and have
// at least the amount of credit in the refund's currency (422
// amount_exceeds_credit); a refund refunded at or before the workspace's
// closed_through is 409 period_closed on refunded_at (its refunded_at is
// now when the body has none), as a payment's paid_at is. The controller
// records it, or rejects it when a racing use took the credit meanwhile.
func (a *Adapter) createRefund(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return create(a, w, r, c, refundKind, a.decodeRefund,
		func(p *RefundParams) (*creation[*billingv1.Refund], *Error) {
			customer := &billingv1.Customer{}
			if e := a.readRecord(r, c.ns, p.CustomerID, customer, http.StatusUnprocessableEntity,
				"a customer", "customer_id"); e != nil {
				return nil, e
			}
			if e := checkAvailableCredit(customer, p.CustomerID, p.Currency, p.Amount); e != nil {
				return nil, e
			}
			if e := a.checkOpenPeriod(r, c.ns, p.RefundedAt, "refunded_at"); e != nil {
				return nil, e
			}
			return &creation[*billingv1.Refund]{object: &billingv1.Refund{Spec: p.spec()},
				answer: func(rf *billingv1.Refund, _ bool) any { return apiobject.RefundOf(rf) }}, nil
		})
}

// decodeRefund decodes a refund's body; its refunded_at defaults to now.
func (a *Adapter) decodeRefund(body []byte) (*RefundParams, *Error) {
	return DecodeRefund(body, a.now())
}

// replayRefund renders a refund an earlier request with the key created
// (createKind.replay).
func replayRefund(_ *Adapter, _ *http.Request, _ string, obj client.Object) any {
	return replayAs(obj, apiobject.RefundOf)
}

// getRefund serves GET /v1/refunds/{refund_id}.
func (a *Adapter) getRefund(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a refund", "refund_id", apiobject.RefundOf)
}

// listRefunds serves GET /v1/refunds: a page of the workspace's refunds,
// optionally of one customer, ordered by id. A refund draws on its
// customer's credit, not on an invoice: the list has no invoice_id filter.
func (a *Adapter) listRefunds(w http.ResponseWriter, r *http.Request, c *call) *Error {
	customer, e := idFilter(c.query, queryCustomerID)
	if e != nil {
		return e
	}
	return listPage(w, r, c, listing{resource: resourceRefunds, what: "refunds", filters: listFilters{CustomerID: customer},
		sel: store.Selection{CustomerID: customer}}, a.store, apiobject.RefundOf, nil)
}
