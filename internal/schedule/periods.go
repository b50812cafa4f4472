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

// Package schedule is the calendar of an invoice schedule: its periods as
// civil dates in its time zone, computed from its start date alone, when
// each period's invoice is issued, and which periods are due at a moment.
// The manager issues by it and the adapter answers a schedule's upcoming
// periods by it, so both read the same calendar.
package schedule

import (
	"errors"
	"fmt"
	"time"
)

// Unit is the unit of a schedule's interval.
type Unit string

// The units of an interval.
const (
	Day   Unit = "day"
	Week  Unit = "week"
	Month Unit = "month"
	Year  Unit = "year"
)

// Billing says on which day a period's invoice is issued.
type Billing string

// The ways of billing a period.
const (
	// InAdvance issues a period's invoice on its first day.
	InAdvance Billing = "in_advance"
	// InArrears issues it on the day after its last day.
	InArrears Billing = "in_arrears"
)

// MaxCount is the largest count of units in an interval.
const MaxCount = 36

// Date is a civil date: a day of the calendar, in no time zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// dateLayout is how a Date is written: YYYY-MM-DD.
const dateLayout = "2006-01-02"

// ParseDate reads a date written YYYY-MM-DD that exists in the calendar
// (2026-02-30 does not).
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is no date written YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// DateOf is the civil date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// String writes d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// Compact writes d as YYYYMMDD, as a scheduled invoice's name ends.
func (d Date) Compact() string { return fmt.Sprintf("%04d%02d%02d", d.Year, d.Month, d.Day) }

// utc is d at midnight UTC, for arithmetic on days that no change of
// daylight saving time can shift.
func (d Date) utc() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// AddDays is d moved by n days (n may be negative).
func (d Date) AddDays(n int) Date { return DateOf(d.utc().AddDate(0, 0, n)) }

// Before reports whether d is earlier than e.
func (d Date) Before(e Date) bool { return d.utc().Before(e.utc()) }

// At is the first moment of d in loc: 00:00, or, where a change of
// daylight saving time skips midnight, the first moment that exists.
func (d Date) At(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// daysIn is the number of days of month m of year y.
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Interval is a schedule's period length: Count units.
type Interval struct {
	Unit  Unit
	Count int
}

// Validate says what is wrong with i, nil when nothing is.
func (i Interval) Validate() error {
	switch i.Unit {
	case Day, Week, Month, Year:
	default:
		return fmt.Errorf("unit %q is none of day, week, month and year", i.Unit)
	}
	if i.Count < 1 || i.Count > MaxCount {
		return fmt.Errorf("count %d is not from 1 to %d", i.Count, MaxCount)
	}
	return nil
}

// Period is one period of a schedule: its first and last days, inclusive.
type Period struct {
	Index      int
	Start, End Date
}

// Calendar is a schedule's periods: they start on Start and last one
// Interval each, in Location.
type Calendar struct {
	Start    Date
	Interval Interval
	Billing  Billing
	Location *time.Location
}

// ErrBadCalendar is the cause of a calendar that cannot be computed.
var ErrBadCalendar = errors.New("the schedule's calendar is invalid")

// Validate says what is wrong with c, nil when nothing is.
func (c Calendar) Validate() error {
	if err := c.Interval.Validate(); err != nil {
		return fmt.Errorf("%w: interval: %w", ErrBadCalendar, err)
	}
	if c.Billing != InAdvance && c.Billing != InArrears {
		return fmt.Errorf("%w: billing %q is neither in_advance nor in_arrears", ErrBadCalendar, c.Billing)
	}
	if c.Location == nil {
		return fmt.Errorf("%w: no time zone", ErrBadCalendar)
	}
	return nil
}

// StartOf is the first day of period n (0 is the first period). Months and
// years are counted from the start date alone, never from the period
// before: a monthly schedule that starts on the 31st starts each period on
// the 31st, or on its month's last day when the month is shorter, and a
// yearly one that starts on Feb 29 starts on Feb 28 in other years.
func (c Calendar) StartOf(n int) Date {
	s := c.Start
	switch c.Interval.Unit {
	case Day:
		return s.AddDays(n * c.Interval.Count)
	case Week:
		return s.AddDays(7 * n * c.Interval.Count)
	case Year:
		return clamped(s.Year+n*c.Interval.Count, s.Month, s.Day)
	default: // Month
		months := int(s.Month) - 1 + n*c.Interval.Count
		year := s.Year + floorDiv(months, 12)
		return clamped(year, time.Month(months-12*floorDiv(months, 12)+1), s.Day)
	}
}

// clamped is day d of month m of year y, or the month's last day when it
// has fewer.
func clamped(y int, m time.Month, d int) Date {
	return Date{Year: y, Month: m, Day: min(d, daysIn(y, m))}
}

// floorDiv is a / b rounded towards minus infinity.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// PeriodAt is period n: from its start to the day before the next one's.
func (c Calendar) PeriodAt(n int) Period {
	return Period{Index: n, Start: c.StartOf(n), End: c.StartOf(n + 1).AddDays(-1)}
}

// IssueDate is the day p's invoice is issued: its first day in advance,
// the day after its last in arrears.
func (c Calendar) IssueDate(p Period) Date {
	if c.Billing == InArrears {
		return p.End.AddDays(1)
	}
	return p.Start
}

// IssueAt is the moment p's invoice is issued: its issue date's first
// moment in the calendar's zone.
func (c Calendar) IssueAt(p Period) time.Time { return c.IssueDate(p).At(c.Location) }

// FirstStartingAfter is the index of the first period that starts after
// d; 0 when the first period does.
func (c Calendar) FirstStartingAfter(d Date) int {
	// Periods are at least a day long, so there are at most as many
	// before d as days; jump close by the interval's length in days, then
	// walk.
	days := int(d.utc().Sub(c.Start.utc()).Hours() / 24)
	if days < 0 {
		return 0
	}
	per := map[Unit]int{Day: 1, Week: 7, Month: 31, Year: 366}[c.Interval.Unit] * c.Interval.Count
	n := max(days/per-1, 0)
	for !d.Before(c.StartOf(n)) {
		n++
	}
	for n > 0 && d.Before(c.StartOf(n-1)) {
		n--
	}
	return n
}
