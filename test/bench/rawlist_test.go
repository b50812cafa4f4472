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

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	. "github.com/onsi/gomega"
)

func TestARawPageGivesItsCountAndTheNextTokenWithoutDecoding(t *testing.T) {
	for _, tc := range []struct {
		name, body  string
		next, each  []byte
		last        bool
		count       int
		token       string
		errContains string
	}{
		{name: "an adapter's page with a cursor at its end",
			body: `{"object":"list","data":[{"id":"in_1","object":"invoice"},{"id":"in_2","object":"invoice"}],` +
				`"has_more":true,"next_cursor":"abc_-1"}`,
			next: rawAdapterNext, each: rawAdapterInvoice, last: true, count: 2, token: "abc_-1"},
		{name: "an adapter's last page",
			body: `{"object":"list","data":[{"id":"in_3","object":"invoice"}],"has_more":false,"next_cursor":null}`,
			next: rawAdapterNext, each: rawAdapterInvoice, last: true, count: 1},
		{name: "an API server's page, its token before the items",
			body: `{"apiVersion":"billing/v1","kind":"InvoiceList","metadata":{"continue":"eyJ2Ij0=","resourceVersion":"9"},` +
				`"items":[{"apiVersion":"billing/v1","kind":"Invoice","metadata":{"name":"a"}}]}`,
			next: rawDirectNext, each: rawDirectInvoice, count: 1, token: "eyJ2Ij0="},
		{name: "an API server's last page",
			body: `{"kind":"InvoiceList","metadata":{"resourceVersion":"9"},"items":[]}`,
			next: rawDirectNext, each: rawDirectInvoice},
		{name: "a token with an escape, which a search cannot read",
			body: `{"data":[],"next_cursor":"a\u0026b"}`,
			next: rawAdapterNext, each: rawAdapterInvoice, last: true, errContains: "escape"},
		{name: "a token cut off",
			body: `{"data":[],"next_cursor":"abc`,
			next: rawAdapterNext, each: rawAdapterInvoice, last: true, errContains: "inside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
			g.Expect(err).NotTo(HaveOccurred())
			p, err := readRawPage(srv.Client(), req, tc.next, tc.each, tc.last)
			if tc.errContains != "" {
				g.Expect(err).To(MatchError(ContainSubstring(tc.errContains)))
				return
			}
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(p).To(Equal(rawPage{count: tc.count, next: tc.token}))
		})
	}
}
