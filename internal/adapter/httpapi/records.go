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
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The steps every resource's handlers share, written once: read the record
// a request names, answer it (GET /v1/<kind>/{id}) or the replay of a
// create, check the invoice a record of an invoice names, and answer a
// page of a list (GET /v1/<kind>). Each resource's file says only what is
// its own: its filters, its checks and how it renders a record.

// readRecord reads record id of workspace ns into obj. what names it in the
// log and, without its article, in the answer ("a credit note"); when the
// workspace has none of that id, the answer is status (404 for the path's
// id, 422 for one a body names) resource_missing on param.
func (a *Adapter) readRecord(r *http.Request, ns, id string, obj client.Object, status int, what, param string) *Error {
	found, err := a.store.Get(r.Context(), ns, id, obj)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read "+what)
	}
	if !found {
		_, noun, _ := strings.Cut(what, " ")
		return errorf(status, CodeResourceMissing, param, "There is no %s %q in workspace %q.", noun, id, ns)
	}
	return nil
}

// pathRecord reads the record the path names (c.id), as readRecord: 404
// resource_missing when the workspace has none of that id.
func pathRecord[T any, O apiObject[T]](a *Adapter, r *http.Request, c *call, what, param string) (O, *Error) {
	obj := O(new(T))
	if e := a.readRecord(r, c.ns, c.id, obj, http.StatusNotFound, what, param); e != nil {
		return nil, e
	}
	return obj, nil
}

// getRecord serves GET /v1/<kind>/{id}: the record the path names
// (pathRecord), rendered by render.
func getRecord[T any, O apiObject[T], R any](a *Adapter, w http.ResponseWriter, r *http.Request, c *call,
	what, param string, render func(O) R) *Error {
	obj, e := pathRecord[T, O](a, r, c, what, param)
	if e != nil {
		return e
	}
	writeJSON(w, r, http.StatusOK, render(obj))
	return nil
}

// replayAs renders obj, an object an earlier request with the key created,
// with render (createKind.replay): nil when it is not an O.
func replayAs[O client.Object, R any](obj client.Object, render func(O) R) any {
	o, ok := obj.(O)
	if !ok {
		return nil
	}
	return render(o)
}

// neededInvoice reads invoice name of workspace ns when a record's
// representation needs it (needed), for apiobject's renderers: nil when it
// need not or cannot be read; the representation then shows less.
func (a *Adapter) neededInvoice(r *http.Request, ns, name string, needed bool) *billingv1.Invoice {
	if !needed {
		return nil
	}
	return a.readInvoice(r, ns)(name)
}

// invoiceRecordParams are the params of a record of an invoice: they name
// the invoice.
type invoiceRecordParams interface {
	invoiceID() string
}

// createOnInvoice serves POST /v1/<kind> of a record of an invoice (credit
// notes, payments, credit applications, write-offs) as create does: the
// invoice the body names must take a record (creditableInvoice) before
// check checks the body against it.
func createOnInvoice[T any, O apiObject[T], P invoiceRecordParams](a *Adapter, w http.ResponseWriter, r *http.Request,
	c *call, kind createKind, decode func(body []byte) (P, *Error),
	check func(p P, inv *billingv1.Invoice) (*creation[O], *Error)) *Error {
	return create(a, w, r, c, kind, decode, func(p P) (*creation[O], *Error) {
		inv, e := a.creditableInvoice(r, c, p.invoiceID())
		if e != nil {
			return nil, e
		}
		return check(p, inv)
	})
}

// pageReader reads a page of records from the store: at most limit of sel
// after the name after, and whether more follow (Store.Page).
type pageReader[O client.Object] func(ctx context.Context, sel store.Selection, after string, limit int) ([]O, bool, error)

// pages reads from st the pages of O's kind of the table
// (internal/recordkind), as Os.
func pages[O client.Object](st Store) pageReader[O] {
	var none O
	k := recordkind.Of(none)
	return func(ctx context.Context, sel store.Selection, after string, limit int) ([]O, bool, error) {
		objs, more, err := st.Page(ctx, k, sel, after, limit)
		if err != nil {
			return nil, false, err
		}
		page, err := store.Typed[O](objs)
		return page, more, err
	}
}

// listing is a list a request asks for: of resource (named what in the
// log), with filters, which its cursors hold, selecting sel in the
// request's workspace.
type listing struct {
	resource, what string
	filters        listFilters
	sel            store.Selection
}

// listPage serves GET /v1/<kind> once its filters are read: the page of l
// that the query's limit and cursor name (pageParams), read from st,
// each record rendered by render; cache as writePage's.
func listPage[O client.Object, R any](w http.ResponseWriter, r *http.Request, c *call, l listing, st Store,
	render func(O) R, cache *encodedCache) *Error {
	scope := listScope{workspace: c.ns, resource: l.resource, filters: l.filters}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	l.sel.Namespace = c.ns
	page, more, err := pages[O](st)(r.Context(), l.sel, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list "+l.what)
	}
	writePage(w, r, scope, page, more, render, cache)
	return nil
}
