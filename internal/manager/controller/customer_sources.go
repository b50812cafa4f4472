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

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/ledger"
)

// The sources of a customer's credit: its overpaid invoices, entered in
// its status by the customer reconciler (docs/ledger.md#money-on-account).

// creditWithSources returns credit with each of invoices (the customer's,
// from the cache) that is overpaid entered as a source for its
// amountOverpaid, or nil when credit holds them all already. An invoice
// is entered only once every record of its ledger carries its event, and
// its source carries the highest of them: the events of the uses that
// draw on the credit come after the events that gave it. One whose
// records do not carry them yet is entered when the last of them does
// (the customer reconciler watches them: overpaidRecordsCustomer).
//
// An invoice that a seal holds (sealed.invoice), labelled sealed or not,
// is never entered: its source was entered whole before it was sealed,
// and may have been folded into carried since (customer_fold.go), so
// entering it again would count it twice.
func creditWithSources(ctx context.Context, c client.Reader, credit *billingv1.CustomerCredit,
	invoices []billingv1.Invoice, sealed sealedCredit) (*billingv1.CustomerCredit, error) {
	changed := false
	for i := range invoices {
		inv := &invoices[i]
		if inv.Status.Balance == nil || inv.Status.Balance.AmountOverpaid == 0 || sealed.invoice(inv) ||
			billing.CreditHolds(credit, inv, inv.Status.Balance.AmountOverpaid) {
			continue // nothing to enter: its records need not be read
		}
		after, ready, err := ledger.LatestEvent(ctx, c, inv)
		if err != nil {
			return nil, err
		}
		if !ready {
			continue
		}
		var entered bool
		if credit, entered = billing.WithSource(credit, inv, inv.Status.Balance.AmountOverpaid, after); entered {
			changed = true
		}
	}
	if !changed {
		return nil, nil
	}
	return credit, nil
}

// overpaidInvoiceChanged is the predicate of the customer reconciler's
// watch of invoices: an invoice created, deleted, or whose overpaid amount
// changed (which only an entered credit note, payment or credit
// application does). Its deletion, by the sealer too, lets its sealed
// source be folded.
var overpaidInvoiceChanged = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		return overpaidOf(e.ObjectOld) != overpaidOf(e.ObjectNew)
	},
}

// overpaidOf is an invoice's amountOverpaid, 0 for another object.
func overpaidOf(obj client.Object) int64 {
	if inv, ok := obj.(*billingv1.Invoice); ok && inv.Status.Balance != nil {
		return inv.Status.Balance.AmountOverpaid
	}
	return 0
}

// overpaidRecordsCustomer maps a credit note, payment or credit application
// that gained its event to the customer of its invoice when that invoice
// (read through c, the cache) is overpaid: the invoice's credit may wait
// for that event.
func overpaidRecordsCustomer(c client.Reader) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		rec, ok := obj.(billingv1.LedgerRecord)
		if !ok || rec.InvoiceName() == "" {
			return nil
		}
		invoice := rec.InvoiceName()
		inv := &billingv1.Invoice{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: obj.GetNamespace(), Name: invoice}, inv); err != nil ||
			overpaidOf(inv) == 0 {
			return nil
		}
		return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: inv.Namespace,
			Name: inv.Spec.CustomerRef.Name}}}
	}
}
