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
	"slices"
	"testing"
	"time"
)

func TestDuePlansMissedPeriodsByPolicyAndAlwaysIssuesThoseThatCameDueSince(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	// A monthly schedule from Jan 31 2026 in Berlin, created on Jun 15
	// 2026 at noon: periods 0 to 4 (Jan 31 to May 31) came due before.
	monthly := Calendar{Start: Date{2026, 1, 31}, Interval: Interval{Month, 1}, Billing: InAdvance, Location: berlin}
	created := time.Date(2026, 6, 15, 12, 0, 0, 0, berlin)
	june30 := Date{2026, 6, 30}
	cases := []struct {
		name          string
		cal           Calendar
		next          int
		now, active   time.Time
		policy        Policy
		issue         []string // starts of the periods issued
		skipped, then int
		completed     bool
	}{
		{name: "issue_all issues every missed period", cal: monthly, now: created, active: created,
			policy: Policy{Missed: IssueAll}, issue: []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"}, then: 5},
		{name: "issue_all issues at most max_catch_up, the latest ones", cal: monthly, now: created, active: created,
			policy: Policy{Missed: IssueAll, MaxCatchUp: 2}, issue: []string{"2026-04-30", "2026-05-31"}, skipped: 3, then: 5},
		{name: "issue_latest issues the latest missed period alone", cal: monthly, now: created, active: created,
			policy: Policy{Missed: IssueLatest}, issue: []string{"2026-05-31"}, skipped: 4, then: 5},
		{name: "skip issues none of them", cal: monthly, now: created, active: created,
			policy: Policy{Missed: Skip}, skipped: 5, then: 5},
		{name: "a period that came due while active is issued whatever the policy", cal: monthly, next: 5,
			now: time.Date(2026, 7, 2, 0, 0, 0, 0, berlin), active: created, policy: Policy{Missed: Skip},
			issue: []string{"2026-06-30"}, then: 6},
		{name: "a manager that was down issues every period that came due since, in order", cal: monthly, next: 5,
			now: time.Date(2026, 9, 1, 0, 0, 0, 0, berlin), active: created, policy: Policy{Missed: IssueLatest},
			issue: []string{"2026-06-30", "2026-07-31", "2026-08-31"}, then: 8},
		{name: "nothing is due before the next period's midnight in the zone", cal: monthly, next: 5,
			now: time.Date(2026, 6, 29, 23, 59, 59, 0, berlin), active: created, policy: Policy{Missed: IssueAll}, then: 5},
		{name: "the period is due at midnight in the zone, not in UTC", cal: monthly, next: 5,
			now: time.Date(2026, 6, 29, 22, 0, 0, 0, time.UTC), active: created, policy: Policy{Missed: IssueAll},
			issue: []string{"2026-06-30"}, then: 6},
		{name: "in arrears a period is due the day after its last day", next: 4,
			cal: Calendar{Start: Date{2026, 1, 31}, Interval: Interval{Month, 1}, Billing: InArrears, Location: berlin},
			now: time.Date(2026, 7, 30, 12, 0, 0, 0, berlin), active: created, policy: Policy{Missed: IssueAll},
			issue: []string{"2026-05-31"}, then: 5}, // May 31 to Jun 29, issued on Jun 30; Jun 30's on Jul 31
		{name: "an end by count completes the schedule after its last period", cal: monthly, now: created, active: created,
			policy: Policy{Missed: IssueAll, End: End{Count: 3}}, issue: []string{"2026-01-31", "2026-02-28", "2026-03-31"},
			then: 3, completed: true},
		{name: "an end by date keeps the last period that starts on or before it", cal: monthly, next: 5,
			now: time.Date(2027, 1, 1, 0, 0, 0, 0, berlin), active: created,
			policy: Policy{Missed: IssueAll, End: End{Date: &june30}}, issue: []string{"2026-06-30"}, then: 6, completed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := tc.cal.Due(tc.next, tc.now, tc.active, tc.policy)
			var got []string
			for _, p := range plan.Issue {
				got = append(got, p.Start.String())
			}
			if !slices.Equal(got, tc.issue) {
				t.Errorf("issues %v, want %v", got, tc.issue)
			}
			if plan.Skipped != tc.skipped || plan.Next.Index != tc.then || plan.Completed != tc.completed {
				t.Errorf("skipped %d, next %d, completed %v; want %d, %d, %v",
					plan.Skipped, plan.Next.Index, plan.Completed, tc.skipped, tc.then, tc.completed)
			}
		})
	}
}
