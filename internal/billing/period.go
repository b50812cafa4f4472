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
	"fmt"
	"regexp"
	"time"
	_ "time/tzdata" // an IANA time zone of a workspace; the image has no zoneinfo

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Closing the books (docs/ledger.md#closing-the-books): what a
// PeriodClose's spec.through means, and through when a workspace is closed.

// ErrInvalidThrough is wrapped by ResolveThrough's errors.
var ErrInvalidThrough = errors.New("through is not a month (YYYY-MM), a day (YYYY-MM-DD) or an RFC 3339 instant")

var (
	monthPattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}$`)
	dayPattern   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// TimeZone is the workspace's time zone: the profile's spec.timeZone, UTC
// when there is no profile or it names none.
func TimeZone(profile *billingv1.BillingProfile) (*time.Location, error) {
	return SettingsOf(profile).Location()
}

// ResolveThrough is the last instant through closes, at the second (the
// precision of every time the API stores): the end of a month or a day in
// loc (its last second), or an RFC 3339 instant (its fraction of a second
// dropped, so that the span closed never passes what was asked).
func ResolveThrough(through string, loc *time.Location) (time.Time, error) {
	switch {
	case monthPattern.MatchString(through):
		start, err := time.ParseInLocation("2006-01", through, loc)
		if err != nil {
			return time.Time{}, fmt.Errorf("%w: %w", ErrInvalidThrough, err)
		}
		return start.AddDate(0, 1, 0).Add(-time.Second), nil
	case dayPattern.MatchString(through):
		start, err := time.ParseInLocation(time.DateOnly, through, loc)
		if err != nil {
			return time.Time{}, fmt.Errorf("%w: %w", ErrInvalidThrough, err)
		}
		return start.AddDate(0, 0, 1).Add(-time.Second), nil
	default:
		t, err := time.Parse(time.RFC3339Nano, through)
		if err != nil {
			return time.Time{}, fmt.Errorf("%w: %w", ErrInvalidThrough, err)
		}
		return t.Truncate(time.Second), nil
	}
}

// Ended reports whether the closed span through closedThrough is over at
// now: a period is closed only once its last second has passed.
func Ended(closedThrough, now time.Time) bool { return now.After(closedThrough) }

// ClosedThrough is how far a workspace's books are closed: the latest
// status.closedThrough of its PeriodCloses in phase Closed, and that
// close's name; ok is false while none is.
func ClosedThrough(closes []billingv1.PeriodClose) (through time.Time, name string, ok bool) {
	for i := range closes {
		c := &closes[i]
		if c.Status.Phase != billingv1.PeriodCloseClosed || c.Status.ClosedThrough == nil {
			continue
		}
		if t := c.Status.ClosedThrough.Time; !ok || t.After(through) || (t.Equal(through) && c.Name < name) {
			through, name, ok = t, c.Name, true
		}
	}
	return through, name, ok
}

// InClosedPeriod reports whether a record dated at is in the closed span:
// at or before closedThrough.
func InClosedPeriod(at, closedThrough time.Time) bool { return !at.After(closedThrough) }
