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

	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

// RefundReconciler records refunds: each takes its amount from its
// customer's credit in its currency, or is rejected when the credit has
// not that much left.
type RefundReconciler struct {
	Parts
}

// refunds is the ledger protocol's view of refunds (ledger.go). A refund
// names no invoice: it waits on its customer, whose credit it spends.
var refunds = &ledgerKind[*billingv1.Refund]{
	name: "refund", object: &billingv1.Refund{}, list: &billingv1.RefundList{},
	invoiceIndex: index.RefundCustomer, waitsOn: &billingv1.Customer{}, fact: billingv1.EventTypeRefundRecorded,
	phases: recordPhases{string(billingv1.RefundPending), string(billingv1.RefundRecorded),
		string(billingv1.RefundRejected), string(billingv1.RefundRejected)},
	fields: func(rf *billingv1.Refund) recordFields {
		s := &rf.Status
		return recordFields{(*string)(&s.Phase), &s.ObservedGeneration, &s.Conditions, &s.Currency, nil}
	},
	display: func(rf *billingv1.Refund) {
		rf.Status.Display = keptAmount(rf.Status.Display, rf.Status.Currency, &rf.Spec.Amount)
	},
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=refunds,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=refunds/status,verbs=patch

// Reconcile records or rejects one refund (docs/ledger.md#money-on-account):
// the refund and its customer are read live; it waits while the customer
// is missing. Unless the customer's credit ledger holds it already (entered
// before a crash), it is rejected when it is dated in a closed period
// (PeriodClosed) or exceeds the customer's credit in its currency
// (ExceedsCredit); otherwise it is marked (status.currency, from which the
// retention policy keeps it) and entered in the customer's credit ledger in
// one status patch with an optimistic lock, so that of two refunds of the
// same credit the second is checked again against the first. Last it is
// patched Recorded with its refund.recorded event, after the events of the
// records that gave the credit.
func (r *RefundReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return refunds.retrying(ctx, r.Client, req.NamespacedName, func() (ctrl.Result, error) {
		return ctrl.Result{}, r.once(ctx, req.NamespacedName)
	})
}

// once runs the refund's steps once, from live reads.
func (r *RefundReconciler) once(ctx context.Context, key types.NamespacedName) error {
	rf, pending, err := refunds.get(ctx, r.APIReader, key)
	if !pending || err != nil {
		return err
	}
	now := r.Clock.Now()
	customer, waiting, err := liveCustomer(ctx, r.APIReader, rf.Namespace, rf.Spec.CustomerRef.Name)
	if err != nil {
		return err
	}
	if waiting != nil {
		return refunds.wait(ctx, r.Client, rf, waiting, billingv1.ConditionReconciling, now)
	}
	use := billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: rf.Name, UID: string(rf.UID),
		Currency: rf.Spec.Currency, Amount: rf.Spec.Amount}
	if billing.FindUse(customer.Status.Credit, use.Kind, use.Name, use.UID) == nil {
		closed, err := refunds.inClosedPeriod(ctx, r.APIReader, rf, "refunded_at", billing.RefundDate(rf))
		if err != nil {
			return err
		}
		if closed != nil {
			return refunds.reject(ctx, r.Client, rf, closed, now)
		}
		if short, final := creditShort(customer, use, "refund"); short != nil {
			if final {
				return refunds.reject(ctx, r.Client, rf, short, now)
			}
			return refunds.wait(ctx, r.Client, rf, short, billingv1.ConditionStalled, now)
		}
		if err := refunds.patch(ctx, r.Client, rf, func() { rf.Status.Currency = use.Currency }); err != nil {
			return err
		}
		if err := enterUse(ctx, r.Client, customer, use); err != nil {
			return err
		}
	}
	recorded := recordedRefund(rf, now)
	return refunds.settle(ctx, r.Parts, rf, billing.CreditEventsAfter(customer.Status.Credit, use.Currency),
		&recorded.Events, func() { rf.Status = recorded })
}

// recordedRefund returns rf's status Recorded at now.
func recordedRefund(rf *billingv1.Refund, now time.Time) billingv1.RefundStatus {
	status := *rf.Status.DeepCopy()
	status.Phase = billingv1.RefundRecorded
	record(rf, recordedFields{conditions: &status.Conditions, currency: &status.Currency, display: &status.Display,
		at: &status.RecordedAt, observedGeneration: &status.ObservedGeneration},
		recording{currency: rf.Spec.Currency, amount: &rf.Spec.Amount,
			reason: billingv1.ReasonRecorded, message: "The refund is recorded in the customer's credit"}, now)
	return status
}

// SetupWithManager registers the controller, reconciling up to concurrency
// refunds at once (0: the manager's default). A change of a customer wakes
// its refunds that wait.
func (r *RefundReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	return refunds.setup(mgr, concurrency, r, r.Parts)
}
