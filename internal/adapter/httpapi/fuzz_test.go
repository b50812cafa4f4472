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
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// knownCodes are the codes a decoder may answer.
var decodeCodes = map[string]bool{
	CodeBodyInvalid: true, CodeParameterInvalid: true, CodeParameterMissing: true, CodeParameterUnknown: true,
}

// FuzzDecode feeds arbitrary bodies to both create decoders. None may
// panic; each answers either valid parameters within the CRDs' bounds, which
// decode to themselves once re-encoded, or a typed 400 or 422 error.
// Seeds are in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"name":"Ada Lovelace","email":"ada@example.com"}`,
		`{"customer_id":"cus-1","currency":"eur","items":[{"description":"Consulting","quantity":3,"amount":15000}]}`,
		`{"customer_id":"c","items":[{"description":"x","quantity":2.5,"amount":1e3}]}`,
		`{"customer_id":"c","items":[{"description":"x","quantity":1e999999999,"amount":-0.0}]}`,
		`{"name":"a","name":"b"}`, `[]`, `{`, ``, `null`, `{"items":{}}`, "{\"name\":\"\xff\"}",
		`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2,"tax":{"category":"S","rate":19}}]}`,
		`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2,"tax":{"category":"O","exemption_reason":"Not subject"}}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if c, e := DecodeCustomer(body); e != nil {
			checkDecodeError(t, e)
		} else {
			if n := utf8.RuneCountInString(c.Name); n < 1 || n > maxCustomerNameLength || !billing.ValidEmail(c.Email) ||
				hasControl(c.Name) {
				t.Fatalf("accepted an invalid customer %+v", c)
			}
			again, e := DecodeCustomer(mustJSON(t, c))
			if e != nil || *again != *c {
				t.Fatalf("%+v re-encoded decodes to %+v, %v", c, again, e)
			}
		}

		inv, e := DecodeInvoice(body)
		if e != nil {
			checkDecodeError(t, e)
			return
		}
		if len(inv.Items) < billing.MinItems || len(inv.Items) > billing.MaxItems || len(inv.Currency) != 3 ||
			inv.CustomerID == "" || inv.Subtotal < 0 || inv.Subtotal > billing.MaxTotal {
			t.Fatalf("accepted an invalid invoice %+v", inv)
		}
		var sum int64
		discounted := false
		for _, it := range inv.Items {
			discounted = discounted || it.Discount != nil
			if it.Quantity.Scaled() < 1 || it.Quantity.Scaled() > billing.MaxQuantity*billingv1.QuantityScale ||
				it.Amount < billing.MinAmount || it.Amount > billing.MaxAmount ||
				utf8.RuneCountInString(it.Description) > billing.MaxDescription || it.Description == "" ||
				hasControl(it.Description) {
				t.Fatalf("accepted an invalid item %+v", it)
			}
			checkDecodedTax(t, it.Tax)
			gross, err := billing.Gross(it.Quantity, it.Amount)
			if err != nil {
				t.Fatalf("accepted an item whose gross cannot be computed %+v: %v", it, err)
			}
			sum += gross
		}
		if sum != inv.Subtotal {
			t.Fatalf("subtotal %d, want %d", inv.Subtotal, sum)
		}
		again, e := DecodeInvoice(mustJSON(t, inv))
		if e != nil || requestHash("POST", "/", again) != requestHash("POST", "/", inv) || again.Subtotal != inv.Subtotal {
			t.Fatalf("%+v re-encoded decodes to %+v, %v", inv, again, e)
		}
		// The rules across items are invoiceItems': it answers items the
		// controller computes the same amounts for, or a typed 422.
		items, _, e := invoiceItems(inv, nil)
		if e != nil {
			checkDecodeError(t, e)
			return
		}
		if a, err := billing.InvoiceAmounts(&billingv1.InvoiceSpec{Items: items}, billing.DocumentTaxes{Items: billing.EffectiveTaxes(items, nil)}); err != nil || a.Subtotal > sum || (!discounted && a.Subtotal != sum) ||
			a.Total < a.Subtotal || a.Total > billing.MaxTotal {
			t.Fatalf("the items of %+v have amounts %+v, %v", inv, a, err)
		}
	})
}

// checkDecodedTax fails t unless tax, decoded, is nil or keeps the rules of
// its category with its rate in its shortest form.
func checkDecodedTax(t *testing.T, tax *TaxParams) {
	t.Helper()
	if tax == nil {
		return
	}
	lt, err := billing.LineTaxOf(tax.crd())
	if err == nil {
		err = billing.ValidateLineTax(*lt)
	}
	if err != nil || hasControl(tax.ExemptionReason) || (lt.Rate != nil && lt.Rate.String() != *tax.Rate) {
		t.Fatalf("accepted an invalid tax %+v: %v", tax, err)
	}
}

func checkDecodeError(t *testing.T, e *Error) {
	t.Helper()
	if (e.Status != http.StatusBadRequest && e.Status != http.StatusUnprocessableEntity) || !decodeCodes[e.Code] || e.Message == "" {
		t.Fatalf("untyped decode error %+v", e)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzCursor feeds arbitrary cursors to decodeCursor for a list of one
// workspace. None may panic; each is either refused with 400
// parameter_invalid on the cursor parameter, or names a valid id and
// belongs to exactly that list: no cursor, tampered or not, is accepted by
// another workspace, resource or status filter, except a cursor of the first
// release ({"after": id}, exactly as it wrote them), which names no list.
// Seeds are in testdata/fuzz/FuzzCursor.
func FuzzCursor(f *testing.F) {
	scope := listScope{workspace: "alpha", resource: resourceInvoices}
	issued := listScope{workspace: "alpha", resource: resourceInvoices, filters: listFilters{Status: "issued"}}
	for _, seed := range []string{
		encodeCursor(scope, "inv-01jd3m5x8ckq0a5w7h3v2n9r4t"),
		encodeCursor(issued, "a"),
		b64(`{"workspace":"alpha","resource":"invoices","after":"a","filters":{"status":"issued"}}`),
		encodeCursor(listScope{workspace: "beta", resource: resourceInvoices}, "a"),
		encodeCursor(listScope{workspace: "alpha", resource: resourceCustomers}, "a"),
		b64(`{"after":"a"}`), b64(`{"workspace":"alpha","resource":"invoices","after":"../../secrets"}`),
		b64(`{"workspace":"alpha","resource":"invoices","after":"a","workspace":"beta"}`),
		b64(`{"Workspace":"alpha","RESOURCE":"invoices","after":"a"}`),
		"", "***", "e30", encodeCursor(scope, "a") + "=",
	} {
		f.Add(seed)
	}
	others := []listScope{
		{workspace: "beta", resource: resourceInvoices},
		{workspace: "alpha", resource: resourceCustomers},
		{workspace: "", resource: ""},
		issued,
	}
	f.Fuzz(func(t *testing.T, s string) {
		after, e := decodeCursor(s, scope)
		if e != nil {
			if e.Status != http.StatusBadRequest || e.Code != CodeParameterInvalid || e.Param != queryCursor || e.Message == "" {
				t.Fatalf("untyped cursor error %+v", e)
			}
			return
		}
		if !validName(after) {
			t.Fatalf("accepted a cursor after %q, not an id", after)
		}
		if _, legacy := legacyCursor(s, mustBase64(t, s)); legacy {
			return // the first release's cursors name no list: a position in any
		}
		for _, other := range others {
			if got, e := decodeCursor(s, other); e == nil {
				t.Fatalf("the cursor %q of %+v was accepted by %+v (after %q)", s, scope, other, got)
			}
		}
		raw, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			t.Fatalf("accepted a cursor that is not base64url: %v", err)
		}
		var c map[string]any
		if err := json.Unmarshal(raw, &c); err != nil || c["workspace"] != scope.workspace ||
			c["resource"] != scope.resource || c["after"] != after {
			t.Fatalf("accepted %s for %+v", raw, scope)
		}
		if again, e := decodeCursor(encodeCursor(scope, after), scope); e != nil || again != after {
			t.Fatalf("re-encoding the cursor after %q decodes to %q, %v", after, again, e)
		}
	})
}

func mustBase64(t *testing.T, s string) []byte {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("accepted a cursor that is not base64url: %v", err)
	}
	return raw
}

// FuzzIdempotencyKey feeds arbitrary Idempotency-Key headers and bodies to
// the idempotency steps that need no API server: the header check, the
// name of the key's IdempotencyKey object, and the request fingerprint. A
// header is accepted only when it is 1-255 printable ASCII characters, and
// then always names a valid Kubernetes object, a different one for a
// different key; the fingerprint depends on the validated request only.
// Seeds are in testdata/fuzz/FuzzIdempotencyKey.
func FuzzIdempotencyKey(f *testing.F) {
	invoice := `{"customer_id":"cus-1","items":[{"description":"x","quantity":1,"amount":2}]}`
	for _, seed := range []struct {
		key, other string
		body       string
	}{
		{"order-4711", "order-4712", invoice},
		{"a", "A", `{"name":"Ada","email":"ada@example.com"}`},
		{strings.Repeat("k", 255), strings.Repeat("k", 256), invoice},
		{"", "x", `{}`},
		{"tab\there", "nul\x00", invoice},
		{"ключ", "../../secrets", invoice},
		{" ", "~", `{"customer_id":"cus-1","currency":"usd","items":[{"description":"x","quantity":1.0,"amount":2e0}]}`},
	} {
		f.Add(seed.key, seed.other, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, key, other string, body []byte) {
		got, e := idempotencyKey(http.Header{IdempotencyKeyHeader: {key}})
		printable := key != "" && len(key) <= maxIdempotencyKeyLength && strings.IndexFunc(key, func(r rune) bool {
			return r < 0x20 || r > 0x7e
		}) < 0
		switch {
		case e != nil && printable, e == nil && !printable:
			t.Fatalf("idempotencyKey(%q) = %q, %v; printable: %v", key, got, e, printable)
		case e != nil && (e.Status != http.StatusBadRequest || e.Code != CodeParameterInvalid || e.Param != IdempotencyKeyHeader):
			t.Fatalf("untyped Idempotency-Key error %+v", e)
		case e == nil && got != key:
			t.Fatalf("idempotencyKey(%q) = %q", key, got)
		}
		if _, e := idempotencyKey(http.Header{IdempotencyKeyHeader: {key, other}}); e == nil {
			t.Fatalf("accepted the header twice: %q, %q", key, other)
		}
		if e == nil {
			name := idempotency.ClaimName(key)
			if !validName(name) || idempotency.ClaimName(key) != name {
				t.Fatalf("idempotency.ClaimName(%q) = %q, not a stable valid name", key, name)
			}
			if other != key && idempotency.ClaimName(other) == name {
				t.Fatalf("the keys %q and %q share the claim %s", key, other, name)
			}
		}

		for _, path := range []string{"/v1/invoices", "/v1/customers"} {
			var p any
			var e *Error
			if path == "/v1/invoices" {
				p, e = DecodeInvoice(body)
			} else {
				p, e = DecodeCustomer(body)
			}
			if e != nil {
				continue
			}
			hash := requestHash(http.MethodPost, path, p)
			var again any
			if path == "/v1/invoices" {
				again, e = DecodeInvoice(mustJSON(t, p))
			} else {
				again, e = DecodeCustomer(mustJSON(t, p))
			}
			if e != nil || requestHash(http.MethodPost, path, again) != hash {
				t.Fatalf("the same request %s re-encoded has another fingerprint (%v)", body, e)
			}
			if requestHash(http.MethodPost, path+"/", p) == hash {
				t.Fatalf("the fingerprint of %s does not depend on the path", body)
			}
		}
	})
}
