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

package sealing

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestAutoCloseDue(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		days      int32
		loc       *time.Location
		now       time.Time
		wantMonth string
		wantNext  time.Time
	}{
		{name: "the day a month's close moment comes, that month is due",
			days: 5, loc: time.UTC, now: time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC),
			wantMonth: "2026-10", wantNext: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)},
		{name: "a second before it, the month before is the latest due",
			days: 5, loc: time.UTC, now: time.Date(2026, 11, 5, 23, 59, 59, 0, time.UTC),
			wantMonth: "2026-09", wantNext: time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)},
		{name: "ninety days after the end reaches back three months",
			days: 90, loc: time.UTC, now: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
			wantMonth: "2026-07", wantNext: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)},
		{name: "the close moment is midnight in the workspace's zone",
			days: 1, loc: berlin, now: time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC),
			wantMonth: "2026-10", wantNext: time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)},
		{name: "an hour earlier in UTC it is not there yet",
			days: 1, loc: berlin, now: time.Date(2026, 11, 1, 22, 59, 59, 0, time.UTC),
			wantMonth: "2026-09", wantNext: time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			month, next := AutoCloseDue(tt.days, tt.loc, tt.now)
			g.Expect(month.Format("2006-01")).To(Equal(tt.wantMonth))
			g.Expect(next).To(BeTemporally("==", tt.wantNext))
		})
	}
}

func TestAutoCloseCreatesOneCloseForTheLatestDueMonthUnlessItIsClosed(t *testing.T) {
	at := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
	octEnd := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		profile    *billingv1.BillingProfile
		closed     *billingv1.PeriodClose
		wantCloses []string
		wantWait   time.Duration
	}{
		{name: "a due month is closed by auto-YYYY-MM",
			profile:    builder.BillingProfile("ns", "default", builder.WithCloseMonthsAfterDays(5)),
			wantCloses: []string{"auto-2026-10"}, wantWait: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC).Sub(at)},
		{name: "a workspace closed through the month's end gets no close",
			profile:    builder.BillingProfile("ns", "default", builder.WithCloseMonthsAfterDays(5)),
			closed:     builder.ClosedPeriodClose("ns", "manual", metav1.NewTime(octEnd)),
			wantCloses: []string{"manual"}, wantWait: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC).Sub(at)},
		{name: "a workspace closed through an earlier moment is closed further",
			profile:    builder.BillingProfile("ns", "default", builder.WithCloseMonthsAfterDays(5)),
			closed:     builder.ClosedPeriodClose("ns", "manual", metav1.NewTime(octEnd.Add(-time.Hour))),
			wantCloses: []string{"auto-2026-10", "manual"}, wantWait: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC).Sub(at)},
		{name: "without closeMonthsAfterDays nothing is closed",
			profile: builder.BillingProfile("ns", "default")},
		{name: "a profile of another name closes nothing",
			profile: builder.BillingProfile("ns", "other", builder.WithCloseMonthsAfterDays(5))},
		{name: "an unknown zone closes nothing",
			profile: builder.BillingProfile("ns", "default", builder.WithCloseMonthsAfterDays(5), builder.WithTimeZone("Mars/Olympus"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			c := managertest.ClosesClient(tc.profile)
			if tc.closed != nil {
				g.Expect(c.Create(context.Background(), tc.closed)).To(Succeed())
			}
			for range 2 { // twice: the second finds it made, and creates nothing more
				wait, err := AutoClose(context.Background(), c, tc.profile, at)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(wait).To(Equal(tc.wantWait))
			}
			closes := &billingv1.PeriodCloseList{}
			g.Expect(c.List(context.Background(), closes)).To(Succeed())
			var names []string
			for _, pc := range closes.Items {
				names = append(names, pc.Name)
				if pc.Name == "auto-2026-10" {
					g.Expect(pc.Spec.Through).To(Equal("2026-10"))
				}
			}
			g.Expect(names).To(ConsistOf(tc.wantCloses))
		})
	}
}
