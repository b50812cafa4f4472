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
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/cluster"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

func TestDecodeCustomer(t *testing.T) {
	cases := []struct {
		name   string
		body   string
		want   *CustomerParams
		status int
		code   string
		param  string
	}{
		{"a valid customer", `{"name":"Ada","email":"ada@example.com"}`,
			&CustomerParams{Name: "Ada", Email: "ada@example.com"}, 0, "", ""},
		{"white space around the object is fine", " \n{\"name\":\"Ada\",\"email\":\"ada@example.com\"}\n\t",
			&CustomerParams{Name: "Ada", Email: "ada@example.com"}, 0, "", ""},
		{"escapes are decoded", `{"name":"Ad\u00e9","email":"ada@example.com"}`,
			&CustomerParams{Name: "Adé", Email: "ada@example.com"}, 0, "", ""},
		{"not JSON", `nope`, nil, 400, CodeBodyInvalid, ""},
		{"an empty body", ``, nil, 400, CodeBodyInvalid, ""},
		{"trailing data", `{"name":"Ada","email":"ada@example.com"}x`, nil, 400, CodeBodyInvalid, ""},
		{"two objects", `{}{}`, nil, 400, CodeBodyInvalid, ""},
		{"a string", `"Ada"`, nil, 400, CodeBodyInvalid, ""},
		{"null", `null`, nil, 400, CodeBodyInvalid, ""},
		{"invalid UTF-8", "{\"name\":\"\xc3\x28\",\"email\":\"a@b\"}", nil, 400, CodeBodyInvalid, ""},
		{"a duplicated key", `{"name":"Ada","email":"a@b.c","email":"b@c.d"}`, nil, 400, CodeBodyInvalid, "email"},
		{"an unknown field", `{"name":"Ada","email":"a@b.c","id":"cus-1"}`, nil, 400, CodeParameterUnknown, "id"},
		{"unknown before missing", `{"nam":"Ada"}`, nil, 400, CodeParameterUnknown, "nam"},
		{"a wrong type", `{"name":["Ada"],"email":"a@b.c"}`, nil, 400, CodeParameterInvalid, "name"},
		{"a boolean e-mail", `{"name":"Ada","email":true}`, nil, 400, CodeParameterInvalid, "email"},
		{"an empty object", `{}`, nil, 422, CodeParameterMissing, "name"},
		{"a null e-mail", `{"name":"Ada","email":null}`, nil, 422, CodeParameterMissing, "email"},
		{"an empty name", `{"name":"","email":"a@b.c"}`, nil, 422, CodeParameterInvalid, "name"},
		{"a bad e-mail", `{"name":"Ada","email":"a b@c.d"}`, nil, 422, CodeParameterInvalid, "email"},
		{"a NUL in the name", `{"name":"Ada\u0000","email":"a@b.c"}`, nil, 422, CodeParameterInvalid, "name"},
		{"an escape character in the name", `{"name":"\u001b[31mAda","email":"a@b.c"}`, nil, 422, CodeParameterInvalid, "name"},
		{"a C1 control in the name", `{"name":"Ada\u0085","email":"a@b.c"}`, nil, 422, CodeParameterInvalid, "name"},
		{"a raw NUL byte is not JSON", "{\"name\":\"Ada\x00\",\"email\":\"a@b.c\"}", nil, 400, CodeBodyInvalid, ""},
		{"a name of 257 characters", `{"name":"` + strings.Repeat("é", 257) + `","email":"a@b.c"}`,
			nil, 422, CodeParameterInvalid, "name"},
		{"a name of 256 characters", `{"name":"` + strings.Repeat("é", 256) + `","email":"ada@example.com"}`,
			&CustomerParams{Name: strings.Repeat("é", 256), Email: "ada@example.com"}, 0, "", ""},
		{"an object nested nine deep", `{"name":[[[[[[[[1]]]]]]]],"email":"a@b.c"}`, nil, 400, CodeBodyInvalid, ""},
		{"an object nested eight deep is only of the wrong type", `{"name":[[[[[[[1]]]]]]],"email":"a@b.c"}`,
			nil, 400, CodeParameterInvalid, "name"},
		{"nesting past encoding/json's own limit", `{"name":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
			nil, 400, CodeBodyInvalid, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeCustomer([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

func TestDecodeCustomerAddressAndTaxID(t *testing.T) {
	body := func(extra string) string { return `{"name":"Ada","email":"ada@example.com",` + extra + `}` }
	ada := func(a *AddressParams, taxID string) *CustomerParams {
		return &CustomerParams{Name: "Ada", Email: "ada@example.com", Address: a, TaxID: taxID}
	}
	full := `"address":{"line1":"221B Baker Street","line2":"Flat B","city":"London","postal_code":"NW1 6XE",` +
		`"state":"Greater London","country":"GB"},"tax_id":"GB123456789"`
	cases := []struct {
		name   string
		body   string
		want   *CustomerParams
		status int
		code   string
		param  string
	}{
		{"a full address and a tax id", body(full), ada(&AddressParams{Line1: "221B Baker Street", Line2: "Flat B",
			City: "London", PostalCode: "NW1 6XE", State: "Greater London", Country: "GB"}, "GB123456789"), 0, "", ""},
		{"a country alone", body(`"address":{"country":"DE"}`), ada(&AddressParams{Country: "DE"}, ""), 0, "", ""},
		{"null fields are absent", body(`"address":{"line1":null,"country":"DE"},"tax_id":null`),
			ada(&AddressParams{Country: "DE"}, ""), 0, "", ""},
		{"an address without fields is none", body(`"address":{}`), ada(nil, ""), 0, "", ""},
		{"a null address is none", body(`"address":null`), ada(nil, ""), 0, "", ""},
		{"bounds are in characters", body(`"address":{"postal_code":"` + strings.Repeat("é", 32) + `"},"tax_id":"` +
			strings.Repeat("é", 64) + `"`), ada(&AddressParams{PostalCode: strings.Repeat("é", 32)}, strings.Repeat("é", 64)), 0, "", ""},
		{"an address that is a string", body(`"address":"London"`), nil, 400, CodeParameterInvalid, "address"},
		{"an unknown address field", body(`"address":{"zip":"1"}`), nil, 400, CodeParameterUnknown, "address.zip"},
		{"a duplicated address field", body(`"address":{"city":"a","city":"b"}`), nil, 400, CodeBodyInvalid, "address.city"},
		{"a numeric postal code", body(`"address":{"postal_code":12345}`), nil, 400, CodeParameterInvalid, "address.postal_code"},
		{"a numeric tax id", body(`"tax_id":12345`), nil, 400, CodeParameterInvalid, "tax_id"},
		{"an address type error before a missing name", `{"address":{"city":1}}`, nil, 400, CodeParameterInvalid, "address.city"},
		{"a user-assigned country", body(`"address":{"country":"ZZ"}`), nil, 422, CodeParameterInvalid, "address.country"},
		{"a lower-case country", body(`"address":{"country":"de"}`), nil, 422, CodeParameterInvalid, "address.country"},
		{"a three-letter country", body(`"address":{"country":"DEU"}`), nil, 422, CodeParameterInvalid, "address.country"},
		{"an empty country", body(`"address":{"country":""}`), nil, 422, CodeParameterInvalid, "address.country"},
		{"an empty line1", body(`"address":{"line1":""}`), nil, 422, CodeParameterInvalid, "address.line1"},
		{"a line2 of 257 characters", body(`"address":{"line2":"` + strings.Repeat("a", 257) + `"}`),
			nil, 422, CodeParameterInvalid, "address.line2"},
		{"a city of 129 characters", body(`"address":{"city":"` + strings.Repeat("a", 129) + `"}`),
			nil, 422, CodeParameterInvalid, "address.city"},
		{"a postal code of 33 characters", body(`"address":{"postal_code":"` + strings.Repeat("1", 33) + `"}`),
			nil, 422, CodeParameterInvalid, "address.postal_code"},
		{"a state of 129 characters", body(`"address":{"state":"` + strings.Repeat("a", 129) + `"}`),
			nil, 422, CodeParameterInvalid, "address.state"},
		{"a NUL in the city", body(`"address":{"city":"a\u0000"}`), nil, 422, CodeParameterInvalid, "address.city"},
		{"an empty tax id", body(`"tax_id":""`), nil, 422, CodeParameterInvalid, "tax_id"},
		{"a tax id of 65 characters", body(`"tax_id":"` + strings.Repeat("1", 65) + `"`), nil, 422, CodeParameterInvalid, "tax_id"},
		{"a bad e-mail before a bad country", `{"name":"Ada","email":"nope","address":{"country":"ZZ"}}`,
			nil, 422, CodeParameterInvalid, "email"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeCustomer([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

func TestDecodeInvoice(t *testing.T) {
	one := `"items":[{"description":"x","quantity":1,"amount":2}]`
	cases := []struct {
		name   string
		body   string
		want   *InvoiceParams
		status int
		code   string
		param  string
	}{
		{"a valid invoice defaults to USD", `{"customer_id":"c",` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []apiobject.Item{{Description: "x", Quantity: 1, Amount: 2}}, Total: 2}, 0, "", ""},
		{"the currency is upper-cased", `{"customer_id":"c","currency":"eUr",` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "EUR", Items: []apiobject.Item{{Description: "x", Quantity: 1, Amount: 2}}, Total: 2}, 0, "", ""},
		{"a null currency is the default", `{"customer_id":"c","currency":null,` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []apiobject.Item{{Description: "x", Quantity: 1, Amount: 2}}, Total: 2}, 0, "", ""},
		{"whole numbers in any notation", `{"customer_id":"c","items":[{"description":"x","quantity":2.0,"amount":1.5E2}]}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []apiobject.Item{{Description: "x", Quantity: 2, Amount: 150}}, Total: 300}, 0, "", ""},
		{"a string quantity", `{"customer_id":"c","items":[{"description":"x","quantity":"1","amount":2}]}`,
			nil, 400, CodeParameterInvalid, "items[0].quantity"},
		{"an unknown item field", `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2,"vat":1}]}`,
			nil, 400, CodeParameterUnknown, "items[0].vat"},
		{"a duplicated item field", `{"customer_id":"c","items":[{"description":"x","quantity":1,"quantity":1,"amount":2}]}`,
			nil, 400, CodeBodyInvalid, "items[0].quantity"},
		{"a null item", `{"customer_id":"c","items":[null]}`, nil, 400, CodeParameterInvalid, "items[0]"},
		{"400s come before 422s", `{"items":[{"description":"x","quantity":1,"amount":"2"}]}`,
			nil, 400, CodeParameterInvalid, "items[0].amount"},
		{"a missing customer", `{` + one + `}`, nil, 422, CodeParameterMissing, "customer_id"},
		{"a customer id of 254 characters", `{"customer_id":"` + strings.Repeat("c", 254) + `",` + one + `}`,
			nil, 422, CodeParameterInvalid, "customer_id"},
		{"missing items", `{"customer_id":"c"}`, nil, 422, CodeParameterMissing, "items"},
		{"null items", `{"customer_id":"c","items":null}`, nil, 422, CodeParameterMissing, "items"},
		{"no items", `{"customer_id":"c","items":[]}`, nil, 422, CodeParameterInvalid, "items"},
		{"a fraction", `{"customer_id":"c","items":[{"description":"x","quantity":1.5,"amount":2}]}`,
			nil, 422, CodeParameterInvalid, "items[0].quantity"},
		{"a tiny fraction", `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":1000000000000.0000000001}]}`,
			nil, 422, CodeParameterInvalid, "items[0].amount"},
		{"a huge exponent", `{"customer_id":"c","items":[{"description":"x","quantity":1e999999999999,"amount":2}]}`,
			nil, 422, CodeParameterInvalid, "items[0].quantity"},
		{"a negative exponent", `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":1e-999999999999}]}`,
			nil, 422, CodeParameterInvalid, "items[0].amount"},
		{"a missing amount", `{"customer_id":"c","items":[{"description":"x","quantity":1}]}`,
			nil, 422, CodeParameterMissing, "items[0].amount"},
		{"a total above 2^53-1", `{"customer_id":"c","items":[{"description":"x","quantity":1000000,"amount":1000000000000}]}`,
			nil, 422, CodeParameterInvalid, "items"},
		{"a currency with a digit", `{"customer_id":"c","currency":"U5D",` + one + `}`,
			nil, 422, CodeParameterInvalid, "currency"},
		{"a currency of four letters", `{"customer_id":"c","currency":"USDX",` + one + `}`,
			nil, 422, CodeParameterInvalid, "currency"},
		{"a non-ASCII currency", `{"customer_id":"c","currency":"ÉUR",` + one + `}`,
			nil, 422, CodeParameterInvalid, "currency"},
		{"three letters that ISO 4217 does not assign", `{"customer_id":"c","currency":"XYZ",` + one + `}`,
			nil, 422, CodeParameterInvalid, "currency"},
		{"a currency without minor units", `{"customer_id":"c","currency":"jpy",` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "JPY", Items: []apiobject.Item{{Description: "x", Quantity: 1, Amount: 2}}, Total: 2}, 0, "", ""},
		{"tab, line feed and carriage return in a description",
			`{"customer_id":"c","items":[{"description":"a\tb\r\nc","quantity":1,"amount":2}]}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []apiobject.Item{{Description: "a\tb\r\nc", Quantity: 1, Amount: 2}}, Total: 2}, 0, "", ""},
		{"a NUL in a description", `{"customer_id":"c","items":[{"description":"a\u0000","quantity":1,"amount":2}]}`,
			nil, 422, CodeParameterInvalid, "items[0].description"},
		{"a DEL in a description", `{"customer_id":"c","items":[{"description":"a\u007f","quantity":1,"amount":2}]}`,
			nil, 422, CodeParameterInvalid, "items[0].description"},
		{"a description of 1001 characters", `{"customer_id":"c","items":[{"description":"` + strings.Repeat("d", 1001) +
			`","quantity":1,"amount":2}]}`, nil, 422, CodeParameterInvalid, "items[0].description"},
		{"501 items", `{"customer_id":"c","items":[` + items(501) + `]}`, nil, 422, CodeParameterInvalid, "items"},
		{"1000 items are still counted", `{"customer_id":"c","items":[` + items(1000) + `]}`,
			nil, 422, CodeParameterInvalid, "items"},
		{"more JSON values than any valid invoice has", `{"customer_id":"c","items":[` + items(1100) + `]}`,
			nil, 400, CodeBodyInvalid, ""},
		{"a long array of numbers", `{"customer_id":"c","items":[` + strings.Repeat("0,", 500_000) + `0]}`,
			nil, 400, CodeBodyInvalid, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeInvoice([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

// items is n valid line items, comma-separated.
func items(n int) string {
	return strings.TrimSuffix(strings.Repeat(`{"description":"x","quantity":1,"amount":2},`, n), ",")
}

func checkDecoded[T comparable](t *testing.T, got, want T, e *Error, status int, code, param string) {
	t.Helper()
	var zero T
	if status == 0 {
		if e != nil {
			t.Fatalf("want success, got %v", e)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
		return
	}
	if e == nil {
		t.Fatalf("want %d %s %s, got success", status, code, param)
	}
	if got != zero {
		t.Errorf("want no parameters with an error, got %v", got)
	}
	if e.Status != status || e.Code != code || e.Param != param {
		t.Errorf("want %d %s %q, got %d %s %q (%s)", status, code, param, e.Status, e.Code, e.Param, e.Message)
	}
	if e.Message == "" {
		t.Error("the error has no message")
	}
}

// The valid cases' parameters, compared in full.
func TestDecodeInvoiceParameters(t *testing.T) {
	got, e := DecodeInvoice([]byte(`{"items":[{"amount":15000,"quantity":3,"description":"Consulting"},` +
		`{"description":"Travel","quantity":1,"amount":0}],"currency":"chf","customer_id":"cus-1"}`))
	if e != nil {
		t.Fatal(e)
	}
	want := InvoiceParams{CustomerID: "cus-1", Currency: "CHF", Total: 45000,
		Items: []apiobject.Item{{Description: "Consulting", Quantity: 3, Amount: 15000}, {Description: "Travel", Quantity: 1, Amount: 0}}}
	if got.CustomerID != want.CustomerID || got.Currency != want.Currency || got.Total != want.Total ||
		len(got.Items) != 2 || got.Items[0] != want.Items[0] || got.Items[1] != want.Items[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseWhole(t *testing.T) {
	cases := []struct {
		lit         string
		n           int64
		whole, fits bool
	}{
		{"0", 0, true, true},
		{"-0", 0, true, true},
		{"42", 42, true, true},
		{"-42", -42, true, true},
		{"3.0", 3, true, true},
		{"3.000", 3, true, true},
		{"2.5", 0, false, false},
		{"1e3", 1000, true, true},
		{"1E+3", 1000, true, true},
		{"1.5e1", 15, true, true},
		{"1500e-3", 0, false, false},
		{"15000e-3", 15, true, true},
		{"0.0e5", 0, true, true},
		{"0e-999999999999999999999", 0, true, true},
		{"1e-999999999999999999999", 0, false, false},
		{"1e999999999999999999999", 0, true, false},
		{"9223372036854775807", 9223372036854775807, true, true},
		{"9223372036854775808", 0, true, false},
		{"-9223372036854775808", -9223372036854775808, true, true},
		{"-9223372036854775809", 0, true, false},
		{"99999999999999999999999", 0, true, false},
		{"1e18", 1_000_000_000_000_000_000, true, true},
		{"1e19", 0, true, false},
		{"0.000001e6", 1, true, true},
	}
	for _, tc := range cases {
		n, whole, fits := parseWhole(tc.lit)
		if n != tc.n || whole != tc.whole || fits != tc.fits {
			t.Errorf("parseWhole(%q) = %d, %v, %v; want %d, %v, %v", tc.lit, n, whole, fits, tc.n, tc.whole, tc.fits)
		}
	}
}

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

func TestInvoiceJSONReadsTheStatus(t *testing.T) {
	issuedAt := metav1.NewTime(time.Date(2026, 11, 21, 7, 0, 0, 0, time.FixedZone("CET", 3600)))
	dueAt := metav1.NewTime(issuedAt.Add(30 * 24 * time.Hour))
	ready := func(reason string) []metav1.Condition {
		return []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason}}
	}
	cases := []struct {
		name   string
		status billingv1.InvoiceStatus
		want   string // the new fields, as JSON
	}{
		{"a pending invoice has none", billingv1.InvoiceStatus{},
			`"status":"pending","status_reason":null,"number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invoice whose customer is missing", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready(billingv1.ReasonCustomerNotFound)},
			`"status":"invalid","status_reason":"customer_not_found","number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invoice whose total is too large", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready(billingv1.ReasonTotalTooLarge)},
			`"status":"invalid","status_reason":"total_too_large","number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invalid invoice of an unknown reason", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready("SomethingNew")},
			`"status":"invalid","status_reason":null,"number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an issued invoice without issuer", billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
			Number: "INV-000042", Sequence: ptr.To[int64](42), IssuedAt: &issuedAt, DueAt: &dueAt,
			BillTo: &billingv1.BillTo{Name: "Ada", Email: "ada@example.com"}},
			`"status":"issued","status_reason":null,"number":"INV-000042","sequence":42,"issued_at":"2026-11-21T06:00:00Z",` +
				`"due_at":"2026-12-21T06:00:00Z","bill_to":{"name":"Ada","email":"ada@example.com","address":null,` +
				`"tax_id":null},"issuer":null`},
		{"an issued invoice with every field", billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
			Number: "2026/000001", Sequence: ptr.To[int64](1), IssuedAt: &issuedAt, DueAt: &issuedAt,
			BillTo: &billingv1.BillTo{Name: "Ada", Email: "ada@example.com", TaxID: "GB1",
				Address: &billingv1.Address{City: "London", Country: "GB"}},
			Issuer: &billingv1.Issuer{Name: "Example GmbH"}},
			`"status":"issued","status_reason":null,"number":"2026/000001","sequence":1,"issued_at":"2026-11-21T06:00:00Z",` +
				`"due_at":"2026-11-21T06:00:00Z","bill_to":{"name":"Ada","email":"ada@example.com","address":{"line1":null,` +
				`"line2":null,"city":"London","postal_code":null,"state":null,"country":"GB"},"tax_id":"GB1"},` +
				`"issuer":{"name":"Example GmbH","email":null,"address":null,"tax_id":null}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv := &billingv1.Invoice{Status: tc.status}
			b, err := json.Marshal(apiobject.InvoiceOf(inv))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("got %s\nwant it to hold %s", b, tc.want)
			}
		})
	}
}

// The test client's objects are the adapter's, field for field.
func TestTheTestClientDecodesEveryField(t *testing.T) {
	var shape func(t reflect.Type) string
	shape = func(t reflect.Type) string {
		switch t.Kind() {
		case reflect.Pointer:
			return "*" + shape(t.Elem())
		case reflect.Slice:
			return "[]" + shape(t.Elem())
		case reflect.Struct:
			var fields []string
			for i := range t.NumField() {
				f := t.Field(i)
				fields = append(fields, f.Tag.Get("json")+":"+shape(f.Type))
			}
			return "{" + strings.Join(fields, ",") + "}"
		default:
			return t.Kind().String()
		}
	}
	for _, pair := range [][2]any{
		{apiobject.Customer{}, v1client.Customer{}}, {apiobject.Invoice{}, v1client.Invoice{}},
		{apiobject.List[apiobject.Invoice]{}, v1client.List[v1client.Invoice]{}},
	} {
		server, client := shape(reflect.TypeOf(pair[0])), shape(reflect.TypeOf(pair[1]))
		if server != client {
			t.Errorf("the adapter's %T is\n%s\nthe client's is\n%s", pair[0], server, client)
		}
	}
}

func TestWorkspaceFor(t *testing.T) {
	sa := &user.DefaultInfo{Name: "system:serviceaccount:demo:billing"}
	alice := &user.DefaultInfo{Name: "alice"}
	cases := []struct {
		name   string
		header []string
		user   user.Info
		want   string
		code   string
	}{
		{"a ServiceAccount works in its namespace", nil, sa, "demo", ""},
		{"the header wins", []string{"other"}, sa, "other", ""},
		{"a user names the workspace", []string{"team-a"}, alice, "team-a", ""},
		{"a user without the header", nil, alice, "", CodeWorkspaceRequired},
		{"a malformed ServiceAccount name", nil, &user.DefaultInfo{Name: "system:serviceaccount:demo"}, "", CodeWorkspaceRequired},
		{"an upper-case header", []string{"Demo"}, sa, "", CodeParameterInvalid},
		{"an empty header", []string{""}, sa, "", CodeParameterInvalid},
		{"a header with a dot", []string{"a.b"}, sa, "", CodeParameterInvalid},
		{"a header of 64 characters", []string{strings.Repeat("a", 64)}, sa, "", CodeParameterInvalid},
		{"the header twice", []string{"a", "b"}, sa, "", CodeParameterInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := workspaceFor(tc.header, tc.user)
			switch {
			case tc.code == "" && (e != nil || got != tc.want):
				t.Errorf("got %q, %v; want %q", got, e, tc.want)
			case tc.code != "" && (e == nil || e.Code != tc.code || e.Status != http.StatusBadRequest || e.Param != WorkspaceHeader):
				t.Errorf("got %q, %v; want 400 %s", got, e, tc.code)
			}
		})
	}
}

func TestSanitizeRequestID(t *testing.T) {
	cases := map[string]string{
		"abc":                       "abc",
		"A-Z.a_z:0-9":               "A-Z.a_z:0-9",
		strings.Repeat("x", 200):    strings.Repeat("x", 200),
		strings.Repeat("x", 201):    "",
		"":                          "",
		"with space":                "",
		"new\nline":                 "",
		"ünïcode":                   "",
		"semi;colon":                "",
		"550e8400-e29b-41d4-a716-4": "550e8400-e29b-41d4-a716-4",
	}
	for in, want := range cases {
		if got := sanitizeRequestID(in); got != want {
			t.Errorf("sanitizeRequestID(%q) = %q, want %q", in, got, want)
		}
	}
}

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

func TestLimiter(t *testing.T) {
	l := newLimiter(1, 2)
	now := time.Unix(1000, 0)
	for i := range 2 {
		if ok, _ := l.allow("u", now); !ok {
			t.Fatalf("request %d within the burst was refused", i)
		}
	}
	ok, wait := l.allow("u", now)
	if ok || wait <= 0 || wait > time.Second {
		t.Fatalf("want a refusal with a wait of at most 1s, got %v, %v", ok, wait)
	}
	if ok, _ := l.allow("v", now); !ok {
		t.Error("another identity shares the bucket")
	}
	if ok, _ := l.allow("u", now.Add(time.Second)); !ok {
		t.Error("the bucket does not refill")
	}
	l.allow("old", now)
	l.allow("u", now.Add(time.Hour))
	if _, kept := l.buckets["old"]; kept {
		t.Error("an idle bucket was not forgotten")
	}
	if ok, _ := newLimiter(-1, 0).allow("u", now); !ok {
		t.Error("a disabled limiter refuses")
	}
}

func TestLimiterForgetsIdleIdentities(t *testing.T) {
	l := newLimiter(50, 100)
	now := time.Unix(1000, 0)
	for i := range 10_000 {
		l.allow(fmt.Sprintf("user-%d", i), now)
	}
	if len(l.buckets) != 10_000 {
		t.Fatalf("%d buckets, want one per identity", len(l.buckets))
	}
	// Idle for longer than a bucket takes to fill up (and at least a minute).
	l.allow("late", now.Add(time.Minute+time.Second))
	if len(l.buckets) != 1 {
		t.Errorf("%d buckets after a minute of idleness, want 1", len(l.buckets))
	}
}

func TestErrorTypesFollowTheStatus(t *testing.T) {
	for status, typ := range map[int]string{
		400: typeInvalidRequest, 404: typeInvalidRequest, 409: typeInvalidRequest, 413: typeInvalidRequest,
		415: typeInvalidRequest, 422: typeInvalidRequest, 405: typeInvalidRequest,
		401: typeAuthentication, 403: typePermission, 429: typeRateLimit, 500: typeAPI, 503: typeAPI,
	} {
		if got := (&Error{Status: status}).Type(); got != typ {
			t.Errorf("status %d has type %s, want %s", status, got, typ)
		}
	}
}

func TestClassifyingAPIErrors(t *testing.T) {
	gr := schema.GroupResource{Group: "billing.invoicing.dev", Resource: "customers"}
	refused := &url.Error{Op: "Post", URL: "https://k8s", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	cases := []struct {
		name            string
		err             error
		failure, status bool
	}{
		{"a refused connection", refused, true, false},
		{"a deadline", fmt.Errorf("getting: %w", context.DeadlineExceeded), true, false},
		{"a 503", apierrors.NewServiceUnavailable("down"), true, true},
		{"a 500", apierrors.NewInternalError(errors.New("boom")), true, true},
		{"a 504", apierrors.NewTimeoutError("slow", 1), true, true},
		{"a 429", apierrors.NewTooManyRequests("busy", 1), true, true},
		{"a 403", apierrors.NewForbidden(gr, "x", errors.New("no")), false, true},
		{"a 422", apierrors.NewInvalid(schema.GroupKind{Kind: "Customer"}, "x", nil), false, true},
		{"a rejected token's message", errors.New("invalid bearer token"), false, false},
		{"an aggregate with a refused connection", utilerrors.NewAggregate([]error{errors.New("x"), refused}), true, false},
		{"an aggregate of messages", utilerrors.NewAggregate([]error{errors.New("x"), errors.New("y")}), false, false},
		{"a flattened webhook timeout", errors.New("webhook call failed: context deadline exceeded"), true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := isAPIFailure(tc.err); got != tc.failure {
				t.Errorf("isAPIFailure = %v, want %v", got, tc.failure)
			}
			if got := hasAPIStatus(tc.err); got != tc.status {
				t.Errorf("hasAPIStatus = %v, want %v", got, tc.status)
			}
		})
	}
}

func TestCleanPath(t *testing.T) {
	for p, want := range map[string]string{
		"/v1/invoices":                   "/v1/invoices",
		"/v1/invoices/":                  "/v1/invoices/",
		"/v1//invoices":                  "/v1/invoices",
		"/v1/invoices/../../secrets":     "/secrets",
		"/v1/invoices/./inv-1":           "/v1/invoices/inv-1",
		"/v1/invoices/..%2F..%2Fsecrets": "/v1/invoices/..%2F..%2Fsecrets",
		"/v1/invoices/%2e%2e":            "/v1/invoices/%2e%2e",
		"":                               "/",
		"v1":                             "/v1",
	} {
		if got := cleanPath(p); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestAPIErrorsBecomeTheDocumentedAnswers(t *testing.T) {
	gr := schema.GroupResource{Group: "billing.invoicing.dev", Resource: "invoices"}
	quota := apierrors.NewForbidden(gr, "inv-1", errors.New("exceeded quota: invoices, requested: count/invoices=1"))
	cases := []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"an unreachable API server is 503", apierrors.NewServiceUnavailable("down"), http.StatusServiceUnavailable, CodeAPIUnavailable},
		{"an object the API server finds invalid is 422", apierrors.NewInvalid(schema.GroupKind{Kind: "Invoice"}, "x", nil),
			http.StatusUnprocessableEntity, CodeParameterInvalid},
		{"a used-up ResourceQuota is 403 with Kubernetes' reason", quota, http.StatusForbidden, CodePermissionDenied},
		{"a missing namespace is 404", apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "gone"),
			http.StatusNotFound, CodeResourceMissing},
		{"anything else is 500", apierrors.NewConflict(gr, "x", errors.New("again")), http.StatusInternalServerError, CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := apiError(context.Background(), tc.err, "Unable to create an object")
			if e.Status != tc.status || e.Code != tc.code {
				t.Fatalf("got %d %s, want %d %s", e.Status, e.Code, tc.status, tc.code)
			}
			if errors.Is(tc.err, quota) && !strings.Contains(e.Message, "exceeded quota") {
				t.Errorf("the message %q does not say why", e.Message)
			}
		})
	}
}

// sarStub is an API server that answers SubjectAccessReviews with allow, and
// counts them.
func sarStub(t *testing.T, allow func(who, name string) bool) (*Adapter, *atomic.Int64) {
	var reviews atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reviews.Add(1)
		var sar authorizationv1.SubjectAccessReview
		if err := json.NewDecoder(r.Body).Decode(&sar); err != nil || sar.Spec.ResourceAttributes == nil {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		sar.Status.Allowed = allow(sar.Spec.User, sar.Spec.ResourceAttributes.Name)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(&sar)
	}))
	t.Cleanup(srv.Close)
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	authz, err := cluster.NewAuthorizer(cs, time.Minute, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return &Adapter{authz: authz}, &reviews
}

func TestAuthorizeAsksOnceForACallerAllowedEveryName(t *testing.T) {
	a, reviews := sarStub(t, func(who, name string) bool { return who == "all" && name == "" })
	all := &user.DefaultInfo{Name: "all"}
	for i := range 50 {
		if e := a.authorize(t.Context(), all, "get", resourceInvoices, "ws", fmt.Sprintf("inv-%d", i)); e != nil {
			t.Fatalf("get %d: %v", i, e)
		}
	}
	if n := reviews.Load(); n != 1 {
		t.Errorf("%d SubjectAccessReviews for 50 gets; want 1", n)
	}
}

func TestAuthorizeChecksTheNameForACallerLimitedToNames(t *testing.T) {
	a, reviews := sarStub(t, func(who, name string) bool { return who == "named" && name == "inv-ok" })
	named := &user.DefaultInfo{Name: "named"}
	if e := a.authorize(t.Context(), named, "get", resourceInvoices, "ws", "inv-ok"); e != nil {
		t.Errorf("get of the named invoice: %v", e)
	}
	if e := a.authorize(t.Context(), named, "get", resourceInvoices, "ws", "inv-other"); e == nil ||
		e.Status != http.StatusForbidden {
		t.Errorf("get of another invoice: %v; want 403", e)
	}
	if e := a.authorize(t.Context(), named, "list", resourceInvoices, "ws", ""); e == nil ||
		e.Status != http.StatusForbidden {
		t.Errorf("list: %v; want 403", e)
	}
	if n := reviews.Load(); n != 4 {
		t.Errorf("%d SubjectAccessReviews; want 4 (the whole resource once per verb, each name once)", n)
	}
}

// The adapter checks a customer's address and tax id with the CRD's own
// bounds before it writes, so the API server refuses nothing it accepted.
func TestAddressRulesMatchTheCustomerCRD(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "crd", "bases", "billing.invoicing.dev_customers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		t.Fatal(err)
	}
	spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	if got := spec.Properties["taxId"].MaxLength; got == nil || *got != maxTaxIDLength {
		t.Errorf("CRD taxId maxLength is %v, maxTaxIDLength %d", got, maxTaxIDLength)
	}
	address := spec.Properties["address"].Properties
	for _, f := range addressFields {
		crdName := map[string]string{"postal_code": "postalCode"}[f.name]
		if crdName == "" {
			crdName = f.name
		}
		p := address[crdName]
		if p.MaxLength == nil || *p.MaxLength != int64(f.maxLen) || p.MinLength == nil || *p.MinLength != 1 {
			t.Errorf("CRD address.%s is %v-%v characters, the adapter's 1-%d", crdName, p.MinLength, p.MaxLength, f.maxLen)
		}
	}
	if n := len(address); n != len(addressFields)+1 {
		t.Errorf("CRD address has %d fields, the adapter checks %d", n, len(addressFields)+1)
	}
	crdCodes := map[string]bool{}
	for _, v := range address["country"].Enum {
		var code string
		if err := json.Unmarshal(v.Raw, &code); err != nil {
			t.Fatal(err)
		}
		crdCodes[code] = true
	}
	if !reflect.DeepEqual(crdCodes, countryCodes) {
		t.Errorf("CRD countries %d, the adapter's %d: they differ", len(crdCodes), len(countryCodes))
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
