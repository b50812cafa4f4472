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

package document

import (
	"strings"
	"time"

	"golang.org/x/text/language"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// The e-mails' subjects and texts, in the language of tag (the locale the
// documents they attach are written in), their amounts and days formatted
// as the documents format them.

// InvoiceEmail is the subject and text of the message that sends an issued
// invoice: both name its number, its total and its due date. Sent again
// once a credit note, a payment or applied credit settled part of it, the
// text also says what remains as the customer owes it, or that nothing
// does (billing.OwedByCustomer: never a write-off).
func InvoiceEmail(inv *billingv1.Invoice, tag language.Tag) (subject, text string) {
	p := locale.New(tag)
	st := &inv.Status
	code := billing.InvoiceCurrency(inv)
	total := p.Money(code, deref(st.Total))
	due := day(p, st.DueAt)
	subject = p.T("email.invoice.subject", st.Number, total, due)
	var b strings.Builder
	greet(p, &b)
	paragraph(&b, p.T("email.invoice.body", st.Number, day(p, st.IssuedAt), total, due))
	if billing.SettledForCustomer(st.Balance) {
		if owed := billing.OwedByCustomer(st.Balance); owed > 0 {
			paragraph(&b, p.T("email.invoice.remaining", p.Money(code, owed)))
		} else {
			paragraph(&b, p.T("email.invoice.settled"))
		}
	}
	sign(p, &b, st.Issuer)
	return subject, b.String()
}

// CreditNoteEmail is the subject and text of the message that sends an
// issued credit note: its number, the invoice it credits and its total.
func CreditNoteEmail(cn *billingv1.CreditNote, tag language.Tag) (subject, text string) {
	p := locale.New(tag)
	st := &cn.Status
	total := p.Money(st.Currency, deref(st.Total))
	subject = p.T("email.creditNote.subject", st.Number, st.InvoiceNumber, total)
	var b strings.Builder
	greet(p, &b)
	paragraph(&b, p.T("email.creditNote.body", st.Number, day(p, st.IssuedAt), total, st.InvoiceNumber))
	sign(p, &b, st.Issuer)
	return subject, b.String()
}

// ReminderEmail is the subject and text of a payment reminder about inv
// as of now: the subject names the invoice's number ("Reminder: invoice
// ..." in English), and both say what remains and when it is or was due.
func ReminderEmail(inv *billingv1.Invoice, now time.Time, tag language.Tag) (subject, text string) {
	p := locale.New(tag)
	st := &inv.Status
	amount := p.Money(billing.InvoiceCurrency(inv), billing.OwedByCustomer(st.Balance))
	due, issued := day(p, st.DueAt), day(p, st.IssuedAt)
	var body string
	if st.DueAt != nil && now.After(st.DueAt.Time) {
		days := int(now.Sub(st.DueAt.Time).Hours() / 24)
		subject = p.T("email.reminder.subject.overdue", st.Number, amount, due, days)
		body = p.T("email.reminder.body.overdue", amount, st.Number, issued, due, days)
	} else {
		subject = p.T("email.reminder.subject.due", st.Number, amount, due)
		body = p.T("email.reminder.body.due", amount, st.Number, issued, due)
	}
	var b strings.Builder
	greet(p, &b)
	paragraph(&b, body)
	paragraph(&b, p.T("email.reminder.paid"))
	sign(p, &b, st.Issuer)
	return subject, b.String()
}

// StatementEmail is the subject and text of the message that sends a
// customer's statement of account for the days from and to (ISO 8601, as
// the period's query names them; a day that does not parse is written as
// it is).
func StatementEmail(issuer *billingv1.Issuer, from, to string, tag language.Tag) (subject, text string) {
	p := locale.New(tag)
	from, to = isoDayIn(p, from), isoDayIn(p, to)
	subject = p.T("email.statement.subject", from, to)
	var b strings.Builder
	greet(p, &b)
	paragraph(&b, p.T("email.statement.body", from, to))
	sign(p, &b, issuer)
	return subject, b.String()
}

// greet opens a message to the customer with the language's formal
// greeting ("Dear Sir or Madam,", "Sehr geehrte Damen und Herren,"): a
// customer is a company or a person whose name is not a contact's, and
// "Dear ACME GmbH," greets nobody.
func greet(p *locale.Printer, b *strings.Builder) {
	paragraph(b, p.T("email.greeting.formal"))
}

// paragraph writes s and an empty line after it.
func paragraph(b *strings.Builder, s string) {
	b.WriteString(s)
	b.WriteString("\n\n")
}

// sign closes a message with the issuer's name and e-mail.
func sign(p *locale.Printer, b *strings.Builder, issuer *billingv1.Issuer) {
	b.WriteString(p.T("email.regards") + "\n")
	if issuer != nil {
		b.WriteString(issuer.Name + "\n")
		if issuer.Email != "" {
			b.WriteString(issuer.Email + "\n")
		}
	}
}

// day writes t as the documents write a day, in UTC, "" when unset.
func day(p *locale.Printer, t *metav1.Time) string {
	if t == nil {
		return ""
	}
	return p.Date(t.UTC())
}

// isoDayIn writes an ISO 8601 day as p writes a day; s itself when it is
// not one.
func isoDayIn(p *locale.Printer, s string) string {
	t, err := time.Parse(isoDay, s)
	if err != nil {
		return s
	}
	return p.Date(t)
}

// deref is *p, or 0.
func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
