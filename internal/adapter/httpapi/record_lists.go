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
	"context"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/adapter/store"
)

// listRecords serves GET /v1/<kind> of a kind of record of an invoice
// (payments, credit applications, write-offs): a page of the workspace's
// records of resource, optionally of one invoice and one customer
// (recordFilters), ordered by id. read reads the page from the store,
// render answers each record; what names the records in the log.
func listRecords[O client.Object, R any](w http.ResponseWriter, r *http.Request, c *call,
	resource, what string, read func(ctx context.Context, sel store.Selection, after string, limit int) ([]O, bool, error),
	render func(O) R) *Error {
	f, e := recordFilters(c.query)
	if e != nil {
		return e
	}
	scope := listScope{workspace: c.ns, resource: resource, filters: f}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	sel := store.Selection{Namespace: c.ns, InvoiceID: f.InvoiceID, CustomerID: f.CustomerID}
	page, more, err := read(r.Context(), sel, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list "+what)
	}
	writePage(w, r, scope, page, more, render, nil)
	return nil
}
