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
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// listObject is the object of a page: {"object": "list", ...}.
const listObject = "list"

// Bounds of a page.
const (
	listLimitDefault = 20
	listLimitMax     = 100
)

// cursor is what a next_cursor stands for: the id after which the next
// page starts, in the list (workspace, resource and filters) that issued
// it. Ids are object names and pages are ordered by them, so a cursor never
// expires and a walk sees every object that existed when it began exactly
// once, however many are created meanwhile.
//
// A cursor is plain JSON in base64url, not signed: it grants nothing, since
// every list is authorized for and read from the request's own workspace,
// and anyone may start a list after any id. Workspace, resource and filters
// are in it so that a cursor sent to another list is refused (400) rather
// than silently starting that list somewhere; a signature would need a key
// shared by all replicas and kept forever, as cursors never expire.
//
// Filters is always written, {} for an unfiltered list; a cursor without it
// was written before lists had filters, and is accepted by its list with
// customer_id, the one filter there was then, or without filters.
type cursor struct {
	Workspace string       `json:"workspace"`
	Resource  string       `json:"resource"`
	After     string       `json:"after"`
	Filters   *listFilters `json:"filters,omitempty"`
}

// listFilters are the filters of a list, by query parameter.
type listFilters struct {
	CustomerID    string `json:"customer_id,omitempty"`
	InvoiceID     string `json:"invoice_id,omitempty"`
	Status        string `json:"status,omitempty"`
	PaymentStatus string `json:"payment_status,omitempty"`
	Overdue       bool   `json:"overdue,omitempty"`
	Email         string `json:"email,omitempty"`
	ScheduleID    string `json:"schedule_id,omitempty"`
	Order         string `json:"order,omitempty"`
	Type          string `json:"type,omitempty"`
}

// listScope is the list a cursor belongs to.
type listScope struct {
	workspace string
	resource  string
	filters   listFilters
}

func encodeCursor(scope listScope, after string) string {
	filters := scope.filters
	return encodeCursorOf(cursor{Workspace: scope.workspace, Resource: scope.resource, After: after, Filters: &filters})
}

func encodeCursorOf(c cursor) string {
	// A struct of strings always marshals.
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a next_cursor of the list scope; anything else,
// including the cursor of another workspace, resource or filters, is 400
// parameter_invalid.
func decodeCursor(s string, scope listScope) (string, *Error) {
	bad := errorf(http.StatusBadRequest, CodeParameterInvalid, queryCursor,
		"cursor must be the next_cursor of a previous page.")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", bad
	}
	if after, ok := legacyCursor(s, raw); ok {
		return after, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c cursor
	if err := dec.Decode(&c); err != nil || dec.More() || !validName(c.After) {
		return "", bad
	}
	// Only the adapter's own encoding: encoding/json would also take keys
	// in another case, repeated keys and white space.
	if encodeCursorOf(c) != s {
		return "", bad
	}
	sameFilters := c.Filters != nil && *c.Filters == scope.filters ||
		c.Filters == nil && scope.filters == listFilters{CustomerID: scope.filters.CustomerID}
	if c.Workspace != scope.workspace || c.Resource != scope.resource || !sameFilters {
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryCursor,
			"cursor is the next_cursor of another list (another workspace, resource or filters); "+
				"list %s in workspace %q with the same filters as the first page, or without a cursor to start.",
			scope.resource, scope.workspace)
	}
	return c.After, nil
}

// legacyCursor reads a cursor of the first release, which held only the id
// ({"after": ...}) and named no list. Cursors never expire, so it is still
// accepted, in exactly the encoding that release wrote: it is a position and
// nothing more (every list reads the request's own workspace), so it cannot
// show another workspace's objects.
func legacyCursor(s string, raw []byte) (string, bool) {
	var c struct {
		After string `json:"after"`
	}
	if !bytes.HasPrefix(raw, []byte(`{"after":`)) || json.Unmarshal(raw, &c) != nil || !validName(c.After) {
		return "", false
	}
	again, _ := json.Marshal(c) // a struct of one string always marshals
	return c.After, base64.RawURLEncoding.EncodeToString(again) == s
}

// validName reports whether s can be the name of a Customer or Invoice.
func validName(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 }

var limitPattern = regexp.MustCompile(`^[0-9]{1,3}$`)

// pageParams reads the limit (1-100, default 20) and cursor of a list of
// scope.
func pageParams(q url.Values, scope listScope) (limit int, after string, e *Error) {
	limit = listLimitDefault
	if q.Has(queryLimit) {
		s := q.Get(queryLimit)
		n, err := strconv.Atoi(s)
		if !limitPattern.MatchString(s) || err != nil || n < 1 || n > listLimitMax {
			return 0, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryLimit,
				"limit must be a whole number from 1 to %d.", listLimitMax)
		}
		limit = n
	}
	if q.Has(queryCursor) {
		if after, e = decodeCursor(q.Get(queryCursor), scope); e != nil {
			return 0, "", e
		}
	}
	return limit, after, nil
}

// writePage answers a page (ordered by id) of the list scope; more says
// whether others follow. cache, when not nil, keeps the objects' JSON for
// the next page that holds them (render must then depend on the object
// alone).
func writePage[O client.Object, R any](w http.ResponseWriter, r *http.Request, scope listScope, page []O, more bool,
	render func(O) R, cache *encodedCache) {
	data, err := encodeEach(cache, page, render)
	if err != nil {
		// Only programming errors get here: every response type marshals.
		panic(err.Error())
	}
	var next *string
	if more {
		cursor := encodeCursor(scope, page[len(page)-1].GetName())
		next = &cursor
	}
	writeList(w, r, data, more, next)
}
