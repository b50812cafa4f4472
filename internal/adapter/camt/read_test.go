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

package camt_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

func readFixture(t *testing.T, name string) *camt.Statement {
	t.Helper()
	doc, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := camt.Read(doc)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sum := sha256.Sum256(doc)
	if st.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("%s: SHA256 %s, want that of the file", name, st.SHA256)
	}
	return st
}

func TestAV02StatementGivesEachEntryAndEachTransactionOfABatch(t *testing.T) {
	st := readFixture(t, "v02-batch.xml")
	booked := func(tx camt.Transaction) camt.Transaction {
		tx.Currency, tx.Status, tx.BookingDate = "EUR", "BOOK", "2026-03-11"
		if tx.ValueDate == "" {
			tx.ValueDate = "2026-03-11"
		}
		if tx.Direction == "" {
			tx.Direction = camt.Credit
		}
		return tx
	}
	batch := func(tx camt.Transaction) camt.Transaction {
		tx.Entry, tx.EntryRef, tx.EntryServicerRef = 2, "2026031100002", "2026031105543210002"
		return booked(tx)
	}
	want := &camt.Statement{
		Version:   camt.V02,
		SHA256:    st.SHA256,
		MessageID: "053D2026031200000001",
		Accounts: []camt.AccountStatement{{
			ID:       "0352C5320260312061231",
			IBAN:     "DE89370400440532013000",
			Currency: "EUR",
			Transactions: []camt.Transaction{
				booked(camt.Transaction{
					Entry: 1, EntryRef: "2026031100001", EntryServicerRef: "2026031105543210001",
					ServicerRef: "STZV2026031100871", EndToEndID: "INV-2026-000042",
					Amount: "1190.00", Minor: 119000,
					CreditorRefs: []string{"RF18539007547034"},
					DebtorName:   "Acme Widgets AG", DebtorIBAN: "DE02120300000000202051",
				}),
				batch(camt.Transaction{
					Detail: 1, ServicerRef: "STZV2026031100872", EndToEndID: "NOTPROVIDED",
					Amount: "500.00", Minor: 50000,
					Unstructured: "Rechnung INV-2026-000043 Kundennummer 1007",
					DebtorName:   "Beispiel Handel e.K.", DebtorIBAN: "DE44500105175407324931",
				}),
				batch(camt.Transaction{
					Detail: 2, ServicerRef: "STZV2026031100873", EndToEndID: "E2E-7781-2026",
					Amount: "300.00", Minor: 30000,
					CreditorRefs: []string{"RF712348231", "RF18000000000539007547034"},
					DebtorName:   "Muster & Söhne GmbH", DebtorIBAN: "AT611904300234573201",
				}),
				batch(camt.Transaction{
					Detail: 3, ServicerRef: "STZV2026031100874",
					Amount: "32.45", Minor: 3245, Unstructured: "INV-2026-000044 Restbetrag",
				}),
				booked(camt.Transaction{
					Entry: 3, EntryRef: "2026031100003", EntryServicerRef: "2026031105543210003",
					EndToEndID: "REFUND-CN-2026-000007", Amount: "400.00", Minor: 40000,
					Direction: camt.Debit, Unstructured: "Gutschrift CN-2026-000007",
				}),
				booked(camt.Transaction{
					Entry: 4, EntryRef: "2026031100004", EntryServicerRef: "2026031105543210004",
					EndToEndID: "DD-INV-2026-000031", Amount: "150.00", Minor: 15000,
					Direction: camt.Debit, Reversal: true, ValueDate: "2026-03-09",
					Unstructured: "INV-2026-000031",
					DebtorName:   "Beispiel Handel e.K.", DebtorIBAN: "DE44500105175407324931",
				}),
				{
					Entry: 5, Amount: "99.90", Currency: "EUR", Minor: 9990, Direction: camt.Credit,
					Status: "PDNG", ValueDate: "2026-03-12",
					Unstructured: "INV-2026-000045", DebtorName: "Kleinkunde Meier",
				},
			},
		}},
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
}

func TestAV08StatementOfTwoAccountsGivesEachAccountItsEntries(t *testing.T) {
	st := readFixture(t, "v08-two-accounts.xml")
	eur := func(tx camt.Transaction) camt.Transaction {
		tx.Currency = "EUR"
		if tx.Status == "" {
			tx.Status, tx.BookingDate = "BOOK", "2026-03-31"
		}
		if tx.ValueDate == "" {
			tx.ValueDate = "2026-03-31"
		}
		if tx.Direction == "" {
			tx.Direction = camt.Credit
		}
		return tx
	}
	batch := func(tx camt.Transaction) camt.Transaction {
		tx.Entry, tx.EntryRef, tx.EntryServicerRef = 1, "0001", "ABN-20260331-771"
		return eur(tx)
	}
	want := &camt.Statement{
		Version:   camt.V08,
		SHA256:    st.SHA256,
		MessageID: "STMT-20260401-0815",
		Accounts: []camt.AccountStatement{{
			ID:       "NL91ABNA0417164300-20260331",
			IBAN:     "NL91ABNA0417164300",
			Currency: "EUR",
			Transactions: []camt.Transaction{
				batch(camt.Transaction{
					Detail: 1, ServicerRef: "ABN-20260331-771-1", EndToEndID: "PAY-INV-2026-000101",
					Amount: "2420.00", Minor: 242000, CreditorRefs: []string{"RF18539007547034"},
					DebtorName: "Voorbeeld Groothandel B.V.", DebtorIBAN: "BE68539007547034",
				}),
				batch(camt.Transaction{
					Detail: 2, ServicerRef: "ABN-20260331-771-2", EndToEndID: "NOTPROVIDED",
					Amount: "180.00", Minor: 18000, Unstructured: "INV-2026-000102",
					DebtorName: "J. de Vries", DebtorIBAN: "GB29NWBK60161331926819",
				}),
				eur(camt.Transaction{
					Entry: 2, EntryRef: "0002", EntryServicerRef: "ABN-20260331-772",
					Amount: "12.50", Minor: 1250, Direction: camt.Debit,
				}),
				eur(camt.Transaction{
					Entry: 3, Amount: "75.00", Minor: 7500, Status: "PDNG", ValueDate: "2026-04-01",
					EndToEndID: "PAY-INV-2026-000103", Unstructured: "INV-2026-000103",
				}),
				eur(camt.Transaction{
					Entry: 4, EntryRef: "0003", EntryServicerRef: "ABN-20260331-773",
					Amount: "12.50", Minor: 1250, Reversal: true, ValueDate: "2026-03-30",
				}),
			},
		}, {
			ID:       "CH-0815-20260331",
			OtherID:  "0815-123456-01",
			Currency: "CHF",
			Transactions: []camt.Transaction{{
				Entry: 5, EntryRef: "CH-0001", EndToEndID: "CH-INV-2026-000009",
				Amount: "1234.05", Currency: "CHF", Minor: 123405, Direction: camt.Credit,
				Status: "BOOK", BookingDate: "2026-03-31", ValueDate: "2026-03-31",
				Unstructured: "INV-2026-000009 thank you",
				DebtorName:   "Beispiel AG", DebtorIBAN: "CH9300762011623852957",
			}},
		}},
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
}

func TestAnEntryBookedWithADateAndTimeIsBookedOnItsDate(t *testing.T) {
	st := readFixture(t, "v02-one-entry.xml")
	want := []camt.Transaction{{
		Entry: 1, EntryRef: "E1", EndToEndID: "INV-2026-000200",
		Amount: "310.20", Currency: "EUR", Minor: 31020, Direction: camt.Credit, Status: "BOOK",
		BookingDate: "2026-05-03", ValueDate: "2026-05-03",
		Unstructured: "Facture INV-2026-000200", DebtorName: "Durand SARL",
	}}
	if diff := cmp.Diff(want, st.Accounts[0].Transactions); diff != "" {
		t.Errorf("transactions (-want +got):\n%s", diff)
	}
}
