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
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// WriteOffReconciler records write-offs: each enters what remains of its
// invoice in the invoice's ledger, which makes the invoice uncollectible,
// or is rejected when nothing remains.
type WriteOffReconciler struct {
	Parts
}

// writeOffs is the ledger protocol's view of write-offs (ledger.go).
var writeOffs = &ledgerKind[*billingv1.WriteOff]{
	name: "write-off", object: &billingv1.WriteOff{}, list: &billingv1.WriteOffList{},
	invoiceIndex: index.WriteOffInvoice, fact: billingv1.EventTypeInvoiceMarkedUncollectible,
	phases: recordPhases{string(billingv1.WriteOffPending), string(billingv1.WriteOffRecorded),
		string(billingv1.WriteOffRejected), string(billingv1.WriteOffRejected)},
	entries: func(l *billingv1.InvoiceLedger) *[]billingv1.LedgerEntry { return &l.WriteOffs },
	fields: func(w *billingv1.WriteOff) recordFields {
		s := &w.Status
		return recordFields{(*string)(&s.Phase), &s.ObservedGeneration, &s.Conditions, &s.Currency, &s.CustomerName}
	},
	display: func(w *billingv1.WriteOff) {
		w.Status.Display = keptAmount(w.Status.Display, w.Status.Currency, w.Status.Amount)
	},
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=writeoffs,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=writeoffs/status,verbs=patch

// Reconcile records or rejects one write-off, in the steps of the ledger
// protocol (ledger.go): unless the invoice's status.ledger.writeOffs holds
// it already, it is rejected when the invoice leaves nothing to pay
// (NothingRemaining); otherwise it is marked (status.currency, from which
// the retention policy keeps it) and entered with what remains, in one
// status patch of the invoice with an optimistic lock, so that of two
// write-offs or a write-off and a payment racing, the second is checked
// against the first. Last it is patched Recorded with the amount its
// ledger entry wrote off and its invoice.marked_uncollectible event.
func (r *WriteOffReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return writeOffs.reconcile(ctx, r.Parts, req.NamespacedName, r.step)
}

// step enters wo, whose invoice inv (read live) is issued, and records it.
func (r *WriteOffReconciler) step(ctx context.Context, wo *billingv1.WriteOff, inv *billingv1.Invoice,
	now time.Time) (ctrl.Result, error) {
	if !writeOffs.entered(inv, wo) {
		remaining, _ := billing.InvoiceRemaining(inv)
		if remaining == 0 {
			return ctrl.Result{}, writeOffs.reject(ctx, r.Client, wo, &reconciler.Verdict{Reason: billingv1.ReasonNothingRemaining,
				Message: fmt.Sprintf("Invoice %q leaves nothing to pay; there is nothing to write off", inv.Name)}, now)
		}
		if done, err := writeOffs.markAndEnter(ctx, r.Client, wo, inv, remaining, now); done || err != nil {
			return ctrl.Result{}, err
		}
	}
	issued := reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	if issued == 0 {
		return ctrl.Result{}, nil // the invoice's invoice.issued wakes it
	}
	recorded := recordedWriteOff(wo, inv, now)
	return ctrl.Result{}, writeOffs.settle(ctx, r.Parts, wo, issued, &recorded.Events, func() { wo.Status = recorded })
}

// recordedWriteOff returns wo's status Recorded against inv, in whose
// ledger it is entered, at now: its amount is its ledger entry's.
func recordedWriteOff(wo *billingv1.WriteOff, inv *billingv1.Invoice, now time.Time) billingv1.WriteOffStatus {
	status := *wo.Status.DeepCopy()
	status.Phase = billingv1.WriteOffRecorded
	var entered *int64
	for _, e := range inv.Status.Ledger.WriteOffs {
		if e.Name == wo.Name && e.UID == string(wo.UID) {
			amount := e.Amount
			status.Amount, entered = &amount, &amount
		}
	}
	record(wo, recordedFields{conditions: &status.Conditions, customerName: &status.CustomerName,
		currency: &status.Currency, display: &status.Display, at: &status.RecordedAt, observedGeneration: &status.ObservedGeneration},
		recording{inv: inv, currency: billing.InvoiceCurrency(inv), amount: entered, reason: billingv1.ReasonRecorded,
			message: "What remained of the invoice is written off"}, now)
	return status
}

// SetupWithManager registers the controller, reconciling up to concurrency
// write-offs at once (0: the manager's default). A change of an invoice
// wakes the write-offs that wait for it.
func (r *WriteOffReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	return writeOffs.setup(mgr, concurrency, r, r.Parts)
}
