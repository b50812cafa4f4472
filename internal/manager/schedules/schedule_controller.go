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
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/schedule"
)

// InvoiceScheduleReconciler issues the invoices of each InvoiceSchedule.
type InvoiceScheduleReconciler struct {
	// Client reads through the cache and writes.
	client.Client
	// APIReader reads the schedule and an invoice of a period straight
	// from the API server.
	APIReader client.Reader
	// Clock tells which periods are due.
	Clock clock.PassiveClock
	// Events hands a schedule its invoice_schedule.stalled and
	// invoice_schedule.completed.
	Events reconciler.EventNumberer
}

var errNoScheduleEvents = errors.New("the InvoiceSchedule reconciler needs Events")

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoiceschedules,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoiceschedules/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=create;get

// Reconcile reads the schedule live (the cache may not hold this
// controller's last status yet, whose cursor says which periods are
// handled), records the events of the facts its status holds
// (recordFacts), decides its status (scheduleStatus), creates the invoice
// of each period due, and patches the status once with an optimistic lock.
// An invoice is created, never updated, under its period's name: after a
// crash between the creates and the patch, or with two managers, the
// next attempt finds the invoice and creates nothing.
func (r *InvoiceScheduleReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	s := &billingv1.InvoiceSchedule{}
	if active, err := reconciler.GetActive(ctx, r.APIReader, req.NamespacedName, s); !active || err != nil {
		return reconcile.Result{}, err
	}
	in, err := r.input(ctx, s)
	if err != nil {
		return reconcile.Result{}, err
	}
	before := s.DeepCopy()
	if s.Status.Events, err = r.recordFacts(ctx, s); err != nil {
		return reconcile.Result{}, err
	}
	d := scheduleStatus(s, in)
	for _, p := range d.issue {
		name, ours, err := r.issue(ctx, s, p, in.profile)
		if err != nil {
			return reconcile.Result{}, err
		}
		if !ours {
			d.status.Phase = billingv1.SchedulePhaseInvalid
			d.status.NextPeriod = &billingv1.InvoicingPeriod{Start: p.Start.String(), End: p.End.String()}
			// No watch tells when that invoice is renamed or deleted: look
			// again in an hour, without a hot loop.
			d.status.NextIssueAt, d.wait = nil, time.Hour
			reconciler.Conditions{List: &d.status.Conditions, Generation: s.Generation, Now: in.now}.NotReady(
				billingv1.ReasonInvoiceNameTaken,
				fmt.Sprintf("Invoice %q exists and was not issued by this schedule: rename or delete it", name),
				billingv1.ConditionStalled)
			break
		}
		d.status.IssuedCount++
		d.status.LastInvoice = name
	}
	s.Status = d.status
	if _, err := reconciler.PatchStatus(ctx, r.Client, before, s, client.MergeFromWithOptimisticLock{}); err != nil {
		return reconcile.Result{}, err
	}
	if len(factsDue(&s.Status)) > 0 && (d.wait == 0 || d.wait > time.Second) {
		// The patch's own watch event brings the next pass, which records
		// them; this is in case it is missed.
		d.wait = time.Second
	}
	return reconcile.Result{RequeueAfter: d.wait}, nil
}

// recordFacts returns s's status.events with the events of the facts its
// status, as stored, holds and does not carry yet (factsDue), each taking
// its sequence. Only a fact already written in the stored status takes a
// sequence, never one this reconcile is about to write: the stored status
// keeps it (a Completed schedule stays Completed, one that stalled has
// stalled), so the next attempt after a failed patch or a crash records
// the same fact with the same sequence, and no sequence is ever held by
// a fact that is never written.
func (r *InvoiceScheduleReconciler) recordFacts(ctx context.Context, s *billingv1.InvoiceSchedule) (
	[]billingv1.RecordedEvent, error) {
	events := s.Status.Events
	due := factsDue(&s.Status)
	if len(due) > 0 && r.Events == nil {
		return events, errNoScheduleEvents
	}
	for _, fact := range due {
		var err error
		if events, err = reconciler.RecordFact(ctx, r.Events, s, fact, 0, events); err != nil {
			return s.Status.Events, err
		}
	}
	return events, nil
}

// input reads what s's status is decided on through the cache: the
// workspace's default profile and s's customer.
func (r *InvoiceScheduleReconciler) input(ctx context.Context, s *billingv1.InvoiceSchedule) (scheduleInput, error) {
	in := scheduleInput{now: r.Clock.Now()}
	var err error
	if in.profile, err = reconciler.WorkspaceProfile(ctx, r.Client, s.Namespace); err != nil {
		return in, err
	}
	customer := &billingv1.Customer{}
	err = r.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: s.Spec.CustomerRef.Name}, customer)
	switch {
	case err == nil:
		in.customerExists = true
	case !apierrors.IsNotFound(err):
		return in, fmt.Errorf("getting customer %s of schedule %s: %w", s.Spec.CustomerRef.Name, s.Name, err)
	}
	return in, nil
}

// InvoiceName is the name of the invoice of the period of schedule that
// starts on start: <name>-<YYYYMMDD>.
func InvoiceName(name string, start schedule.Date) string {
	return name + "-" + start.Compact()
}

// issue creates the invoice of period p of s, with the pending items no
// invoice has taken (pending.go), unless it exists, and has its pending
// items take it. ours is false when an invoice of that name exists that s
// did not issue.
func (r *InvoiceScheduleReconciler) issue(ctx context.Context, s *billingv1.InvoiceSchedule, p schedule.Period,
	profile *billingv1.BillingProfile) (name string, ours bool, err error) {
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.Namespace, Name: InvoiceName(s.Name, p.Start),
			Labels: map[string]string{billingv1.LabelSchedule: s.Name}},
		Spec: schedule.InvoiceSpecOf(s, p),
	}
	items, err := r.pendingItems(ctx, s, profile, maxInvoiceItems-len(inv.Spec.Items))
	if err != nil {
		return inv.Name, false, err
	}
	withPendingItems(inv, items)
	err = r.Create(ctx, inv)
	if err == nil {
		return inv.Name, true, r.take(ctx, inv)
	}
	if !apierrors.IsAlreadyExists(err) {
		return inv.Name, false, fmt.Errorf("creating invoice %s of schedule %s: %w", inv.Name, s.Name, err)
	}
	// Created before (a crash, another manager): it took what it was
	// created with, not the items just read.
	existing := &billingv1.Invoice{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(inv), existing); err != nil {
		return inv.Name, false, fmt.Errorf("getting invoice %s of schedule %s: %w", inv.Name, s.Name, err)
	}
	if existing.Labels[billingv1.LabelSchedule] != s.Name {
		return inv.Name, false, nil
	}
	return inv.Name, true, r.take(ctx, existing)
}

// MaxConcurrency bounds how many schedules the controller reconciles at
// once, whatever the manager's --max-concurrent-reconciles. At 00:00 every
// schedule of an installation comes due together, and each reconcile is
// a handful of API calls in a row: with the manager's 256 workers, 10,000
// schedules due at once took the API server from other clients, whose
// creates through the adapter fell to a fifth of their rate for two
// minutes. With 32 they keep about three quarters of it while the invoices
// are issued at about half the speed (docs/performance.md, measurement 12):
// a midnight's invoices a few minutes later, and no one else waits.
const MaxConcurrency = 32

// SetupWithManager registers the controller, reconciling up to concurrency
// schedules at once, at most MaxConcurrency (0: the manager's default). A
// customer created or changed, or the workspace's profile, reconciles the
// schedules that wait on it.
func (r *InvoiceScheduleReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.Events == nil, errNoScheduleEvents)); err != nil {
		return err
	}
	if concurrency <= 0 || concurrency > MaxConcurrency {
		concurrency = MaxConcurrency
	}
	return reconciler.NewController(mgr, "invoiceschedule", concurrency, &billingv1.InvoiceSchedule{}).
		Watches(&billingv1.Customer{}, handler.EnqueueRequestsFromMapFunc(r.schedulesOfCustomer)).
		Watches(&billingv1.BillingProfile{}, handler.EnqueueRequestsFromMapFunc(r.schedulesOfWorkspace)).
		Complete(reconciler.CountErrors("invoiceschedule", r))
}

// schedulesOfWorkspace is every schedule in obj's namespace: the
// profile's time zone and default tax are theirs.
func (r *InvoiceScheduleReconciler) schedulesOfWorkspace(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.schedules(ctx, obj.GetNamespace(), func(*billingv1.InvoiceSchedule) bool { return true })
}

// schedulesOfCustomer is the schedules of the customer obj that wait on
// it (not Active, Paused, Completed or Cancelled).
func (r *InvoiceScheduleReconciler) schedulesOfCustomer(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.schedules(ctx, obj.GetNamespace(), func(s *billingv1.InvoiceSchedule) bool {
		return s.Spec.CustomerRef.Name == obj.GetName() &&
			(s.Status.Phase == billingv1.SchedulePhaseInvalid || s.Status.Phase == "")
	})
}

// schedules is the requests of the schedules of namespace that match.
func (r *InvoiceScheduleReconciler) schedules(ctx context.Context, namespace string,
	match func(*billingv1.InvoiceSchedule) bool) []reconcile.Request {
	list := &billingv1.InvoiceScheduleList{}
	if err := r.List(ctx, list, client.InNamespace(namespace)); err != nil {
		return nil
	}
	return reconciler.Requests(list.Items, match)
}
