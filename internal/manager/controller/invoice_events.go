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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=get;list;watch

// recordEvents gives each fact the invoice has reached (invoiceFactsDue)
// its event sequence, on inv.Status.Events, for the caller to patch with
// the rest of the status. invoice.issued depends on nothing, the others on
// invoice.issued, and invoice.paid and invoice.voided also on the events
// of every credit note and payment of the ledger: while one of those has
// no sequence yet, waiting is true and the facts after it wait.
func (r *InvoiceReconciler) recordEvents(ctx context.Context, inv *billingv1.Invoice) (waiting bool, err error) {
	for _, t := range invoiceFactsDue(&inv.Status) {
		after := eventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
		if dependsOnLedger(t) {
			ledgerAfter, ready, err := r.ledgerEventsAfter(ctx, inv)
			if err != nil {
				return false, err
			}
			if !ready {
				return true, nil
			}
			after = max(after, ledgerAfter)
		}
		if inv.Status.Events, err = recordFact(ctx, r.Events, inv, t, after, inv.Status.Events); err != nil {
			return false, err
		}
	}
	return false, nil
}

// ledgerEventsAfter returns the highest event sequence of the credit notes
// and payments in inv's ledger, read from the cache; ready is false while
// one of them does not carry its event yet. An entry whose object is gone
// (or another of that name) never will, and is not waited for.
func (r *InvoiceReconciler) ledgerEventsAfter(ctx context.Context, inv *billingv1.Invoice) (after int64, ready bool, err error) {
	ledger := inv.Status.Ledger
	if ledger == nil {
		return 0, true, nil
	}
	for _, entry := range ledger.CreditNotes {
		note := &billingv1.CreditNote{}
		seq, ok, err := r.entryEvent(ctx, inv.Namespace, entry, note, func() []billingv1.RecordedEvent { return note.Status.Events },
			billingv1.EventTypeCreditNoteIssued)
		if err != nil || !ok {
			return 0, false, err
		}
		after = max(after, seq)
	}
	for _, entry := range ledger.Payments {
		payment := &billingv1.Payment{}
		seq, ok, err := r.entryEvent(ctx, inv.Namespace, entry, payment, func() []billingv1.RecordedEvent { return payment.Status.Events },
			billingv1.EventTypePaymentRecorded)
		if err != nil || !ok {
			return 0, false, err
		}
		after = max(after, seq)
	}
	return after, true, nil
}

// entryEvent reads the object of one ledger entry into obj and returns the
// sequence of its event of type t (from events, once obj is read); ready
// is false while it has none.
func (r *InvoiceReconciler) entryEvent(ctx context.Context, namespace string, entry billingv1.LedgerEntry,
	obj client.Object, events func() []billingv1.RecordedEvent, t billingv1.EventType) (int64, bool, error) {
	key := types.NamespacedName{Namespace: namespace, Name: entry.Name}
	if err := r.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return 0, true, nil
		}
		return 0, false, fmt.Errorf("reading %s of the ledger: %w", key, err)
	}
	if string(obj.GetUID()) != entry.UID {
		return 0, true, nil
	}
	seq := eventSequence(events(), t)
	return seq, seq != 0, nil
}
