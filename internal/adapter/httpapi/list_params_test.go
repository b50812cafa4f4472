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
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The query parameters of lists: filters, the event-stream Accept header and
// the feed's sequences.

func TestListFilters(t *testing.T) {
	cases := []struct {
		name    string
		query   string
		invoice bool
		want    listFilters
		phase   billingv1.InvoicePhase
		param   string // of the 400, if any
	}{
		{"no filter", "", true, listFilters{}, "", ""},
		{"pending", "status=pending", true, listFilters{Status: "pending"}, billingv1.InvoicePending, ""},
		{"issued of a customer", "status=issued&customer_id=acme", true,
			listFilters{CustomerID: "acme", Status: "issued"}, billingv1.InvoiceIssued, ""},
		{"invalid", "status=invalid", true, listFilters{Status: "invalid"}, billingv1.InvoiceInvalid, ""},
		{"a status in upper case", "status=Issued", true, listFilters{}, "", queryStatus},
		{"an unknown status", "status=paid", true, listFilters{}, "", queryStatus},
		{"an empty status", "status=", true, listFilters{}, "", queryStatus},
		{"an empty customer", "customer_id=", true, listFilters{}, "", queryCustomerID},
		{"an e-mail", "email=ada%40example.com", false, listFilters{Email: "ada@example.com"}, "", ""},
		{"an e-mail kept as it is", "email=Ada%40Example.com", false, listFilters{Email: "Ada@Example.com"}, "", ""},
		{"an empty e-mail", "email=", false, listFilters{}, "", queryEmail},
		{"an e-mail without @", "email=ada", false, listFilters{}, "", queryEmail},
		{"an e-mail with a display name", "email=Ada+%3Cada%40example.com%3E", false, listFilters{}, "", queryEmail},
		{"an e-mail of 255 characters", "email=" + strings.Repeat("a", 243) + "%40example.com", false, listFilters{}, "", queryEmail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			var got listFilters
			var phase billingv1.InvoicePhase
			var e *Error
			if tc.invoice {
				got, phase, e = invoiceFilters(q)
			} else {
				got.Email, e = emailFilter(q)
			}
			if tc.param != "" {
				if e == nil || e.Status != http.StatusBadRequest || e.Code != CodeParameterInvalid || e.Param != tc.param {
					t.Errorf("got %+v, %v; want 400 parameter_invalid %s", got, e, tc.param)
				}
				return
			}
			if e != nil || got != tc.want || phase != tc.phase {
				t.Errorf("got %+v, %q, %v; want %+v, %q", got, phase, e, tc.want, tc.phase)
			}
		})
	}
}

func TestWantsEventStreamReadsTheAcceptHeader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		accept []string
		want   bool
	}{
		{"text/event-stream alone asks for a stream", []string{"text/event-stream"}, true},
		{"among others, with a quality, it still does", []string{"application/json, text/event-stream;q=0.5"}, true},
		{"in a second Accept header too", []string{"application/json", "text/event-stream"}, true},
		{"a quality of 0 refuses it", []string{"text/event-stream;q=0"}, false},
		{"a wildcard is not a request for a stream", []string{"*/*"}, false},
		{"no Accept header is JSON", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/v1/invoices", nil)
			for _, v := range tc.accept {
				r.Header.Add("Accept", v)
			}
			if got := wantsEventStream(r); got != tc.want {
				t.Errorf("wantsEventStream(%q) = %v; want %v", tc.accept, got, tc.want)
			}
		})
	}
}

func TestParseSequenceTakesOnlyCanonicalSequences(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "42": true, "9007199254740991": true,
		"": false, "-1": false, "01": false, "1e3": false, "+1": false, "9007199254740992": false, "99999999999999999": false,
	} {
		if _, ok := parseSequence(s); ok != want {
			t.Errorf("parseSequence(%q) ok = %v; want %v", s, ok, want)
		}
	}
}
