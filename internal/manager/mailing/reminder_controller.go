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

package mailing

import (
	"context"
	"slices"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// reminderGrace is how late a reminder is still sent: a manager that was
// down at a reminder's moment sends it when it is back within a week; a
// reminder later than that (a long outage, or a reminder added to the
// profile after its moment) is not sent, so that a new profile never
// floods customers with reminders about old invoices.
const reminderGrace = 7 * 24 * time.Hour

// ReminderReconciler queues each payment reminder of the workspace's
// profile for every invoice still open or partially paid at its moment
// (the due date plus the reminder's days), once: the reminder's Email has
// a name of its own per invoice and days. Like overdue, it is scheduled:
// each invoice is looked at again at its next reminder's moment, never by
// a poll over every invoice.
type ReminderReconciler struct {
	// Client reads invoices and the profile through the cache and creates
	// the Emails.
	client.Client
	Clock clock.PassiveClock
}

// Reconcile queues inv's reminders that are due and waits for the next.
func (r *ReminderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	inv := &billingv1.Invoice{}
	if err := r.Get(ctx, req.NamespacedName, inv); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !reminderDue(inv) || inv.Status.DueAt == nil || inv.Status.IssuedAt == nil {
		return ctrl.Result{}, nil
	}
	profile, err := reconciler.WorkspaceProfile(ctx, r.Client, inv.Namespace)
	if err != nil || profile == nil || profile.Spec.Email == nil {
		return ctrl.Result{}, err
	}
	now := r.Clock.Now()
	due, next := remindersAt(inv, profile.Spec.Reminders, now)
	for _, days := range due {
		if err := QueueEmail(ctx, r.Client, ReminderEmail(inv, days)); err != nil {
			return ctrl.Result{}, err
		}
	}
	if next.IsZero() {
		return ctrl.Result{}, nil
	}
	logf.FromContext(ctx).V(2).Info("Next reminder", "at", next)
	return ctrl.Result{RequeueAfter: next.Sub(now)}, nil
}

// remindersAt returns the reminders of inv due at now (their moment
// passed less than reminderGrace ago, and not before the invoice was
// issued) and the moment of the next one, zero when none is left.
func remindersAt(inv *billingv1.Invoice, reminders []billingv1.Reminder, now time.Time) (due []int32,
	next time.Time) {
	for _, rem := range reminders {
		at := inv.Status.DueAt.Add(time.Duration(rem.Days) * 24 * time.Hour)
		switch {
		case at.Before(inv.Status.IssuedAt.Time):
		case at.After(now):
			if next.IsZero() || at.Before(next) {
				next = at
			}
		case now.Sub(at) < reminderGrace:
			due = append(due, rem.Days)
		}
	}
	slices.Sort(due)
	return due, next
}

// invoicesOfProfile wakes every invoice of the workspace when its default
// profile changes: its reminders may have.
func (r *ReminderReconciler) invoicesOfProfile(ctx context.Context, obj client.Object) []reconcile.Request {
	if obj.GetName() != billingv1.DefaultBillingProfileName {
		return nil
	}
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(obj.GetNamespace())); err != nil {
		logf.FromContext(ctx).Error(err, "Listing the invoices to remind failed", "namespace", obj.GetNamespace())
		return nil
	}
	return reconciler.Requests(invoices.Items, reminderDue)
}

// SetupWithManager registers the reconciler with mgr.
func (r *ReminderReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Clock == nil {
		return reconciler.ErrNoClock
	}
	return reconciler.NewController(mgr, "reminder", concurrency, &billingv1.Invoice{}).
		Watches(&billingv1.BillingProfile{}, handler.EnqueueRequestsFromMapFunc(r.invoicesOfProfile)).
		Complete(reconciler.CountErrors("reminder", r))
}
