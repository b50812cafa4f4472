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
	"strings"
	"testing"
)

// The Idempotency-Key header and the request hashes a key is bound to.

func TestValidIdempotencyKey(t *testing.T) {
	cases := map[string]bool{
		"a": true, "order 42/retry": true, strings.Repeat("~", 255): true,
		"": false, strings.Repeat("k", 256): false, "tab\tkey": false, "clé": false, "del\x7f": false,
	}
	for k, want := range cases {
		if got := validIdempotencyKey(k); got != want {
			t.Errorf("validIdempotencyKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestRequestHashIgnoresFormattingButNotContent(t *testing.T) {
	a, _ := DecodeInvoice([]byte(`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2}]}`))
	b, _ := DecodeInvoice([]byte(` { "items" : [ {"amount":2,"quantity":1.0,"description":"x"} ], "currency":"usd", "customer_id":"c" } `))
	c, _ := DecodeInvoice([]byte(`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":3}]}`))
	if requestHash("POST", "/v1/invoices", a) != requestHash("POST", "/v1/invoices", b) {
		t.Error("the same request formatted differently hashes differently")
	}
	if requestHash("POST", "/v1/invoices", a) == requestHash("POST", "/v1/invoices", c) {
		t.Error("different requests hash the same")
	}
	if requestHash("POST", "/v1/invoices", a) == requestHash("POST", "/v1/customers", a) {
		t.Error("the path is not part of the hash")
	}
}

func TestKeyHashIsTheRequestHashOnlyWithAKey(t *testing.T) {
	p, _ := DecodeInvoice([]byte(`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2}]}`))
	r := httptest.NewRequest(http.MethodPost, "/v1/invoices", nil)
	if got := keyHash("", r, p); got != "" {
		t.Errorf("a request without a key hashes to %q", got)
	}
	if got, want := keyHash("k", r, p), requestHash(http.MethodPost, "/v1/invoices", p); got != want {
		t.Errorf("a request with a key hashes to %q, not its request hash %q", got, want)
	}
}

func TestRequestHashOfTaxes(t *testing.T) {
	hash := func(body string) string {
		t.Helper()
		p, e := DecodeInvoice([]byte(body))
		if e != nil {
			t.Fatal(e)
		}
		return requestHash(http.MethodPost, "/v1/invoices", p)
	}
	taxed := func(tax string) string {
		return `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2,"tax":` + tax + `}]}`
	}
	t.Run("a rate written as a number, a string or with trailing zeros is one request", func(t *testing.T) {
		if a, b, c := hash(taxed(`{"category":"S","rate":19}`)), hash(taxed(`{"category":"S","rate":"19"}`)),
			hash(taxed(`{"category":"S","rate":"19.0000","exemption_reason":null}`)); a != b || b != c {
			t.Error("the same tax written differently hashes differently")
		}
	})
	t.Run("another tax or none is another request", func(t *testing.T) {
		s19, s7 := hash(taxed(`{"category":"S","rate":19}`)), hash(taxed(`{"category":"S","rate":7}`))
		if s19 == s7 || s19 == hash(taxed(`null`)) {
			t.Error("different taxes hash the same")
		}
	})
	t.Run("a request without tax hashes as it did before taxes existed", func(t *testing.T) {
		// The parameters of the first release: a key claimed by a request
		// then is replayed to a retry sent after an upgrade.
		type item struct {
			Description string `json:"description"`
			Quantity    int64  `json:"quantity"`
			Amount      int64  `json:"amount"`
		}
		before := struct {
			CustomerID string `json:"customer_id"`
			Currency   string `json:"currency"`
			Items      []item `json:"items"`
		}{"c", "USD", []item{{"x", 1, 2}}}
		if hash(taxed(`null`)) != requestHash(http.MethodPost, "/v1/invoices", before) {
			t.Error("a request without tax hashes differently than before taxes existed")
		}
	})
}
