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
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/locale"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/mail"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
)

// This file writes an Email's message from what it is about: the words,
// the recipients and the attachments. What stops a message is an
// emailOutcome: never sendable as asked (stalled), a reminder whose invoice
// is settled, or an invoice or credit note not issued yet.

// Media types of the attachments.
const (
	mediaPDF = "application/pdf"
	mediaXML = "application/xml"
)

// errUnsendable carries the outcome that stops a message.
type errUnsendable struct{ outcome emailOutcome }

func (e *errUnsendable) Error() string {
	return e.outcome.stalled + e.outcome.settled + e.outcome.waiting
}

// stalled is the message's subject gone or never sendable.
func stalled(reason, format string, args ...any) error {
	return &errUnsendable{emailOutcome{stalled: reason, stalledMessage: fmt.Sprintf(format, args...)}}
}

// subject is what a message is about, read live.
type subject struct {
	customer *billingv1.Customer
	invoice  *billingv1.Invoice
	note     *billingv1.CreditNote
}

// compose writes em's message: its words and attachments from the
// subject read live, its recipients (spec.to, else the customer's e-mail),
// the profile's sender, reply-to and blind copies, and its Message-ID.
// note says what was left out.
func (r *EmailReconciler) compose(ctx context.Context, em *billingv1.Email, profile *billingv1.BillingProfile,
	now time.Time) (msg *mail.Message, note string, err error) {
	settings, issuer := profile.Spec.Email, profile.Spec.Issuer
	s, err := r.subject(ctx, em)
	if err != nil {
		return nil, "", err
	}
	msg = &mail.Message{From: settings.From, FromName: issuerName(issuer), ReplyTo: settings.ReplyTo, BCC: settings.BCC,
		Date: now, MessageID: billing.MessageID(string(em.UID), settings.From)}
	workspace := billing.SettingsOf(profile)
	opts := document.Options{Footer: workspace.Footer, Locale: locale.Resolve(s.preferredLocale(), workspace.Locale)}
	msg.To = billing.Recipients(em.Spec.To, s.customerEmail(), s.issuedTo())
	if len(msg.To) == 0 {
		return nil, "", stalled(billingv1.ReasonNoRecipient,
			"The message names no recipient, and neither its customer nor what it sends has an e-mail address.")
	}
	if opts.CreditNotes, err = r.ledgerCreditNotes(ctx, s.invoice); err != nil {
		return nil, "", err
	}
	switch em.Spec.Purpose {
	case billingv1.EmailPurposeInvoice:
		msg.Subject, msg.Text = document.InvoiceEmail(s.invoice, opts.Locale)
		note, err = attach(msg, invoiceDocument(s.invoice, asIssued(opts)), settings.AttachEInvoice)
	case billingv1.EmailPurposeReminder:
		msg.Subject, msg.Text = document.ReminderEmail(s.invoice, now, opts.Locale)
		note, err = attach(msg, invoiceDocument(s.invoice, opts), "")
	case billingv1.EmailPurposeCreditNote:
		msg.Subject, msg.Text = document.CreditNoteEmail(s.note, opts.Locale)
		note, err = attach(msg, creditNoteDocument(s.note, opts), settings.AttachEInvoice)
	case billingv1.EmailPurposeStatement:
		period := em.Spec.Statement
		msg.Subject, msg.Text = document.StatementEmail(issuer, period.From, period.To, opts.Locale)
		err = r.attachStatement(ctx, msg, em, s.customer, profile)
	}
	return msg, note, err
}

// issuerName is the name the messages are sent under, the From header's
// display name: the billing profile's issuer's, "" without one.
func issuerName(issuer *billingv1.Issuer) string {
	if issuer == nil {
		return ""
	}
	return issuer.Name
}

// ledgerCreditNotes are the credit notes of inv (from the cache), which
// its document names by their numbers; none for a message about no
// invoice, nor while its ledger holds none. One the cache lacks (sealed,
// or not seen yet) is named by its name (billing.CreditNotesOf).
func (r *EmailReconciler) ledgerCreditNotes(ctx context.Context, inv *billingv1.Invoice) ([]*billingv1.CreditNote,
	error) {
	if inv == nil || inv.Status.Ledger == nil || len(inv.Status.Ledger.CreditNotes) == 0 {
		return nil, nil
	}
	notes := &billingv1.CreditNoteList{}
	if err := r.List(ctx, notes, client.InNamespace(inv.Namespace),
		client.MatchingFields{index.CreditNoteInvoice: inv.Name}); err != nil {
		return nil, fmt.Errorf("listing the credit notes of invoice %s: %w", inv.Name, err)
	}
	out := make([]*billingv1.CreditNote, len(notes.Items))
	for i := range notes.Items {
		out[i] = &notes.Items[i]
	}
	return out, nil
}

// customerEmail is the e-mail of the customer, "" when it was not read.
func (s *subject) customerEmail() string {
	if s.customer == nil {
		return ""
	}
	return s.customer.Spec.Email
}

// preferredLocale is the customer's preferred locale, "" when it has none
// or cannot be read.
func (s *subject) preferredLocale() string {
	if s.customer == nil {
		return ""
	}
	return s.customer.Spec.PreferredLocale
}

// issuedTo is the address the invoice or credit note was issued to.
func (s *subject) issuedTo() string {
	var billTo *billingv1.BillTo
	switch {
	case s.invoice != nil:
		billTo = s.invoice.Status.BillTo
	case s.note != nil:
		billTo = s.note.Status.BillTo
	}
	if billTo == nil {
		return ""
	}
	return billTo.Email
}

// subject reads what em is about, live, and checks it can be sent: the
// invoice or credit note issued, a reminder's invoice still open.
func (r *EmailReconciler) subject(ctx context.Context, em *billingv1.Email) (*subject, error) {
	s := &subject{}
	spec := &em.Spec
	switch {
	case spec.InvoiceRef != nil:
		s.invoice = &billingv1.Invoice{}
		if err := r.getSubject(ctx, em, "invoice", spec.InvoiceRef.Name, s.invoice); err != nil {
			return nil, err
		}
		if err := sendableInvoice(s.invoice); err != nil {
			return nil, err
		}
		if spec.Purpose == billingv1.EmailPurposeReminder && !reminderDue(s.invoice) {
			return nil, &errUnsendable{emailOutcome{settled: fmt.Sprintf(
				"Invoice %s was settled before the reminder went out; nothing was sent.", s.invoice.Status.Number)}}
		}
		return s, r.subjectCustomer(ctx, em, s.invoice.Spec.CustomerRef.Name, s)
	case spec.CreditNoteRef != nil:
		s.note = &billingv1.CreditNote{}
		if err := r.getSubject(ctx, em, "credit note", spec.CreditNoteRef.Name, s.note); err != nil {
			return nil, err
		}
		if s.note.Status.Phase == billingv1.CreditNoteRejected {
			return nil, stalled(billingv1.ReasonSubjectNotFound, "Credit note %s was rejected: it is never issued.",
				s.note.Name)
		}
		if s.note.Status.Number == "" {
			return nil, &errUnsendable{emailOutcome{waiting: fmt.Sprintf(
				"Credit note %s is not issued yet; the message goes out once it is.", s.note.Name)}}
		}
		return s, r.subjectCustomer(ctx, em, s.note.Status.CustomerName, s)
	default:
		return s, r.subjectCustomer(ctx, em, spec.CustomerRef.Name, s)
	}
}

// sendableInvoice is nil for an issued invoice, and the outcome otherwise.
func sendableInvoice(inv *billingv1.Invoice) error {
	switch {
	case inv.Status.Phase == billingv1.InvoiceInvalid && meta.IsStatusConditionTrue(inv.Status.Conditions,
		billingv1.ConditionStalled):
		return stalled(billingv1.ReasonSubjectNotFound, "Invoice %s is invalid: it is never issued as it stands.",
			inv.Name)
	case inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Number == "":
		return &errUnsendable{emailOutcome{waiting: fmt.Sprintf(
			"Invoice %s is not issued yet; the message goes out once it is.", inv.Name)}}
	}
	return nil
}

// reminderDue reports whether inv still owes money: open or partially paid.
func reminderDue(inv *billingv1.Invoice) bool {
	b := inv.Status.Balance
	return b != nil && b.AmountRemaining > 0 &&
		(b.PaymentStatus == billingv1.InvoicePaymentOpen || b.PaymentStatus == billingv1.InvoicePaymentPartiallyPaid)
}

// getSubject reads the object named name into obj, live, or from its
// seal when the books that hold it are closed (an invoice of a closed
// period can be sent again); a missing one stalls the message.
func (r *EmailReconciler) getSubject(ctx context.Context, em *billingv1.Email, what, name string,
	obj client.Object) error {
	err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: em.Namespace, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		found, err := r.sealedSubject(ctx, em.Namespace, name, obj)
		if found || err != nil {
			return err
		}
		return stalled(billingv1.ReasonSubjectNotFound, "The %s %s does not exist in namespace %s.", what, name,
			em.Namespace)
	}
	if err != nil {
		return fmt.Errorf("getting the %s %s: %w", what, name, err)
	}
	return nil
}

// subjectCustomer reads the customer named name into s; a statement
// needs it, the others only for its e-mail address.
func (r *EmailReconciler) subjectCustomer(ctx context.Context, em *billingv1.Email, name string, s *subject) error {
	if name == "" {
		return nil
	}
	c := &billingv1.Customer{}
	err := r.getSubject(ctx, em, "customer", name, c)
	var unsendable *errUnsendable
	if errors.As(err, &unsendable) && em.Spec.Purpose != billingv1.EmailPurposeStatement {
		return nil
	}
	if err != nil {
		return err
	}
	s.customer = c
	return nil
}

// issuedDocument is an issued invoice or credit note as the message
// attaches it: its file name for an extension, its PDF, its e-invoice
// as UBL of a profile, and its Factur-X.
type issuedDocument struct {
	filename func(ext string) string
	pdf      func() ([]byte, error)
	einvoice func(einvoice.Profile) ([]byte, error)
	facturx  func() ([]byte, error)
}

// invoiceDocument is inv rendered as opts asks.
func invoiceDocument(inv *billingv1.Invoice, opts document.Options) issuedDocument {
	return issuedDocument{
		filename: func(ext string) string { return document.Filename(inv, ext) },
		pdf:      func() ([]byte, error) { return document.PDF(inv, opts) },
		einvoice: func(p einvoice.Profile) ([]byte, error) { return einvoice.Invoice(inv, einvoice.UBL, p) },
		facturx:  func() ([]byte, error) { return document.FacturX(inv, opts) },
	}
}

// asIssued is opts rendering an invoice as it was issued: the invoice an
// e-mail sends (on issue, or again) is the document the customer was
// issued, the same bytes each time; a reminder attaches the invoice as it
// stands, with what was paid since.
func asIssued(opts document.Options) document.Options {
	opts.AsIssued = true
	return opts
}

// creditNoteDocument is cn rendered as opts asks.
func creditNoteDocument(cn *billingv1.CreditNote, opts document.Options) issuedDocument {
	return issuedDocument{
		filename: func(ext string) string { return document.CreditNoteFilename(cn, ext) },
		pdf:      func() ([]byte, error) { return document.CreditNotePDF(cn, opts) },
		einvoice: func(p einvoice.Profile) ([]byte, error) { return einvoice.CreditNote(cn, einvoice.UBL, p) },
		facturx:  func() ([]byte, error) { return document.CreditNoteFacturX(cn, opts) },
	}
}

// attach attaches d's PDF and, when profile is set, its e-invoice (for
// facturx, the PDF is the Factur-X); a document that lacks what the
// profile needs goes without it, as a plain PDF, and note says what it
// lacks.
func attach(msg *mail.Message, d issuedDocument, profile billingv1.EInvoiceAttachment) (note string, err error) {
	if profile == billingv1.EInvoiceAttachmentFacturX {
		return attachFacturX(msg, d)
	}
	if err := attachPDF(msg, d); err != nil || profile == "" {
		return "", err
	}
	xml, err := d.einvoice(einvoice.Profile(profile))
	var lacks *einvoice.UnavailableError
	if errors.As(err, &lacks) {
		return reconciler.Truncate("No e-invoice attached: "+strings.TrimSpace(lacks.Error()), 1024), nil
	}
	if err != nil {
		return "", fmt.Errorf("writing the e-invoice: %w", err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: d.filename("xml"), ContentType: mediaXML,
		Data: xml})
	return "", nil
}

// attachFacturX attaches d's PDF as a Factur-X; a document whose e-invoice
// cannot be written goes as the plain PDF, and note says what it lacks.
func attachFacturX(msg *mail.Message, d issuedDocument) (note string, err error) {
	fx, err := d.facturx()
	var lacks *einvoice.UnavailableError
	switch {
	case errors.As(err, &lacks):
		return reconciler.Truncate("Sent as a plain PDF, not a Factur-X: "+strings.TrimSpace(lacks.Error()), 1024), attachPDF(msg, d)
	case err != nil:
		return "", fmt.Errorf("rendering %s as a Factur-X: %w", d.filename("pdf"), err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: d.filename("pdf"), ContentType: mediaPDF,
		Data: fx})
	return "", nil
}

// attachPDF attaches d's PDF.
func attachPDF(msg *mail.Message, d issuedDocument) error {
	pdf, err := d.pdf()
	if err != nil {
		return fmt.Errorf("rendering %s: %w", d.filename("pdf"), err)
	}
	msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: d.filename("pdf"), ContentType: mediaPDF,
		Data: pdf})
	return nil
}

// sealedSubject reads the sealed record (an invoice or credit note) named
// name of ns into obj; found is false when no seal holds it (or obj is of
// a kind no seal holds).
func (r *EmailReconciler) sealedSubject(ctx context.Context, ns, name string, obj client.Object) (found bool,
	err error) {
	kind := sealing.SealKindOf(obj)
	if r.Sealed == nil || kind == "" {
		return false, nil
	}
	sealName, _, err := r.Sealed.SealOf(ctx, ns, kind, name)
	if err != nil || sealName == "" {
		return false, err
	}
	objects, err := r.Sealed.Objects(ctx, ns, sealName)
	if err != nil {
		return false, err
	}
	sealed, ok := objects[sealing.SealedKey{Kind: kind, Name: name}]
	if !ok || reflect.TypeOf(sealed) != reflect.TypeOf(obj) {
		return false, nil
	}
	// A copy of the sealed record, of obj's kind, into obj.
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(sealed.DeepCopyObject()).Elem())
	return true, nil
}
