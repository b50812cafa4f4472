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
	settings := billing.SettingsOf(profile)
	loc, err := settings.Location()
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
		Issuer: settings.Issuer, Footer: settings.Footer, Location: loc,
		Locale: locale.Resolve(customer.Spec.PreferredLocale, settings.Locale)})
	if err != nil {
		return fmt.Errorf("rendering the statement of %s: %w", customer.Name, err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: document.StatementFilename(&st, loc, "pdf"),
		ContentType: mediaPDF, Data: pdf})
	return nil
}

// customerRecords are the records of customer's account in ns
// (billing.GatherRecords): its live invoices with their credit notes,
// payments, credit applications and write-offs, its refunds (from the
// cache), and its sealed invoices with their credit notes and payments
// (read from the seals, only when it has any: a statement of a customer
// with sealed history reads the workspace's seals).
func (r *EmailReconciler) customerRecords(ctx context.Context, ns, customer string) (*billing.Records, error) {
	return billing.GatherRecords(ctx, &cacheRecords{r: r, ns: ns, customer: customer})
}

// cacheRecords reads a customer's records from the manager's cache and,
// for its sealed ones, from the seals: a billing.RecordReader.
type cacheRecords struct {
	r            *EmailReconciler
	ns, customer string
	// sealed are the sealed records of the customer, as Invoices read them.
	sealed billing.Records
}

// Invoices lists the customer's live invoices, then its sealed ones.
func (c *cacheRecords) Invoices(ctx context.Context) ([]*billingv1.Invoice, error) {
	invoices := &billingv1.InvoiceList{}
	if err := c.list(ctx, invoices, index.InvoiceCustomer, "invoices"); err != nil {
		return nil, err
	}
	out := pointers(invoices.Items)
	if err := c.r.sealedRecords(ctx, c.ns, c.customer, &c.sealed); err != nil {
		return nil, err
	}
	return append(out, c.sealed.Invoices...), nil
}

// Ledgers adds the records in the ledgers of the live invoices, then the
// sealed credit notes and payments.
func (c *cacheRecords) Ledgers(ctx context.Context, invoices []*billingv1.Invoice, recs *billing.Records) error {
	sealed := make(map[*billingv1.Invoice]bool, len(c.sealed.Invoices))
	for _, inv := range c.sealed.Invoices {
		sealed[inv] = true
	}
	for _, inv := range invoices {
		if sealed[inv] {
			continue
		}
		if err := c.r.ledgerRecords(ctx, inv, recs); err != nil {
			return err
		}
	}
	recs.CreditNotes = append(recs.CreditNotes, c.sealed.CreditNotes...)
	recs.Payments = append(recs.Payments, c.sealed.Payments...)
	return nil
}

// Refunds lists the customer's refunds.
func (c *cacheRecords) Refunds(ctx context.Context) ([]*billingv1.Refund, error) {
	refunds := &billingv1.RefundList{}
	if err := c.list(ctx, refunds, index.RefundCustomer, "refunds"); err != nil {
		return nil, err
	}
	return pointers(refunds.Items), nil
}

// list lists into list the customer's objects that field (a cache index
// of their customer) finds; what names them in the error.
func (c *cacheRecords) list(ctx context.Context, list client.ObjectList, field, what string) error {
	if err := c.r.List(ctx, list, client.InNamespace(c.ns), client.MatchingFields{field: c.customer}); err != nil {
		return fmt.Errorf("listing the %s of %s: %w", what, c.customer, err)
	}
	return nil
}

// pointers points at each of items, in order; nil for none.
func pointers[T any](items []T) []*T {
	if len(items) == 0 {
		return nil
	}
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
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
