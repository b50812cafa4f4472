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

package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/manager/webhooks"
)

// CustomerReconciler keeps a finalizer on every Customer and releases it only
// once no Invoice references the customer any more, live or sealed, so
// deleting a customer that is still billed waits instead of orphaning its
// invoices. Sealed invoices hold it until their seals go, which they do
// only with the namespace: deleting a workspace always finishes. It also
// keeps the customer's credit ledger: it enters its overpaid invoices as
// sources (customer_sources.go) and folds the entries whose records are
// sealed into the carried credit (customer_fold.go).
type CustomerReconciler struct {
	client.Client
	// APIReader reads straight from the API server. Releasing the finalizer
	// cannot be undone, so that decision is never taken on a cache that may
	// not have seen the newest invoice yet.
	APIReader client.Reader
	Recorder  events.EventRecorder
	// Clock tells when a condition changed.
	Clock clock.PassiveClock
	// Sealed knows the workspace's sealed records: a customer with sealed
	// invoices is never deleted, as one with live invoices, and an entry
	// of its credit whose record is sealed is folded (nil: none are).
	Sealed *sealing.SealedRecords
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=customers,verbs=list;watch;patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=customers/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications;refunds,verbs=get;list;watch

// Reconcile ensures the finalizer while the customer lives, and releases it
// on deletion when no invoice references the customer. Otherwise it computes
// the customer's status afresh (customerStatus), with its credit ledger's
// new sources entered and its sealed entries folded (creditOf), and patches
// it once when it changed: with an optimistic lock when the credit
// changed.
func (r *CustomerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	customer := &billingv1.Customer{}
	if err := r.Get(ctx, req.NamespacedName, customer); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	if customer.DeletionTimestamp.IsZero() {
		if err := r.ensureFinalizer(ctx, customer); err != nil {
			return ctrl.Result{}, err
		}
	} else {
		if !controllerutil.ContainsFinalizer(customer, billingv1.CustomerFinalizer) {
			return ctrl.Result{}, nil // released; other finalizers are not ours to report
		}
		referenced, err := r.countReferencingInvoices(ctx, customer)
		if err != nil {
			return ctrl.Result{}, err
		}
		sealed, err := r.countSealedInvoices(ctx, customer)
		if err != nil {
			return ctrl.Result{}, err
		}
		referenced += sealed
		if referenced == 0 {
			return ctrl.Result{}, r.releaseFinalizer(ctx, customer)
		}
	}

	cached, err := r.cachedInvoices(ctx, customer)
	if err != nil {
		return ctrl.Result{}, err
	}
	invoices := len(cached)
	sealed, err := r.countSealedInvoices(ctx, customer)
	if err != nil {
		return ctrl.Result{}, err
	}
	invoices += sealed
	before := customer.DeepCopy()
	customer.Status = customerStatus(customer, invoices, r.Clock.Now())
	credited, err := creditOf(ctx, r.Client, r.seals(), customer, cached)
	if err != nil {
		return ctrl.Result{}, err
	}
	var lock []client.MergeFromOption
	if credited != nil {
		// The credit ledger is written by the credit applications and
		// refunds too: a write of it from a stale customer must fail, not
		// overwrite their uses.
		customer.Status.Credit, lock = credited, []client.MergeFromOption{client.MergeFromWithOptimisticLock{}}
	}
	changed, err := reconciler.PatchStatus(ctx, r.Client, before, customer, lock...)
	if changed {
		r.recordTransition(ctx, before, customer, invoices)
	}
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// creditOf returns customer's credit ledger with its new sources entered
// (creditWithSources) and the entries whose records seals hold folded into
// carried, once (foldSealed); nil when neither changed it. cached are the
// customer's invoices from the cache, c the cache.
func creditOf(ctx context.Context, c client.Reader, seals sealHoldings, customer *billingv1.Customer,
	cached []billingv1.Invoice) (*billingv1.CustomerCredit, error) {
	sealed, err := sealedCreditOf(ctx, seals, customer.Namespace, customer.Status.Credit, cached)
	if err != nil {
		return nil, err
	}
	credited, err := creditWithSources(ctx, c, customer.Status.Credit, cached, sealed)
	if err != nil {
		return nil, err
	}
	credit := customer.Status.Credit
	if credited != nil {
		credit = credited
	}
	folded, changed, err := foldSealed(ctx, c, customer.Namespace, credit, sealed, cached)
	if err != nil {
		return nil, err
	}
	if changed {
		logf.FromContext(ctx).V(1).Info("Folded the sealed entries of the customer's credit",
			"foldedThrough", folded.FoldedThrough, "sources", len(folded.Sources), "uses", len(folded.Uses))
		return folded, nil
	}
	return credited, nil
}

// seals is r.Sealed as the credit's fold asks it; nil when there is none.
func (r *CustomerReconciler) seals() sealHoldings {
	if r.Sealed == nil {
		return nil // not a nil *SealedRecords in an interface
	}
	return r.Sealed
}

// countSealedInvoices returns how many sealed invoices bill the customer:
// they are its invoices as much as live ones, and hold its deletion the
// same way (DeletionBlocked) for as long as their seals exist. Nobody
// deletes a seal but with its namespace (config/policy), so in a live
// workspace the customer stays; once its namespace is deleted the seals
// go, SealedRecords forgets them, a seal's deletion brings the customer
// back here (customersWaitingOnSeals) and its finalizer is released.
func (r *CustomerReconciler) countSealedInvoices(ctx context.Context, customer *billingv1.Customer) (int, error) {
	if r.Sealed == nil {
		return 0, nil
	}
	n, err := r.Sealed.SealedInvoicesOf(ctx, customer.Namespace, customer.Name)
	if err != nil {
		return 0, fmt.Errorf("counting the sealed invoices of customer %s: %w", customer.Name, err)
	}
	return n, nil
}

// ensureFinalizer adds the finalizer that holds the customer's deletion.
func (r *CustomerReconciler) ensureFinalizer(ctx context.Context, customer *billingv1.Customer) error {
	if controllerutil.ContainsFinalizer(customer, billingv1.CustomerFinalizer) {
		return nil
	}
	before := customer.DeepCopy()
	controllerutil.AddFinalizer(customer, billingv1.CustomerFinalizer)
	if err := r.Patch(ctx, customer, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("adding finalizer: %w", err)
	}
	return nil
}

// countReferencingInvoices asks the API server (not the cache) how many
// invoices reference the customer, using the CRD's selectable field.
func (r *CustomerReconciler) countReferencingInvoices(ctx context.Context, customer *billingv1.Customer) (int, error) {
	invoices := &billingv1.InvoiceList{}
	if err := r.APIReader.List(ctx, invoices, client.InNamespace(customer.Namespace),
		client.MatchingFieldsSelector{Selector: fields.OneTermEqualSelector(index.InvoiceCustomer, customer.Name)},
	); err != nil {
		return 0, fmt.Errorf("listing invoices of customer: %w", err)
	}
	return len(invoices.Items), nil
}

// cachedInvoices lists the invoices in the cache that reference the
// customer, without copying them: read them, never change them.
func (r *CustomerReconciler) cachedInvoices(ctx context.Context, customer *billingv1.Customer) (
	[]billingv1.Invoice, error) {
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(customer.Namespace), client.UnsafeDisableDeepCopy,
		client.MatchingFields{index.InvoiceCustomer: customer.Name}); err != nil {
		return nil, fmt.Errorf("listing invoices of customer: %w", err)
	}
	return invoices.Items, nil
}

// releaseFinalizer lets the API server finish deleting the customer.
func (r *CustomerReconciler) releaseFinalizer(ctx context.Context, customer *billingv1.Customer) error {
	before := customer.DeepCopy()
	controllerutil.RemoveFinalizer(customer, billingv1.CustomerFinalizer)
	if err := r.Patch(ctx, customer, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return client.IgnoreNotFound(fmt.Errorf("removing finalizer: %w", err))
	}
	logf.FromContext(ctx).Info("Customer released for deletion: no invoice references it")
	return nil
}

// recordTransition records a Warning Event when the customer's deletion
// becomes blocked by invoices.
func (r *CustomerReconciler) recordTransition(ctx context.Context, before, after *billingv1.Customer, invoices int) {
	was := meta.FindStatusCondition(before.Status.Conditions, billingv1.ConditionReady)
	is := meta.FindStatusCondition(after.Status.Conditions, billingv1.ConditionReady)
	if is == nil || is.Reason != billingv1.ReasonDeletionBlocked || (was != nil && was.Reason == is.Reason) {
		return
	}
	logf.FromContext(ctx).Info("Customer deletion blocked by invoices", "invoices", invoices)
	r.Recorder.Eventf(after, nil, corev1.EventTypeWarning, billingv1.ReasonDeletionBlocked, "Delete", "%s", is.Message)
}

// customerOfInvoice maps an Invoice to the Customer it references.
func customerOfInvoice(_ context.Context, obj client.Object) []reconcile.Request {
	inv, ok := obj.(*billingv1.Invoice)
	if !ok {
		return nil
	}
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: inv.Namespace, Name: inv.Spec.CustomerRef.Name}}}
}

// sealDeleted passes only the deletion of a LedgerSeal: seals never
// change, and a new one holds no invoice a customer was not held by
// already.
var sealDeleted = predicate.Funcs{
	CreateFunc:  func(event.CreateEvent) bool { return false },
	UpdateFunc:  func(event.UpdateEvent) bool { return false },
	DeleteFunc:  func(event.DeleteEvent) bool { return true },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// customersWaitingOnSeals maps a deleted LedgerSeal to the customers of its
// namespace whose deletion waits (they still carry the finalizer): the
// sealed invoices it held may have been all that held them.
func customersWaitingOnSeals(c client.Reader) handler.MapFunc {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		customers := &billingv1.CustomerList{}
		if err := c.List(ctx, customers, client.InNamespace(obj.GetNamespace()), client.UnsafeDisableDeepCopy); err != nil {
			logf.FromContext(ctx).Error(err, "Listing the customers of a deleted seal", "namespace", obj.GetNamespace())
			return nil
		}
		var requests []reconcile.Request
		for i := range customers.Items {
			customer := &customers.Items[i]
			if !customer.DeletionTimestamp.IsZero() && controllerutil.ContainsFinalizer(customer, billingv1.CustomerFinalizer) {
				requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(customer)})
			}
		}
		return requests
	}
}

// SetupWithManager registers the controller, reconciling up to concurrency
// customers at once (0: the manager's default). The InvoiceCustomer index
// must be registered with the manager first (index.Setup); Setup does both.
func (r *CustomerReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Recorder == nil {
		return reconciler.ErrNoRecorder
	}
	if r.Clock == nil {
		return reconciler.ErrNoClock
	}
	return reconciler.NewController(mgr, "customer", concurrency, &billingv1.Customer{}).
		// An invoice's customer changes when it is created or deleted; its
		// spec is immutable, so updates never move it to another customer.
		Watches(&billingv1.Invoice{},
			handler.EnqueueRequestsFromMapFunc(customerOfInvoice),
			builder.WithPredicates(overpaidInvoiceChanged)).
		Watches(&billingv1.CreditNote{}, handler.EnqueueRequestsFromMapFunc(overpaidRecordsCustomer(r.Client)),
			builder.WithPredicates(webhooks.GainedEvent)).
		Watches(&billingv1.Payment{}, handler.EnqueueRequestsFromMapFunc(overpaidRecordsCustomer(r.Client)),
			builder.WithPredicates(webhooks.GainedEvent)).
		Watches(&billingv1.CreditApplication{}, handler.EnqueueRequestsFromMapFunc(overpaidRecordsCustomer(r.Client)),
			builder.WithPredicates(webhooks.GainedEvent)).
		// A credit application or refund deleted, or labelled, by the
		// sealer lets its customer fold its use.
		Watches(&billingv1.CreditApplication{}, handler.EnqueueRequestsFromMapFunc(customerOfUse),
			builder.WithPredicates(sealedOrGone)).
		Watches(&billingv1.Refund{}, handler.EnqueueRequestsFromMapFunc(customerOfUse),
			builder.WithPredicates(sealedOrGone)).
		// A deleted seal (only ever with its namespace) lets go of the
		// customers its sealed invoices held; a new one may hold the
		// records behind their credit's entries.
		Watches(&billingv1.LedgerSeal{}, handler.EnqueueRequestsFromMapFunc(customersWaitingOnSeals(r.Client)),
			builder.WithPredicates(sealDeleted)).
		Watches(&billingv1.LedgerSeal{}, handler.EnqueueRequestsFromMapFunc(customersHeldBySeal(r.Client, r.seals())),
			builder.WithPredicates(sealMade)).
		Complete(reconciler.CountErrors("customer", r))
}
