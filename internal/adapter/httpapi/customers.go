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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// createCustomer serves POST /v1/customers.
func (a *Adapter) createCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	key, e := idempotencyKey(r.Header)
	if e != nil {
		return e
	}
	body, e := readBody(w, r)
	if e != nil {
		return e
	}
	p, e := DecodeCustomer(body)
	if e != nil {
		return e
	}
	obj, replayed, err := a.claims.Create(r.Context(), idempotency.Request{
		Namespace: c.ns,
		Key:       key,
		Resource:  resourceCustomers,
		Hash:      keyHash(key, r, p),
		Prefix:    billing.CustomerIDPrefix,
		Build: func(id string) client.Object {
			return &billingv1.Customer{
				ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: c.ns},
				Spec: billingv1.CustomerSpec{
					Name: p.Name, Email: p.Email, Address: p.Address.spec(), TaxID: p.TaxID,
					ElectronicAddress: p.ElectronicAddress.spec(),
				},
			}
		},
		Empty: func() client.Object { return &billingv1.Customer{} },
	})
	if err != nil {
		return createError(r.Context(), err)
	}
	a.store.Created(obj)
	writeCreated(w, r, "/v1/customers/"+obj.GetName(), replayed, apiobject.CustomerOf(obj.(*billingv1.Customer)))
	return nil
}

// getCustomer serves GET /v1/customers/{customer_id}.
func (a *Adapter) getCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	var cus billingv1.Customer
	found, err := a.store.Get(r.Context(), c.ns, c.id, &cus)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read a customer")
	}
	if !found {
		return errorf(http.StatusNotFound, CodeResourceMissing, "customer_id",
			"There is no customer %q in workspace %q.", c.id, c.ns)
	}
	writeJSON(w, r, http.StatusOK, apiobject.CustomerOf(&cus))
	return nil
}

// listCustomers serves GET /v1/customers: a page of the workspace's
// customers, optionally those with one e-mail address, ordered by id.
func (a *Adapter) listCustomers(w http.ResponseWriter, r *http.Request, c *call) *Error {
	email, e := emailFilter(c.query)
	if e != nil {
		return e
	}
	scope := listScope{workspace: c.ns, resource: resourceCustomers, filters: listFilters{Email: email}}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	sel := store.Selection{Namespace: c.ns, Email: email}
	page, more, err := a.store.Customers(r.Context(), sel, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list customers")
	}
	writePage(w, r, scope, page, more, apiobject.CustomerOf, a.encoded)
	return nil
}
