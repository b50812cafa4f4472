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
	"time"
)

// Missed is what a schedule does with the periods whose issue moment
// passed before it was active: before it was created, or while it was
// paused. A period that comes due while it is active is always issued,
// however late the manager gets to it.
type Missed string

// The policies of missed periods.
const (
	// IssueAll issues the missed periods, at most MaxCatchUp of them, the
	// latest ones; the earlier ones are skipped.
	IssueAll Missed = "issue_all"
	// IssueLatest issues the latest missed period alone.
	IssueLatest Missed = "issue_latest"
	// Skip issues none of them.
	Skip Missed = "skip"
)

// DefaultMaxCatchUp is how many missed periods IssueAll issues at most
// when a schedule says nothing.
const DefaultMaxCatchUp = 12

// End is where a schedule ends: after Count periods, or with the last
// period that starts on or before Date. Neither: it never ends.
type End struct {
	Count int
	Date  *Date
}

// Ended reports whether period n is past the end.
func (c Calendar) Ended(n int, end End) bool {
	if end.Count > 0 && n >= end.Count {
		return true
	}
	return end.Date != nil && end.Date.Before(c.StartOf(n))
}

// Plan is what a schedule does at a moment: the periods it issues now, in
// order, how many it skips, and the first period it has not handled.
type Plan struct {
	Issue   []Period
	Skipped int
	// Next is the first period neither issued nor skipped by this plan or
	// before; Completed when it is past the schedule's end (Next is then
	// meaningless).
	Next      Period
	Completed bool
}

// Policy is how a schedule treats missed periods, and where it ends.
type Policy struct {
	Missed     Missed
	MaxCatchUp int
	End        End
}

// Due plans the periods from next on (the index of the first period not
// yet handled) whose issue moment is at or before now. Those whose moment
// is before activeSince are missed and follow policy.Missed; the others
// are issued.
func (c Calendar) Due(next int, now, activeSince time.Time, policy Policy) Plan {
	var missed, current []Period
	n := next
	for ; !c.Ended(n, policy.End); n++ {
		p := c.PeriodAt(n)
		at := c.IssueAt(p)
		if at.After(now) {
			break
		}
		if at.Before(activeSince) {
			missed = append(missed, p)
		} else {
			current = append(current, p)
		}
	}
	keep := 0
	switch policy.Missed {
	case IssueLatest:
		if len(current) == 0 {
			keep = min(len(missed), 1)
		}
	case Skip:
	default: // IssueAll
		limit := policy.MaxCatchUp
		if limit <= 0 {
			limit = DefaultMaxCatchUp
		}
		keep = min(len(missed), limit)
	}
	plan := Plan{Skipped: len(missed) - keep, Next: c.PeriodAt(n), Completed: c.Ended(n, policy.End)}
	plan.Issue = slices.Concat(missed[len(missed)-keep:], current)
	return plan
}
