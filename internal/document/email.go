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
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/language"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// InvoiceEmail is the subject and text of the message that sends an issued
// invoice: both name its number, its total and its due date.
func InvoiceEmail(inv *billingv1.Invoice, tag language.Tag) (subject, text string) {
	st := &inv.Status
	total := money(billing.InvoiceCurrency(inv), deref(st.Total))
	due := day(st.DueAt)
	subject = fmt.Sprintf("Invoice %s: %s due %s", st.Number, total, due)
	var b strings.Builder
	greet(&b, st.BillTo)
	fmt.Fprintf(&b, "please find attached invoice %s of %s, for %s, due on %s.\n\n", st.Number, day(st.IssuedAt), total, due)
	sign(&b, st.Issuer)
	return subject, b.String()
}

// CreditNoteEmail is the subject and text of the message that sends an
// issued credit note: its number, the invoice it credits and its total.
func CreditNoteEmail(cn *billingv1.CreditNote, tag language.Tag) (subject, text string) {
	st := &cn.Status
	total := money(st.Currency, deref(st.Total))
	subject = fmt.Sprintf("Credit note %s for invoice %s: %s", st.Number, st.InvoiceNumber, total)
	var b strings.Builder
	greet(&b, st.BillTo)
	fmt.Fprintf(&b, "please find attached credit note %s of %s, which credits %s of invoice %s.\n\n",
		st.Number, day(st.IssuedAt), total, st.InvoiceNumber)
	sign(&b, st.Issuer)
	return subject, b.String()
}

// ReminderEmail is the subject and text of a payment reminder about inv
// as of now: the subject begins with "Reminder:" and names the invoice's
// number, and both say what remains and when it is or was due.
func ReminderEmail(inv *billingv1.Invoice, now time.Time, tag language.Tag) (subject, text string) {
	st := &inv.Status
	remaining := int64(0)
	if st.Balance != nil {
		remaining = st.Balance.AmountRemaining
	}
	amount := money(billing.InvoiceCurrency(inv), remaining)
	due := day(st.DueAt)
	when := "is due on " + due
	if st.DueAt != nil && now.After(st.DueAt.Time) {
		when = fmt.Sprintf("was due on %s, %d days ago", due, int(now.Sub(st.DueAt.Time).Hours()/24))
	}
	subject = fmt.Sprintf("Reminder: invoice %s, %s %s", st.Number, amount, when)
	var b strings.Builder
	greet(&b, st.BillTo)
	fmt.Fprintf(&b, "this is a reminder that %s of invoice %s, issued on %s, %s.\n\n", amount, st.Number, day(st.IssuedAt), when)
	b.WriteString("If you have paid it in the meantime, thank you, and please disregard this message.\n\n")
	sign(&b, st.Issuer)
	return subject, b.String()
}

// StatementEmail is the subject and text of the message that sends a
// customer's statement of account for the days from and to.
func StatementEmail(customer *billingv1.Customer, issuer *billingv1.Issuer, from, to string, tag language.Tag) (subject, text string) {
	subject = fmt.Sprintf("Statement of account %s to %s", from, to)
	var b strings.Builder
	greet(&b, &billingv1.BillTo{Name: customer.Spec.Name})
	fmt.Fprintf(&b, "please find attached the statement of your account from %s to %s.\n\n", from, to)
	sign(&b, issuer)
	return subject, b.String()
}

// greet opens a message to the customer.
func greet(b *strings.Builder, to *billingv1.BillTo) {
	if to != nil && to.Name != "" {
		fmt.Fprintf(b, "Dear %s,\n\n", to.Name)
		return
	}
	b.WriteString("Hello,\n\n")
}

// sign closes a message with the issuer's name and e-mail.
func sign(b *strings.Builder, issuer *billingv1.Issuer) {
	b.WriteString("Kind regards,\n")
	if issuer != nil {
		b.WriteString(issuer.Name + "\n")
		if issuer.Email != "" {
			b.WriteString(issuer.Email + "\n")
		}
	}
}

// money writes amount minor units of the currency code as the documents do.
func money(code string, amount int64) string {
	cur, err := billing.ParseCurrency(code)
	if err != nil {
		cur = billing.Currency{Code: strings.ToUpper(code), Digits: 2}
	}
	return formatMoney(cur, amount)
}

// day writes t as the documents write a day, "" when unset.
func day(t *metav1.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(dateLayout)
}

// deref is *p, or 0.
func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
