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

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=get;list;watch

// recordEvents gives each fact the invoice has reached (invoiceFactsDue)
// its event sequence, on inv.Status.Events, for the caller to patch with
// the rest of the status. invoice.issued depends on nothing, the others on
// every event the invoice carries already (so an invoice voided and paid
// later has them in that order, even when one takes a freed sequence),
// and invoice.paid and invoice.voided also on the events of every credit
// note and payment of the ledger: while one of those has no sequence yet,
// waiting is true and the facts after it wait.
func (r *InvoiceReconciler) recordEvents(ctx context.Context, inv *billingv1.Invoice) (waiting bool, err error) {
	for _, t := range reconciler.InvoiceFactsDue(&inv.Status) {
		var after int64
		for _, e := range inv.Status.Events {
			after = max(after, e.Sequence)
		}
		if reconciler.DependsOnLedger(t) {
			ledgerAfter, ready, err := LatestEvent(ctx, r.Client, inv)
			if err != nil {
				return false, err
			}
			if !ready {
				return true, nil
			}
			after = max(after, ledgerAfter)
		}
		if inv.Status.Events, err = reconciler.RecordFact(ctx, r.Events, inv, t, after, inv.Status.Events); err != nil {
			return false, err
		}
	}
	return false, nil
}

// LatestEvent returns the highest event sequence of the credit notes,
// payments, credit applications and write-offs in inv's ledger, read
// through c; ready is false while one of them does not carry its event yet
// (ledgerKind.latestEvent).
func LatestEvent(ctx context.Context, c client.Reader, inv *billingv1.Invoice) (after int64, ready bool, err error) {
	for _, latest := range []func(context.Context, client.Reader, *billingv1.Invoice) (int64, bool, error){
		creditNotes.latestEvent, payments.latestEvent, creditApplications.latestEvent, writeOffs.latestEvent,
	} {
		seq, ready, err := latest(ctx, c, inv)
		if err != nil || !ready {
			return 0, false, err
		}
		after = max(after, seq)
	}
	return after, true, nil
}
