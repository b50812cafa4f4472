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
	"cmp"
	"errors"
	"slices"
	"time"
)

// Receivables aging (docs/api.md#receivables-aging): what each customer
// owed at the end of a day, by how many days it was past due. It is exact
// for any past day: it reads only the records dated before the day ended
// (account.go), so a payment, credit note, credit application or write-off
// dated later does not reduce it, an invoice issued later is absent, and
// an invoice voided later (by a credit note dated later) still counts.

// ErrInvalidDay is returned by ParseDay.
var ErrInvalidDay = errors.New("a day is written YYYY-MM-DD")

// ParseDay is the start of the day s (YYYY-MM-DD) in loc.
func ParseDay(s string, loc *time.Location) (time.Time, error) {
	if !dayPattern.MatchString(s) {
		return time.Time{}, ErrInvalidDay
	}
	day, err := time.ParseInLocation(time.DateOnly, s, loc)
	if err != nil {
		return time.Time{}, ErrInvalidDay
	}
	return day, nil
}

// StartOfDay is the start of the day in loc that holds t.
func StartOfDay(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// endOfDay is the first instant after the day that starts at day: the
// start of the next day in day's location.
func endOfDay(day time.Time) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, day.Location())
}

// DaysPastDue is how many days an invoice due at dueAt is past due at the
// end of day (a start of day in loc), counted in calendar days of loc: 0
// on the day it is due and before, 1 on the day after.
func DaysPastDue(dueAt, day time.Time, loc *time.Location) int {
	dy, dm, dd := dueAt.In(loc).Date()
	ay, am, ad := day.In(loc).Date()
	days := time.Date(ay, am, ad, 0, 0, 0, 0, time.UTC).Sub(time.Date(dy, dm, dd, 0, 0, 0, 0, time.UTC)).Hours() / 24
	return max(0, int(days))
}

// AgingBuckets is what was open, by days past due, in minor units.
type AgingBuckets struct {
	// Current is not yet past due (0 days).
	Current int64
	// Days1To30, Days31To60, Days61To90 and Over90 are 1 to 30, 31 to 60,
	// 61 to 90 and more than 90 days past due.
	Days1To30  int64
	Days31To60 int64
	Days61To90 int64
	Over90     int64
	// Total is the sum of the buckets.
	Total int64
}

// add puts amount, days past due, in its bucket.
func (b *AgingBuckets) add(days int, amount int64) {
	switch {
	case days <= 0:
		b.Current += amount
	case days <= 30:
		b.Days1To30 += amount
	case days <= 60:
		b.Days31To60 += amount
	case days <= 90:
		b.Days61To90 += amount
	default:
		b.Over90 += amount
	}
	b.Total += amount
}

// AgingRow is one customer's receivables in one currency at the end of a
// day.
type AgingRow struct {
	Customer string
	Currency string
	AgingBuckets
	// UnappliedCredit is the customer's credit in the currency at that
	// moment (docs/ledger.md#money-on-account): what the customer's
	// balance is below Total.
	UnappliedCredit int64
}

// Aging is the receivables aging of recs at the end of day (a start of
// day in loc, the workspace's time zone): one row per customer and
// currency with something open or some credit, ordered by customer and
// currency. Each issued invoice counts what it left to pay (its ledger's
// amountRemaining, ComputeLedgerBalance) over the records dated before
// the day ended, in the bucket of its days past due (DaysPastDue).
func Aging(recs *Records, day time.Time, loc *time.Location) ([]AgingRow, error) {
	day = StartOfDay(day, loc)
	a := newAccount()
	if err := a.readUntil(entries(recs), endOfDay(day)); err != nil {
		return nil, err
	}
	return a.aging(day, loc, nil)
}

// readUntil reads the entries of es dated before end.
func (a *account) readUntil(es []entry, end time.Time) error {
	for _, e := range es {
		if !e.at.Before(end) {
			break
		}
		if _, _, err := a.enter(e); err != nil {
			return err
		}
	}
	return nil
}

// aging is the account's receivables aging as read so far, at the end of
// day, of the customers keep allows (all when it is nil).
func (a *account) aging(day time.Time, loc *time.Location, keep func(customer string) bool) ([]AgingRow, error) {
	rows, err := a.openRows(day, loc, keep)
	if err != nil {
		return nil, err
	}
	out := make([]AgingRow, 0, len(rows))
	for _, r := range rows {
		credit, err := a.credit(r.Customer, r.Currency)
		if err != nil {
			return nil, err
		}
		r.UnappliedCredit = credit
		if r.Total != 0 || r.UnappliedCredit != 0 {
			out = append(out, *r)
		}
	}
	slices.SortFunc(out, func(x, y AgingRow) int {
		return cmp.Or(cmp.Compare(x.Customer, y.Customer), cmp.Compare(x.Currency, y.Currency))
	})
	return out, nil
}

// openRows is a row, without its credit, per customer keep allows and
// currency in which the account has an invoice or a refund, with what the
// invoices leave to pay by days past due at the end of day.
func (a *account) openRows(day time.Time, loc *time.Location, keep func(customer string) bool) (
	map[[2]string]*AgingRow, error) {
	rows := map[[2]string]*AgingRow{}
	row := func(customer, currency string) *AgingRow {
		k := [2]string{customer, currency}
		if rows[k] == nil {
			rows[k] = &AgingRow{Customer: customer, Currency: currency}
		}
		return rows[k]
	}
	for k := range a.taken {
		if keep == nil || keep(k[0]) {
			row(k[0], k[1])
		}
	}
	for _, p := range a.positions {
		customer := p.invoice.Spec.CustomerRef.Name
		if keep != nil && !keep(customer) {
			continue
		}
		b, err := p.balance()
		if err != nil {
			return nil, err
		}
		r := row(customer, InvoiceCurrency(p.invoice))
		if !p.issued || b.Remaining == 0 {
			continue
		}
		days := 0
		if due := p.invoice.Status.DueAt; due != nil {
			days = DaysPastDue(due.Time, day, loc)
		}
		r.add(days, b.Remaining)
	}
	return rows, nil
}
