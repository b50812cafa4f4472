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
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestDecodeInvoiceQuantitiesUnitsDiscountsAllowances(t *testing.T) {
	item := func(fields string) string {
		return `{"customer_id":"c","items":[{"description":"x","amount":4500` + fields + `}]}`
	}
	cases := []struct {
		name, body string
		status     int
		code       string
		param      string
	}{
		{"7.5 is accepted", item(`,"quantity":7.5`), 0, "", ""},
		{"3 is accepted", item(`,"quantity":3`), 0, "", ""},
		{"four decimals are accepted", item(`,"quantity":0.0001`), 0, "", ""},
		{"7.50000 is 7.5, as the CRD reads it", item(`,"quantity":7.50000`), 0, "", ""},
		{"five decimals that are not zeros are refused", item(`,"quantity":7.50001`), 422, CodeParameterInvalid, "items[0].quantity"},
		{"0 is refused", item(`,"quantity":0`), 422, CodeParameterInvalid, "items[0].quantity"},
		{"a negative quantity is refused", item(`,"quantity":-1`), 422, CodeParameterInvalid, "items[0].quantity"},
		{"a string is refused", item(`,"quantity":"7.5"`), 422, CodeParameterInvalid, "items[0].quantity"},
		{"above the maximum is refused", item(`,"quantity":1000000.0001`), 422, CodeParameterInvalid, "items[0].quantity"},
		{"a known unit is accepted", item(`,"quantity":7.5,"unit_code":"HUR"`), 0, "", ""},
		{"an unknown unit is refused", item(`,"quantity":1,"unit_code":"ZZZ"`), 422, CodeParameterInvalid, "items[0].unit_code"},
		{"a unit in lower case is refused", item(`,"quantity":1,"unit_code":"hur"`), 422, CodeParameterInvalid, "items[0].unit_code"},
		{"a percent discount with a reason is accepted", item(`,"quantity":1,"discount":{"percent":"10","reason":"Loyalty"}`), 0, "", ""},
		{"a discount with both percent and amount is refused",
			item(`,"quantity":1,"discount":{"percent":"10","amount":5,"reason":"x"}`), 422, CodeParameterInvalid, "items[0].discount"},
		{"a discount without reason is refused", item(`,"quantity":1,"discount":{"amount":5}`),
			422, CodeParameterMissing, "items[0].discount.reason"},
		{"a percent of three decimals is refused", item(`,"quantity":1,"discount":{"percent":"1.125","reason":"x"}`),
			422, CodeParameterInvalid, "items[0].discount.percent"},
		{"an allowance reason code outside UNTDID 5189 is refused",
			item(`,"quantity":1,"discount":{"amount":5,"reason_code":"FC"}`), 422, CodeParameterInvalid, "items[0].discount.reason_code"},
		{"21 allowances are refused", `{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":1}],"allowances":[` +
			repeatJoin(`{"amount":1,"reason":"x"}`, 21) + `]}`, 422, CodeParameterInvalid, "allowances"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, e := DecodeInvoice([]byte(tc.body))
			switch {
			case tc.status == 0 && e != nil:
				t.Fatalf("want success, got %v", e)
			case tc.status != 0 && (e == nil || e.Status != tc.status || e.Code != tc.code || e.Param != tc.param):
				t.Fatalf("want %d %s %s, got %v", tc.status, tc.code, tc.param, e)
			}
		})
	}
}

func repeatJoin(s string, n int) string {
	out := s
	for range n - 1 {
		out += "," + s
	}
	return out
}

func TestInvoiceAmountsOfDiscountsAndAllowances(t *testing.T) {
	vat21 := builder.Tax(billingv1.TaxStandard, "21", "")
	cases := []struct {
		name             string
		body             string
		base, tax, total int64
		code, param      string
	}{
		{"the reference case: 3 × 45.00 at 21 % less an allowance of 60.00 at 21 % is base 75.00, tax 15.75, total 90.75",
			`{"customer_id":"c","items":[{"description":"x","quantity":3,"amount":4500}],` +
				`"allowances":[{"amount":6000,"reason":"Discount"}]}`, 7500, 1575, 9075, "", ""},
		{"7.5 hours at 120.00 less 10 % is 810.00 before tax",
			`{"customer_id":"c","items":[{"description":"x","quantity":7.5,"unit_code":"HUR","amount":12000,` +
				`"discount":{"percent":"10","reason":"Loyalty"}}]}`, 81000, 17010, 98010, "", ""},
		{"a discount above the line's gross is refused with allowance_exceeds_base",
			`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":100,"discount":{"amount":101,"reason":"x"}}]}`,
			0, 0, 0, CodeAllowanceExceedsBase, "items[0].discount"},
		{"an allowance above its group's base is refused with allowance_exceeds_base",
			`{"customer_id":"c","items":[{"description":"x","quantity":1,"amount":100}],"allowances":[{"amount":101,"reason":"x"}]}`,
			0, 0, 0, CodeAllowanceExceedsBase, "allowances[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, e := DecodeInvoice([]byte(tc.body))
			if e != nil {
				t.Fatal(e)
			}
			_, amounts, e := invoiceItems(p, vat21)
			if tc.code != "" {
				if e == nil || e.Code != tc.code || e.Param != tc.param {
					t.Fatalf("want 422 %s %s, got %v", tc.code, tc.param, e)
				}
				return
			}
			if e != nil {
				t.Fatal(e)
			}
			if g := amounts.TaxBreakdown[0]; g.TaxableAmount != tc.base || amounts.TaxTotal != tc.tax || amounts.Total != tc.total {
				t.Errorf("base %d, tax %d, total %d; want %d, %d, %d", g.TaxableAmount, amounts.TaxTotal, amounts.Total,
					tc.base, tc.tax, tc.total)
			}
		})
	}
}
