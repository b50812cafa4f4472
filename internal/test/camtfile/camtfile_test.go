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

package camtfile

import (
	"os"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

func TestAWrittenStatementPassesTheSchemaAndReadsBackItsEntries(t *testing.T) {
	doc := Write("DE02120300000000202051", "stmt-1", []Entry{
		{BankRef: "B-1", Cents: 119_00, Day: "2026-11-20", Reference: "RF29INV000042", Debtor: "Acme & Co"},
		{Cents: 5, Day: "2026-11-21", Text: "Invoice INV-000043 <thanks>"},
		{BankRef: "B-3", Cents: 10_00, Day: "2026-11-21", Debit: true},
		{Cents: 10_00, Day: "2026-11-22", Reversal: true},
		{Cents: 1, Day: "2026-11-22", Pending: true},
	})
	st, err := camt.Read(doc)
	if err != nil {
		t.Fatalf("the written statement is refused: %v\n%s", err, doc)
	}
	txs := st.Accounts[0].Transactions
	if len(txs) != 5 {
		t.Fatalf("%d transactions, want 5", len(txs))
	}
	first := txs[0]
	if first.Minor != 119_00 || first.EntryServicerRef != "B-1" || len(first.CreditorRefs) != 1 ||
		first.CreditorRefs[0] != "RF29INV000042" || first.DebtorName != "Acme & Co" || first.BookingDate != "2026-11-20" {
		t.Errorf("the first entry reads back as %+v", first)
	}
	if txs[1].Unstructured != "Invoice INV-000043 <thanks>" || txs[2].Direction != camt.Debit || !txs[3].Reversal ||
		txs[4].Status != "PDNG" {
		t.Errorf("the entries read back as %+v", txs)
	}
}

func TestTheWalkThroughsStatementPassesItsSchemaOnceFilledIn(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/statements/camt053.xml")
	if err != nil {
		t.Fatal(err)
	}
	filled := strings.NewReplacer("RF-REFERENCE", "RF18539007547034", "BOOKING-DATE", "2026-11-27").Replace(string(doc))
	st, err := camt.Read([]byte(filled))
	if err != nil {
		t.Fatalf("docs/statements/camt053.xml is refused: %v", err)
	}
	txs := st.Accounts[0].Transactions
	if len(txs) != 2 || txs[0].CreditorRefs[0] != "RF18539007547034" || txs[0].Minor != 110000 || txs[1].Direction != camt.Debit {
		t.Errorf("docs/statements/camt053.xml reads as %+v", txs)
	}
}
