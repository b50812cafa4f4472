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

package builder

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// EmailOption changes an Email of Email.
type EmailOption func(*billingv1.Email)

// Email returns an Email named name in namespace ns with an empty spec:
// its purpose and what it is about come from options, since the CRD ties
// each purpose to its references and a test of the CRD builds the wrong
// ones too:
//
//	builder.Email(ns, "send-inv-1", builder.WithPurpose(billingv1.EmailPurposeInvoice),
//		builder.WithInvoiceRef("inv-1"), builder.WithTo("ap@acme.example"))
func Email(ns, name string, opts ...EmailOption) *billingv1.Email {
	e := &billingv1.Email{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, opt := range opts {
		opt(e)
	}
	return e
}

// WithPurpose sets spec.purpose: invoice, credit_note, reminder or
// statement.
func WithPurpose(purpose billingv1.EmailPurpose) EmailOption {
	return func(e *billingv1.Email) { e.Spec.Purpose = purpose }
}

// WithInvoiceRef sets spec.invoiceRef, the invoice sent (purpose invoice)
// or reminded of (purpose reminder).
func WithInvoiceRef(invoice string) EmailOption {
	return func(e *billingv1.Email) { e.Spec.InvoiceRef = &billingv1.InvoiceReference{Name: invoice} }
}

// WithCreditNoteRef sets spec.creditNoteRef, the credit note sent (purpose
// credit_note).
func WithCreditNoteRef(creditNote string) EmailOption {
	return func(e *billingv1.Email) { e.Spec.CreditNoteRef = &billingv1.CreditNoteReference{Name: creditNote} }
}

// WithCustomerRef sets spec.customerRef, the customer the message is for
// (required with purpose statement).
func WithCustomerRef(customer string) EmailOption {
	return func(e *billingv1.Email) { e.Spec.CustomerRef = &billingv1.CustomerReference{Name: customer} }
}

// WithTo sets spec.to, the recipients; without it the message goes to the
// customer's e-mail.
func WithTo(addresses ...string) EmailOption {
	return func(e *billingv1.Email) { e.Spec.To = addresses }
}

// WithStatement sets spec.statement, the days a statement covers (purpose
// statement), both YYYY-MM-DD and included.
func WithStatement(from, to string) EmailOption {
	return func(e *billingv1.Email) { e.Spec.Statement = &billingv1.StatementPeriod{From: from, To: to} }
}

// WithReminderDays sets spec.reminderDays, the reminder's days relative to
// the invoice's due date (purpose reminder).
func WithReminderDays(days int32) EmailOption {
	return func(e *billingv1.Email) { e.Spec.ReminderDays = &days }
}
