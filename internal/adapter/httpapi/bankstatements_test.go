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
	"net/http"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

// The ISO 20022 schema admits what the BankTransaction CRD refuses: an
// amount of 0, one above 2^53-1 minor units, an IBAN in lower case or
// shorter than 15. Such a statement is 422 statement_invalid before any
// line is created, not a 422 parameter_invalid from the API server after
// the lines before it were.
func TestAStatementTheCRDWouldRefuseIsInvalidBeforeAnyLineIsCreated(t *testing.T) {
	line := func(entry int, minor int64, amount string) camt.Transaction {
		return camt.Transaction{Entry: entry, EntryServicerRef: "REF-" + amount, Status: "BOOK", BookingDate: "2026-11-20",
			Amount: amount, Currency: "EUR", Minor: minor, Direction: camt.Credit}
	}
	statement := func(iban string, lines ...camt.Transaction) *camt.Statement {
		return &camt.Statement{SHA256: strings.Repeat("ab", 32),
			Accounts: []camt.AccountStatement{{ID: "STMT-1", IBAN: iban, Transactions: lines}}}
	}
	const iban = "DE89370400440532013000"
	for _, tc := range []struct {
		name    string
		st      *camt.Statement
		message string
	}{
		{"a line above 2^53-1 minor units", statement(iban, line(1, 1<<53, "90071992547409.92")),
			"Entry 1 books 90071992547409.92 EUR"},
		{"an IBAN in lower case", statement("DE89370400440532013abc", line(1, 11900, "119.00")),
			`names its account "DE89370400440532013abc"`},
		{"an IBAN shorter than 15", statement("FR14ABC", line(1, 11900, "119.00")), `names its account "FR14ABC"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, _, e := bankTransactionsOf(tc.st, fakeWorkspace)
			if e == nil {
				t.Fatalf("want 422 statement_invalid, got %d lines", len(lines))
			}
			if e.Status != http.StatusUnprocessableEntity || e.Code != CodeStatementInvalid ||
				!strings.Contains(e.Message, tc.message) {
				t.Errorf("got %d %s %q, want 422 statement_invalid saying %q", e.Status, e.Code, e.Message, tc.message)
			}
		})
	}

	lines, account, e := bankTransactionsOf(statement(iban, line(1, 1, "0.01"), line(2, 1<<53-1, "90071992547409.91"),
		line(3, 0, "0.00")), fakeWorkspace)
	if e != nil || len(lines) != 2 || account != iban {
		t.Fatalf("the smallest and the largest amounts, and a line of 0.00 left out: %d lines of %q, error %v",
			len(lines), account, e)
	}
}
