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

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/adapter/store"
)

// listRecords serves GET /v1/<kind> of a kind of record of an invoice
// (payments, credit applications, write-offs): a page of the workspace's
// records of resource, optionally of one invoice and one customer
// (recordFilters), ordered by id. The page is read from st, render
// answers each record; what names the records in the log.
func listRecords[O client.Object, R any](w http.ResponseWriter, r *http.Request, c *call,
	resource, what string, st Store, render func(O) R) *Error {
	l, e := recordListing(c.query, resource, what)
	if e != nil {
		return e
	}
	return listPage(w, r, c, l, st, render, nil)
}

// recordListing is the list of resource (what in the log) a query asks
// for: optionally of one invoice and one customer (recordFilters).
func recordListing(q url.Values, resource, what string) (listing, *Error) {
	f, e := recordFilters(q)
	if e != nil {
		return listing{}, e
	}
	return listing{resource: resource, what: what, filters: f,
		sel: store.Selection{InvoiceID: f.InvoiceID, CustomerID: f.CustomerID}}, nil
}
