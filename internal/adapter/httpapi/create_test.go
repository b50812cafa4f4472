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
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// The one create path (create.go): the answer of a create is rendered from
// the amounts computed once to check it, and is what a get of the created
// object answers, which computes them from the object.

func TestACreateAnswersWhatAGetOfTheCreatedObjectAnswers(t *testing.T) {
	cases := []struct {
		name, path, body string
	}{
		{"an invoice with its own taxes, at two rates", "/v1/invoices", `{"customer_id":"cus-acme","items":[` +
			`{"description":"Consulting","quantity":3,"amount":15000,"tax":{"category":"S","rate":"19.00"}},` +
			`{"description":"Books","quantity":1,"amount":2000,"tax":{"category":"S","rate":7}}]}`},
		{"an invoice whose item takes the workspace's default tax", "/v1/invoices", `{"customer_id":"cus-acme",` +
			`"currency":"EUR","items":[{"description":"Support","quantity":2,"amount":1500},` +
			`{"description":"Exempt","quantity":1,"amount":900,"tax":{"category":"E","rate":0,"exemption_reason":"Medical"}}]}`},
		{"a credit note of a line's amount", "/v1/credit_notes",
			`{"invoice_id":"inv-1","reason":"other","lines":[{"invoice_line":0,"amount":1000}]}`},
		{"a full credit note of what is left", "/v1/credit_notes",
			`{"invoice_id":"inv-1","reason":"order_change","full_credit":true}`},
		{"a customer", "/v1/customers", `{"name":"Ada","email":"ada@example.com"}`},
		{"a payment", "/v1/payments", `{"invoice_id":"inv-1","amount":1000,"method":"bank_transfer"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeStore(acmeCustomer(), issuedFakeInvoice(nil, 1500))
			s.profile = store.Profile{DefaultTax: builder.StandardTax("19")}
			h := fakeAdapter(t, s, &fakeClaims{})
			created := serve(h, http.MethodPost, tc.path, tc.body)
			if created.Code != http.StatusCreated {
				t.Fatalf("status %d: %s", created.Code, created.Body)
			}
			got := serve(h, http.MethodGet, created.Header().Get("Location"), "")
			if got.Code != http.StatusOK {
				t.Fatalf("get: status %d: %s", got.Code, got.Body)
			}
			if created.Body.String() != got.Body.String() {
				t.Errorf("the create answered\n%s\nand a get\n%s", created.Body, got.Body)
			}
		})
	}
}
