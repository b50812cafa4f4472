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

package billing

import (
	"errors"
	"slices"
	"strings"
	"time"
)

// A customer's statement (docs/api.md#statements): per currency, the
// balance the customer owed when a range of days began, every record dated
// in the range with the balance after it, the balance when the range
// ended, and the receivables aging at its last day.
//
// The balance is what the customer owes: above 0 it owes, below 0 it has
// credit. What each record does to it (each at its date, account.go):
//
//   - an invoice adds its total when it is issued;
//   - a credit note subtracts its total, a payment its amount;
//   - a write-off subtracts what it wrote off; when a later payment or
//     credit note settles what was written off (a recovered bad debt), a
//     write_off_reversal row just before that record adds it back, so that
//     the payment still subtracts its whole amount;
//   - a refund adds its amount back: money paid out of the customer's
//     credit;
//   - a credit application moves credit from the customer's account onto
//     an invoice and leaves the balance unchanged. It is listed, with an
//     amount of 0 and its own amount as record_amount, because it explains
//     why that invoice shows less open in the aging table.
//
// A voided invoice is voided by a credit note of its whole total: both are
// listed, each at its own date, the credit note reversing the invoice, as
// an accountant books a cancellation; there is no other "void" row. An
// invoice voided inside the range thus shows its issue and its credit
// note; one voided before the range is part of the opening balance only.
//
// The closing balance is computed from the invoices' ledgers and the
// customer's credit at the end of the range, not by adding up the rows;
// it equals the opening balance plus the rows' amounts (a test holds it
// so), and the aging table's total less the customer's unapplied credit.

// ErrStatementRange is returned when a statement's range ends before it
// begins.
var ErrStatementRange = errors.New("the statement's range ends before it begins")

// StatementRow is one record of a statement.
type StatementRow struct {
	Type EntryType
	// ID is the record's id: a write_off_reversal's is the payment's or
	// credit note's that settled what was written off.
	ID string
	// Number is the invoice's or credit note's number, "" for the others.
	Number string
	// InvoiceID and InvoiceNumber name the invoice the record is about
	// (the invoice itself for an invoice), "" for a refund.
	InvoiceID     string
	InvoiceNumber string
	// At is the record's date (account.go).
	At time.Time
	// RecordAmount is the record's own amount, at least 0.
	RecordAmount int64
	// Amount is what the record does to the balance: above 0 it adds.
	Amount int64
	// Balance is the balance after the row.
	Balance int64
}

// CurrencyStatement is a statement in one currency.
type CurrencyStatement struct {
	Currency string
	// Opening is the balance when the range began: every record dated
	// before it.
	Opening int64
	Rows    []StatementRow
	// Closing is the balance when the range ended.
	Closing int64
	// Aging is the receivables aging at the end of the range's last day,
	// and UnappliedCredit the customer's credit then.
	Aging           AgingBuckets
	UnappliedCredit int64
}

// Statement is a customer's statement over the days From to To (starts of
// days in the workspace's time zone), both included.
type Statement struct {
	Customer   string
	From, To   time.Time
	Currencies []CurrencyStatement
}

// ComputeStatement is customer's statement from recs (its records, live
// and sealed; others' records are ignored) over the days from to to, both
// starts of days in loc, the workspace's time zone. A currency is in it
// once a record in it is dated before the range ended.
func ComputeStatement(recs *Records, customer string, from, to time.Time, loc *time.Location) (Statement, error) {
	from, to = StartOfDay(from, loc), StartOfDay(to, loc)
	if to.Before(from) {
		return Statement{}, ErrStatementRange
	}
	st := Statement{Customer: customer, From: from, To: to}
	end := endOfDay(to)
	byCurrency := map[string]*CurrencyStatement{}
	a := newAccount()
	for _, e := range entries(recs) {
		if e.customer != customer {
			continue
		}
		if !e.at.Before(end) {
			break
		}
		effect, reversal, err := a.enter(e)
		if err != nil {
			return Statement{}, err
		}
		cs := byCurrency[e.currency]
		if cs == nil {
			cs = &CurrencyStatement{Currency: e.currency}
			byCurrency[e.currency] = cs
		}
		if e.at.Before(from) {
			cs.Opening += effect
			continue
		}
		if reversal != 0 {
			cs.Rows = append(cs.Rows, rowOf(e, EntryWriteOffReversal, reversal, reversal))
		}
		amount := effect - reversal
		if e.typ == EntryWriteOff {
			amount = effect // what it wrote off of what was left
		}
		cs.Rows = append(cs.Rows, rowOf(e, e.typ, e.amount, amount))
	}
	aging, err := a.aging(to, loc, func(c string) bool { return c == customer })
	if err != nil {
		return Statement{}, err
	}
	for _, cs := range byCurrency {
		running := cs.Opening
		for i := range cs.Rows {
			running += cs.Rows[i].Amount
			cs.Rows[i].Balance = running
		}
		if cs.Closing, err = a.balance(customer, cs.Currency); err != nil {
			return Statement{}, err
		}
		for _, r := range aging {
			if r.Currency == cs.Currency {
				cs.Aging, cs.UnappliedCredit = r.AgingBuckets, r.UnappliedCredit
			}
		}
		st.Currencies = append(st.Currencies, *cs)
	}
	slices.SortFunc(st.Currencies, func(x, y CurrencyStatement) int {
		return strings.Compare(x.Currency, y.Currency)
	})
	return st, nil
}

// CustomerStatement is customer's statement as the customer receives it,
// as a document or attached to an e-mail: ComputeStatement over recs
// without its write-offs. A write-off is the issuer's own decision to stop
// collecting, internal to its books (OwedByCustomer); to the customer,
// what it wrote off is still owed, so neither its rows nor its reversals
// are listed and the balances and the aging count it as open.
func CustomerStatement(recs *Records, customer string, from, to time.Time, loc *time.Location) (Statement, error) {
	without := *recs
	without.WriteOffs = nil
	return ComputeStatement(&without, customer, from, to, loc)
}

// rowOf is the row of type typ of entry e.
func rowOf(e entry, typ EntryType, recordAmount, amount int64) StatementRow {
	row := StatementRow{Type: typ, ID: e.name, Number: e.number, At: e.at, RecordAmount: recordAmount, Amount: amount}
	if e.invoice != nil {
		row.InvoiceID, row.InvoiceNumber = e.invoice.Name, e.invoice.Status.Number
	}
	if typ == EntryWriteOffReversal {
		row.Number = ""
	}
	return row
}

// balance is what customer owes in currency as read so far: what its
// invoices leave to pay less its credit, from the invoices' ledgers.
func (a *account) balance(customer, currency string) (int64, error) {
	owed, err := a.sumOfInvoices(customer, currency, func(p *position, b Balance) int64 { return owedOf(p.total, b) })
	if err != nil {
		return 0, err
	}
	return a.taken[[2]string{customer, currency}] + owed, nil
}
