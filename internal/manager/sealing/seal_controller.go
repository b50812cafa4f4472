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
	"errors"
	"fmt"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// SealReconciler moves the settled records of each closed workspace into
// LedgerSeals (docs/ledger.md), one workspace at a time: its requests are
// keyed by namespace (sealRequest), so every change that may make a
// family sealable coalesces into one reconcile of its workspace, and the
// workqueue never runs two of one workspace at once.
//
// Each reconcile first finishes what an interrupted one left (finishMoves:
// a seal without its ledger.sealed event gets it; a live record that a
// verified seal holds, by name and uid, is labelled and deleted, never
// sealed again), then seals the workspace's sealable families
// (sealFamilies) while there are any.
type SealReconciler struct {
	// Client reads through the cache and writes the seal's status.
	client.Client
	// Writer makes the sealing's writes: creates the seals, labels and
	// deletes the originals and records the seals' events. It is a client
	// of its own (its user agent says "sealing") whose requests the
	// "sealing" FlowSchema (config/apf) puts at a low priority.
	Writer client.Client
	// APIReader reads a seal back from the API server, never the cache,
	// and the records to seal as the API server stores them.
	APIReader client.Reader
	Clock     clock.PassiveClock
	// Events hands out the workspace's event sequences: ledger.sealed.
	Events reconciler.EventNumberer
	// Sealed is what the workspace's seals hold.
	Sealed *SealedRecords
	// PayloadBytes is the encoded payload a seal aims at; 0 means
	// seal.MaxPayloadBytes (tests make it smaller).
	PayloadBytes int
	// Journals trim the workspace's numbering journals (invoice numbers,
	// credit note numbers, events: numbering.Allocator's Trim) before a
	// seal is made: a record is never deleted while a journal names it.
	Journals []JournalTrimmer
}

// JournalTrimmer trims a workspace's numbering journal.
type JournalTrimmer interface {
	Trim(ctx context.Context, namespace string) error
}

// retrySealing is how long a workspace waits when a family that looked
// sealable in the cache was not yet when read live.
const retrySealing = 5 * time.Second

// sealRequestName is the name of every sealing request: the request is
// the workspace's (its namespace), not an object's.
const sealRequestName = "sealing"

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=ledgerseals,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=ledgerseals/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices;creditnotes;payments,verbs=get;list;watch;patch;deletecollection
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications;writeoffs,verbs=get;list;watch;patch;deletecollection
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=refunds;emails,verbs=get;list;watch;patch;deletecollection
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoicesequences,verbs=get

// errSealBroken says a seal of the workspace did not verify: nothing of the
// workspace is sealed or deleted any more.
var errSealBroken = errors.New("a seal of the workspace does not verify")

// Reconcile seals one workspace (req.Namespace).
func (r *SealReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ns := req.Namespace
	log := logf.FromContext(ctx).WithValues("namespace", ns)
	seals, broken, err := r.Sealed.Chain(ctx, ns)
	if err != nil {
		return ctrl.Result{}, err
	}
	if broken != nil {
		// Should never happen: a seal is written once and verified
		// before any original goes. Stop for good; a person looks.
		log.Error(broken, "The workspace's chain of seals is broken; sealing stops for it")
		return ctrl.Result{}, nil
	}
	if err := r.finishMoves(ctx, ns, seals); err != nil {
		return ctrl.Result{}, r.stopIfBroken(ctx, err)
	}
	through, closed, err := r.closedThrough(ctx, ns)
	if err != nil || !closed {
		return ctrl.Result{}, err
	}
	// Each seal's originals are deleted in the background while the next
	// seal is made (moveTails); the reconcile ends once they are gone.
	tails := &moveTails{}
	for {
		made, deferred, err := r.sealNext(ctx, ns, through, tails)
		if err == nil && made && !deferred {
			continue
		}
		if tailErr := tails.wait(); err == nil {
			err = tailErr
		}
		if err != nil {
			return ctrl.Result{}, r.stopIfBroken(ctx, err)
		}
		if deferred {
			return ctrl.Result{RequeueAfter: retrySealing}, nil
		}
		return ctrl.Result{}, nil
	}
}

// stopIfBroken logs and swallows errSealBroken (nothing is retried: the
// workspace's chain needs a person), and returns any other error.
func (r *SealReconciler) stopIfBroken(ctx context.Context, err error) error {
	if errors.Is(err, errSealBroken) {
		logf.FromContext(ctx).Error(err, "A seal read back does not verify; sealing stops for the workspace")
		return nil
	}
	return err
}

// closedThrough is how far the workspace's books are closed
// (billing.ClosedThrough over its PeriodCloses in the cache).
func (r *SealReconciler) closedThrough(ctx context.Context, ns string) (time.Time, bool, error) {
	closes := &billingv1.PeriodCloseList{}
	if err := r.List(ctx, closes, client.InNamespace(ns)); err != nil {
		return time.Time{}, false, fmt.Errorf("listing the period closes of %s: %w", ns, err)
	}
	through, _, ok := billing.ClosedThrough(closes.Items)
	return through, ok, nil
}

// payloadBytes is the encoded payload a seal aims at.
func (r *SealReconciler) payloadBytes() int {
	if r.PayloadBytes > 0 {
		return r.PayloadBytes
	}
	return seal.MaxPayloadBytes
}

// sealRequest maps any object to its workspace's sealing request.
func sealRequest(_ context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: obj.GetNamespace(), Name: sealRequestName}}}
}

// settledRecord says whether obj is a record in a state that may make its
// family sealable: a closed PeriodClose, an invoice paid, void or written
// off, a final record of another kind a seal holds; or a LedgerSeal (a
// seal still to finish).
func settledRecord(obj client.Object) bool {
	s, ok := obj.(billingv1.Settled)
	return ok && s.Settled()
}

// settles is the predicate of the sealing's watches: an object created or
// changed (beyond bookkeeping) into a settled state (settledRecord).
var settles = predicate.Funcs{
	CreateFunc: func(e event.CreateEvent) bool { return settledRecord(e.Object) },
	UpdateFunc: func(e event.UpdateEvent) bool {
		return settledRecord(e.ObjectNew) && trim.ChangedBeyondBookkeeping.Update(e)
	},
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// SetupWithManager registers the sealing controller: its requests are
// workspaces, up to concurrency of them at once (0: one).
func (r *SealReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.APIReader == nil, reconciler.ErrNoAPIReader),
		reconciler.Need(r.Events == nil, reconciler.ErrNoEvents),
		reconciler.Need(r.Writer == nil || r.Sealed == nil, errors.New("the sealing reconciler needs a Writer and Sealed"))); err != nil {
		return err
	}
	b := ctrl.NewControllerManagedBy(mgr).Named("sealing").
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: concurrency})
	watched := []client.Object{&billingv1.PeriodClose{}, &billingv1.LedgerSeal{}}
	for _, k := range sealKinds {
		watched = append(watched, k.New())
	}
	for _, obj := range watched {
		b = b.Watches(obj, handler.EnqueueRequestsFromMapFunc(sealRequest), builder.WithPredicates(settles))
	}
	return b.Complete(reconciler.CountErrors("sealing", r))
}
