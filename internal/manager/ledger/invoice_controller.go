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

package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
)

// InvoiceReconciler decides whether each Invoice can be issued and keeps its
// status: Issued once its customer exists, with the workspace's next number,
// and Invalid while the customer does not exist or when the total is too
// large.
type InvoiceReconciler struct {
	client.Client
	Recorder events.EventRecorder
	// Clock tells when a condition changed.
	Clock clock.PassiveClock
	// Numbers hands out each workspace's invoice sequences and issue times
	// (a *numbering.Allocator).
	Numbers Numberer
	// Events hands out the sequences of each workspace's event sequence (a
	// *numbering.Allocator of the "events" series): invoice.issued with the
	// number, then invoice.paid, invoice.voided and invoice.overdue.
	Events reconciler.EventNumberer
	// Sealed knows the workspace's sealed records: an invoice re-created
	// with a sealed invoice's name is Invalid (AlreadySealed) and takes
	// no number (nil: nothing is sealed).
	Sealed *sealing.SealedRecords
	// Profiles reads the workspace's profile from the API server when the
	// cache has none yet (reconciler.IssuingProfile); nil: the cache alone.
	Profiles *reconciler.LiveProfiles
}

// Numberer hands out invoice sequences: numbering.Allocator's contract.
type Numberer interface {
	Assign(ctx context.Context, namespace, name string, uid types.UID) (numbering.Assignment, error)
}

// retryNumbering is how long an invoice waits when its workspace's journal
// is full or its sequence contended: both clear by themselves within moments.
const retryNumbering = time.Second

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=customers,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=billingprofiles,verbs=get;list;watch
// Events are recorded on transitions only, so the same event never repeats
// for one object and needs no patch (a repeat would be a series).
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create

// Reconcile computes an invoice's status afresh from its spec and its
// customer (invoiceStatus); an invoice being issued also takes its number
// (numberedStatus). The status is patched once, when it changed: an invoice
// becomes Issued together with its number, or not at all.
func (r *InvoiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	inv := &billingv1.Invoice{}
	if active, err := reconciler.GetActive(ctx, r.Client, req.NamespacedName, inv); !active || err != nil {
		return ctrl.Result{}, err
	}
	if inv.Status.Phase != billingv1.InvoiceIssued {
		if why, err := sealing.AlreadySealed(ctx, r.Sealed, inv); err != nil || why != nil {
			if err != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{}, r.refuseSealed(ctx, inv, why)
		}
	}

	customer, err := r.customerToBill(ctx, inv)
	if err != nil {
		return ctrl.Result{}, err
	}
	profile, err := r.profileToIssue(ctx, inv)
	if err != nil {
		return ctrl.Result{}, err
	}
	before := inv.DeepCopy()
	now := r.Clock.Now()
	inv.Status = invoiceStatus(inv, customer, profile, now)
	if needsNumber(&inv.Status) {
		status, err := r.number(ctx, inv, customer, profile, before.Status.Phase == billingv1.InvoiceIssued)
		if numberingBusy(err) {
			// The invoice stays as it was and is retried shortly.
			logf.FromContext(ctx).V(1).Info("Waiting for an invoice number", "reason", err.Error())
			return ctrl.Result{RequeueAfter: retryNumbering}, nil
		}
		if err != nil {
			return ctrl.Result{}, err
		}
		inv.Status = status
	}
	// The ledger is kept as it is (the credit note and payment reconcilers
	// enter into it); the balance is recomputed from it, so that it is set
	// when the invoice is issued and flips to overdue at dueAt.
	balance, err := billing.LedgerBalance(inv, now)
	if err != nil {
		return ctrl.Result{}, err
	}
	inv.Status.Balance = balance
	inv.Status.Display = invoiceDisplay(inv)
	result := ctrl.Result{RequeueAfter: untilOverdue(inv, balance, now)}
	// The facts the invoice has reached take their events, in the same
	// patch: an invoice is never seen numbered without its invoice.issued.
	waiting, err := r.recordEvents(ctx, inv)
	if numberingBusy(err) {
		logf.FromContext(ctx).V(1).Info("Waiting for an event sequence", "reason", err.Error())
		return ctrl.Result{RequeueAfter: retryNumbering}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if waiting && (result.RequeueAfter == 0 || result.RequeueAfter > reconciler.RetryEvents) {
		result.RequeueAfter = reconciler.RetryEvents
	}
	// The optimistic lock makes a reconcile that read a stale invoice fail
	// and retry instead of overwriting a newer status: an issued invoice's
	// issuedAt and billTo are written exactly once.
	changed, err := reconciler.PatchStatus(ctx, r.Client, before, inv, client.MergeFromWithOptimisticLock{})
	if err != nil {
		return ctrl.Result{}, err
	}
	if !changed {
		return result, nil
	}
	r.recordTransition(ctx, before, inv)
	reconciler.ObserveIssued(before, inv)
	reconciler.ObserveEvents(before.Status.Events, inv.Status.Events)
	return result, nil
}

// refuseSealed patches inv, a re-creation of a sealed invoice (why),
// Invalid and Stalled: it takes no number and enters no ledger.
func (r *InvoiceReconciler) refuseSealed(ctx context.Context, inv *billingv1.Invoice, why *reconciler.Verdict) error {
	before := inv.DeepCopy()
	inv.Status.ObservedGeneration = inv.Generation
	invoiceConditions{status: &inv.Status, generation: inv.Generation, now: r.Clock.Now()}.
		invalid(why.Reason, why.Message, billingv1.ConditionStalled)
	changed, err := reconciler.PatchStatus(ctx, r.Client, before, inv, client.MergeFromWithOptimisticLock{})
	if changed {
		r.recordTransition(ctx, before, inv)
	}
	return err
}

// number returns the invoice's status (issued, computed by invoiceStatus)
// with its number: the sequence the allocator binds to the invoice,
// formatted with the workspace's profile (nil: none), the one its amounts
// were computed with. First, the customer's credit is applied to it when
// the profile says so (applyCreditOnIssue): before the invoice is Issued,
// so that a crash never leaves it issued without its application.
func (r *InvoiceReconciler) number(ctx context.Context, inv *billingv1.Invoice, customer *billingv1.Customer,
	profile *billingv1.BillingProfile, wasIssued bool) (billingv1.InvoiceStatus, error) {
	if err := r.applyCreditOnIssue(ctx, inv, customer, profile); err != nil {
		return inv.Status, err
	}
	if !wasIssued && mailing.SendsOnIssue(profile) {
		if err := mailing.QueueEmail(ctx, r.Client, mailing.OnIssueEmail(inv.Namespace, inv.Name, inv.Spec.CustomerRef.Name, true)); err != nil {
			return inv.Status, err
		}
	}
	assignment, err := r.Numbers.Assign(ctx, inv.Namespace, inv.Name, inv.UID)
	if err != nil {
		return inv.Status, fmt.Errorf("assigning an invoice number: %w", err)
	}
	status, err := numberedStatus(inv.Status, assignment, profile, wasIssued)
	if err != nil {
		return inv.Status, fmt.Errorf("formatting the invoice number: %w", err)
	}
	return status, nil
}

// numberingBusy reports whether err says the workspace's numbering is busy
// for a moment (its journal is full, or its sequence contended): a wait, not
// a failure.
func numberingBusy(err error) bool {
	return errors.Is(err, numbering.ErrJournalFull) || errors.Is(err, numbering.ErrContended) ||
		errors.Is(err, numbering.ErrStale)
}

// profileToIssue returns the workspace's profile for an invoice that is
// not issued yet or has no number (nil when the workspace has none), read
// live when the cache has none yet (reconciler.IssuingProfile). An
// issued, numbered invoice keeps what it was issued with, so the profile
// is not read.
func (r *InvoiceReconciler) profileToIssue(ctx context.Context, inv *billingv1.Invoice) (*billingv1.BillingProfile, error) {
	if inv.Status.Phase == billingv1.InvoiceIssued && inv.Status.Sequence != nil {
		return nil, nil
	}
	return reconciler.IssuingProfile(ctx, r.Client, r.Profiles, inv.Namespace)
}

// customerToBill returns the customer an invoice that is not yet issued
// references, or nil when it does not exist. An issued invoice keeps the
// billTo it was issued with, so its customer is not read.
func (r *InvoiceReconciler) customerToBill(ctx context.Context, inv *billingv1.Invoice) (*billingv1.Customer, error) {
	if inv.Status.Phase == billingv1.InvoiceIssued {
		return nil, nil
	}
	customer := &billingv1.Customer{}
	key := types.NamespacedName{Namespace: inv.Namespace, Name: inv.Spec.CustomerRef.Name}
	if err := r.Get(ctx, key, customer); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("getting customer %s: %w", key, err)
	}
	return customer, nil
}

// recordTransition records a Warning Event when the invoice cannot be issued
// (its phase or reason changed). Issuing is not an Event: the Ready
// condition and issuedAt say it, and at thousands of invoices a second an
// Event each would double the controller's writes to the API server and
// hold every one in client-go's event cache for minutes (see README,
// Performance).
func (r *InvoiceReconciler) recordTransition(ctx context.Context, before, after *billingv1.Invoice) {
	was := meta.FindStatusCondition(before.Status.Conditions, billingv1.ConditionReady)
	is := meta.FindStatusCondition(after.Status.Conditions, billingv1.ConditionReady)
	if is == nil || (was != nil && was.Status == is.Status && was.Reason == is.Reason) {
		return
	}
	logf.FromContext(ctx).Info("Invoice status changed", "phase", after.Status.Phase, "reason", is.Reason)
	if is.Status != metav1.ConditionTrue {
		r.Recorder.Eventf(after, nil, corev1.EventTypeWarning, is.Reason, "Reconcile", "%s", is.Message)
	}
}

// invoicesWaitingFor maps a Customer to the not yet issued Invoices that
// reference it, so an invoice applied before its customer converges as soon
// as the customer is created, without polling.
func (r *InvoiceReconciler) invoicesWaitingFor(ctx context.Context, obj client.Object) []reconcile.Request {
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(obj.GetNamespace()),
		client.MatchingFields{index.InvoiceCustomer: obj.GetName()}); err != nil {
		logf.FromContext(ctx).Error(err, "Listing invoices of customer failed", "customer", obj.GetName())
		return nil
	}
	return reconciler.Requests(invoices.Items, func(inv *billingv1.Invoice) bool {
		return inv.Status.Phase != billingv1.InvoiceIssued
	})
}

// invoicesAwaitingProfile maps the workspace's BillingProfile "default" to
// its invoices that are not issued yet: a new default tax or issuer tax id
// may issue them (InvalidTax, TaxIDRequired), without polling.
func (r *InvoiceReconciler) invoicesAwaitingProfile(ctx context.Context, obj client.Object) []reconcile.Request {
	if obj.GetName() != billingv1.DefaultBillingProfileName {
		return nil
	}
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(obj.GetNamespace()),
		client.MatchingFields{index.InvoiceAwaitingIssue: "true"}); err != nil {
		logf.FromContext(ctx).Error(err, "Listing invoices awaiting issue failed", "namespace", obj.GetNamespace())
		return nil
	}
	return reconciler.Requests(invoices.Items, nil)
}

// Errors of SetupWithManager for a reconciler that is missing a part.
var (
	errNoNumbers = errors.New("the reconciler needs Numbers")
)

// SetupWithManager registers the controller, reconciling up to concurrency
// invoices at once (0: the manager's default). The InvoiceCustomer index
// must be registered with the manager first (index.Setup); Setup does both.
func (r *InvoiceReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Recorder == nil, reconciler.ErrNoRecorder),
		reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.Numbers == nil, errNoNumbers), reconciler.Need(r.Events == nil, reconciler.ErrNoEvents)); err != nil {
		return err
	}
	return reconciler.NewController(mgr, "invoice", concurrency, &billingv1.Invoice{}, builder.WithPredicates(trim.ChangedBeyondBookkeeping)).
		Watches(&billingv1.Customer{},
			handler.EnqueueRequestsFromMapFunc(r.invoicesWaitingFor),
			// A new customer, or a change of its spec (a tax id), can
			// unblock an invoice; edits never rewrite issued invoices, and
			// deletion waits for them.
			builder.WithPredicates(predicate.Funcs{
				UpdateFunc: func(e event.UpdateEvent) bool {
					return e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration()
				},
				DeleteFunc: func(event.DeleteEvent) bool { return false },
			})).
		Watches(&billingv1.BillingProfile{},
			handler.EnqueueRequestsFromMapFunc(r.invoicesAwaitingProfile),
			// A new or changed profile can unblock an invoice; a deleted one
			// too (its default tax no longer applies).
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(reconciler.CountErrors("invoice", r))
}
