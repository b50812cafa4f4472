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
	"fmt"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// PeriodCloseReconciler closes a workspace's books through each
// PeriodClose's moment (docs/ledger.md#closing-the-books), once that
// moment is past, unless the workspace is already closed through it.
type PeriodCloseReconciler struct {
	// Client reads through the cache and writes.
	client.Client
	// APIReader reads the close straight from the API server before it
	// is decided.
	APIReader client.Reader
	// Clock tells whether a period has ended and when a close closed.
	Clock clock.PassiveClock
	// Events hands out the workspace's event sequences: a close is Closed
	// together with its period.closed event.
	Events reconciler.EventNumberer
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=billingprofiles,verbs=get;list;watch

// Reconcile computes the close's status afresh (periodCloseStatus) from
// the close read live and, from the cache, the workspace's time zone and
// its other closes. A close that
// closes takes its period.closed event from the workspace's event
// allocator, bound to the close's name and uid, and is patched Closed with
// the event in one status patch with an optimistic lock. After a crash
// between the two, the next reconcile gets the same event again and
// writes it; if by then another close has closed the workspace further,
// this one is patched Superseded, and the allocator's journal frees the
// sequence it held (a Superseded close never carries period.closed), so
// the events stay gapless. A final close (Closed, Superseded, Invalid) is
// never changed again.
func (r *PeriodCloseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if _, pending, err := r.get(ctx, r.Client, req.NamespacedName); !pending || err != nil {
		return ctrl.Result{}, err
	}
	// The cache may not hold this controller's own last patch yet: the
	// close is decided on a live read, so that one closed already takes no
	// second event.
	pc, pending, err := r.get(ctx, r.APIReader, req.NamespacedName)
	if !pending || err != nil {
		return ctrl.Result{}, err
	}
	in, err := r.input(ctx, pc.Namespace)
	if err != nil {
		return ctrl.Result{}, err
	}
	before := pc.DeepCopy()
	status, wait := periodCloseStatus(pc, in)
	if status.Phase == billingv1.PeriodCloseClosed {
		if status.Events, err = reconciler.RecordFact(ctx, r.Events, pc, billingv1.EventTypePeriodClosed, 0, status.Events); err != nil {
			return ctrl.Result{}, err
		}
	}
	pc.Status = status
	changed, err := reconciler.PatchStatus(ctx, r.Client, before, pc, client.MergeFromWithOptimisticLock{})
	if err != nil {
		return ctrl.Result{}, err
	}
	if changed {
		reconciler.ObserveEvents(before.Status.Events, pc.Status.Events)
	}
	return ctrl.Result{RequeueAfter: wait}, nil
}

// get reads the close named key through reader; pending is false when it
// is gone, final or being deleted.
func (r *PeriodCloseReconciler) get(ctx context.Context, reader client.Reader, key client.ObjectKey) (
	pc *billingv1.PeriodClose, pending bool, err error) {
	pc = &billingv1.PeriodClose{}
	if err := reader.Get(ctx, key, pc); err != nil {
		return pc, false, client.IgnoreNotFound(err)
	}
	return pc, !periodCloseFinal(pc) && pc.DeletionTimestamp.IsZero(), nil
}

// input reads what a close of namespace is decided on from the cache: the
// workspace's time zone (billing.TimeZone of its default BillingProfile,
// UTC without one) and its closes.
func (r *PeriodCloseReconciler) input(ctx context.Context, namespace string) (periodCloseInput, error) {
	in := periodCloseInput{now: r.Clock.Now()}
	var err error
	if in.zone, in.zoneErr, err = workspaceZone(ctx, r.Client, namespace); err != nil {
		return in, err
	}
	closes := &billingv1.PeriodCloseList{}
	if err := r.List(ctx, closes, client.InNamespace(namespace)); err != nil {
		return in, fmt.Errorf("listing the period closes of %s: %w", namespace, err)
	}
	in.closes = closes.Items
	return in, nil
}

// workspaceZone is the time zone of namespace's workspace, read through c:
// billing.TimeZone of its default BillingProfile (UTC without one); zoneErr
// says why the profile's zone is unknown, err why it could not be read.
func workspaceZone(ctx context.Context, c client.Reader, namespace string) (zone *time.Location, zoneErr, err error) {
	profile, err := reconciler.WorkspaceProfile(ctx, c, namespace)
	if err != nil {
		return nil, nil, err
	}
	zone, zoneErr = billing.TimeZone(profile)
	return zone, zoneErr, nil
}

// SetupWithManager registers the controller, reconciling up to concurrency
// closes at once (0: the manager's default).
func (r *PeriodCloseReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.Events == nil, reconciler.ErrNoEvents),
		reconciler.Need(r.APIReader == nil, reconciler.ErrNoAPIReader)); err != nil {
		return err
	}
	return reconciler.NewController(mgr, "periodclose", concurrency, &billingv1.PeriodClose{}).
		Complete(reconciler.CountErrors("periodclose", r))
}
