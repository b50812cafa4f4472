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
	"testing"
)

// Pagination cursors: their encoding, and that one is accepted only by the
// list (workspace, resource, filters) it was made for.

var testScope = listScope{workspace: "demo", resource: resourceInvoices}

func TestCursorRoundTrip(t *testing.T) {
	for _, id := range []string{"a", "cus-01jd3m5x8ckq0a5w7h3v2n9r4t", "my.customer-1", strings.Repeat("a", 253)} {
		c := encodeCursor(testScope, id)
		if strings.ContainsAny(c, "+/=") {
			t.Errorf("cursor %q is not URL-safe", c)
		}
		got, e := decodeCursor(c, testScope)
		if e != nil || got != id {
			t.Errorf("decodeCursor(encodeCursor(%q)) = %q, %v", id, got, e)
		}
	}
}

func TestDecodeCursorRefusesMalformedCursors(t *testing.T) {
	for _, c := range []string{
		"", "***", "e30", // {}
		b64(`{"after":""}`), b64(`{"after":"UPPER"}`), b64(`{"after":"a","more":1}`),
		b64(`{"after":"a"} {}`), b64(`[]`), b64(`{"after":1}`), b64(`{"after":"a"}`) + "=",
		b64(`{"workspace":"demo","resource":"invoices","after":"a","more":1}`),
		b64(`{"workspace":"demo","resource":"invoices","after":"../x"}`),
	} {
		if got, e := decodeCursor(c, testScope); e == nil || e.Param != queryCursor || e.Status != http.StatusBadRequest {
			t.Errorf("decodeCursor(%q) = %q, %v; want 400 with param cursor", c, got, e)
		}
	}
}

func TestDecodeCursorAcceptsTheFirstReleasesCursorsInTheirExactEncoding(t *testing.T) {
	if after, e := decodeCursor(b64(`{"after":"inv-01"}`), testScope); e != nil || after != "inv-01" {
		t.Errorf("decodeCursor = %q, %v; want inv-01", after, e)
	}
	for _, c := range []string{b64(`{ "after":"inv-01"}`), b64(`{"after":"inv-01","after":"x"}`), b64(`{"after":"../x"}`)} {
		if got, e := decodeCursor(c, testScope); e == nil {
			t.Errorf("decodeCursor(%q) = %q; want 400", c, got)
		}
	}
}

func TestDecodeCursorRefusesTheCursorOfAnotherList(t *testing.T) {
	cases := []struct {
		name   string
		cursor string
	}{
		{"another workspace", encodeCursor(listScope{workspace: "other", resource: resourceInvoices}, "a")},
		{"another resource", encodeCursor(listScope{workspace: "demo", resource: resourceCustomers}, "a")},
		{"a workspace differing in case", b64(`{"workspace":"Demo","resource":"invoices","after":"a"}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := decodeCursor(tc.cursor, testScope)
			if e == nil || e.Status != http.StatusBadRequest || e.Code != CodeParameterInvalid || e.Param != queryCursor {
				t.Errorf("decodeCursor = %q, %v; want 400 parameter_invalid cursor", got, e)
			}
		})
	}
}

func TestCursorsAreBoundToTheirFilters(t *testing.T) {
	issued := listScope{workspace: "demo", resource: resourceInvoices, filters: listFilters{Status: "issued"}}
	acme := listScope{workspace: "demo", resource: resourceInvoices, filters: listFilters{CustomerID: "acme"}}
	acmeIssued := listScope{workspace: "demo", resource: resourceInvoices, filters: listFilters{CustomerID: "acme", Status: "issued"}}
	ada := listScope{workspace: "demo", resource: resourceCustomers, filters: listFilters{Email: "ada@example.com"}}
	allCustomers := listScope{workspace: "demo", resource: resourceCustomers}
	// A cursor written before lists had filters: no "filters" key.
	beforeFilters := b64(`{"workspace":"demo","resource":"invoices","after":"a"}`)
	cases := []struct {
		name     string
		cursor   string
		scope    listScope
		accepted bool
	}{
		{"the same filters", encodeCursor(acmeIssued, "a"), acmeIssued, true},
		{"the same e-mail", encodeCursor(ada, "a"), ada, true},
		{"another status", encodeCursor(issued, "a"), listScope{workspace: "demo", resource: resourceInvoices,
			filters: listFilters{Status: "pending"}}, false},
		{"a status dropped", encodeCursor(issued, "a"), testScope, false},
		{"a status added", encodeCursor(testScope, "a"), issued, false},
		{"a customer added", encodeCursor(issued, "a"), acmeIssued, false},
		{"a customer dropped", encodeCursor(acme, "a"), testScope, false},
		{"another e-mail", encodeCursor(ada, "a"), listScope{workspace: "demo", resource: resourceCustomers,
			filters: listFilters{Email: "Ada@example.com"}}, false},
		{"an e-mail dropped", encodeCursor(ada, "a"), allCustomers, false},
		{"an unfiltered cursor with an e-mail", encodeCursor(allCustomers, "a"), ada, false},
		{"a cursor from before filters, unfiltered", beforeFilters, testScope, true},
		{"a cursor from before filters, with customer_id", beforeFilters, acme, true},
		{"a cursor from before filters, with a status", beforeFilters, issued, false},
		{"a cursor of the first release, with a status", b64(`{"after":"a"}`), issued, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := decodeCursor(tc.cursor, tc.scope)
			if tc.accepted && (e != nil || got != "a") {
				t.Errorf("decodeCursor = %q, %v; want a", got, e)
			}
			if !tc.accepted && (e == nil || e.Status != http.StatusBadRequest || e.Code != CodeParameterInvalid ||
				e.Param != queryCursor) {
				t.Errorf("decodeCursor = %q, %v; want 400 parameter_invalid cursor", got, e)
			}
		})
	}
}

func TestDecodeCursorRefusesFiltersInAnotherEncoding(t *testing.T) {
	for _, c := range []string{
		b64(`{"workspace":"demo","resource":"invoices","after":"a","filters":{"status":""}}`),
		b64(`{"workspace":"demo","resource":"invoices","after":"a","filters":{"other":"x"}}`),
		b64(`{"workspace":"demo","resource":"invoices","after":"a","filters":null}`),
		b64(`{"workspace":"demo","resource":"invoices","after":"a","filters":{ }}`),
	} {
		if got, e := decodeCursor(c, testScope); e == nil {
			t.Errorf("decodeCursor(%q) = %q; want 400", c, got)
		}
	}
}
