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
	"strings"
	"testing"
	"time"
)

// Decoding the bodies of credit applications, refunds and write-offs: what
// is accepted, and the status, code and param of what is refused.

func TestDecodeCreditApplication(t *testing.T) {
	type P = CreditApplicationParams
	runDecodeCases(t, []decodeCase[P]{
		{name: "an invoice and an amount are accepted",
			body: `{"invoice_id":"inv-a","amount":1500}`, want: &P{InvoiceID: "inv-a", Amount: 1500}},
		{name: "an amount of 2^53-1 is accepted",
			body: `{"invoice_id":"inv-a","amount":9007199254740991}`, want: &P{InvoiceID: "inv-a", Amount: 1<<53 - 1}},
		{name: "an amount written 1.5e3 is a whole number and accepted",
			body: `{"invoice_id":"inv-a","amount":1.5e3}`, want: &P{InvoiceID: "inv-a", Amount: 1500}},
		{name: "an invoice_id is required",
			body: `{"amount":1}`, status: 422, code: CodeParameterMissing, param: "invoice_id"},
		{name: "an amount is required",
			body: `{"invoice_id":"inv-a"}`, status: 422, code: CodeParameterMissing, param: "amount"},
		{name: "a null amount is a missing one",
			body: `{"invoice_id":"inv-a","amount":null}`, status: 422, code: CodeParameterMissing, param: "amount"},
		{name: "an amount of 0 is refused",
			body: `{"invoice_id":"inv-a","amount":0}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "a negative amount is refused",
			body: `{"invoice_id":"inv-a","amount":-5}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount that is not whole is refused",
			body: `{"invoice_id":"inv-a","amount":10.5}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount of 2^53 is refused",
			body: `{"invoice_id":"inv-a","amount":9007199254740992}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount as a string is a 400",
			body: `{"invoice_id":"inv-a","amount":"1"}`, status: 400, code: CodeParameterInvalid, param: "amount"},
		{name: "a currency is no field of a credit application: it is the invoice's",
			body: `{"invoice_id":"inv-a","amount":1,"currency":"EUR"}`, status: 400, code: CodeParameterUnknown, param: "currency"},
		{name: "a body that is no JSON object is a 400",
			body: `[1]`, status: 400, code: CodeBodyInvalid, param: ""},
	}, DecodeCreditApplication)
}

func TestDecodeRefund(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	at := func(s string) *time.Time {
		t, _ := time.Parse(time.RFC3339, s)
		t = t.UTC()
		return &t
	}
	type P = RefundParams
	runDecodeCases(t, []decodeCase[P]{
		{name: "a refund of an amount in a currency is by another method, refunded when it is created",
			body: `{"customer_id":"cus-a","amount":100,"currency":"EUR"}`,
			want: &P{CustomerID: "cus-a", Amount: 100, Currency: "EUR", Method: "other"}},
		{name: "a refund with every field is accepted, its currency upper-cased and its time in UTC",
			body: `{"customer_id":"cus-a","amount":100,"currency":"usd","refunded_at":"2026-11-23T10:00:00+01:00",` +
				`"method":"bank_transfer","reference":"RF18"}`,
			want: &P{CustomerID: "cus-a", Amount: 100, Currency: "USD", RefundedAt: at("2026-11-23T09:00:00Z"),
				Method: "bank_transfer", Reference: "RF18"}},
		{name: "a refunded_at five minutes ahead is accepted",
			body: `{"customer_id":"cus-a","amount":1,"currency":"EUR","refunded_at":"2026-11-23T09:35:00Z"}`,
			want: &P{CustomerID: "cus-a", Amount: 1, Currency: "EUR", RefundedAt: at("2026-11-23T09:35:00Z"), Method: "other"}},
		{name: "a refunded_at more than five minutes ahead is refused",
			body:   `{"customer_id":"cus-a","amount":1,"currency":"EUR","refunded_at":"2026-11-23T09:35:01Z"}`,
			status: 422, code: CodeParameterInvalid, param: "refunded_at"},
		{name: "a refunded_at that is no RFC 3339 time is refused",
			body:   `{"customer_id":"cus-a","amount":1,"currency":"EUR","refunded_at":"23/11/2026"}`,
			status: 422, code: CodeParameterInvalid, param: "refunded_at"},
		{name: "a customer_id is required",
			body: `{"amount":1,"currency":"EUR"}`, status: 422, code: CodeParameterMissing, param: "customer_id"},
		{name: "an amount is required",
			body: `{"customer_id":"cus-a","currency":"EUR"}`, status: 422, code: CodeParameterMissing, param: "amount"},
		{name: "a currency is required, since a customer may have credit in several",
			body: `{"customer_id":"cus-a","amount":1}`, status: 422, code: CodeParameterMissing, param: "currency"},
		{name: "a currency that is no ISO 4217 code is refused",
			body: `{"customer_id":"cus-a","amount":1,"currency":"EURO"}`, status: 422, code: CodeParameterInvalid, param: "currency"},
		{name: "an amount of 0 is refused",
			body: `{"customer_id":"cus-a","amount":0,"currency":"EUR"}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount that is not whole is refused",
			body: `{"customer_id":"cus-a","amount":0.5,"currency":"EUR"}`, status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "an amount of 2^53 is refused",
			body:   `{"customer_id":"cus-a","amount":9007199254740992,"currency":"EUR"}`,
			status: 422, code: CodeParameterInvalid, param: "amount"},
		{name: "a method outside the payments' list is refused",
			body:   `{"customer_id":"cus-a","amount":1,"currency":"EUR","method":"bitcoin"}`,
			status: 422, code: CodeParameterInvalid, param: "method"},
		{name: "a reference of 129 characters is refused",
			body:   `{"customer_id":"cus-a","amount":1,"currency":"EUR","reference":"` + strings.Repeat("r", 129) + `"}`,
			status: 422, code: CodeParameterInvalid, param: "reference"},
		{name: "an invoice_id is no field of a refund",
			body:   `{"customer_id":"cus-a","amount":1,"currency":"EUR","invoice_id":"inv-a"}`,
			status: 400, code: CodeParameterUnknown, param: "invoice_id"},
	}, func(body []byte) (*P, *Error) { return DecodeRefund(body, now) })
}

func TestDecodeWriteOff(t *testing.T) {
	type P = WriteOffParams
	runDecodeCases(t, []decodeCase[P]{
		{name: "an invoice and a reason are accepted",
			body: `{"invoice_id":"inv-a","reason":"The customer went bankrupt."}`,
			want: &P{InvoiceID: "inv-a", Reason: "The customer went bankrupt."}},
		{name: "a reason of 500 characters is accepted",
			body: `{"invoice_id":"inv-a","reason":"` + strings.Repeat("é", 500) + `"}`,
			want: &P{InvoiceID: "inv-a", Reason: strings.Repeat("é", 500)}},
		{name: "a reason of 501 characters is refused",
			body:   `{"invoice_id":"inv-a","reason":"` + strings.Repeat("r", 501) + `"}`,
			status: 422, code: CodeParameterInvalid, param: "reason"},
		{name: "an empty reason is refused",
			body: `{"invoice_id":"inv-a","reason":""}`, status: 422, code: CodeParameterInvalid, param: "reason"},
		{name: "a reason is required",
			body: `{"invoice_id":"inv-a"}`, status: 422, code: CodeParameterMissing, param: "reason"},
		{name: "a reason with a NUL is refused",
			body: `{"invoice_id":"inv-a","reason":"a\u0000b"}`, status: 422, code: CodeParameterInvalid, param: "reason"},
		{name: "an invoice_id is required",
			body: `{"reason":"bad debt"}`, status: 422, code: CodeParameterMissing, param: "invoice_id"},
		{name: "an amount is no field of a write-off: it writes off what remains",
			body: `{"invoice_id":"inv-a","reason":"bad debt","amount":1}`, status: 400, code: CodeParameterUnknown, param: "amount"},
		{name: "a reason that is no string is a 400",
			body: `{"invoice_id":"inv-a","reason":1}`, status: 400, code: CodeParameterInvalid, param: "reason"},
	}, DecodeWriteOff)
}
