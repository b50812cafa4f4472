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
	"fmt"
	"strings"
	"testing"

	"k8s.io/utils/ptr"
)

// Decoding the tax of a line item of POST /v1/invoices (decodeTax): what is
// accepted, in which form, and the status, code and param of what is
// refused.

// taxedInvoice is an invoice body whose one item has tax, a JSON value.
func taxedInvoice(tax string) string {
	return `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2,"tax":` + tax + `}]}`
}

func TestDecodeInvoiceTax(t *testing.T) {
	long := strings.Repeat("é", 500)
	cases := []struct {
		name   string
		tax    string // the JSON of items[0].tax
		want   *TaxParams
		status int
		code   string
		param  string
	}{
		{"a standard rate written as a string", `{"category":"S","rate":"19"}`,
			&TaxParams{Category: "S", Rate: ptr.To("19")}, 0, "", ""},
		{"a standard rate written as a number", `{"category":"S","rate":19}`,
			&TaxParams{Category: "S", Rate: ptr.To("19")}, 0, "", ""},
		{"a rate with trailing zeros is kept in its shortest form", `{"category":"S","rate":"19.0000"}`,
			&TaxParams{Category: "S", Rate: ptr.To("19")}, 0, "", ""},
		{"a number with trailing zeros is read from its text", `{"category":"S","rate":5.50}`,
			&TaxParams{Category: "S", Rate: ptr.To("5.5")}, 0, "", ""},
		{"a rate of four decimals", `{"category":"S","rate":8.8751}`,
			&TaxParams{Category: "S", Rate: ptr.To("8.8751")}, 0, "", ""},
		{"a rate of 100", `{"category":"S","rate":"100.0"}`, &TaxParams{Category: "S", Rate: ptr.To("100")}, 0, "", ""},
		{"a zero-rated item", `{"category":"Z","rate":0}`, &TaxParams{Category: "Z", Rate: ptr.To("0")}, 0, "", ""},
		{"a reverse charge", `{"category":"AE","rate":"0.0","exemption_reason":"Reverse charge"}`,
			&TaxParams{Category: "AE", Rate: ptr.To("0"), ExemptionReason: "Reverse charge"}, 0, "", ""},
		{"an item not subject to tax has no rate", `{"category":"O","exemption_reason":"Not subject to VAT"}`,
			&TaxParams{Category: "O", ExemptionReason: "Not subject to VAT"}, 0, "", ""},
		{"null fields are absent", `{"category":"O","rate":null,"exemption_reason":"Outside the scope"}`,
			&TaxParams{Category: "O", ExemptionReason: "Outside the scope"}, 0, "", ""},
		{"an exemption reason of 500 characters", `{"category":"E","rate":0,"exemption_reason":"` + long + `"}`,
			&TaxParams{Category: "E", Rate: ptr.To("0"), ExemptionReason: long}, 0, "", ""},
		{"a null tax is no tax", `null`, nil, 0, "", ""},

		{"a tax that is a string", `"S"`, nil, 400, CodeParameterInvalid, "items[0].tax"},
		{"a tax that is an array", `[{"category":"S"}]`, nil, 400, CodeParameterInvalid, "items[0].tax"},
		{"a category that is a number", `{"category":1,"rate":"19"}`, nil, 400, CodeParameterInvalid, "items[0].tax.category"},
		{"a rate that is a boolean", `{"category":"S","rate":true}`, nil, 400, CodeParameterInvalid, "items[0].tax.rate"},
		{"a rate that is an object", `{"category":"S","rate":{"value":19}}`, nil, 400, CodeParameterInvalid, "items[0].tax.rate"},
		{"an exemption reason that is a number", `{"category":"E","rate":0,"exemption_reason":1}`,
			nil, 400, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"an unknown key in the tax", `{"category":"S","rate":"19","percent":19}`, nil, 400, CodeParameterUnknown, "items[0].tax.percent"},
		{"a duplicated key in the tax", `{"category":"S","rate":"19","rate":"7"}`, nil, 400, CodeBodyInvalid, "items[0].tax.rate"},

		{"a tax without category", `{"rate":"19"}`, nil, 422, CodeParameterMissing, "items[0].tax.category"},
		{"an empty tax", `{}`, nil, 422, CodeParameterMissing, "items[0].tax.category"},
		{"a category in lower case", `{"category":"s","rate":"19"}`, nil, 422, CodeParameterInvalid, "items[0].tax.category"},
		{"an unknown category before a bad rate", `{"category":"VAT","rate":"x"}`, nil, 422, CodeParameterInvalid, "items[0].tax.category"},
		{"an empty category", `{"category":"","rate":"19"}`, nil, 422, CodeParameterInvalid, "items[0].tax.category"},
		{"a rate with an exponent", `{"category":"S","rate":1.9e1}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a rate with five decimals", `{"category":"S","rate":"19.00001"}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a number with five decimals", `{"category":"S","rate":0.00001}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a rate above 100", `{"category":"S","rate":100.0001}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a negative rate", `{"category":"S","rate":-1}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a rate with a percent sign", `{"category":"S","rate":"19%"}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a rate with a leading zero", `{"category":"S","rate":"019"}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"an empty rate", `{"category":"S","rate":""}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a huge rate", `{"category":"S","rate":` + strings.Repeat("9", 10_000) + `}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"an empty exemption reason", `{"category":"E","rate":0,"exemption_reason":""}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"an exemption reason of 501 characters", `{"category":"E","rate":0,"exemption_reason":"` + long + `e"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"a NUL in an exemption reason", `{"category":"E","rate":0,"exemption_reason":"a\u0000"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"a standard rate of 0", `{"category":"S","rate":"0"}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a standard rate without rate", `{"category":"S"}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a standard rate with an exemption reason", `{"category":"S","rate":"19","exemption_reason":"No"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"a zero-rated item at 7", `{"category":"Z","rate":7}`, nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"a zero-rated item with an exemption reason", `{"category":"Z","rate":0,"exemption_reason":"Books"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"an exempt item at 19", `{"category":"E","rate":19,"exemption_reason":"Exempt"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"an exempt item without exemption reason", `{"category":"E","rate":0}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"a reverse charge without rate", `{"category":"AE","exemption_reason":"Reverse charge"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"an intra-community supply without exemption reason", `{"category":"K","rate":0}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"an export at 0 without exemption reason", `{"category":"G","rate":"0"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
		{"an item not subject to tax with a rate", `{"category":"O","rate":0,"exemption_reason":"Outside"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.rate"},
		{"an item not subject to tax without exemption reason", `{"category":"O"}`,
			nil, 422, CodeParameterInvalid, "items[0].tax.exemption_reason"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := DecodeInvoice([]byte(taxedInvoice(tc.tax)))
			var tax *TaxParams
			if got != nil {
				tax = got.Items[0].Tax
			}
			checkDecoded(t, tax, tc.want, e, tc.status, tc.code, tc.param)
		})
	}
}

func TestDecodeInvoiceTaxErrorsNameTheirItem(t *testing.T) {
	body := `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":2},` +
		`{"description":"y","quantity":1,"amount":2,"tax":{"category":"S","rate":"19"}},` +
		`{"description":"z","quantity":1,"amount":2,"tax":{"category":"S","rate":"19.5.1"}}]}`
	_, e := DecodeInvoice([]byte(body))
	if e == nil || e.Status != 422 || e.Param != "items[2].tax.rate" || !strings.Contains(e.Message, `"19.5.1"`) {
		t.Fatalf("got %v, want 422 on items[2].tax.rate quoting the rate", e)
	}
	_, e = DecodeInvoice([]byte(strings.Replace(body, `"amount":2,"tax":{"category":"S","rate":"19.5.1"}`,
		`"amount":"2","tax":{"category":"S","rate":"19.5.1"}`, 1)))
	if e == nil || e.Status != 400 || e.Param != "items[2].amount" {
		t.Fatalf("got %v, want the 400 of items[2].amount before the 422 of its tax", e)
	}
	_, e = DecodeInvoice([]byte(strings.Replace(body, `"rate":"19.5.1"`, `"rate":"19.5.1","x":1`, 1)))
	if e == nil || e.Status != 400 || e.Code != CodeParameterUnknown || e.Param != "items[2].tax.x" {
		t.Fatalf("got %v, want 400 parameter_unknown on items[2].tax.x", e)
	}
}

// The largest valid invoice, every item with a tax of three fields, fits
// the JSON budget of a body.
func TestTheLargestValidTaxedInvoiceFitsTheJSONBudget(t *testing.T) {
	item := `{"description":"x","quantity":1,"amount":2,"tax":{"category":"E","rate":"0","exemption_reason":"Exempt"}}`
	items := strings.TrimSuffix(strings.Repeat(item+",", 500), ",")
	p, e := DecodeInvoice([]byte(fmt.Sprintf(`{"customer_id":"c","currency":"EUR","items":[%s]}`, items)))
	if e != nil {
		t.Fatalf("refused: %v", e)
	}
	if len(p.Items) != 500 || p.Items[499].Tax == nil || p.Items[499].Tax.ExemptionReason != "Exempt" {
		t.Fatalf("got %d items, the last %+v", len(p.Items), p.Items[len(p.Items)-1])
	}
}

func TestAFieldOfKindDecimalAcceptsAStringOrANumber(t *testing.T) {
	cases := []struct {
		name  string
		field kind
		value kind
		want  bool
	}{
		{"a decimal field accepts a string", kindDecimal, kindString, true},
		{"a decimal field accepts a number", kindDecimal, kindNumber, true},
		{"a decimal field refuses a boolean", kindDecimal, kindBool, false},
		{"a decimal field refuses an object", kindDecimal, kindObject, false},
		{"a string field refuses a number", kindString, kindNumber, false},
		{"a number field accepts a number", kindNumber, kindNumber, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.field.accepts(tc.value); got != tc.want {
				t.Errorf("%s accepts %s: %v, want %v", tc.field, tc.value, got, tc.want)
			}
		})
	}
}
