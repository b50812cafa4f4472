/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"encoding/json"
	"net/http"
	"testing"
	"unicode/utf8"

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
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if c, e := DecodeCustomer(body); e != nil {
			checkDecodeError(t, e)
		} else {
			if n := utf8.RuneCountInString(c.Name); n < 1 || n > maxCustomerNameLength || !billing.ValidEmail(c.Email) {
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
			inv.CustomerID == "" || inv.Total < 0 || inv.Total > billing.MaxTotal {
			t.Fatalf("accepted an invalid invoice %+v", inv)
		}
		var sum int64
		for _, it := range inv.Items {
			if it.Quantity < billing.MinQuantity || it.Quantity > billing.MaxQuantity ||
				it.Amount < billing.MinAmount || it.Amount > billing.MaxAmount ||
				utf8.RuneCountInString(it.Description) > billing.MaxDescription || it.Description == "" {
				t.Fatalf("accepted an invalid item %+v", it)
			}
			sum += it.Quantity * it.Amount
		}
		if sum != inv.Total {
			t.Fatalf("total %d, want %d", inv.Total, sum)
		}
		again, e := DecodeInvoice(mustJSON(t, inv))
		if e != nil || requestHash("POST", "/", again) != requestHash("POST", "/", inv) || again.Total != inv.Total {
			t.Fatalf("%+v re-encoded decodes to %+v, %v", inv, again, e)
		}
	})
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
