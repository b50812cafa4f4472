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

package billing_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// row is what a test expects of a statement's row.
type row struct {
	typ     billing.EntryType
	id      string
	amount  int64
	balance int64
}

func TestComputeStatement(t *testing.T) {
	const cus = "cus-a"
	for _, tc := range []struct {
		name             string
		recs             billing.Records
		from, to         time.Time
		opening, closing int64
		rows             []row
		aging            billing.AgingBuckets
		credit           int64
	}{
		{name: "an invoice issued in the range adds its total, and a payment subtracts its amount",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(5))}},
			from: day(0), to: day(10), closing: 6_000,
			rows:  []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryPayment, "pay-1", -4_000, 6_000}},
			aging: billing.AgingBuckets{Current: 6_000, Total: 6_000}},
		{name: "records dated before the range make the opening balance, and those after it are left out",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30),
				accountInvoice("inv-2", cus, "EUR", 500, day(20), 30)},
				Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(5)),
					recordedPayment("pay-2", "inv-1", 1_000, day(12))}},
			from: day(10), to: day(15), opening: 6_000, closing: 5_000,
			rows:  []row{{billing.EntryPayment, "pay-2", -1_000, 5_000}},
			aging: billing.AgingBuckets{Current: 5_000, Total: 5_000}},
		{name: "an invoice voided in the range shows its issue and the credit note that reverses it",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				CreditNotes: []*billingv1.CreditNote{issuedCreditNote("cn-1", "inv-1", 10_000, day(2))}},
			from: day(0), to: day(10), closing: 0,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryCreditNote, "cn-1", -10_000, 0}}},
		{name: "an invoice voided before the range is in the opening balance only, as 0",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				CreditNotes: []*billingv1.CreditNote{issuedCreditNote("cn-1", "inv-1", 10_000, day(2))}},
			from: day(5), to: day(10)},
		{name: "a credit note after a payment leaves the customer credit, a balance below 0",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments:    []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 10_000, day(2))},
				CreditNotes: []*billingv1.CreditNote{issuedCreditNote("cn-1", "inv-1", 3_000, day(3))}},
			from: day(0), to: day(10), closing: -3_000, credit: 3_000,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryPayment, "pay-1", -10_000, 0},
				{billing.EntryCreditNote, "cn-1", -3_000, -3_000}}},
		{name: "a credit application moves the credit onto an invoice and leaves the balance unchanged",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30),
				accountInvoice("inv-2", cus, "EUR", 5_000, day(4), 30)},
				Payments:           []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 12_000, day(2))},
				CreditApplications: []*billingv1.CreditApplication{appliedCredit("capp-1", "inv-2", 2_000, day(5))}},
			from: day(0), to: day(10), closing: 3_000,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryPayment, "pay-1", -12_000, -2_000},
				{billing.EntryInvoice, "inv-2", 5_000, 3_000}, {billing.EntryCreditApplication, "capp-1", 0, 3_000}},
			aging: billing.AgingBuckets{Current: 3_000, Total: 3_000}},
		{name: "a refund adds back what was paid out of the customer's credit",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 12_000, day(2))},
				Refunds:  []*billingv1.Refund{recordedRefund("rf-1", cus, "EUR", 1_500, day(3))}},
			from: day(0), to: day(10), closing: -500, credit: 500,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryPayment, "pay-1", -12_000, -2_000},
				{billing.EntryRefund, "rf-1", 1_500, -500}}},
		{name: "a write-off subtracts what it wrote off",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments:  []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(2))},
				WriteOffs: []*billingv1.WriteOff{recordedWriteOff("wo-1", "inv-1", 6_000, day(40))}},
			from: day(0), to: day(50), closing: 0,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryPayment, "pay-1", -4_000, 6_000},
				{billing.EntryWriteOff, "wo-1", -6_000, 0}}},
		{name: "a payment after a write-off first reverses what it recovers, then subtracts its whole amount",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				WriteOffs: []*billingv1.WriteOff{recordedWriteOff("wo-1", "inv-1", 10_000, day(40))},
				Payments:  []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(45))}},
			from: day(0), to: day(50), closing: 0,
			rows: []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}, {billing.EntryWriteOff, "wo-1", -10_000, 0},
				{billing.EntryWriteOffReversal, "pay-1", 4_000, 4_000}, {billing.EntryPayment, "pay-1", -4_000, 0}}},
		{name: "records that are not final, and other customers' records, are left out",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30),
				accountInvoice("inv-other", "cus-b", "EUR", 7_000, day(1), 30),
				{Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: cus}}}},
				Payments: []*billingv1.Payment{recordedPayment("pay-other", "inv-other", 7_000, day(2)),
					{Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 1, PaidAt: mt(day(2))},
						Status: billingv1.PaymentStatus{Phase: billingv1.PaymentPending}}},
				CreditNotes: []*billingv1.CreditNote{{Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}},
					Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNotePending, Total: amountPtr(int64(5))}}}},
			from: day(0), to: day(10), closing: 10_000,
			rows:  []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}},
			aging: billing.AgingBuckets{Current: 10_000, Total: 10_000}},
		{name: "the range's days are those of the workspace's time zone",
			// 23:30 UTC on day 9 is already day 10 in Berlin: after the range.
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000,
					time.Date(2026, 3, 10, 23, 30, 0, 0, time.UTC))}},
			from: day(0), to: day(9), closing: 10_000,
			rows:  []row{{billing.EntryInvoice, "inv-1", 10_000, 10_000}},
			aging: billing.AgingBuckets{Current: 10_000, Total: 10_000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			berlin, err := time.LoadLocation("Europe/Berlin")
			if err != nil {
				t.Fatal(err)
			}
			cs := soleCurrency(t)(billing.ComputeStatement(&tc.recs, cus, billing.StartOfDay(tc.from, berlin),
				billing.StartOfDay(tc.to, berlin), berlin))
			if cs.Opening != tc.opening || cs.Closing != tc.closing {
				t.Errorf("opening, closing = %d, %d, want %d, %d", cs.Opening, cs.Closing, tc.opening, tc.closing)
			}
			got := make([]row, len(cs.Rows))
			for i, r := range cs.Rows {
				got[i] = row{r.Type, r.ID, r.Amount, r.Balance}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.rows) {
				t.Errorf("rows = %v\nwant %v", got, tc.rows)
			}
			if cs.Aging != tc.aging || cs.UnappliedCredit != tc.credit {
				t.Errorf("aging = %+v, credit %d, want %+v, credit %d", cs.Aging, cs.UnappliedCredit, tc.aging, tc.credit)
			}
		})
	}
}

// soleCurrency returns a function that fails t unless a statement was
// computed, in one currency, that adds up (checkAddsUp), and returns that
// currency's statement.
func soleCurrency(t *testing.T) func(billing.Statement, error) billing.CurrencyStatement {
	t.Helper()
	return func(st billing.Statement, err error) billing.CurrencyStatement {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Currencies) != 1 {
			t.Fatalf("currencies = %+v, want EUR alone", st.Currencies)
		}
		checkAddsUp(t, st.Currencies[0])
		return st.Currencies[0]
	}
}

// checkAddsUp fails t unless cs's closing balance is its opening plus its
// rows, each row's balance the one before plus its amount, and the closing
// balance the aging's total less the unapplied credit.
func checkAddsUp(t *testing.T, cs billing.CurrencyStatement) {
	t.Helper()
	running := cs.Opening
	for i, r := range cs.Rows {
		running += r.Amount
		if r.Balance != running {
			t.Errorf("row %d: balance %d, want %d", i, r.Balance, running)
		}
	}
	if cs.Closing != running {
		t.Errorf("closing %d, but opening %d plus the rows is %d", cs.Closing, cs.Opening, running)
	}
	if cs.Closing != cs.Aging.Total-cs.UnappliedCredit {
		t.Errorf("closing %d, but the aging's total %d less the credit %d is %d", cs.Closing, cs.Aging.Total,
			cs.UnappliedCredit, cs.Aging.Total-cs.UnappliedCredit)
	}
}

func TestComputeStatementRefusesARangeThatEndsBeforeItBegins(t *testing.T) {
	if _, err := billing.ComputeStatement(&billing.Records{}, "cus-a", day(2), day(1), time.UTC); err == nil {
		t.Fatal("ComputeStatement accepted a range from day 2 to day 1")
	}
}

func TestComputeStatementKeepsACurrencyApart(t *testing.T) {
	recs := billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-e", "cus-a", "EUR", 1_000, day(1), 30),
		accountInvoice("inv-u", "cus-a", "USD", 2_000, day(2), 30)}}
	st, err := billing.ComputeStatement(&recs, "cus-a", day(0), day(3), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Currencies) != 2 || st.Currencies[0].Currency != "EUR" || st.Currencies[0].Closing != 1_000 ||
		st.Currencies[1].Currency != "USD" || st.Currencies[1].Closing != 2_000 {
		t.Errorf("currencies = %+v, want EUR 1000 then USD 2000", st.Currencies)
	}
}

// TestComputeStatementAddsUpOverRandomAccounts holds, over random
// accounts in random ranges, every statement's closing balance to its
// opening plus its rows, and to its aging less its credit.
func TestComputeStatementAddsUpOverRandomAccounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 4))
	for n := range 500 {
		recs := randomAccount(rng)
		from := day(rng.IntN(60))
		to := from.AddDate(0, 0, rng.IntN(60))
		st, err := billing.ComputeStatement(recs, "cus-a", from, to, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range st.Currencies {
			t.Run(fmt.Sprintf("account %d %s", n, cs.Currency), func(t *testing.T) { checkAddsUp(t, cs) })
		}
	}
}

// randomAccount is a customer's account of a few invoices, each with
// random credit notes, payments, credit applications and write-offs, and
// some refunds, dated over 90 days.
func randomAccount(rng *rand.Rand) *billing.Records {
	recs := &billing.Records{}
	at := func() time.Time { return day(rng.IntN(90)).Add(time.Duration(rng.IntN(24)) * time.Hour) }
	for i := range 1 + rng.IntN(4) {
		name := fmt.Sprintf("inv-%d", i)
		total := int64(1 + rng.IntN(10_000))
		recs.Invoices = append(recs.Invoices, accountInvoice(name, "cus-a", "EUR", total, at(), rng.IntN(31)))
		for j := range rng.IntN(4) {
			amount := int64(1 + rng.IntN(int(total)))
			id := fmt.Sprintf("%s-%d", name, j)
			switch rng.IntN(4) {
			case 0:
				recs.CreditNotes = append(recs.CreditNotes, issuedCreditNote("cn-"+id, name, amount, at()))
			case 1:
				recs.Payments = append(recs.Payments, recordedPayment("pay-"+id, name, amount, at()))
			case 2:
				recs.CreditApplications = append(recs.CreditApplications, appliedCredit("capp-"+id, name, amount, at()))
			default:
				recs.WriteOffs = append(recs.WriteOffs, recordedWriteOff("wo-"+id, name, amount, at()))
			}
		}
	}
	for j := range rng.IntN(3) {
		recs.Refunds = append(recs.Refunds, recordedRefund(fmt.Sprintf("rf-%d", j), "cus-a", "EUR",
			int64(1+rng.IntN(1_000)), at()))
	}
	return recs
}

func TestTheCustomersStatementLeavesWriteOffsOut(t *testing.T) {
	const cus = "cus-a"
	day := func(n int) time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n) }
	for _, tc := range []struct {
		name    string
		recs    billing.Records
		closing int64
		rows    []billing.EntryType
	}{
		{"what a write-off wrote off is still owed, and the write-off is not listed",
			billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				Payments:  []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(2))},
				WriteOffs: []*billingv1.WriteOff{recordedWriteOff("wo-1", "inv-1", 6_000, day(40))}},
			6_000, []billing.EntryType{billing.EntryInvoice, billing.EntryPayment}},
		{"a payment after a write-off subtracts its amount, with no reversal row",
			billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", cus, "EUR", 10_000, day(1), 30)},
				WriteOffs: []*billingv1.WriteOff{recordedWriteOff("wo-1", "inv-1", 10_000, day(40))},
				Payments:  []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 4_000, day(45))}},
			6_000, []billing.EntryType{billing.EntryInvoice, billing.EntryPayment}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := soleCurrency(t)(billing.CustomerStatement(&tc.recs, cus, day(0), day(50), time.UTC))
			if cs.Closing != tc.closing {
				t.Errorf("closing = %d, want %d", cs.Closing, tc.closing)
			}
			var got []billing.EntryType
			for _, r := range cs.Rows {
				got = append(got, r.Type)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.rows) {
				t.Errorf("rows = %v, want %v", got, tc.rows)
			}
			if len(tc.recs.WriteOffs) != 1 {
				t.Error("the records given were changed")
			}
		})
	}
}
