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
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// CreditNoteReconciler issues credit notes: it enters each in its invoice's
// ledger and numbers it in the workspace's credit-note series, or rejects
// it when it credits more than is left of the invoice.
type CreditNoteReconciler struct {
	Parts
	// Numbers hands out the credit-note series' sequences (a
	// *numbering.Allocator whose Sequence is "credit-notes").
	Numbers Numberer
	// Profiles reads the workspace's profile from the API server when the
	// cache has none yet (reconciler.IssuingProfile); nil: the cache alone.
	Profiles *reconciler.LiveProfiles
}

// creditNotes is the ledger protocol's view of credit notes (ledger.go).
var creditNotes = &ledgerKind[*billingv1.CreditNote]{
	name: "credit note", object: &billingv1.CreditNote{}, list: &billingv1.CreditNoteList{},
	invoiceIndex: index.CreditNoteInvoice, fact: billingv1.EventTypeCreditNoteIssued,
	phases: recordPhases{string(billingv1.CreditNotePending), string(billingv1.CreditNoteIssued),
		string(billingv1.CreditNoteRejected), string(billingv1.CreditNoteInvalid)},
	entries: func(l *billingv1.InvoiceLedger) *[]billingv1.LedgerEntry { return &l.CreditNotes },
	fields: func(n *billingv1.CreditNote) recordFields {
		s := &n.Status
		return recordFields{(*string)(&s.Phase), &s.ObservedGeneration, &s.Conditions, &s.Currency, &s.CustomerName}
	},
	display: func(n *billingv1.CreditNote) {
		if n.Status.Display == nil && n.Status.Currency != "" {
			n.Status.Display = creditNoteDisplay(n.Status.Currency, n.Status.Total)
		}
	},
}

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
//	   taxes and ledger (billing.CreditOf). Crediting more than is left
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
	return creditNotes.reconcile(ctx, r.Parts, req.NamespacedName, r.step)
}

// step runs b to d on a note whose invoice is issued.
func (r *CreditNoteReconciler) step(ctx context.Context, note *billingv1.CreditNote, inv *billingv1.Invoice,
	now time.Time) (ctrl.Result, error) {
	if !creditNotes.entered(inv, note) {
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
	credit, err := billing.CreditOf(&note.Spec, inv)
	if credit == nil {
		return false, err
	}
	if err != nil {
		verdict := verdictOf(err)
		if verdict == nil {
			return false, fmt.Errorf("crediting invoice %s: %w", inv.Name, err)
		}
		return true, r.reject(ctx, note, verdict, now)
	}
	if full := creditNotes.full(inv); full != nil {
		return true, r.reject(ctx, note, full, now)
	}
	computed := computedCreditNote(note, inv, credit)
	if err := creditNotes.patch(ctx, r.Client, note, func() { note.Status = computed }); err != nil {
		return false, err
	}
	return false, creditNotes.enter(ctx, r.Client, note, inv, enteredLedger(inv, credit, note), now)
}

// reject patches note Rejected for verdict; Stalled, since only a new
// credit note can credit the invoice.
func (r *CreditNoteReconciler) reject(ctx context.Context, note *billingv1.CreditNote,
	verdict *reconciler.Verdict, now time.Time) error {
	logf.FromContext(ctx).Info("Rejected a credit note", "reason", verdict.Reason, "message", verdict.Message)
	return creditNotes.patch(ctx, r.Client, note, func() {
		note.Status.Phase = billingv1.CreditNoteRejected
		note.Status.ObservedGeneration = note.Generation
		c := reconciler.Conditions{List: &note.Status.Conditions, Generation: note.Generation, Now: now}
		c.NotReady(verdict.Reason, verdict.Message, billingv1.ConditionStalled)
	})
}

// issue runs d: it numbers the entered note and patches it Issued.
func (r *CreditNoteReconciler) issue(ctx context.Context, note *billingv1.CreditNote,
	inv *billingv1.Invoice) (ctrl.Result, error) {
	if note.Status.Total == nil {
		return ctrl.Result{}, fmt.Errorf("credit note %s is in invoice %s's ledger without its amounts", note.Name, inv.Name)
	}
	issued := reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	if issued == 0 {
		// Its event waits for the invoice's invoice.issued; the invoice's
		// change wakes it.
		return ctrl.Result{}, nil
	}
	status, err := r.numbered(ctx, note, inv)
	if err == nil {
		status.Events, err = reconciler.RecordFact(ctx, r.Events, note, billingv1.EventTypeCreditNoteIssued, issued, status.Events)
	}
	if numberingBusy(err) {
		logf.FromContext(ctx).V(1).Info("Waiting for a credit note number", "reason", err.Error())
		return ctrl.Result{RequeueAfter: retryNumbering}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, creditNotes.patch(ctx, r.Client, note, func() { note.Status = status })
}

// numbered returns note's status Issued with its number: the one it
// carries when it was issued before it took events, else the one the
// allocator binds to it.
func (r *CreditNoteReconciler) numbered(ctx context.Context, note *billingv1.CreditNote,
	inv *billingv1.Invoice) (billingv1.CreditNoteStatus, error) {
	if note.Status.Phase == billingv1.CreditNoteIssued && note.Status.Sequence != nil {
		return *note.Status.DeepCopy(), nil
	}
	profile, err := reconciler.IssuingProfile(ctx, r.Client, r.Profiles, note.Namespace)
	if err != nil {
		return note.Status, err
	}
	if mailing.SendsOnIssue(profile) {
		if err := mailing.QueueEmail(ctx, r.Client, mailing.OnIssueEmail(note.Namespace, note.Name, inv.Spec.CustomerRef.Name,
			false)); err != nil {
			return note.Status, err
		}
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

// SetupWithManager registers the controller, reconciling up to concurrency
// credit notes at once (0: the manager's default). A change of an invoice
// wakes the credit notes that wait for it (index.CreditNoteInvoice).
func (r *CreditNoteReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Numbers == nil {
		return errNoNumbers
	}
	return creditNotes.setup(mgr, concurrency, r, r.Parts)
}
