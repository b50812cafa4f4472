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
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/schedule"
)

// scheduleInput is what a schedule's status is decided on: the moment,
// the workspace's default BillingProfile (nil: none) and whether the
// customer exists.
type scheduleInput struct {
	now            time.Time
	profile        *billingv1.BillingProfile
	customerExists bool
}

// decision is a schedule's status as decided, and the periods to issue
// before it is written.
type decision struct {
	status billingv1.InvoiceScheduleStatus
	issue  []schedule.Period
	// wait is how long until the next period comes due, 0 for never.
	wait time.Duration
}

// templateFault says why s's template cannot be issued, "" when it can:
// its amounts, taxes and allowances are computed as an invoice's are, with
// the workspace's default tax where it applies.
func templateFault(s *billingv1.InvoiceSchedule, profile *billingv1.BillingProfile) string {
	spec := schedule.InvoiceSpecOf(s, schedule.Period{})
	return specFault(&spec, profile)
}

// pendingItemFault says why an invoice of s's template with item as one
// more line cannot be issued, "" when it can (templateFault's rules).
func pendingItemFault(s *billingv1.InvoiceSchedule, profile *billingv1.BillingProfile, item *billingv1.LineItem) string {
	spec := schedule.InvoiceSpecOf(s, schedule.Period{})
	spec.Items = append(spec.Items, *item)
	return specFault(&spec, profile)
}

// specFault says why spec cannot be issued, "" when it can
// (schedule.SpecFault, with the profile's default tax).
func specFault(spec *billingv1.InvoiceSpec, profile *billingv1.BillingProfile) string {
	var defaultTax *billingv1.Tax
	if profile != nil {
		defaultTax = profile.Spec.DefaultTax
	}
	if err := schedule.SpecFault(spec, defaultTax); err != nil {
		return err.Error()
	}
	return ""
}

// factsDue returns the facts st holds whose events it does not carry yet,
// in the order they take sequences: invoice_schedule.stalled once it is
// Stalled (the first stall only: the event is kept when it recovers, and
// a later stall shows in the conditions alone), then
// invoice_schedule.completed once it is Completed.
func factsDue(st *billingv1.InvoiceScheduleStatus) []billingv1.EventType {
	var due []billingv1.EventType
	if meta.IsStatusConditionTrue(st.Conditions, billingv1.ConditionStalled) &&
		billingv1.FindEvent(st.Events, billingv1.EventTypeInvoiceScheduleStalled) == nil {
		due = append(due, billingv1.EventTypeInvoiceScheduleStalled)
	}
	if st.Phase == billingv1.SchedulePhaseCompleted &&
		billingv1.FindEvent(st.Events, billingv1.EventTypeInvoiceScheduleCompleted) == nil {
		due = append(due, billingv1.EventTypeInvoiceScheduleCompleted)
	}
	return due
}

// scheduleStatus decides s's status at in.now: the periods to issue now
// (the controller creates their invoices before it writes the status),
// the skipped ones, the next period and when it comes due, the phase and
// the conditions. It reads nothing else and changes nothing.
func scheduleStatus(s *billingv1.InvoiceSchedule, in scheduleInput) decision {
	st := *s.Status.DeepCopy()
	st.ObservedGeneration = s.Generation
	conds := reconciler.Conditions{List: &st.Conditions, Generation: s.Generation, Now: in.now}
	out := decision{}
	if st.Phase == billingv1.SchedulePhaseCompleted || st.Phase == billingv1.SchedulePhaseCancelled {
		out.status = st
		return out
	}
	if s.Spec.Cancelled {
		st.Phase, st.NextPeriod, st.NextIssueAt, st.ActiveSince = billingv1.SchedulePhaseCancelled, nil, nil, nil
		conds.Ready(billingv1.ReasonScheduleCancelled, "Cancelled: no period is issued any more; its invoices stay")
		out.status = st
		return out
	}
	cal, policy, err := schedule.CalendarOf(&s.Spec, billing.SettingsOf(in.profile).TimeZone)
	if err != nil {
		st.Phase = billingv1.SchedulePhaseInvalid
		conds.NotReady(billingv1.ReasonInvalidSchedule, err.Error(), billingv1.ConditionStalled)
		out.status = st
		return out
	}
	if fault := templateFault(s, in.profile); fault != "" {
		st.Phase = billingv1.SchedulePhaseInvalid
		conds.NotReady(billingv1.ReasonInvalidTemplate, "The template cannot be issued: "+fault, billingv1.ConditionStalled)
		out.status = st
		return out
	}
	if !in.customerExists {
		st.Phase = billingv1.SchedulePhaseInvalid
		conds.NotReady(billingv1.ReasonCustomerNotFound,
			fmt.Sprintf("Customer %q does not exist in this workspace", s.Spec.CustomerRef.Name), billingv1.ConditionStalled)
		out.status = st
		return out
	}
	if s.Spec.Paused {
		st.Phase, st.ActiveSince, st.NextIssueAt = billingv1.SchedulePhasePaused, nil, nil
		conds.Set(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonPaused,
			"Paused: no period is issued until it resumes")
		meta.RemoveStatusCondition(&st.Conditions, billingv1.ConditionStalled)
		out.status = st
		return out
	}
	if st.ActiveSince == nil {
		st.ActiveSince = &metav1.Time{Time: in.now.Truncate(time.Second)}
	}
	next := schedule.NextIndex(cal, &st)
	plan := cal.Due(next, in.now, st.ActiveSince.Time, policy)
	out.issue = plan.Issue
	st.SkippedPeriods += int64(plan.Skipped)
	if plan.Completed {
		st.Phase, st.NextPeriod, st.NextIssueAt = billingv1.SchedulePhaseCompleted, nil, nil
		conds.Ready(billingv1.ReasonScheduleCompleted, "Every period of the schedule is issued or skipped")
		out.status = st
		return out
	}
	at := cal.IssueAt(plan.Next)
	st.Phase = billingv1.SchedulePhaseActive
	st.NextPeriod = &billingv1.InvoicingPeriod{Start: plan.Next.Start.String(), End: plan.Next.End.String()}
	st.NextIssueAt = &metav1.Time{Time: at.UTC()}
	conds.Ready(billingv1.ReasonScheduled, fmt.Sprintf("The next period's invoice is issued at %s", at.Format(time.RFC3339)))
	out.wait = max(at.Sub(in.now), time.Second)
	out.status = st
	return out
}
