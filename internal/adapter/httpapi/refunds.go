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
			found, err := a.store.Get(r.Context(), c.ns, p.CustomerID, customer)
			if err != nil {
				return nil, apiError(r.Context(), err, "Unable to read a customer")
			}
			if !found {
				return nil, errorf(http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id",
					"There is no customer %q in workspace %q.", p.CustomerID, c.ns)
			}
			if e := checkAvailableCredit(customer, p.CustomerID, p.Currency, p.Amount); e != nil {
				return nil, e
			}
			refundedAt := a.now()
			if p.RefundedAt != nil {
				refundedAt = *p.RefundedAt
			}
			if e := a.checkOpenPeriod(r, c.ns, refundedAt, "refunded_at"); e != nil {
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
	rf, ok := obj.(*billingv1.Refund)
	if !ok {
		return nil
	}
	return apiobject.RefundOf(rf)
}

// getRefund serves GET /v1/refunds/{refund_id}.
func (a *Adapter) getRefund(w http.ResponseWriter, r *http.Request, c *call) *Error {
	rf := &billingv1.Refund{}
	found, err := a.store.Get(r.Context(), c.ns, c.id, rf)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read a refund")
	}
	if !found {
		return errorf(http.StatusNotFound, CodeResourceMissing, "refund_id",
			"There is no refund %q in workspace %q.", c.id, c.ns)
	}
	writeJSON(w, r, http.StatusOK, apiobject.RefundOf(rf))
	return nil
}

// listRefunds serves GET /v1/refunds: a page of the workspace's refunds,
// optionally of one customer, ordered by id. A refund draws on its
// customer's credit, not on an invoice: the list has no invoice_id filter.
func (a *Adapter) listRefunds(w http.ResponseWriter, r *http.Request, c *call) *Error {
	customer, e := idFilter(c.query, queryCustomerID)
	if e != nil {
		return e
	}
	scope := listScope{workspace: c.ns, resource: resourceRefunds, filters: listFilters{CustomerID: customer}}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	sel := store.Selection{Namespace: c.ns, CustomerID: customer}
	page, more, err := a.store.Refunds(r.Context(), sel, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list refunds")
	}
	writePage(w, r, scope, page, more, apiobject.RefundOf, nil)
	return nil
}
