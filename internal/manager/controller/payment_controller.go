/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

// PaymentReconciler records payments: it enters each in its invoice's
// ledger, which recomputes the invoice's balance. A payment is never
// rejected: what exceeds the remainder is recorded as overpaid.
type PaymentReconciler struct {
	client.Client
	// APIReader reads payments and invoices straight from the API server.
	APIReader client.Reader
	Clock     clock.PassiveClock
	// Events hands out the workspace's event sequences: a payment is
	// patched Recorded together with its payment.recorded event, which
	// comes after its invoice's invoice.issued. Nil records no events
	// (unit tests of other steps); Setup always sets it.
	Events EventNumberer
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments/status,verbs=patch

// Reconcile records one payment, in the steps of the credit notes'
// protocol (see CreditNoteReconciler.Reconcile): the payment and its
// invoice are read live; it waits while the invoice is missing or not
// issued, and stalls when its currency is not the invoice's
// (CurrencyMismatch). Unless the invoice's status.ledger.payments holds it
// already (name and uid: entered before a crash), it is entered with the
// balance recomputed, in one status patch of the invoice with an optimistic
// lock; a conflict starts again from the live reads. Just before, the
// payment is marked as being recorded (markRecording), which the retention
// policy reads. Last it is patched
// Recorded, split into applied and overpaid by the ledger alone
// (paymentSplit), so a retry records the same split, together with its
// payment.recorded event, once its invoice carries invoice.issued (the
// allocator binds the event to the payment, so a retry gets the same one).
func (r *PaymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	payment := &billingv1.Payment{}
	if err := r.Get(ctx, req.NamespacedName, payment); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.settled(payment) {
		return ctrl.Result{}, nil
	}
	for attempt := 1; ; attempt++ {
		err := r.reconcileOnce(ctx, req.NamespacedName)
		if !apierrors.IsConflict(err) || attempt >= maxLedgerAttempts {
			return ctrl.Result{}, err
		}
		logf.FromContext(ctx).V(1).Info("Retrying a payment after a conflict", "attempt", attempt)
	}
}

// settled reports whether payment is Recorded (with its event) or being
// deleted.
func (r *PaymentReconciler) settled(payment *billingv1.Payment) bool {
	recorded := payment.Status.Phase == billingv1.PaymentRecorded &&
		(r.Events == nil || billingv1.FindEvent(payment.Status.Events, billingv1.EventTypePaymentRecorded) != nil)
	return recorded || !payment.DeletionTimestamp.IsZero()
}

func (r *PaymentReconciler) reconcileOnce(ctx context.Context, key types.NamespacedName) error {
	payment := &billingv1.Payment{}
	if err := r.APIReader.Get(ctx, key, payment); err != nil {
		return client.IgnoreNotFound(err)
	}
	if r.settled(payment) {
		return nil
	}
	now := r.Clock.Now()
	inv, waiting, err := liveIssuedInvoice(ctx, r.APIReader, payment.Namespace, payment.Spec.InvoiceRef.Name,
		"the payment is recorded once it is")
	if err != nil {
		return err
	}
	if waiting == nil && currencyMismatch(payment, inv) {
		return r.pending(ctx, payment, now, billingv1.ReasonCurrencyMismatch, billingv1.ConditionStalled,
			fmt.Sprintf("The payment is in %s but invoice %q is in %s; create it in %s",
				payment.Spec.Currency, inv.Name, inv.Spec.Currency, inv.Spec.Currency))
	}
	if waiting != nil {
		return r.pending(ctx, payment, now, waiting.reason, billingv1.ConditionReconciling, waiting.message)
	}
	if inv.Status.Ledger == nil || !hasEntry(inv.Status.Ledger.Payments, payment.Name, string(payment.UID)) {
		if inv.Status.Ledger != nil && len(inv.Status.Ledger.Payments) >= billingv1.MaxLedgerEntries {
			return r.pending(ctx, payment, now, billingv1.ReasonLedgerFull, billingv1.ConditionStalled,
				fmt.Sprintf("Invoice %q's ledger holds %d payments, the most it can", inv.Name, billingv1.MaxLedgerEntries))
		}
		if err := r.markRecording(ctx, payment, inv); err != nil {
			return err
		}
		before := inv.DeepCopy()
		inv.Status.Ledger = enteredPayment(inv, payment)
		if inv.Status.Balance, err = billing.LedgerBalance(inv, now); err != nil {
			return err
		}
		patch := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
		if err := r.Status().Patch(ctx, inv, patch); err != nil {
			return fmt.Errorf("entering payment %s in invoice %s: %w", payment.Name, inv.Name, err)
		}
	}
	recorded := recordedPayment(payment, inv, now)
	if r.Events != nil {
		issued := eventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
		if issued == 0 {
			// Entered, but its event waits for the invoice's
			// invoice.issued; the invoice's change wakes it.
			return nil
		}
		assignment, err := r.Events.AssignFact(ctx, payment.Namespace, payment.Name, payment.UID,
			billingv1.EventTypePaymentRecorded, issued)
		if err != nil {
			return fmt.Errorf("assigning the payment.recorded event: %w", err)
		}
		recorded.Events = withEvent(recorded.Events, billingv1.EventTypePaymentRecorded, assignment)
	}
	return r.patchStatus(ctx, payment, func(s *billingv1.PaymentStatus) { *s = recorded })
}

// markRecording writes the invoice's currency and customer on the payment
// before it enters the invoice's ledger. From then on the retention policy
// (config/policy/payment_retention.yaml) refuses to delete the payment, so
// the ledger never counts a payment that no longer exists: a DELETE before
// this patch makes the patch fail (its optimistic lock), and one after it
// is refused.
func (r *PaymentReconciler) markRecording(ctx context.Context, payment *billingv1.Payment,
	inv *billingv1.Invoice) error {
	return r.patchStatus(ctx, payment, func(s *billingv1.PaymentStatus) {
		s.Currency = inv.Spec.Currency
		s.CustomerName = inv.Spec.CustomerRef.Name
	})
}

// pending patches payment Pending and not Ready for reason, with condition
// also (Reconciling or Stalled).
func (r *PaymentReconciler) pending(ctx context.Context, payment *billingv1.Payment, now time.Time,
	reason, also, message string) error {
	return r.patchStatus(ctx, payment, func(s *billingv1.PaymentStatus) {
		s.Phase = billingv1.PaymentPending
		s.ObservedGeneration = payment.Generation
		c := ledgerConditions{conditions: &s.Conditions, generation: payment.Generation, now: now}
		c.notReady(reason, message, also)
	})
}

// patchStatus patches payment's status as change makes it, with an
// optimistic lock, when it changes.
func (r *PaymentReconciler) patchStatus(ctx context.Context, payment *billingv1.Payment,
	change func(*billingv1.PaymentStatus)) error {
	before := payment.DeepCopy()
	change(&payment.Status)
	if equality.Semantic.DeepEqual(before.Status, payment.Status) {
		return nil
	}
	patch := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
	if err := r.Status().Patch(ctx, payment, patch); err != nil {
		return fmt.Errorf("patching payment status: %w", err)
	}
	observeEvents(before.Status.Events, payment.Status.Events)
	return nil
}

// SetupWithManager registers the controller, reconciling up to concurrency
// payments at once (0: the manager's default). A change of an invoice wakes
// the payments that wait for it (index.PaymentInvoice).
func (r *PaymentReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Clock == nil {
		return errNoClock
	}
	if r.APIReader == nil {
		return errNoAPIReader
	}
	if r.Events == nil {
		return errNoEvents
	}
	return ctrl.NewControllerManagedBy(mgr).
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: concurrency}).
		For(&billingv1.Payment{}, builder.WithPredicates(changedBeyondBookkeeping)).
		Watches(&billingv1.Invoice{}, handler.EnqueueRequestsFromMapFunc(r.paymentsOf),
			builder.WithPredicates(changedBeyondBookkeeping)).
		Named("payment").
		Complete(CountErrors("payment", r))
}

// paymentsOf maps an Invoice to its payments that are not recorded yet.
func (r *PaymentReconciler) paymentsOf(ctx context.Context, obj client.Object) []reconcile.Request {
	payments := &billingv1.PaymentList{}
	if err := r.List(ctx, payments, client.InNamespace(obj.GetNamespace()),
		client.MatchingFields{index.PaymentInvoice: obj.GetName()}); err != nil {
		logf.FromContext(ctx).Error(err, "Listing payments of invoice failed", "invoice", obj.GetName())
		return nil
	}
	var requests []reconcile.Request
	for i := range payments.Items {
		if !r.settled(&payments.Items[i]) {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&payments.Items[i])})
		}
	}
	return requests
}
