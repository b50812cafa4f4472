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
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Decoding request bodies into customer and invoice parameters: what is
// accepted, and the status, code and param of what is refused.

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
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(1), Amount: 2}}, Subtotal: 2}, 0, "", ""},
		{"the currency is upper-cased", `{"customer_id":"c","currency":"eUr",` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "EUR", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(1), Amount: 2}}, Subtotal: 2}, 0, "", ""},
		{"a null currency is the default", `{"customer_id":"c","currency":null,` + one + `}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(1), Amount: 2}}, Subtotal: 2}, 0, "", ""},
		{"whole numbers in any notation", `{"customer_id":"c","items":[{"description":"x","quantity":2.0,"amount":1.5E2}]}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(2), Amount: 150}}, Subtotal: 300}, 0, "", ""},
		{"a string quantity is a 422, as the quantity's contract says", `{"customer_id":"c","items":[{"description":"x","quantity":"1","amount":2}]}`,
			nil, 422, CodeParameterInvalid, "items[0].quantity"},
		{"a quantity of another type is a 400", `{"customer_id":"c","items":[{"description":"x","quantity":true,"amount":2}]}`,
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
		{"a fraction of five decimals", `{"customer_id":"c","items":[{"description":"x","quantity":1.00001,"amount":2}]}`,
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
			&InvoiceParams{CustomerID: "c", Currency: "JPY", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(1), Amount: 2}}, Subtotal: 2}, 0, "", ""},
		{"tab, line feed and carriage return in a description",
			`{"customer_id":"c","items":[{"description":"a\tb\r\nc","quantity":1,"amount":2}]}`,
			&InvoiceParams{CustomerID: "c", Currency: "USD", Items: []ItemParams{{Description: "a\tb\r\nc", Quantity: billingv1.Units(1), Amount: 2}}, Subtotal: 2}, 0, "", ""},
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
	want := InvoiceParams{CustomerID: "cus-1", Currency: "CHF", Subtotal: 45000,
		Items: []ItemParams{{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000}, {Description: "Travel", Quantity: billingv1.Units(1), Amount: 0}}}
	if got.CustomerID != want.CustomerID || got.Currency != want.Currency || got.Subtotal != want.Subtotal ||
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

func TestDecodeCustomerElectronicAddress(t *testing.T) {
	body := func(extra string) string { return `{"name":"Ada","email":"ada@example.com",` + extra + `}` }
	with := func(scheme, value string) *CustomerParams {
		return &CustomerParams{Name: "Ada", Email: "ada@example.com",
			ElectronicAddress: &ElectronicAddressParams{Scheme: scheme, Value: value}}
	}
	cases := []struct {
		name   string
		body   string
		want   *CustomerParams
		status int
		code   string
		param  string
	}{
		{"a GLN", body(`"electronic_address":{"scheme":"0088","value":"4035811991021"}`), with("0088", "4035811991021"), 0, "", ""},
		{"a value of 128 characters", body(`"electronic_address":{"scheme":"9930","value":"` + strings.Repeat("1", 128) + `"}`),
			with("9930", strings.Repeat("1", 128)), 0, "", ""},
		{"a null electronic address is none", body(`"electronic_address":null`),
			&CustomerParams{Name: "Ada", Email: "ada@example.com"}, 0, "", ""},
		{"an electronic address that is a string", body(`"electronic_address":"0088:1"`), nil, 400, CodeParameterInvalid, "electronic_address"},
		{"an unknown electronic address field", body(`"electronic_address":{"scheme":"0088","value":"1","id":"x"}`),
			nil, 400, CodeParameterUnknown, "electronic_address.id"},
		{"a numeric scheme", body(`"electronic_address":{"scheme":88,"value":"1"}`), nil, 400, CodeParameterInvalid, "electronic_address.scheme"},
		{"a missing scheme", body(`"electronic_address":{"value":"1"}`), nil, 422, CodeParameterMissing, "electronic_address.scheme"},
		{"a missing value", body(`"electronic_address":{"scheme":"0088"}`), nil, 422, CodeParameterMissing, "electronic_address.value"},
		{"a scheme of letters", body(`"electronic_address":{"scheme":"GLN0","value":"1"}`), nil, 422, CodeParameterInvalid, "electronic_address.scheme"},
		{"a scheme of 3 digits", body(`"electronic_address":{"scheme":"088","value":"1"}`), nil, 422, CodeParameterInvalid, "electronic_address.scheme"},
		{"a scheme of 5 digits", body(`"electronic_address":{"scheme":"00880","value":"1"}`), nil, 422, CodeParameterInvalid, "electronic_address.scheme"},
		{"an empty value", body(`"electronic_address":{"scheme":"0088","value":""}`), nil, 422, CodeParameterInvalid, "electronic_address.value"},
		{"a value of 129 characters", body(`"electronic_address":{"scheme":"0088","value":"` + strings.Repeat("1", 129) + `"}`),
			nil, 422, CodeParameterInvalid, "electronic_address.value"},
		{"a value with a space", body(`"electronic_address":{"scheme":"0088","value":"40 35"}`), nil, 422, CodeParameterInvalid, "electronic_address.value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeCustomer([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

func TestDecodeCustomerPreferredLocale(t *testing.T) {
	body := func(extra string) string { return `{"name":"Ada","email":"ada@example.com",` + extra + `}` }
	with := func(tag string) *CustomerParams {
		return &CustomerParams{Name: "Ada", Email: "ada@example.com", PreferredLocale: tag}
	}
	cases := []struct {
		name   string
		body   string
		want   *CustomerParams
		status int
		code   string
		param  string
	}{
		{"a language is kept", body(`"preferred_locale":"de"`), with("de"), 0, "", ""},
		{"a language and region is kept", body(`"preferred_locale":"fr-CA"`), with("fr-CA"), 0, "", ""},
		{"a tag is stored in its canonical form", body(`"preferred_locale":"PT-br"`), with("pt-BR"), 0, "", ""},
		{"a language without a translation is kept", body(`"preferred_locale":"ja"`), with("ja"), 0, "", ""},
		{"a null locale is none", body(`"preferred_locale":null`), with(""), 0, "", ""},
		{"a number is refused", body(`"preferred_locale":49`), nil, 400, CodeParameterInvalid, "preferred_locale"},
		{"an empty tag is refused", body(`"preferred_locale":""`), nil, 422, CodeParameterInvalid, "preferred_locale"},
		{"a malformed tag is refused", body(`"preferred_locale":"de_DE!"`), nil, 422, CodeParameterInvalid, "preferred_locale"},
		{"a tag of no language is refused", body(`"preferred_locale":"zz"`), nil, 422, CodeParameterInvalid, "preferred_locale"},
		{"a tag longer than the CRD's bound is refused", body(`"preferred_locale":"de-` + strings.Repeat("a", 40) + `"`),
			nil, 422, CodeParameterInvalid, "preferred_locale"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeCustomer([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

func TestDecodeInvoiceBuyerReferencePurchaseOrderAndSupplyDate(t *testing.T) {
	body := func(extra string) string {
		return `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2}],` + extra + `}`
	}
	with := func(ref, po string) *InvoiceParams {
		return &InvoiceParams{CustomerID: "c", Currency: "USD", Items: []ItemParams{{Description: "x", Quantity: billingv1.Units(1), Amount: 2}},
			Subtotal: 2, BuyerReference: ref, PurchaseOrder: po}
	}
	supplied := func(day string) *InvoiceParams {
		p := with("", "")
		p.SupplyDate = day
		return p
	}
	cases := []struct {
		name   string
		body   string
		want   *InvoiceParams
		status int
		code   string
		param  string
	}{
		{"both", body(`"buyer_reference":"04011000-12345-34","purchase_order":"PO-1"`), with("04011000-12345-34", "PO-1"), 0, "", ""},
		{"nulls are absent", body(`"buyer_reference":null,"purchase_order":null`), with("", ""), 0, "", ""},
		{"200 characters", body(`"buyer_reference":"` + strings.Repeat("é", 200) + `"`), with(strings.Repeat("é", 200), ""), 0, "", ""},
		{"a numeric buyer reference", body(`"buyer_reference":1`), nil, 400, CodeParameterInvalid, "buyer_reference"},
		{"a numeric purchase order", body(`"purchase_order":1`), nil, 400, CodeParameterInvalid, "purchase_order"},
		{"an empty buyer reference", body(`"buyer_reference":""`), nil, 422, CodeParameterInvalid, "buyer_reference"},
		{"a buyer reference of 201 characters", body(`"buyer_reference":"` + strings.Repeat("a", 201) + `"`),
			nil, 422, CodeParameterInvalid, "buyer_reference"},
		{"a purchase order of 201 characters", body(`"purchase_order":"` + strings.Repeat("a", 201) + `"`),
			nil, 422, CodeParameterInvalid, "purchase_order"},
		{"a NUL in the purchase order", body(`"purchase_order":"a\u0000"`), nil, 422, CodeParameterInvalid, "purchase_order"},
		{"a day of supply is kept as written", body(`"supply_date":"2026-03-31"`), supplied("2026-03-31"), 0, "", ""},
		{"a leap day is a day of supply", body(`"supply_date":"2028-02-29"`), supplied("2028-02-29"), 0, "", ""},
		{"a null day of supply is absent", body(`"supply_date":null`), supplied(""), 0, "", ""},
		{"a numeric day of supply", body(`"supply_date":20260331`), nil, 400, CodeParameterInvalid, "supply_date"},
		{"a day of supply not in the calendar", body(`"supply_date":"2026-02-30"`), nil, 422, CodeParameterInvalid, "supply_date"},
		{"a timestamp as the day of supply", body(`"supply_date":"2026-03-31T00:00:00Z"`), nil, 422, CodeParameterInvalid, "supply_date"},
		{"a day of supply written day first", body(`"supply_date":"31.03.2026"`), nil, 422, CodeParameterInvalid, "supply_date"},
		{"an empty day of supply", body(`"supply_date":""`), nil, 422, CodeParameterInvalid, "supply_date"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeInvoice([]byte(tc.body))
			checkDecoded(t, got, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

// The adapter checks a customer's electronic address and an invoice's
// references with the CRDs' own bounds.
func TestElectronicAddressAndReferenceRulesMatchTheCRDs(t *testing.T) {
	spec := func(file string) apiextensionsv1.JSONSchemaProps {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "crd", "bases", file))
		if err != nil {
			t.Fatal(err)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(data, crd); err != nil {
			t.Fatal(err)
		}
		return crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	}
	ea := spec("billing.invoicing.dev_customers.yaml").Properties["electronicAddress"].Properties
	if p := ea["scheme"]; p.Pattern != easScheme.String() {
		t.Errorf("CRD electronicAddress.scheme pattern is %q, the adapter's %q", p.Pattern, easScheme)
	}
	if p := ea["value"]; p.MaxLength == nil || *p.MaxLength != maxElectronicAddressLength || p.MinLength == nil || *p.MinLength != 1 {
		t.Errorf("CRD electronicAddress.value is %v-%v characters, the adapter's 1-%d", p.MinLength, p.MaxLength, maxElectronicAddressLength)
	}
	inv := spec("billing.invoicing.dev_invoices.yaml").Properties
	for _, name := range []string{"buyerReference", "purchaseOrder"} {
		if p := inv[name]; p.MaxLength == nil || *p.MaxLength != maxReferenceLength || p.MinLength == nil || *p.MinLength != 1 {
			t.Errorf("CRD %s is %v-%v characters, the adapter's 1-%d", name, p.MinLength, p.MaxLength, maxReferenceLength)
		}
	}
}
