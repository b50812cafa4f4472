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
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Decoding the bodies of credit notes and payments: what is accepted, and
// the status, code and param of what is refused.

// decodeCase is a body and what decoding it answers: want, or an error of
// status, code and param.
type decodeCase[T any] struct {
	name   string
	body   string
	want   *T
	status int
	code   string
	param  string
}

func runDecodeCases[T any](t *testing.T, cases []decodeCase[T], decode func([]byte) (*T, *Error)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := decode([]byte(tc.body))
			if tc.want != nil {
				if e != nil {
					t.Fatalf("got error %v", e)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("got %+v, want %+v", got, tc.want)
				}
				return
			}
			if e == nil {
				t.Fatalf("got %+v, want an error %d %s", got, tc.status, tc.code)
			}
			if e.Status != tc.status || e.Code != tc.code || e.Param != tc.param {
				t.Errorf("got %d %s (%s), want %d %s (%s): %s", e.Status, e.Code, e.Param,
					tc.status, tc.code, tc.param, e.Message)
			}
		})
	}
}

func TestDecodeCreditNote(t *testing.T) {
	type P = CreditNoteParams
	type L = CreditNoteLineParams
	cases := []decodeCase[P]{
		{name: "a credit note of a quantity and an amount is accepted",
			body: `{"invoice_id":"inv-a","reason":"duplicate","memo":"sorry","lines":[{"invoice_line":0,"quantity":2},{"invoice_line":1,"amount":50}]}`,
			want: &P{InvoiceID: "inv-a", Reason: "duplicate", Memo: "sorry",
				Lines: []L{{InvoiceLine: 0, Quantity: billingv1.Units(2)}, {InvoiceLine: 1, Amount: 50}}}},
		{name: "a quantity with 4 decimals is accepted exactly",
			body: `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":2.5},{"invoice_line":1,"quantity":0.0001}]}`,
			want: &P{InvoiceID: "inv-a", Reason: "other",
				Lines: []L{{InvoiceLine: 0, Quantity: billingv1.QuantityOfScaled(25_000)}, {InvoiceLine: 1, Quantity: billingv1.QuantityOfScaled(1)}}}},
		{name: "a quantity with 5 decimals is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":2.50001}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].quantity"},
		{name: "a quantity as a string is a 422",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":"2.5"}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].quantity"},
		{name: "allowances and charges of the invoice's shape are accepted with lines",
			body: `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":3}],` +
				`"allowances":[{"amount":6000,"reason":"Loyalty","tax":{"category":"S","rate":"21"}}],` +
				`"charges":[{"percent":"10","reason_code":"FC","tax":{"category":"S","rate":"21"}}]}`,
			want: &P{InvoiceID: "inv-a", Reason: "other", Lines: []L{{InvoiceLine: 0, Quantity: billingv1.Units(3)}},
				Allowances: []AdjustmentParams{{Amount: ptr.To[int64](6000), Reason: "Loyalty", Tax: &TaxParams{Category: "S", Rate: ptr.To("21")}}},
				Charges:    []AdjustmentParams{{Percent: ptr.To("10"), ReasonCode: "FC", Tax: &TaxParams{Category: "S", Rate: ptr.To("21")}}}}},
		{name: "allowances beside full_credit are refused",
			body:   `{"invoice_id":"inv-a","reason":"other","full_credit":true,"allowances":[{"amount":1,"reason":"r"}]}`,
			status: 422, code: CodeParameterInvalid, param: "allowances"},
		{name: "an allowance without a reason is refused on its reason",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"amount":1}],"allowances":[{"amount":1}]}`,
			status: 422, code: CodeParameterMissing, param: "allowances[0].reason"},
		{name: "a charge that is not an object is a 400",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"amount":1}],"charges":[1]}`,
			status: 400, code: CodeParameterInvalid, param: "charges[0]"},
		{name: "a full credit is accepted without lines",
			body: `{"invoice_id":"inv-a","reason":"issued_in_error","full_credit":true}`,
			want: &P{InvoiceID: "inv-a", Reason: "issued_in_error", FullCredit: true}},
		{name: "full_credit false beside lines is lines alone",
			body: `{"invoice_id":"inv-a","reason":"other","full_credit":false,"lines":[{"invoice_line":3,"amount":1}]}`,
			want: &P{InvoiceID: "inv-a", Reason: "other", Lines: []L{{InvoiceLine: 3, Amount: 1}}}},
		{name: "an invoice_id is required",
			body: `{"reason":"other","full_credit":true}`, status: 422, code: CodeParameterMissing, param: "invoice_id"},
		{name: "a reason is required",
			body: `{"invoice_id":"inv-a","full_credit":true}`, status: 422, code: CodeParameterMissing, param: "reason"},
		{name: "a reason outside the list is refused",
			body: `{"invoice_id":"inv-a","reason":"changed_my_mind","full_credit":true}`, status: 422, code: CodeParameterInvalid, param: "reason"},
		{name: "a memo of 1001 characters is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","full_credit":true,"memo":"` + strings.Repeat("m", 1001) + `"}`,
			status: 422, code: CodeParameterInvalid, param: "memo"},
		{name: "neither lines nor full_credit is refused on full_credit",
			body: `{"invoice_id":"inv-a","reason":"other"}`, status: 422, code: CodeParameterInvalid, param: "full_credit"},
		{name: "both lines and full_credit true are refused on full_credit",
			body:   `{"invoice_id":"inv-a","reason":"other","full_credit":true,"lines":[{"invoice_line":0,"amount":1}]}`,
			status: 422, code: CodeParameterInvalid, param: "full_credit"},
		{name: "full_credit false alone is refused on full_credit",
			body: `{"invoice_id":"inv-a","reason":"other","full_credit":false}`, status: 422, code: CodeParameterInvalid, param: "full_credit"},
		{name: "an empty list of lines is refused",
			body: `{"invoice_id":"inv-a","reason":"other","lines":[]}`, status: 422, code: CodeParameterInvalid, param: "lines"},
		{name: "501 lines are refused",
			body: `{"invoice_id":"inv-a","reason":"other","lines":[` +
				strings.TrimSuffix(strings.Repeat(`{"invoice_line":0,"amount":1},`, 501), ",") + `]}`,
			status: 422, code: CodeParameterInvalid, param: "lines"},
		{name: "a line with both quantity and amount is refused on its amount",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":1,"amount":1}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].amount"},
		{name: "a line with neither quantity nor amount is refused on its quantity",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0}]}`,
			status: 422, code: CodeParameterMissing, param: "lines[0].quantity"},
		{name: "a line without invoice_line is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"amount":1}]}`,
			status: 422, code: CodeParameterMissing, param: "lines[0].invoice_line"},
		{name: "a negative invoice_line is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":-1,"amount":1}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].invoice_line"},
		{name: "an invoice_line above 499 is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":500,"amount":1}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].invoice_line"},
		{name: "a quantity of 0 is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":0}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].quantity"},
		{name: "an amount above 2^53-1 is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"amount":9007199254740992}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].amount"},
		{name: "a fractional amount is refused",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"amount":1.5}]}`,
			status: 422, code: CodeParameterInvalid, param: "lines[0].amount"},
		{name: "a line that is not an object is a 400",
			body: `{"invoice_id":"inv-a","reason":"other","lines":[1]}`, status: 400, code: CodeParameterInvalid, param: "lines[0]"},
		{name: "an unknown field of a line is a 400",
			body:   `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"amount":1,"tax":null}]}`,
			status: 400, code: CodeParameterUnknown, param: "lines[0].tax"},
		{name: "full_credit as a string is a 400",
			body: `{"invoice_id":"inv-a","reason":"other","full_credit":"true"}`, status: 400, code: CodeParameterInvalid, param: "full_credit"},
		{name: "an unknown field is a 400 before any 422",
			body: `{"invoice":"inv-a"}`, status: 400, code: CodeParameterUnknown, param: "invoice"},
	}
	runDecodeCases(t, cases, DecodeCreditNote)
}

func TestACreditNotesWholeQuantityFingerprintsAsBeforeDecimals(t *testing.T) {
	p, e := DecodeCreditNote([]byte(`{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":3},{"invoice_line":1,"amount":5}]}`))
	if e != nil {
		t.Fatal(e)
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"invoice_id":"inv-a","reason":"other","lines":[{"invoice_line":0,"quantity":3},{"invoice_line":1,"amount":5}]}`
	if string(got) != want {
		t.Errorf("fingerprinted JSON = %s, want %s", got, want)
	}
}

func TestDecodePayment(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	at := func(s string) *time.Time {
		t, _ := time.Parse(time.RFC3339, s)
		t = t.UTC()
		return &t
	}
	type P = PaymentParams
	cases := []decodeCase[P]{
		{name: "a payment of an amount alone is by another method, paid when it is created",
			body: `{"invoice_id":"inv-a","amount":100}`, want: &P{InvoiceID: "inv-a", Amount: 100, Method: "other"}},
		{name: "a payment with every field is accepted, its currency upper-cased and its time in UTC",
			body: `{"invoice_id":"inv-a","amount":100,"currency":"eur","paid_at":"2026-11-23T10:00:00+01:00","method":"bank_transfer","reference":"RF18"}`,
			want: &P{InvoiceID: "inv-a", Amount: 100, Currency: "EUR", PaidAt: at("2026-11-23T09:00:00Z"),
				Method: "bank_transfer", Reference: "RF18"}},
		{name: "a paid_at five minutes ahead is accepted",
			body: `{"invoice_id":"inv-a","amount":1,"paid_at":"2026-11-23T09:35:00Z"}`,
			want: &P{InvoiceID: "inv-a", Amount: 1, PaidAt: at("2026-11-23T09:35:00Z"), Method: "other"}},
		{name: "a paid_at more than five minutes ahead is refused",
			body: `{"invoice_id":"inv-a","amount":1,"paid_at":"2026-11-23T09:35:01Z"}`, status: 422, code: CodeParameterInvalid, param: "paid_at"},
		{name: "a paid_at that is no RFC 3339 time is refused",
			body: `{"invoice_id":"inv-a","amount":1,"paid_at":"23/11/2026"}`, status: 422, code: CodeParameterInvalid, param: "paid_at"},
		{name: "an amount is required",
			body: `{"invoice_id":"inv-a"}`, status: 422, code: CodeParameterMissing, param: "amount"},
		{name: "an amount of 0 is refused",
			body: `{"invoice_id":"inv-a","amount":0}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount of 2^53 is refused",
			body: `{"invoice_id":"inv-a","amount":9007199254740992}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount of 2^53-1 is accepted",
			body: `{"invoice_id":"inv-a","amount":9007199254740991}`, want: &P{InvoiceID: "inv-a", Amount: 1<<53 - 1, Method: "other"}},
		{name: "an invoice_id is required",
			body: `{"amount":1}`, status: 422, code: CodeParameterMissing, param: "invoice_id"},
		{name: "a currency that is no ISO 4217 code is refused",
			body: `{"invoice_id":"inv-a","amount":1,"currency":"EURO"}`, status: 422, code: CodeParameterInvalid, param: "currency"},
		{name: "a method outside the list is refused",
			body: `{"invoice_id":"inv-a","amount":1,"method":"bitcoin"}`, status: 422, code: CodeParameterInvalid, param: "method"},
		{name: "a reference of 129 characters is refused",
			body:   `{"invoice_id":"inv-a","amount":1,"reference":"` + strings.Repeat("r", 129) + `"}`,
			status: 422, code: CodeParameterInvalid, param: "reference"},
		{name: "an amount as a string is a 400",
			body: `{"invoice_id":"inv-a","amount":"1"}`, status: 400, code: CodeParameterInvalid, param: "amount"},
		{name: "an unknown field is a 400",
			body: `{"invoice_id":"inv-a","amount":1,"status":"recorded"}`, status: 400, code: CodeParameterUnknown, param: "status"},
	}
	runDecodeCases(t, cases, func(b []byte) (*P, *Error) { return DecodePayment(b, now) })
}
