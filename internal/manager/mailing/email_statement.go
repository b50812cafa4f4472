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

package mailing

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/locale"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/mail"
)

// attachStatement attaches the customer's statement of em's period as PDF:
// the statement document the adapter answers (billing.CustomerStatement
// over the customer's records, live and sealed: no write-offs), in the
// same rendering.
func (r *EmailReconciler) attachStatement(ctx context.Context, msg *mail.Message, em *billingv1.Email,
	customer *billingv1.Customer, profile *billingv1.BillingProfile) error {
	loc, err := billing.TimeZone(profile)
	if err != nil {
		return stalled(billingv1.ReasonNotConfigured, "%s", err.Error())
	}
	from, errFrom := billing.ParseDay(em.Spec.Statement.From, loc)
	to, errTo := billing.ParseDay(em.Spec.Statement.To, loc)
	if errFrom != nil || errTo != nil || to.Before(from) {
		return stalled(billingv1.ReasonSubjectNotFound, "The statement's days %s to %s are not a period.",
			em.Spec.Statement.From, em.Spec.Statement.To)
	}
	recs, err := r.customerRecords(ctx, em.Namespace, customer.Name)
	if err != nil {
		return err
	}
	st, err := billing.CustomerStatement(recs, customer.Name, from, to, loc)
	if err != nil {
		return fmt.Errorf("computing the statement of %s: %w", customer.Name, err)
	}
	pdf, err := document.StatementPDF(&document.Statement{Statement: &st, Customer: customer,
		Issuer: profile.Spec.Issuer, Footer: profile.Spec.Footer, Location: loc,
		Locale: locale.Resolve(customer.Spec.PreferredLocale, profile.Spec.Locale)})
	if err != nil {
		return fmt.Errorf("rendering the statement of %s: %w", customer.Name, err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: document.StatementFilename(&st, loc, "pdf"),
		ContentType: mediaPDF, Data: pdf})
	return nil
}

// customerRecords are the records of customer's account in ns: its live
// invoices with their credit notes, payments, credit applications and
// write-offs, its refunds (from the cache), and its sealed invoices with
// their credit notes and payments (read from the seals, only when it has
// any: a statement of a customer with sealed history reads the
// workspace's seals).
func (r *EmailReconciler) customerRecords(ctx context.Context, ns, customer string) (*billing.Records, error) {
	recs := &billing.Records{}
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(ns), client.MatchingFields{index.InvoiceCustomer: customer}); err != nil {
		return nil, fmt.Errorf("listing the invoices of %s: %w", customer, err)
	}
	for i := range invoices.Items {
		inv := &invoices.Items[i]
		recs.Invoices = append(recs.Invoices, inv)
		if err := r.ledgerRecords(ctx, inv, recs); err != nil {
			return nil, err
		}
	}
	refunds := &billingv1.RefundList{}
	if err := r.List(ctx, refunds, client.InNamespace(ns), client.MatchingFields{index.RefundCustomer: customer}); err != nil {
		return nil, fmt.Errorf("listing the refunds of %s: %w", customer, err)
	}
	for i := range refunds.Items {
		recs.Refunds = append(recs.Refunds, &refunds.Items[i])
	}
	return recs, r.sealedRecords(ctx, ns, customer, recs)
}

// ledgerRecords adds the records in inv's ledger to recs.
func (r *EmailReconciler) ledgerRecords(ctx context.Context, inv *billingv1.Invoice, recs *billing.Records) error {
	in := []client.ListOption{client.InNamespace(inv.Namespace)}
	notes, payments := &billingv1.CreditNoteList{}, &billingv1.PaymentList{}
	capps, writeOffs := &billingv1.CreditApplicationList{}, &billingv1.WriteOffList{}
	for _, l := range []struct {
		list  client.ObjectList
		field string
	}{{notes, index.CreditNoteInvoice}, {payments, index.PaymentInvoice},
		{capps, index.CreditApplicationInvoice}, {writeOffs, index.WriteOffInvoice}} {
		if err := r.List(ctx, l.list, append(in, client.MatchingFields{l.field: inv.Name})...); err != nil {
			return fmt.Errorf("listing the ledger of invoice %s: %w", inv.Name, err)
		}
	}
	for i := range notes.Items {
		recs.CreditNotes = append(recs.CreditNotes, &notes.Items[i])
	}
	for i := range payments.Items {
		recs.Payments = append(recs.Payments, &payments.Items[i])
	}
	for i := range capps.Items {
		recs.CreditApplications = append(recs.CreditApplications, &capps.Items[i])
	}
	for i := range writeOffs.Items {
		recs.WriteOffs = append(recs.WriteOffs, &writeOffs.Items[i])
	}
	return nil
}

// sealedRecords adds customer's sealed invoices, credit notes and payments
// to recs.
func (r *EmailReconciler) sealedRecords(ctx context.Context, ns, customer string, recs *billing.Records) error {
	if r.Sealed == nil {
		return nil
	}
	n, err := r.Sealed.SealedInvoicesOf(ctx, ns, customer)
	if err != nil || n == 0 {
		return err
	}
	seals, _, err := r.Sealed.Chain(ctx, ns)
	if err != nil {
		return err
	}
	for _, sl := range seals {
		objects, err := r.Sealed.Objects(ctx, ns, sl.Name)
		if err != nil {
			return err
		}
		invoices := map[string]bool{}
		for _, obj := range objects {
			if inv, ok := obj.(*billingv1.Invoice); ok && inv.Spec.CustomerRef.Name == customer {
				invoices[inv.Name] = true
				recs.Invoices = append(recs.Invoices, inv)
			}
		}
		for _, obj := range objects {
			switch o := obj.(type) {
			case *billingv1.CreditNote:
				if invoices[o.Spec.InvoiceRef.Name] {
					recs.CreditNotes = append(recs.CreditNotes, o)
				}
			case *billingv1.Payment:
				if invoices[o.Spec.InvoiceRef.Name] {
					recs.Payments = append(recs.Payments, o)
				}
			}
		}
	}
	return nil
}
