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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// createCustomer serves POST /v1/customers.
func (a *Adapter) createCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return create(a, w, r, c, customerKind, DecodeCustomer, newCustomer)
}

// newCustomer is the customer p creates: a customer has nothing to check
// beyond its body.
func newCustomer(p *CustomerParams) (*creation[*billingv1.Customer], *Error) {
	spec := billingv1.CustomerSpec{Name: p.Name, Email: p.Email, Address: p.Address.spec(), TaxID: p.TaxID,
		ElectronicAddress: p.ElectronicAddress.spec(), PreferredLocale: p.PreferredLocale}
	return &creation[*billingv1.Customer]{object: &billingv1.Customer{Spec: spec},
		answer: func(cus *billingv1.Customer, _ bool) any { return apiobject.CustomerOf(cus) }}, nil
}

// getCustomer serves GET /v1/customers/{customer_id}.
func (a *Adapter) getCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a customer", "customer_id", apiobject.CustomerOf)
}

// pathCustomer reads the customer the path names: 404 resource_missing
// when the workspace has none of that id.
func (a *Adapter) pathCustomer(r *http.Request, c *call) (*billingv1.Customer, *Error) {
	return pathRecord[billingv1.Customer](a, r, c, "a customer", "customer_id")
}

// listCustomers serves GET /v1/customers: a page of the workspace's
// customers, optionally those with one e-mail address, ordered by id.
func (a *Adapter) listCustomers(w http.ResponseWriter, r *http.Request, c *call) *Error {
	email, e := emailFilter(c.query)
	if e != nil {
		return e
	}
	return listPage(w, r, c, listing{resource: resourceCustomers, what: "customers", filters: listFilters{Email: email},
		sel: store.Selection{Email: email}}, a.store, apiobject.CustomerOf, a.encoded)
}
