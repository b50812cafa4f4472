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

package banking

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// BankTransactionReconciler matches each BankTransaction once and keeps
// its status with the Payment that records it.
type BankTransactionReconciler struct {
	// Client reads through the cache and writes.
	client.Client
	// APIReader reads a Payment the cache may not hold yet.
	APIReader client.Reader
	// Clock stamps the conditions.
	Clock clock.PassiveClock
	// Events hands a transaction its bank_transaction.unmatched and
	// bank_transaction.matched.
	Events reconciler.EventNumberer
}

var errNoBankEvents = errors.New("the BankTransaction reconciler needs Events")

// staleRead is how soon a transaction read stale from the cache is read
// again: the watch event of its last write is on its way.
const staleRead = 100 * time.Millisecond

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=banktransactions,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=banktransactions/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=create;get;list;watch

// Reconcile records the events of the facts the transaction's stored
// status holds (recordFacts), then decides its status: Matched once a
// Payment under its name records it (whoever created it); a transaction
// never looked at is decided now (decide) and, when it matches, its
// Payment is created first; the phase of one looked at before (Unmatched,
// Ignored) stays. The status is patched once, with an optimistic lock.
// The Payment's name is the transaction's: after a crash between its
// create and the status patch, the next attempt finds it and matches
// nothing else.
func (r *BankTransactionReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	t := &billingv1.BankTransaction{}
	if active, err := reconciler.GetActive(ctx, r.Client, req.NamespacedName, t); !active || err != nil {
		return reconcile.Result{}, err
	}
	before := t.DeepCopy()
	events, err := r.recordFacts(ctx, t)
	if errors.Is(err, numbering.ErrStale) {
		// The cache's copy of t was read before its last event was
		// written: read it again, no failure.
		return reconcile.Result{RequeueAfter: staleRead}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	t.Status.Events = events
	st, err := r.status(ctx, t)
	if err != nil {
		return reconcile.Result{}, err
	}
	t.Status = st
	if _, err := reconciler.PatchStatus(ctx, r.Client, before, t, client.MergeFromWithOptimisticLock{}); err != nil {
		return reconcile.Result{}, err
	}
	if len(factsDue(&t.Status)) > 0 {
		// The patch's own watch event brings the next pass, which records
		// them; this is in case it is missed.
		return reconcile.Result{RequeueAfter: time.Second}, nil
	}
	return reconcile.Result{}, nil
}

// status decides t's status (see Reconcile).
func (r *BankTransactionReconciler) status(ctx context.Context, t *billingv1.BankTransaction) (
	billingv1.BankTransactionStatus, error) {
	now := r.Clock.Now()
	p := &billingv1.Payment{}
	switch err := r.Get(ctx, client.ObjectKeyFromObject(t), p); {
	case err == nil:
		return r.withPayment(t, p, now), nil
	case !apierrors.IsNotFound(err):
		return t.Status, fmt.Errorf("getting payment %s: %w", t.Name, err)
	}
	if t.Status.Phase != "" {
		return withConditions(*t.Status.DeepCopy(), t.Generation, now), nil
	}
	v, loc, err := r.decide(ctx, t)
	if err != nil {
		return t.Status, err
	}
	if v.phase != billingv1.BankTransactionMatched {
		return withVerdict(t, v, now), nil
	}
	p, err = banktransfer.PaymentOf(t, v.invoice.Name, v.how, loc)
	if err != nil {
		return t.Status, err
	}
	err = r.Create(ctx, p)
	if apierrors.IsAlreadyExists(err) {
		// Created in the meantime, by hand, by another manager or before a
		// crash, and not in the cache yet: that one is the match.
		if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(t), p); err != nil {
			return t.Status, fmt.Errorf("getting payment %s: %w", t.Name, err)
		}
		return r.withPayment(t, p, now), nil
	}
	if err != nil {
		return t.Status, fmt.Errorf("creating payment %s of bank transaction %s: %w", p.Name, t.Name, err)
	}
	logf.FromContext(ctx).Info("Matched a bank transaction", "invoice", v.invoice.Name, "by", v.how)
	return withVerdict(t, v, now), nil
}

// withPayment is t's status with Payment p, named like t: Matched when p
// records t (its label names t), whoever created it; else Unmatched, for
// a person to mend, as nothing is ever matched around a payment of that
// name.
func (r *BankTransactionReconciler) withPayment(t *billingv1.BankTransaction, p *billingv1.Payment,
	now time.Time) billingv1.BankTransactionStatus {
	if how, ok := banktransfer.MatchOf(p, t.Name); ok {
		return withPayment(t, p, how, now)
	}
	return withVerdict(t, unmatched(billingv1.BankReasonNoMatch,
		"Payment %s exists and does not record this bank transaction (no label %s=%s): delete or rename it.",
		p.Name, billingv1.LabelBankTransaction, t.Name), now)
}

// decide reads what t's match is decided on through the cache (the
// workspace's profile, its period closes, the issued invoices it may
// name) and decides it; loc is the workspace's time zone.
func (r *BankTransactionReconciler) decide(ctx context.Context, t *billingv1.BankTransaction) (
	verdict, *time.Location, error) {
	profile, err := reconciler.WorkspaceProfile(ctx, r.Client, t.Namespace)
	if err != nil {
		return verdict{}, nil, err
	}
	loc, err := billing.TimeZone(profile)
	if err != nil {
		loc = time.UTC // the profile's own condition says so; a day is still a day
	}
	paidAt, err := banktransfer.PaidAt(t.Spec.Entry.BookingDate, loc)
	if err != nil {
		return verdict{}, nil, reconcile.TerminalError(err)
	}
	closes := &billingv1.PeriodCloseList{}
	if err := r.List(ctx, closes, client.InNamespace(t.Namespace)); err != nil {
		return verdict{}, nil, fmt.Errorf("listing the period closes of %s: %w", t.Namespace, err)
	}
	through, _, ok := billing.ClosedThrough(closes.Items)
	closed := ok && billing.InClosedPeriod(paidAt, through)
	v, err := decide(&t.Spec.Entry, closed, func(key string) ([]*billingv1.Invoice, error) {
		return r.invoicesByKey(ctx, t.Namespace, key)
	})
	return v, loc, err
}

// invoicesByKey lists the issued invoices of ns whose invoice key is key,
// from the cache's InvoiceKeyBucket index.
func (r *BankTransactionReconciler) invoicesByKey(ctx context.Context, ns, key string) ([]*billingv1.Invoice, error) {
	list := &billingv1.InvoiceList{}
	if err := r.List(ctx, list, client.InNamespace(ns),
		client.MatchingFields{index.InvoiceKeyBucket: index.KeyBucket(key)}); err != nil {
		return nil, fmt.Errorf("listing the invoices of %s by key: %w", ns, err)
	}
	var out []*billingv1.Invoice
	for i := range list.Items {
		inv := &list.Items[i]
		if inv.Status.Phase == billingv1.InvoiceIssued && banktransfer.InvoiceKey(inv.Status.Number) == key {
			out = append(out, inv)
		}
	}
	return out, nil
}

// recordFacts returns t's status.events with the events of the facts its
// stored status holds (factsDue), each taking its sequence; matched comes
// after unmatched when a transaction carries both.
func (r *BankTransactionReconciler) recordFacts(ctx context.Context, t *billingv1.BankTransaction) (
	[]billingv1.RecordedEvent, error) {
	events := t.Status.Events
	for _, fact := range factsDue(&t.Status) {
		after := reconciler.EventSequence(events, billingv1.EventTypeBankTransactionUnmatched)
		var err error
		if events, err = reconciler.RecordFact(ctx, r.Events, t, fact, after, events); err != nil {
			return t.Status.Events, err
		}
	}
	return events, nil
}

// SetupWithManager registers the reconciler, woken by its transactions and
// by the Payments that record them (labelled with their names).
func (r *BankTransactionReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.APIReader == nil, reconciler.ErrNoAPIReader),
		reconciler.Need(r.Events == nil, errNoBankEvents)); err != nil {
		return err
	}
	return reconciler.NewController(mgr, "banktransaction", concurrency, &billingv1.BankTransaction{}).
		Watches(&billingv1.Payment{}, handler.EnqueueRequestsFromMapFunc(transactionOfPayment)).
		Complete(reconciler.CountErrors("banktransaction", r))
}

// transactionOfPayment is the transaction a Payment records, by its label.
func transactionOfPayment(_ context.Context, obj client.Object) []reconcile.Request {
	name := obj.GetLabels()[billingv1.LabelBankTransaction]
	if name == "" || name != obj.GetName() {
		return nil
	}
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: obj.GetNamespace(), Name: name}}}
}
