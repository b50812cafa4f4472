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

// CreditApplicationReconciler applies credit applications: each takes its
// amount from the invoice's customer's credit and enters it in the
// invoice's ledger, or is rejected when either has not that much left.
type CreditApplicationReconciler struct {
	Parts
}

// creditApplications is the ledger protocol's view of credit applications
// (ledger.go).
var creditApplications = &ledgerKind[*billingv1.CreditApplication]{
	name: "credit application", object: &billingv1.CreditApplication{}, list: &billingv1.CreditApplicationList{},
	invoiceIndex: index.CreditApplicationInvoice, fact: billingv1.EventTypeCreditApplied,
	phases: recordPhases{string(billingv1.CreditApplicationPending), string(billingv1.CreditApplicationApplied),
		string(billingv1.CreditApplicationRejected), string(billingv1.CreditApplicationRejected)},
	entries: func(l *billingv1.InvoiceLedger) *[]billingv1.LedgerEntry { return &l.CreditApplications },
	fields: func(a *billingv1.CreditApplication) recordFields {
		s := &a.Status
		return recordFields{(*string)(&s.Phase), &s.ObservedGeneration, &s.Conditions, &s.Currency, &s.CustomerName}
	},
	display: func(a *billingv1.CreditApplication) {
		a.Status.Display = keptAmount(a.Status.Display, a.Status.Currency, &a.Spec.Amount)
	},
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=customers/status,verbs=patch

// Reconcile applies or rejects one credit application, in the steps of the
// ledger protocol (ledger.go) with one more object, the customer, whose
// credit is spent (docs/ledger.md#money-on-account):
//
//	a. The application and its invoice are read live; it waits while the
//	   invoice is missing or not issued.
//	b. If the invoice's status.ledger.creditApplications holds it (name
//	   and uid), it was entered before a crash: go to e.
//	c. The customer is read live. Unless its credit ledger holds the
//	   application already (a crash after this step), the application is
//	   rejected when the invoice leaves less to pay than its amount
//	   (ExceedsRemaining) or the customer has less credit in the invoice's
//	   currency (ExceedsCredit); otherwise it is marked (status.currency,
//	   from which the retention policy keeps it) and entered into the
//	   customer's credit ledger, which holds the credit for it, in one
//	   status patch with an optimistic lock.
//	d. The invoice is checked again: when it no longer leaves enough (a
//	   payment or another application came first), the hold is given back
//	   and only then is the application rejected (ExceedsRemaining);
//	   otherwise it is entered in the invoice's ledger, with the balance
//	   recomputed, in one status patch with an optimistic lock.
//	e. It is patched Applied with its credit.applied event, which comes
//	   after the invoice's invoice.issued and after the events of the
//	   records that gave the credit.
//
// A conflict at any write starts again at a, so whatever the interleaving
// the credit is spent once, never more than there is, and an application
// is entered in an invoice only while its credit is held.
func (r *CreditApplicationReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return creditApplications.reconcile(ctx, r.Parts, req.NamespacedName, r.step)
}

// step applies capp, whose invoice inv (read live) is issued.
func (r *CreditApplicationReconciler) step(ctx context.Context, capp *billingv1.CreditApplication,
	inv *billingv1.Invoice, now time.Time) (ctrl.Result, error) {
	if mismatch := creditApplications.currencyMismatch(capp.Spec.Currency, inv); mismatch != nil {
		return ctrl.Result{}, creditApplications.wait(ctx, r.Client, capp, mismatch, billingv1.ConditionStalled, now)
	}
	currency := billing.InvoiceCurrency(inv)
	customer, waiting, err := liveCustomer(ctx, r.APIReader, inv.Namespace, inv.Spec.CustomerRef.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	if waiting != nil {
		return ctrl.Result{}, creditApplications.wait(ctx, r.Client, capp, waiting, billingv1.ConditionReconciling, now)
	}
	if !creditApplications.entered(inv, capp) {
		if done, err := r.enter(ctx, capp, inv, customer, currency, now); done || err != nil {
			return ctrl.Result{}, err
		}
	}
	issued := reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	if issued == 0 {
		return ctrl.Result{}, nil // the invoice's invoice.issued wakes it
	}
	after := max(issued, billing.CreditEventsAfter(customer.Status.Credit, currency))
	applied := appliedCreditApplication(capp, inv, now)
	return ctrl.Result{}, creditApplications.settle(ctx, r.Parts, capp, after, &applied.Events,
		func() { capp.Status = applied })
}

// enter holds capp's credit in customer's ledger and enters capp in inv's
// ledger (steps c and d); done is true when capp was rejected or waits
// instead.
func (r *CreditApplicationReconciler) enter(ctx context.Context, capp *billingv1.CreditApplication,
	inv *billingv1.Invoice, customer *billingv1.Customer, currency string, now time.Time) (done bool, err error) {
	use := billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: capp.Name, UID: string(capp.UID),
		Currency: currency, Amount: capp.Spec.Amount}
	held := billing.FindUse(customer.Status.Credit, use.Kind, use.Name, use.UID) != nil
	if short := exceedsRemaining(capp, inv); short != nil {
		if held {
			if err := releaseUse(ctx, r.Client, customer, use); err != nil {
				return true, err
			}
		}
		return true, creditApplications.reject(ctx, r.Client, capp, short, now)
	}
	if full := creditApplications.full(inv); full != nil {
		return true, creditApplications.wait(ctx, r.Client, capp, full, billingv1.ConditionStalled, now)
	}
	if !held {
		if short, final := creditShort(customer, use, "credit application"); short != nil {
			if final {
				return true, creditApplications.reject(ctx, r.Client, capp, short, now)
			}
			return true, creditApplications.wait(ctx, r.Client, capp, short, billingv1.ConditionStalled, now)
		}
		if err := creditApplications.mark(ctx, r.Client, capp, inv); err != nil {
			return true, err
		}
		if err := enterUse(ctx, r.Client, customer, use); err != nil {
			return true, err
		}
	}
	return false, creditApplications.enter(ctx, r.Client, capp, inv,
		creditApplications.withEntry(inv, capp, capp.Spec.Amount), now)
}

// exceedsRemaining says why capp does not fit what inv leaves to pay, or
// nil when it does.
func exceedsRemaining(capp *billingv1.CreditApplication, inv *billingv1.Invoice) *reconciler.Verdict {
	remaining, _ := billing.InvoiceRemaining(inv)
	if capp.Spec.Amount <= remaining {
		return nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonExceedsRemaining, Message: fmt.Sprintf(
		"The credit application of %d exceeds the %d that invoice %q leaves to pay when it was entered",
		capp.Spec.Amount, remaining, inv.Name)}
}

// appliedCreditApplication returns capp's status Applied against inv, in
// whose ledger it is entered, at now.
func appliedCreditApplication(capp *billingv1.CreditApplication, inv *billingv1.Invoice,
	now time.Time) billingv1.CreditApplicationStatus {
	status := *capp.Status.DeepCopy()
	status.Phase = billingv1.CreditApplicationApplied
	record(capp, recordedFields{conditions: &status.Conditions, customerName: &status.CustomerName,
		currency: &status.Currency, display: &status.Display, at: &status.AppliedAt, observedGeneration: &status.ObservedGeneration},
		recording{inv: inv, currency: billing.InvoiceCurrency(inv), amount: &capp.Spec.Amount, reason: billingv1.ReasonApplied,
			message: "The credit is applied to the invoice"}, now)
	return status
}

// SetupWithManager registers the controller, reconciling up to concurrency
// applications at once (0: the manager's default). A change of an invoice
// wakes the applications that wait for it.
func (r *CreditApplicationReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	return creditApplications.setup(mgr, concurrency, r, r.Parts)
}
