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
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
)

// CreditNoteReconciler issues credit notes: it enters each in its invoice's
// ledger and numbers it in the workspace's credit-note series, or rejects
// it when it credits more than is left of the invoice.
type CreditNoteReconciler struct {
	client.Client
	// APIReader reads credit notes and invoices straight from the API
	// server: what is left to credit is decided on the invoice's latest
	// ledger, never on a cached one.
	APIReader client.Reader
	Clock     clock.PassiveClock
	// Numbers hands out the credit-note series' sequences (a
	// *numbering.Allocator whose Sequence is "credit-notes").
	Numbers Numberer
	// Events hands out the workspace's event sequences: a credit note is
	// patched Issued together with its credit_note.issued event, which
	// comes after its invoice's invoice.issued. Nil records no events
	// (unit tests of other steps); Setup always sets it.
	Events EventNumberer
}

// maxLedgerAttempts is how many times one reconcile retries entering a
// credit note or payment after another entered the same invoice first.
const maxLedgerAttempts = 20

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices/status,verbs=patch

// Reconcile issues or rejects one credit note. The controller is the one
// authority on what is left to credit of an invoice; the protocol is safe
// against races between credit notes of one invoice (reconciled in
// parallel) and against a crash between any two of its writes:
//
//	a. The credit note is read live; an Issued or Rejected one is done. Its
//	   invoice is read live: while it is missing or not issued the note
//	   waits (Reconciling), and a change of the invoice wakes it.
//	b. If the invoice's status.ledger.creditNotes holds the note (name and
//	   uid), it was entered before a crash or a lost status write: go to d
//	   with the amounts on the note's status, which c0 wrote before.
//	c0. Its lines and amounts are computed against the invoice's lines,
//	   taxes and ledger (billing.ComputeCredit). Crediting more than is left
//	   rejects it for good (ExceedsCreditable; the ledger only grows), and
//	   so does a malformed line (InvalidLine); a rejected note takes no
//	   number. Otherwise the amounts are written on the note's status
//	   (still Pending), with an optimistic lock.
//	c. The note is entered into the invoice's ledger and the balance
//	   recomputed, in one status patch of the invoice with an optimistic
//	   lock. When another credit note or payment entered first the patch
//	   conflicts and the reconcile starts again at a: what is left is
//	   recomputed, so two notes that together exceed the invoice are never
//	   both entered.
//	d. Once the invoice carries its invoice.issued event, the note takes
//	   its number and its credit_note.issued event (the allocators bind
//	   both to the note's name and uid, so a retry gets the same ones) and
//	   is patched Issued with the invoice's snapshot and the event, with an
//	   optimistic lock.
func (r *CreditNoteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	note := &billingv1.CreditNote{}
	if err := r.Get(ctx, req.NamespacedName, note); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.settled(note) {
		return ctrl.Result{}, nil
	}
	for attempt := 1; ; attempt++ {
		result, err := r.reconcileOnce(ctx, req.NamespacedName)
		if !apierrors.IsConflict(err) || attempt >= maxLedgerAttempts {
			return result, err
		}
		logf.FromContext(ctx).V(1).Info("Retrying a credit note after a conflict", "attempt", attempt)
	}
}

// settled reports whether note is Issued (with its event) or Rejected, or
// being deleted: nothing more to do.
func (r *CreditNoteReconciler) settled(note *billingv1.CreditNote) bool {
	issued := note.Status.Phase == billingv1.CreditNoteIssued &&
		(r.Events == nil || billingv1.FindEvent(note.Status.Events, billingv1.EventTypeCreditNoteIssued) != nil)
	return issued || note.Status.Phase == billingv1.CreditNoteRejected || !note.DeletionTimestamp.IsZero()
}

// reconcileOnce runs the protocol once, from a; a conflict says another
// writer was first and the protocol must start again.
func (r *CreditNoteReconciler) reconcileOnce(ctx context.Context, key types.NamespacedName) (ctrl.Result, error) {
	note := &billingv1.CreditNote{}
	if err := r.APIReader.Get(ctx, key, note); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.settled(note) {
		return ctrl.Result{}, nil
	}
	now := r.Clock.Now()
	inv, waiting, err := liveIssuedInvoice(ctx, r.APIReader, note.Namespace, note.Spec.InvoiceRef.Name,
		"the credit note is issued once it is")
	if err != nil {
		return ctrl.Result{}, err
	}
	if waiting != nil {
		return ctrl.Result{}, r.patchStatus(ctx, note, func(s *billingv1.CreditNoteStatus) {
			s.Phase = billingv1.CreditNotePending
			s.ObservedGeneration = note.Generation
			c := ledgerConditions{conditions: &s.Conditions, generation: note.Generation, now: now}
			c.notReady(waiting.reason, waiting.message, billingv1.ConditionReconciling)
		})
	}
	var entered bool
	if inv.Status.Ledger != nil {
		entered = hasEntry(inv.Status.Ledger.CreditNotes, note.Name, string(note.UID))
	}
	if !entered {
		if done, err := r.enter(ctx, note, inv, now); done || err != nil {
			return ctrl.Result{}, err
		}
	}
	return r.issue(ctx, note, inv)
}

// enter runs c0 and c: it computes the note's amounts, writes them on the
// note and enters the note into inv's ledger. done says the note was
// rejected instead.
func (r *CreditNoteReconciler) enter(ctx context.Context, note *billingv1.CreditNote,
	inv *billingv1.Invoice, now time.Time) (done bool, err error) {
	toCredit, err := billing.ToCredit(inv)
	if err != nil {
		return false, err
	}
	lines, err := billing.CreditLines(&note.Spec, toCredit)
	var amounts billing.CreditedAmounts
	if err == nil {
		amounts, err = billing.ComputeCredit(toCredit, lines)
	}
	if err != nil {
		verdict := verdictOf(err)
		if verdict == nil {
			return false, fmt.Errorf("crediting invoice %s: %w", inv.Name, err)
		}
		return true, r.reject(ctx, note, verdict, now)
	}
	if inv.Status.Ledger != nil && len(inv.Status.Ledger.CreditNotes) >= billingv1.MaxLedgerEntries {
		return true, r.reject(ctx, note, &creditVerdict{billingv1.ReasonLedgerFull,
			fmt.Sprintf("The invoice's ledger holds %d credit notes, the most it can", billingv1.MaxLedgerEntries)}, now)
	}
	computed := computedCreditNote(note, inv, lines, amounts)
	if err := r.patchStatus(ctx, note, func(s *billingv1.CreditNoteStatus) { *s = computed }); err != nil {
		return false, err
	}
	before := inv.DeepCopy()
	inv.Status.Ledger = enteredLedger(inv, toCredit, note, lines, amounts)
	if inv.Status.Balance, err = billing.LedgerBalance(inv, now); err != nil {
		return false, err
	}
	patch := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
	if err := r.Status().Patch(ctx, inv, patch); err != nil {
		return false, fmt.Errorf("entering credit note %s in invoice %s: %w", note.Name, inv.Name, err)
	}
	return false, nil
}

// reject patches note Rejected for verdict; Stalled, since only a new
// credit note can credit the invoice.
func (r *CreditNoteReconciler) reject(ctx context.Context, note *billingv1.CreditNote,
	verdict *creditVerdict, now time.Time) error {
	logf.FromContext(ctx).Info("Rejected a credit note", "reason", verdict.reason, "message", verdict.message)
	return r.patchStatus(ctx, note, func(s *billingv1.CreditNoteStatus) {
		s.Phase = billingv1.CreditNoteRejected
		s.ObservedGeneration = note.Generation
		c := ledgerConditions{conditions: &s.Conditions, generation: note.Generation, now: now}
		c.notReady(verdict.reason, verdict.message, billingv1.ConditionStalled)
	})
}

// issue runs d: it numbers the entered note and patches it Issued.
func (r *CreditNoteReconciler) issue(ctx context.Context, note *billingv1.CreditNote,
	inv *billingv1.Invoice) (ctrl.Result, error) {
	if note.Status.Total == nil {
		return ctrl.Result{}, fmt.Errorf("credit note %s is in invoice %s's ledger without its amounts", note.Name, inv.Name)
	}
	issued := eventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	if r.Events != nil && issued == 0 {
		// Its event waits for the invoice's invoice.issued; the invoice's
		// change wakes it.
		return ctrl.Result{}, nil
	}
	status, err := r.numbered(ctx, note, inv)
	if err == nil && r.Events != nil {
		var assignment numbering.Assignment
		assignment, err = r.Events.AssignFact(ctx, note.Namespace, note.Name, note.UID,
			billingv1.EventTypeCreditNoteIssued, issued)
		if err != nil {
			err = fmt.Errorf("assigning the credit_note.issued event: %w", err)
		}
		status.Events = withEvent(status.Events, billingv1.EventTypeCreditNoteIssued, assignment)
	}
	if numberingBusy(err) {
		logf.FromContext(ctx).V(1).Info("Waiting for a credit note number", "reason", err.Error())
		return ctrl.Result{RequeueAfter: retryNumbering}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.patchStatus(ctx, note, func(s *billingv1.CreditNoteStatus) { *s = status })
}

// numbered returns note's status Issued with its number: the one it
// carries when it was issued before it took events, else the one the
// allocator binds to it.
func (r *CreditNoteReconciler) numbered(ctx context.Context, note *billingv1.CreditNote,
	inv *billingv1.Invoice) (billingv1.CreditNoteStatus, error) {
	if note.Status.Phase == billingv1.CreditNoteIssued && note.Status.Sequence != nil {
		return *note.Status.DeepCopy(), nil
	}
	profile, err := workspaceProfile(ctx, r.Client, note.Namespace)
	if err != nil {
		return note.Status, err
	}
	assignment, err := r.Numbers.Assign(ctx, note.Namespace, note.Name, note.UID)
	if err != nil {
		return note.Status, fmt.Errorf("assigning a credit note number: %w", err)
	}
	status, err := issuedCreditNote(note.Status, inv, creditNotePrefix(profile), assignment, note.Generation, r.Clock.Now())
	if err != nil {
		return note.Status, fmt.Errorf("formatting the credit note number: %w", err)
	}
	return status, nil
}

// patchStatus patches note's status as change makes it, with an optimistic
// lock, when it changes; note is updated in place.
func (r *CreditNoteReconciler) patchStatus(ctx context.Context, note *billingv1.CreditNote,
	change func(*billingv1.CreditNoteStatus)) error {
	before := note.DeepCopy()
	change(&note.Status)
	if equality.Semantic.DeepEqual(before.Status, note.Status) {
		return nil
	}
	patch := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
	if err := r.Status().Patch(ctx, note, patch); err != nil {
		return fmt.Errorf("patching credit note status: %w", err)
	}
	observeEvents(before.Status.Events, note.Status.Events)
	return nil
}

// SetupWithManager registers the controller, reconciling up to concurrency
// credit notes at once (0: the manager's default). A change of an invoice
// wakes the credit notes that wait for it (index.CreditNoteInvoice).
func (r *CreditNoteReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Clock == nil {
		return errNoClock
	}
	if r.Numbers == nil {
		return errNoNumbers
	}
	if r.APIReader == nil {
		return errNoAPIReader
	}
	if r.Events == nil {
		return errNoEvents
	}
	return ctrl.NewControllerManagedBy(mgr).
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: concurrency}).
		For(&billingv1.CreditNote{}, builder.WithPredicates(changedBeyondBookkeeping)).
		Watches(&billingv1.Invoice{}, handler.EnqueueRequestsFromMapFunc(r.creditNotesOf),
			builder.WithPredicates(changedBeyondBookkeeping)).
		Named("creditnote").
		Complete(CountErrors("creditnote", r))
}

// creditNotesOf maps an Invoice to its credit notes that are still Pending.
func (r *CreditNoteReconciler) creditNotesOf(ctx context.Context, obj client.Object) []reconcile.Request {
	notes := &billingv1.CreditNoteList{}
	if err := r.List(ctx, notes, client.InNamespace(obj.GetNamespace()),
		client.MatchingFields{index.CreditNoteInvoice: obj.GetName()}); err != nil {
		logf.FromContext(ctx).Error(err, "Listing credit notes of invoice failed", "invoice", obj.GetName())
		return nil
	}
	var requests []reconcile.Request
	for i := range notes.Items {
		if !r.settled(&notes.Items[i]) {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&notes.Items[i])})
		}
	}
	return requests
}
