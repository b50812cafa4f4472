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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestThroughResolvesToTheLastSecondItCloses(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, through string
		loc           *time.Location
		want          string
	}{
		{"a month closes through its end", "2026-10", time.UTC, "2026-10-31T23:59:59Z"},
		{"February of a leap year", "2028-02", time.UTC, "2028-02-29T23:59:59Z"},
		{"December closes through the year's end", "2026-12", time.UTC, "2026-12-31T23:59:59Z"},
		{"a month ends in the workspace's time zone", "2026-10", berlin, "2026-10-31T22:59:59Z"},
		{"a day closes through its end", "2026-10-15", time.UTC, "2026-10-15T23:59:59Z"},
		{"a day ends in the workspace's time zone", "2026-07-15", berlin, "2026-07-15T21:59:59Z"},
		{"an instant closes through itself", "2026-10-15T12:00:00Z", berlin, "2026-10-15T12:00:00Z"},
		{"an instant's offset is its own", "2026-10-15T12:00:00+02:00", time.UTC, "2026-10-15T10:00:00Z"},
		{"an instant's fraction is dropped", "2026-10-15T12:00:00.9Z", time.UTC, "2026-10-15T12:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveThrough(tc.through, tc.loc)
			if err != nil {
				t.Fatal(err)
			}
			if got.UTC().Format(time.RFC3339) != tc.want {
				t.Errorf("ResolveThrough(%q) = %s, want %s", tc.through, got.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
}

func TestThroughThatIsNoMomentIsRefused(t *testing.T) {
	for _, through := range []string{"", "2026", "2026-13", "2026-02-30", "2026-10-15T25:00:00Z", "2026-10-15 12:00", "October"} {
		if _, err := ResolveThrough(through, time.UTC); !errors.Is(err, ErrInvalidThrough) {
			t.Errorf("ResolveThrough(%q) = %v, want ErrInvalidThrough", through, err)
		}
	}
}

func TestTheTimeZoneIsTheProfilesOrUTC(t *testing.T) {
	if loc, err := TimeZone(nil); err != nil || loc != time.UTC {
		t.Errorf("no profile: %v, %v", loc, err)
	}
	p := &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{TimeZone: "America/New_York"}}
	if loc, err := TimeZone(p); err != nil || loc.String() != "America/New_York" {
		t.Errorf("New York: %v, %v", loc, err)
	}
	p.Spec.TimeZone = "Mars/Olympus"
	if _, err := TimeZone(p); err == nil {
		t.Error("an unknown zone was taken")
	}
}

func TestTheWorkspaceIsClosedThroughItsLatestClose(t *testing.T) {
	at := func(s string) *metav1.Time {
		t, _ := time.Parse(time.RFC3339, s)
		return &metav1.Time{Time: t}
	}
	closes := []billingv1.PeriodClose{
		{ObjectMeta: metav1.ObjectMeta{Name: "sept"}, Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: at("2026-09-30T23:59:59Z")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "oct"}, Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: at("2026-10-31T23:59:59Z")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "later"}, Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodClosePending, ClosedThrough: at("2026-12-31T23:59:59Z")}},
	}
	through, name, ok := ClosedThrough(closes)
	if !ok || name != "oct" || through.Format(time.RFC3339) != "2026-10-31T23:59:59Z" {
		t.Errorf("ClosedThrough = %s, %s, %v", through, name, ok)
	}
	if _, _, ok := ClosedThrough(closes[2:]); ok {
		t.Error("a pending close closed the workspace")
	}
	if !InClosedPeriod(at("2026-10-31T23:59:59Z").Time, through) || InClosedPeriod(at("2026-11-01T00:00:00Z").Time, through) {
		t.Error("the last second is closed, the next one is open")
	}
}
