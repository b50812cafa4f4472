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
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// verdictOf tells whether err, from billing.CreditOf, rejects the credit
// note (nil: it is another error, to retry).
func verdictOf(err error) *reconciler.Verdict {
	if errors.Is(err, billing.ErrFullyCredited) {
		return &reconciler.Verdict{Reason: billingv1.ReasonExceedsCreditable,
			Message: "The invoice is fully credited already; nothing is left to credit"}
	}
	if errors.Is(err, billing.ErrExceedsCreditable) {
		return &reconciler.Verdict{Reason: billingv1.ReasonExceedsCreditable,
			Message: fmt.Sprintf("It exceeds what is left to credit of the invoice: %v", err)}
	}
	var adjErr *billing.AdjustmentError
	if errors.As(err, &adjErr) {
		return &reconciler.Verdict{Reason: billingv1.ReasonInvalidLine,
			Message: fmt.Sprintf("An allowance or charge is invalid: %v", adjErr)}
	}
	var lineErr *billing.CreditLineError
	if !errors.As(err, &lineErr) {
		return nil
	}
	if lineErr.Exceeds {
		return &reconciler.Verdict{Reason: billingv1.ReasonExceedsCreditable,
			Message: fmt.Sprintf("It exceeds what is left to credit of the invoice: %v", lineErr)}
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonInvalidLine, Message: fmt.Sprintf("A line is invalid: %v", lineErr)}
}

// computedCreditNote returns the credit note's status (still Pending) with
// the lines, allowances, charges and amounts it credits of inv, as
// billing.CreditOf composed them, written as the adapter answers them
// (billing.CreditNoteTotalsOf): the allowances, charges and their totals
// only when it has some.
func computedCreditNote(note *billingv1.CreditNote, inv *billingv1.Invoice,
	credit *billing.NoteCredit) billingv1.CreditNoteStatus {
	status := *note.Status.DeepCopy()
	status.Phase = billingv1.CreditNotePending
	totals := credit.Totals(inv)
	status.Lines = totals.Lines
	status.Subtotal, status.TaxTotal, status.Total = &totals.Subtotal, &totals.TaxTotal, &totals.Total
	status.Allowances, status.Charges, status.AllowanceTotal, status.ChargeTotal = nil, nil, nil, nil
	if len(totals.Allowances) > 0 {
		status.Allowances, status.AllowanceTotal = totals.Allowances, &totals.AllowanceTotal
	}
	if len(totals.Charges) > 0 {
		status.Charges, status.ChargeTotal = totals.Charges, &totals.ChargeTotal
	}
	status.TaxBreakdown = nil
	if len(totals.TaxBreakdown) > 0 {
		status.TaxBreakdown = totals.TaxBreakdown
	}
	status.Display = creditNoteDisplay(billing.InvoiceCurrency(inv), status.Total)
	status.ObservedGeneration = note.Generation
	return status
}

// enteredLedger returns inv's ledger with the credit note entered: its
// entry (name, uid, total) and what it credits added to the credited lines
// and groups. credit is what billing.CreditOf composed against inv.
func enteredLedger(inv *billingv1.Invoice, credit *billing.NoteCredit, note *billingv1.CreditNote) *billingv1.InvoiceLedger {
	toCredit, amounts := credit.Invoice, credit.Amounts
	ledger := creditNotes.withEntry(inv, note, amounts.Total)
	credited := *toCredit
	credited.Credited = billing.Credited{
		Lines:  append([]billing.CreditedLine(nil), toCredit.Credited.Lines...),
		Groups: append([]billing.CreditedGroup(nil), toCredit.Credited.Groups...),
	}
	credited.Apply(credit.Parts, amounts)
	ledger.CreditedLines = make([]billingv1.CreditedLine, len(credited.Credited.Lines))
	for i, l := range credited.Credited.Lines {
		ledger.CreditedLines[i] = billingv1.CreditedLine{Quantity: l.Quantity, Net: l.Net}
	}
	ledger.CreditedGroups = make([]billingv1.CreditedGroup, len(credited.Credited.Groups))
	for i, g := range credited.Credited.Groups {
		ledger.CreditedGroups[i] = billingv1.CreditedGroup{TaxableAmount: g.TaxableAmount, TaxAmount: g.TaxAmount}
	}
	if len(ledger.CreditedGroups) == 0 {
		ledger.CreditedGroups = nil
	}
	return ledger
}

// issuedCreditNote returns status (computed, entered in inv's ledger) Issued
// with its number in the credit-note series under prefix, and the
// snapshot of inv it credits.
func issuedCreditNote(status billingv1.CreditNoteStatus, inv *billingv1.Invoice, prefix string,
	assignment numbering.Assignment, generation int64, now time.Time) (billingv1.CreditNoteStatus, error) {
	number, err := numbering.Format(prefix, assignment.Sequence)
	if err != nil {
		return status, err
	}
	status = *status.DeepCopy()
	sequence := assignment.Sequence
	issuedAt := metav1.NewTime(assignment.IssuedAt)
	status.Phase = billingv1.CreditNoteIssued
	status.Sequence, status.Number, status.IssuedAt = &sequence, number, &issuedAt
	status.CustomerName = inv.Spec.CustomerRef.Name
	status.Currency = billing.InvoiceCurrency(inv)
	status.InvoiceNumber = inv.Status.Number
	status.InvoiceIssuedAt = inv.Status.IssuedAt.DeepCopy()
	status.BillTo = inv.Status.BillTo.DeepCopy()
	status.Issuer = inv.Status.Issuer.DeepCopy()
	status.PaymentAccount = inv.Status.PaymentAccount.DeepCopy()
	status.BuyerReference = inv.Spec.BuyerReference
	status.ObservedGeneration = generation
	c := reconciler.Conditions{List: &status.Conditions, Generation: generation, Now: now}
	c.Ready(billingv1.ReasonIssued, "The credit note is issued")
	return status, nil
}

// creditNotePrefix is the profile's credit note prefix (nil profile: the
// default).
func creditNotePrefix(profile *billingv1.BillingProfile) string {
	if profile == nil || profile.Spec.CreditNotePrefix == nil {
		return billingv1.DefaultCreditNotePrefix
	}
	return *profile.Spec.CreditNotePrefix
}
