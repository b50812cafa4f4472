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

package apiobject_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestAStatementRendersBillingsFiguresWithDaysInTheWorkspacesTimeZone(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, berlin)
	st := billing.Statement{Customer: "cus-a", From: from, To: from.AddDate(0, 0, 30), Currencies: []billing.CurrencyStatement{{
		Currency: "EUR", Opening: 100, Closing: 50, UnappliedCredit: 0,
		Aging: billing.AgingBuckets{Days1To30: 50, Total: 50},
		Rows: []billing.StatementRow{{Type: billing.EntryRefund, ID: "rf-1", At: time.Date(2026, 3, 4, 23, 30, 0, 0, time.UTC),
			RecordAmount: 50, Amount: -50, Balance: 50}},
	}}}
	got, err := json.Marshal(apiobject.StatementOf(&st, "Acme", berlin))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"object":"statement","customer_id":"cus-a","customer_name":"Acme","from":"2026-03-01","to":"2026-03-31",` +
		`"time_zone":"Europe/Berlin","currencies":[{"currency":"EUR","opening_balance":100,"rows":[{"type":"refund",` +
		`"id":"rf-1","number":null,"invoice_id":null,"invoice_number":null,"date":"2026-03-05","at":"2026-03-04T23:30:00Z",` +
		`"record_amount":50,"amount":-50,"balance":50}],"closing_balance":50,"aging":{"current":0,"1_30":50,"31_60":0,` +
		`"61_90":0,"over_90":0,"total":50},"unapplied_credit":0}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAnAgingRendersAsJSONAndAsCSVRowsAlike(t *testing.T) {
	asOf := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	a := apiobject.AgingOf("cus-a", "=HYPERLINK(1)", []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
		AgingBuckets:    billing.AgingBuckets{Current: 1, Days1To30: 2, Days31To60: 3, Days61To90: 4, Over90: 5, Total: 15},
		UnappliedCredit: 7}}, asOf, time.UTC)
	got, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"object":"receivables_aging","customer_id":"cus-a","customer_name":"=HYPERLINK(1)","as_of":"2026-03-31",` +
		`"time_zone":"UTC","currencies":[{"currency":"EUR","current":1,"1_30":2,"31_60":3,"61_90":4,"over_90":5,` +
		`"total":15,"unapplied_credit":7}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	rows := apiobject.AgingCSVRecords(&a)
	if len(rows) != 1 || len(rows[0]) != len(apiobject.AgingCSVHeader) {
		t.Fatalf("CSV rows %q do not match the header %q", rows, apiobject.AgingCSVHeader)
	}
	wantRow := []string{"cus-a", "'=HYPERLINK(1)", "2026-03-31", "EUR", "1", "2", "3", "4", "5", "15", "7"}
	for i := range wantRow {
		if rows[0][i] != wantRow[i] {
			t.Errorf("column %s = %q, want %q (a formula is quoted)", apiobject.AgingCSVHeader[i], rows[0][i], wantRow[i])
		}
	}
}
