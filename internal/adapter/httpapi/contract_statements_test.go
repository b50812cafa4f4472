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
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// A statement and an aging as the adapter renders them match openapi.json,
// and the checker refuses what does not, so that the suite's validation of
// their answers proves something.
func TestStatementsAndTheAgingMatchTheDocument(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 5, 9, 0, 0, 0, time.UTC)
	st := billing.Statement{Customer: "cus-1", From: at.AddDate(0, 0, -10), To: at, Currencies: []billing.CurrencyStatement{{
		Currency: "EUR", Opening: 100, Closing: 0, Aging: billing.AgingBuckets{}, UnappliedCredit: 0,
		Rows: []billing.StatementRow{
			{Type: billing.EntryPayment, ID: "pay-1", InvoiceID: "inv-1", InvoiceNumber: "INV-000001", At: at,
				RecordAmount: 100, Amount: -100, Balance: 0},
			{Type: billing.EntryRefund, ID: "rf-1", At: at, RecordAmount: 5, Amount: 5, Balance: 5},
		}}}}
	statement, err := json.Marshal(apiobject.StatementOf(&st, "Ada", time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	a := apiobject.AgingOf("cus-1", "Ada", []billing.AgingRow{{Customer: "cus-1", Currency: "EUR",
		AgingBuckets: billing.AgingBuckets{Over90: 7, Total: 7}, UnappliedCredit: -2}}, at, time.UTC)
	aging, err := json.Marshal(apiobject.List[apiobject.Aging]{Object: "list", Data: []apiobject.Aging{a}})
	if err != nil {
		t.Fatal(err)
	}
	const statementPath, agingPath = "/v1/customers/cus-1/statement", "/v1/reports/receivables_aging"
	for _, tc := range []struct {
		name, path, body string
		valid            bool
	}{
		{"a statement is valid", statementPath, string(statement), true},
		{"a row of an unknown type is not", statementPath, strings.Replace(string(statement), `"refund"`, `"void"`, 1), false},
		{"a row without its balance is not", statementPath, strings.Replace(string(statement), `,"balance":5`, "", 1), false},
		{"a day with a time is not", statementPath,
			strings.Replace(string(statement), `"to":"2026-03-05"`, `"to":"2026-03-05T00:00:00Z"`, 1), false},
		{"a page of the aging is valid", agingPath, string(aging), true},
		{"an aging without its total is not", agingPath, strings.Replace(string(aging), `"total":7,`, "", 1), false},
		{"a bucket of its own name is not", agingPath, strings.Replace(string(aging), `"over_90"`, `"91_plus"`, 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+tc.path, nil)
			resp := &http.Response{StatusCode: http.StatusOK, Request: req,
				Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"r1"}}}
			err := c.check(req, resp, []byte(tc.body))
			if tc.valid && err != nil {
				t.Errorf("want valid, got %v", err)
			}
			if !tc.valid && err == nil {
				t.Error("want a mismatch, got none")
			}
		})
	}
}
