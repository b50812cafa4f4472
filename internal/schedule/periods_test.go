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

package schedule

import (
	"math/rand/v2"
	"testing"
	"time"
)

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestPeriodsStartFromTheStartDateAloneAndNeverDrift(t *testing.T) {
	cases := []struct {
		name     string
		start    string
		interval Interval
		want     []string // the starts of periods 0, 1, 2, ...
	}{
		{"a monthly schedule on the 31st starts on each month's last day when it has no 31st", "2026-01-31",
			Interval{Month, 1}, []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"}},
		{"in a leap year February's period starts on the 29th", "2027-12-31",
			Interval{Month, 1}, []string{"2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31"}},
		{"a monthly schedule on the 30th keeps the 30th after February", "2026-01-30",
			Interval{Month, 1}, []string{"2026-01-30", "2026-02-28", "2026-03-30", "2026-04-30"}},
		{"a quarterly schedule on Nov 30 crosses the year", "2025-11-30",
			Interval{Month, 3}, []string{"2025-11-30", "2026-02-28", "2026-05-30", "2026-08-30", "2026-11-30"}},
		{"a yearly schedule on Feb 29 starts on Feb 28 in other years and Feb 29 in leap years", "2024-02-29",
			Interval{Year, 1}, []string{"2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"}},
		{"every two years", "2026-06-15", Interval{Year, 2}, []string{"2026-06-15", "2028-06-15", "2030-06-15"}},
		{"a daily schedule", "2026-12-30", Interval{Day, 1}, []string{"2026-12-30", "2026-12-31", "2027-01-01"}},
		{"every 10 days across February of a leap year", "2028-02-20", Interval{Day, 10}, []string{"2028-02-20", "2028-03-01", "2028-03-11"}},
		{"every two weeks", "2026-12-21", Interval{Week, 2}, []string{"2026-12-21", "2027-01-04", "2027-01-18"}},
		{"every 36 months", "2026-01-31", Interval{Month, 36}, []string{"2026-01-31", "2029-01-31", "2032-01-31"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Calendar{Start: mustDate(t, tc.start), Interval: tc.interval, Billing: InAdvance, Location: time.UTC}
			for n, want := range tc.want {
				if got := c.StartOf(n).String(); got != want {
					t.Errorf("period %d starts on %s, want %s", n, got, want)
				}
				if n > 0 {
					if got, want := c.PeriodAt(n-1).End, mustDate(t, want).AddDays(-1); got != want {
						t.Errorf("period %d ends on %s, want %s", n-1, got, want)
					}
				}
			}
		})
	}
}

func TestADailyScheduleHasOnePeriodPerCivilDayAcrossDaylightSavingTime(t *testing.T) {
	cases := []struct {
		zone, from string
		hours      []float64 // between consecutive issue moments
	}{
		{"Europe/Berlin", "2026-03-28", []float64{24, 23, 24}},    // clocks go forward on Mar 29
		{"Europe/Berlin", "2026-10-24", []float64{24, 25, 24}},    // and back on Oct 25
		{"America/New_York", "2026-03-07", []float64{24, 23, 24}}, // Mar 8
		{"America/New_York", "2026-10-31", []float64{24, 25, 24}}, // Nov 1
	}
	for _, tc := range cases {
		t.Run(tc.zone+" from "+tc.from, func(t *testing.T) {
			loc := mustZone(t, tc.zone)
			c := Calendar{Start: mustDate(t, tc.from), Interval: Interval{Day, 1}, Billing: InAdvance, Location: loc}
			for i, want := range tc.hours {
				a, b := c.IssueAt(c.PeriodAt(i)), c.IssueAt(c.PeriodAt(i+1))
				if got := b.Sub(a).Hours(); got != want {
					t.Errorf("from %s to %s: %v hours, want %v", a, b, got, want)
				}
				for _, at := range []time.Time{a, b} {
					if at.Hour() != 0 || at.Minute() != 0 {
						t.Errorf("issued at %s, not at midnight in %s", at, tc.zone)
					}
				}
				if c.PeriodAt(i).Start != c.PeriodAt(i).End {
					t.Errorf("period %d is %s to %s, not one day", i, c.PeriodAt(i).Start, c.PeriodAt(i).End)
				}
			}
		})
	}
}

func TestAPeriodIsIssuedOnItsFirstDayInAdvanceAndTheDayAfterItsLastInArrears(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	for _, tc := range []struct {
		billing Billing
		want    string
	}{
		{InAdvance, "2026-02-28T00:00:00+01:00"},
		{InArrears, "2026-03-31T00:00:00+02:00"},
	} {
		t.Run(string(tc.billing), func(t *testing.T) {
			c := Calendar{Start: mustDate(t, "2026-01-31"), Interval: Interval{Month, 1}, Billing: tc.billing, Location: berlin}
			if got := c.IssueAt(c.PeriodAt(1)).Format(time.RFC3339); got != tc.want {
				t.Errorf("period 1 (Feb 28 to Mar 30) is issued at %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDatesAndIntervalsThatDoNotExistAreRefused(t *testing.T) {
	for _, s := range []string{"2026-02-29", "2026-13-01", "2026-1-1", "26-01-01", "2026-01-01T00:00:00Z", ""} {
		if _, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) accepted a date that does not exist", s)
		}
	}
	for _, i := range []Interval{{Month, 0}, {Month, 37}, {"fortnight", 1}, {"", 1}} {
		if i.Validate() == nil {
			t.Errorf("interval %+v accepted", i)
		}
	}
	if (Calendar{Start: Date{2026, 1, 1}, Interval: Interval{Day, 1}, Billing: "later", Location: time.UTC}).Validate() == nil {
		t.Error("a billing of neither in_advance nor in_arrears accepted")
	}
}

func TestFirstStartingAfterFindsThePeriodOverRandomCalendars(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 1))
	units := []Unit{Day, Week, Month, Year}
	for range 2_000 {
		c := Calendar{Start: Date{2020 + r.IntN(10), time.Month(1 + r.IntN(12)), 1 + r.IntN(31)},
			Interval: Interval{units[r.IntN(4)], 1 + r.IntN(MaxCount)}, Billing: InAdvance, Location: time.UTC}
		c.Start = clamped(c.Start.Year, c.Start.Month, c.Start.Day)
		d := c.Start.AddDays(r.IntN(20_000) - 100)
		n := c.FirstStartingAfter(d)
		if !d.Before(c.StartOf(n)) || (n > 0 && d.Before(c.StartOf(n-1))) {
			t.Fatalf("%+v: the first period after %s is %d (%s), but period %d starts on %s", c, d, n, c.StartOf(n), n-1, c.StartOf(n-1))
		}
		for k := range 3 {
			if !c.StartOf(n + k).Before(c.StartOf(n + k + 1)) {
				t.Fatalf("%+v: periods %d and %d do not follow each other", c, n+k, n+k+1)
			}
		}
	}
}
