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

package apiobject

import (
	"strconv"
	"strings"
	"time"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Statements and receivables aging (docs/api.md#statements): their /v1
// representations. Every number is billing's (ComputeStatement, Aging);
// this file only renders them. Days are written YYYY-MM-DD in the
// workspace's time zone, instants in RFC 3339 UTC.

// StatementRow is one record of a statement.
type StatementRow struct {
	// Type is invoice, credit_note, payment, credit_application,
	// write_off, write_off_reversal or refund.
	Type string `json:"type"`
	// ID is the record's id (a write_off_reversal's is the payment's or
	// credit note's that settled what was written off).
	ID string `json:"id"`
	// Number is the invoice's or credit note's number, null for others.
	Number *string `json:"number"`
	// InvoiceID and InvoiceNumber name the record's invoice, null for a
	// refund.
	InvoiceID     *string `json:"invoice_id"`
	InvoiceNumber *string `json:"invoice_number"`
	// Date is the record's day in the workspace's time zone, At its
	// instant.
	Date string `json:"date"`
	At   string `json:"at"`
	// RecordAmount is the record's own amount; Amount what it does to the
	// balance (above 0 adds); Balance the balance after it.
	RecordAmount int64 `json:"record_amount"`
	Amount       int64 `json:"amount"`
	Balance      int64 `json:"balance"`
}

// AgingBuckets is what was open by days past due, in minor units.
type AgingBuckets struct {
	Current    int64 `json:"current"`
	Days1To30  int64 `json:"1_30"`
	Days31To60 int64 `json:"31_60"`
	Days61To90 int64 `json:"61_90"`
	Over90     int64 `json:"over_90"`
	Total      int64 `json:"total"`
}

// StatementCurrency is a statement in one currency.
type StatementCurrency struct {
	Currency       string         `json:"currency"`
	OpeningBalance int64          `json:"opening_balance"`
	Rows           []StatementRow `json:"rows"`
	ClosingBalance int64          `json:"closing_balance"`
	// Aging is the receivables aging at the end of the statement's last
	// day; UnappliedCredit the customer's credit then.
	Aging           AgingBuckets `json:"aging"`
	UnappliedCredit int64        `json:"unapplied_credit"`
}

// Statement is the /v1 representation of a customer's statement.
type Statement struct {
	Object       string              `json:"object"`
	CustomerID   string              `json:"customer_id"`
	CustomerName string              `json:"customer_name"`
	From         string              `json:"from"`
	To           string              `json:"to"`
	TimeZone     string              `json:"time_zone"`
	Currencies   []StatementCurrency `json:"currencies"`
}

// AgingCurrency is one customer's receivables in one currency.
type AgingCurrency struct {
	Currency string `json:"currency"`
	AgingBuckets
	UnappliedCredit int64 `json:"unapplied_credit"`
}

// Aging is one customer's receivables aging, an item of
// GET /v1/reports/receivables_aging.
type Aging struct {
	Object       string          `json:"object"`
	CustomerID   string          `json:"customer_id"`
	CustomerName string          `json:"customer_name"`
	AsOf         string          `json:"as_of"`
	TimeZone     string          `json:"time_zone"`
	Currencies   []AgingCurrency `json:"currencies"`
}

// day writes t's day in loc.
func day(t time.Time, loc *time.Location) string { return t.In(loc).Format(time.DateOnly) }

// bucketsOf renders b.
func bucketsOf(b billing.AgingBuckets) AgingBuckets {
	return AgingBuckets{Current: b.Current, Days1To30: b.Days1To30, Days31To60: b.Days31To60,
		Days61To90: b.Days61To90, Over90: b.Over90, Total: b.Total}
}

// StatementOf is the /v1 representation of st, the statement of the
// customer named customerName, in loc, the workspace's time zone.
func StatementOf(st *billing.Statement, customerName string, loc *time.Location) Statement {
	out := Statement{Object: "statement", CustomerID: st.Customer, CustomerName: customerName,
		From: day(st.From, loc), To: day(st.To, loc), TimeZone: loc.String(),
		Currencies: make([]StatementCurrency, 0, len(st.Currencies))}
	for _, cs := range st.Currencies {
		c := StatementCurrency{Currency: cs.Currency, OpeningBalance: cs.Opening, ClosingBalance: cs.Closing,
			Rows: make([]StatementRow, 0, len(cs.Rows)), Aging: bucketsOf(cs.Aging), UnappliedCredit: cs.UnappliedCredit}
		for _, r := range cs.Rows {
			c.Rows = append(c.Rows, StatementRow{Type: string(r.Type), ID: r.ID, Number: optional(r.Number),
				InvoiceID: optional(r.InvoiceID), InvoiceNumber: optional(r.InvoiceNumber), Date: day(r.At, loc),
				At: timestamp(r.At), RecordAmount: r.RecordAmount, Amount: r.Amount, Balance: r.Balance})
		}
		out.Currencies = append(out.Currencies, c)
	}
	return out
}

// AgingOf is the /v1 representation of the rows of one customer (named
// customerName) of billing.Aging at the end of asOf, in loc.
func AgingOf(customerID, customerName string, rows []billing.AgingRow, asOf time.Time, loc *time.Location) Aging {
	out := Aging{Object: "receivables_aging", CustomerID: customerID, CustomerName: customerName,
		AsOf: day(asOf, loc), TimeZone: loc.String(), Currencies: make([]AgingCurrency, 0, len(rows))}
	for _, r := range rows {
		out.Currencies = append(out.Currencies, AgingCurrency{Currency: r.Currency, AgingBuckets: bucketsOf(r.AgingBuckets),
			UnappliedCredit: r.UnappliedCredit})
	}
	return out
}

// AgingCSVHeader is the header row of the receivables aging as CSV.
var AgingCSVHeader = []string{"customer_id", "customer_name", "as_of", "currency", "current", "1_30", "31_60",
	"61_90", "over_90", "total", "unapplied_credit"}

// AgingCSVRecords are a's rows as CSV, one per currency, in the columns of
// AgingCSVHeader.
func AgingCSVRecords(a *Aging) [][]string {
	out := make([][]string, 0, len(a.Currencies))
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, c := range a.Currencies {
		out = append(out, []string{a.CustomerID, csvText(a.CustomerName), a.AsOf, c.Currency, n(c.Current), n(c.Days1To30),
			n(c.Days31To60), n(c.Days61To90), n(c.Over90), n(c.Total), n(c.UnappliedCredit)})
	}
	return out
}

// csvText is s as a CSV cell of text: one that a spreadsheet would read as
// a formula (it begins with =, +, -, @, a tab or a carriage return) is
// prefixed with an apostrophe, so that opening the report runs nothing.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
