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
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// PaymentReconciler records payments: it enters each in its invoice's
// ledger, which recomputes the invoice's balance. What exceeds the
// remainder is recorded as overpaid; a payment dated in a closed period is
// rejected (Invalid, PeriodClosed) and never entered.
type PaymentReconciler struct {
	Parts
}

// payments is the ledger protocol's view of payments (ledger.go). A
// payment is rejected (Invalid) when it is dated in a closed period.
var payments = &ledgerKind[*billingv1.Payment]{
	name: "payment", object: &billingv1.Payment{}, list: &billingv1.PaymentList{},
	invoiceIndex: index.PaymentInvoice, fact: billingv1.EventTypePaymentRecorded,
	phases: recordPhases{pending: string(billingv1.PaymentPending), settled: string(billingv1.PaymentRecorded),
		rejected: string(billingv1.PaymentInvalid), invalid: string(billingv1.PaymentInvalid)},
	entries: func(l *billingv1.InvoiceLedger) *[]billingv1.LedgerEntry { return &l.Payments },
	fields: func(p *billingv1.Payment) recordFields {
		s := &p.Status
		return recordFields{(*string)(&s.Phase), &s.ObservedGeneration, &s.Conditions, &s.Currency, &s.CustomerName}
	},
	display: func(p *billingv1.Payment) {
		p.Status.Display = keptAmount(p.Status.Display, p.Status.Currency, &p.Spec.Amount)
	},
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses,verbs=list

// Reconcile records one payment, in the steps of the credit notes'
// protocol (see CreditNoteReconciler.Reconcile): the payment and its
// invoice are read live; it waits while the invoice is missing or not
// issued, and stalls when its currency is not the invoice's
// (CurrencyMismatch). A payment not entered yet whose paid_at (spec.paidAt,
// else its creation) is at or before the workspace's closed_through is
// patched Invalid, reason PeriodClosed, and never entered. Unless the invoice's status.ledger.payments holds it
// already (name and uid: entered before a crash), it is entered with the
// balance recomputed, in one status patch of the invoice with an optimistic
// lock; a conflict starts again from the live reads. Just before, the
// payment is marked as being recorded (ledgerKind.mark), which the retention
// policy reads. Last it is patched
// Recorded, split into applied and overpaid by the ledger alone
// (billing.PaymentSplit), so a retry records the same split, together with its
// payment.recorded event, once its invoice carries invoice.issued (the
// allocator binds the event to the payment, so a retry gets the same one).
func (r *PaymentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return payments.reconcile(ctx, r.Parts, req.NamespacedName, r.step)
}

// step enters a payment whose invoice is issued and records it.
func (r *PaymentReconciler) step(ctx context.Context, payment *billingv1.Payment, inv *billingv1.Invoice,
	now time.Time) (ctrl.Result, error) {
	if mismatch := payments.currencyMismatch(payment.Spec.Currency, inv); mismatch != nil {
		return ctrl.Result{}, payments.wait(ctx, r.Client, payment, mismatch, billingv1.ConditionStalled, now)
	}
	if !payments.entered(inv, payment) {
		// Only a payment not yet entered is checked: one entered before the
		// books closed is counted already, and is recorded.
		closed, err := payments.inClosedPeriod(ctx, r.APIReader, payment, "paid_at", billing.PaymentDate(payment))
		if err != nil {
			return ctrl.Result{}, err
		}
		if closed != nil {
			return ctrl.Result{}, payments.reject(ctx, r.Client, payment, closed, now)
		}
		if done, err := payments.markAndEnter(ctx, r.Client, payment, inv, payment.Spec.Amount, now); done || err != nil {
			return ctrl.Result{}, err
		}
	}
	issued := reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	if issued == 0 {
		// Entered, but its event waits for the invoice's invoice.issued;
		// the invoice's change wakes it.
		return ctrl.Result{}, nil
	}
	recorded := recordedPayment(payment, inv, now)
	return ctrl.Result{}, payments.settle(ctx, r.Parts, payment, issued, &recorded.Events,
		func() { payment.Status = recorded })
}

// SetupWithManager registers the controller, reconciling up to concurrency
// payments at once (0: the manager's default). A change of an invoice wakes
// the payments that wait for it (index.PaymentInvoice).
func (r *PaymentReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	return payments.setup(mgr, concurrency, r, r.Parts)
}
