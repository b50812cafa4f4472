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
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// invoiceStatus computes an invoice's status afresh from its spec, its
// current status, its customer (nil when it does not exist) and the
// workspace's billing profile (nil when it has none), at time now. It
// reads nothing else and changes nothing.
//
// An issued invoice stays issued with its amounts, billTo and issuedAt:
// the spec is immutable and the rest a snapshot. Otherwise the amounts are
// computed with each item's effective tax (its own, or the profile's
// default), and the invoice is Invalid while they cannot be (TotalTooLarge,
// InvalidTax), its customer is missing (CustomerNotFound) or a reverse
// charge lacks tax ids (TaxIDRequired); it is issued at now when none of
// these holds.
func invoiceStatus(inv *billingv1.Invoice, customer *billingv1.Customer,
	profile *billingv1.BillingProfile, now time.Time) billingv1.InvoiceStatus {
	status := *inv.Status.DeepCopy()
	status.ObservedGeneration = inv.Generation
	conditions := invoiceConditions{status: &status, generation: inv.Generation, now: now}

	if status.Phase == billingv1.InvoiceIssued {
		conditions.issued()
		return status
	}

	taxes := effectiveTaxes(inv, profile)
	amounts, verdict := invoiceAmounts(inv, profile, taxes)
	if verdict != nil {
		billing.ClearAmounts(&status)
		conditions.invalid(verdict.Reason, verdict.Message, verdict.Also)
		return status
	}
	billing.SetAmounts(&status, &inv.Spec, amounts, taxes)

	if customer == nil {
		conditions.invalid(billingv1.ReasonCustomerNotFound,
			fmt.Sprintf("Customer %q does not exist in namespace %q; the invoice is issued when it is created",
				inv.Spec.CustomerRef.Name, inv.Namespace),
			billingv1.ConditionReconciling)
		return status
	}
	if missing := missingTaxIDs(taxes, profile, customer); missing != nil {
		conditions.invalid(billingv1.ReasonTaxIDRequired, taxIDsMessage(missing), billingv1.ConditionReconciling)
		return status
	}

	status.BillTo = billTo(customer)
	issuedAt := metav1.NewTime(now)
	status.IssuedAt = &issuedAt
	conditions.issued()
	return status
}

// billTo is the snapshot of customer an invoice is issued to.
func billTo(customer *billingv1.Customer) *billingv1.BillTo {
	return &billingv1.BillTo{
		Name:    customer.Spec.Name,
		Email:   customer.Spec.Email,
		Address: customer.Spec.Address.DeepCopy(),
		TaxID:   customer.Spec.TaxID,

		ElectronicAddress: customer.Spec.ElectronicAddress.DeepCopy(),
	}
}

// needsNumber reports whether status, computed by invoiceStatus, is issued
// but carries no number yet: the invoice is being issued now, or was issued
// by a version that did not number invoices.
func needsNumber(status *billingv1.InvoiceStatus) bool {
	return status.Phase == billingv1.InvoiceIssued && status.Sequence == nil
}

// numberedStatus returns status (issued, without a number) with the number,
// issue time, due date and issuer of its assignment, under profile (nil when
// the workspace has none: the default prefix and payment terms, no issuer).
// An invoice issued before numbering existed keeps its issue time; a new one
// takes the assignment's, so that issue times follow the sequence.
func numberedStatus(status billingv1.InvoiceStatus, assignment numbering.Assignment,
	profile *billingv1.BillingProfile, wasIssued bool) (billingv1.InvoiceStatus, error) {
	prefix, termsDays, issuer := profileTerms(profile)
	number, err := numbering.Format(prefix, assignment.Sequence)
	if err != nil {
		return status, err
	}
	status = *status.DeepCopy()
	sequence := assignment.Sequence
	status.Sequence = &sequence
	status.Number = number
	if !wasIssued || status.IssuedAt == nil {
		issuedAt := metav1.NewTime(assignment.IssuedAt)
		status.IssuedAt = &issuedAt
	}
	dueAt := metav1.NewTime(status.IssuedAt.AddDate(0, 0, int(termsDays)))
	status.DueAt = &dueAt
	status.Issuer = issuer
	if profile != nil {
		status.PaymentAccount = profile.Spec.Payment.DeepCopy()
	}
	if status.PaymentReference == "" {
		status.PaymentReference = banktransfer.InvoiceReference(status.PaymentAccount, number)
	}
	return status, nil
}

// profileTerms returns the number prefix, payment terms and issuer that
// profile sets, with the defaults for what it leaves out (or for no profile).
func profileTerms(profile *billingv1.BillingProfile) (prefix string, termsDays int32, issuer *billingv1.Issuer) {
	prefix, termsDays = billingv1.DefaultNumberPrefix, billingv1.DefaultPaymentTermsDays
	if profile == nil {
		return prefix, termsDays, nil
	}
	if profile.Spec.NumberPrefix != nil {
		prefix = *profile.Spec.NumberPrefix
	}
	if profile.Spec.PaymentTermsDays != nil {
		termsDays = *profile.Spec.PaymentTermsDays
	}
	return prefix, termsDays, profile.Spec.Issuer.DeepCopy()
}

// invoiceConditions sets the phase and kstatus conditions of one status.
type invoiceConditions struct {
	status     *billingv1.InvoiceStatus
	generation int64
	now        time.Time
}

// issued marks the invoice Issued and Ready.
func (c invoiceConditions) issued() {
	c.status.Phase = billingv1.InvoiceIssued
	c.set(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonIssued, "The invoice is issued")
	meta.RemoveStatusCondition(&c.status.Conditions, billingv1.ConditionReconciling)
	meta.RemoveStatusCondition(&c.status.Conditions, billingv1.ConditionStalled)
}

// invalid marks the invoice Invalid and not Ready for reason. also is
// Reconciling (it will converge by itself) or Stalled (it never will); the
// other of the two is removed.
func (c invoiceConditions) invalid(reason, message, also string) {
	c.status.Phase = billingv1.InvoiceInvalid
	c.status.BillTo = nil
	c.status.IssuedAt = nil
	c.set(billingv1.ConditionReady, metav1.ConditionFalse, reason, message)
	c.set(also, metav1.ConditionTrue, reason, message)
	for _, t := range []string{billingv1.ConditionReconciling, billingv1.ConditionStalled} {
		if t != also {
			meta.RemoveStatusCondition(&c.status.Conditions, t)
		}
	}
}

// set sets one condition; its lastTransitionTime becomes now only when its
// status changes.
func (c invoiceConditions) set(conditionType string, status metav1.ConditionStatus, reason, message string) {
	reconciler.Conditions{List: &c.status.Conditions, Generation: c.generation, Now: c.now}.
		Set(conditionType, status, reason, message)
}
