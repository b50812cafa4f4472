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

package schedules

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestScheduleStatus(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	earlier := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	withStatus := func(st billingv1.InvoiceScheduleStatus) func(*billingv1.InvoiceSchedule) {
		return func(s *billingv1.InvoiceSchedule) { s.Status = st }
	}
	discount := int64(101)
	cases := []struct {
		name     string
		opts     []builder.InvoiceScheduleOption
		customer bool
		profile  *billingv1.BillingProfile
		phase    billingv1.InvoiceSchedulePhase
		reason   string // Ready's
		stalled  bool
		issue    []string
		next     string
		wait     time.Duration
	}{
		{name: "a new schedule issues the periods due since its start, all missed, by issue_all", customer: true,
			phase: billingv1.SchedulePhaseActive, reason: billingv1.ReasonScheduled,
			issue: []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"}, next: "2026-05-31", wait: 29*24*time.Hour + 12*time.Hour},
		{name: "an active schedule plans from its next period", customer: true,
			opts: []builder.InvoiceScheduleOption{withStatus(billingv1.InvoiceScheduleStatus{ActiveSince: &earlier,
				NextPeriod: &billingv1.InvoicingPeriod{Start: "2026-04-30", End: "2026-05-30"}})},
			phase: billingv1.SchedulePhaseActive, reason: billingv1.ReasonScheduled, issue: []string{"2026-04-30"}, next: "2026-05-31",
			wait: 29*24*time.Hour + 12*time.Hour},
		{name: "a schedule whose customer is missing stalls and issues nothing",
			phase: billingv1.SchedulePhaseInvalid, reason: billingv1.ReasonCustomerNotFound, stalled: true},
		{name: "a template with a discount above its line stalls and issues nothing", customer: true,
			opts: []builder.InvoiceScheduleOption{builder.WithTemplateItems(billingv1.LineItem{Description: "x",
				Quantity: billingv1.Units(1), Amount: 100, Discount: &billingv1.LineDiscount{Amount: &discount, Reason: "r"}})},
			phase: billingv1.SchedulePhaseInvalid, reason: billingv1.ReasonInvalidTemplate, stalled: true},
		{name: "a time zone that does not exist stalls", customer: true,
			opts:  []builder.InvoiceScheduleOption{func(s *billingv1.InvoiceSchedule) { s.Spec.TimeZone = "Mars/Olympus" }},
			phase: billingv1.SchedulePhaseInvalid, reason: billingv1.ReasonInvalidSchedule, stalled: true},
		{name: "the profile's zone applies when the schedule names none", customer: true,
			profile: builder.BillingProfile("ns", billingv1.DefaultBillingProfileName, builder.WithTimeZone("Pacific/Kiritimati")),
			opts: []builder.InvoiceScheduleOption{func(s *billingv1.InvoiceSchedule) { s.Spec.TimeZone = "" },
				withStatus(billingv1.InvoiceScheduleStatus{ActiveSince: &earlier,
					NextPeriod: &billingv1.InvoicingPeriod{Start: "2026-05-31", End: "2026-06-29"}})},
			// May 31 00:00 at UTC+14 is May 30 10:00 UTC.
			phase: billingv1.SchedulePhaseActive, reason: billingv1.ReasonScheduled, next: "2026-05-31", wait: 28*24*time.Hour + 22*time.Hour},
		{name: "a paused schedule issues nothing and forgets when it was active", customer: true,
			opts:  []builder.InvoiceScheduleOption{builder.Paused(), withStatus(billingv1.InvoiceScheduleStatus{ActiveSince: &earlier})},
			phase: billingv1.SchedulePhasePaused, reason: billingv1.ReasonPaused},
		{name: "a schedule at its end completes", customer: true,
			opts: []builder.InvoiceScheduleOption{func(s *billingv1.InvoiceSchedule) {
				two := int32(2)
				s.Spec.End = &billingv1.ScheduleEnd{Count: &two}
			}},
			phase: billingv1.SchedulePhaseCompleted, reason: billingv1.ReasonScheduleCompleted, issue: []string{"2026-01-31", "2026-02-28"}},
		{name: "a cancelled schedule issues nothing more", customer: true,
			opts: []builder.InvoiceScheduleOption{func(s *billingv1.InvoiceSchedule) { s.Spec.Cancelled = true },
				withStatus(billingv1.InvoiceScheduleStatus{ActiveSince: &earlier,
					NextPeriod: &billingv1.InvoicingPeriod{Start: "2026-04-30", End: "2026-05-30"}})},
			phase: billingv1.SchedulePhaseCancelled, reason: billingv1.ReasonScheduleCancelled},
		{name: "a completed schedule stays completed", customer: true,
			opts:  []builder.InvoiceScheduleOption{withStatus(billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseCompleted})},
			phase: billingv1.SchedulePhaseCompleted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := builder.InvoiceSchedule("ns", "rent", "acme", "2026-01-31", tc.opts...)
			d := scheduleStatus(s, scheduleInput{now: now, profile: tc.profile, customerExists: tc.customer})
			if d.status.Phase != tc.phase {
				t.Errorf("phase %q, want %q", d.status.Phase, tc.phase)
			}
			if ready := meta.FindStatusCondition(d.status.Conditions, billingv1.ConditionReady); tc.reason != "" &&
				(ready == nil || ready.Reason != tc.reason) {
				t.Errorf("Ready %+v, want reason %s", ready, tc.reason)
			}
			if got := meta.IsStatusConditionTrue(d.status.Conditions, billingv1.ConditionStalled); got != tc.stalled {
				t.Errorf("Stalled %v, want %v", got, tc.stalled)
			}
			var issued []string
			for _, p := range d.issue {
				issued = append(issued, p.Start.String())
			}
			if len(issued) != len(tc.issue) || (len(issued) > 0 && issued[len(issued)-1] != tc.issue[len(tc.issue)-1]) {
				t.Errorf("issues %v, want %v", issued, tc.issue)
			}
			if tc.next != "" && (d.status.NextPeriod == nil || d.status.NextPeriod.Start != tc.next) {
				t.Errorf("next period %+v, want one starting %s", d.status.NextPeriod, tc.next)
			}
			if d.wait != tc.wait {
				t.Errorf("waits %v, want %v", d.wait, tc.wait)
			}
			if tc.phase == billingv1.SchedulePhasePaused && d.status.ActiveSince != nil {
				t.Error("a paused schedule keeps activeSince: its resume would not count the periods passed meanwhile as missed")
			}
		})
	}
}

func TestFactsDue(t *testing.T) {
	stalled := []metav1.Condition{{Type: billingv1.ConditionStalled, Status: metav1.ConditionTrue, Reason: billingv1.ReasonCustomerNotFound}}
	recovered := []metav1.Condition{{Type: billingv1.ConditionStalled, Status: metav1.ConditionFalse, Reason: billingv1.ReasonScheduled}}
	event := func(t billingv1.EventType, seq int64) billingv1.RecordedEvent {
		return billingv1.RecordedEvent{Type: t, Sequence: seq}
	}
	cases := []struct {
		name   string
		status billingv1.InvoiceScheduleStatus
		want   []billingv1.EventType
	}{
		{name: "an active schedule has reached no fact",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseActive}},
		{name: "a stalled schedule without its event is due invoice_schedule.stalled",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseInvalid, Conditions: stalled},
			want:   []billingv1.EventType{billingv1.EventTypeInvoiceScheduleStalled}},
		{name: "a schedule stalled again keeps its first stall's event and takes no second",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseInvalid, Conditions: stalled,
				Events: []billingv1.RecordedEvent{event(billingv1.EventTypeInvoiceScheduleStalled, 4)}}},
		{name: "a schedule no longer stalled is due nothing",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseActive, Conditions: recovered}},
		{name: "a completed schedule without its event is due invoice_schedule.completed",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseCompleted},
			want:   []billingv1.EventType{billingv1.EventTypeInvoiceScheduleCompleted}},
		{name: "a completed schedule that stalled once is due only completed when it carries stalled",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseCompleted,
				Events: []billingv1.RecordedEvent{event(billingv1.EventTypeInvoiceScheduleStalled, 2)}},
			want: []billingv1.EventType{billingv1.EventTypeInvoiceScheduleCompleted}},
		{name: "a completed schedule carrying its event is due nothing",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseCompleted,
				Events: []billingv1.RecordedEvent{event(billingv1.EventTypeInvoiceScheduleCompleted, 9)}}},
		{name: "a cancelled schedule is due nothing: cancelling is the user's act, not a fact of the schedule",
			status: billingv1.InvoiceScheduleStatus{Phase: billingv1.SchedulePhaseCancelled}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := factsDue(&tc.status)
			if len(got) != len(tc.want) {
				t.Fatalf("due %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("due %v, want %v", got, tc.want)
				}
			}
		})
	}
}
