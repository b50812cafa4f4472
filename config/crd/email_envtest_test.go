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

package crd_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// validationCase is an object the API server admits (want empty) or
// refuses as Invalid with an error that names field and says want.
type validationCase struct {
	name  string
	build func(ns string) client.Object
	field string
	want  string
}

// email builds an Email named "msg" from opts.
func email(opts ...builder.EmailOption) func(ns string) client.Object {
	return func(ns string) client.Object { return builder.Email(ns, "msg", opts...) }
}

// profile builds the BillingProfile "default" from opts.
func profile(opts ...builder.BillingProfileOption) func(ns string) client.Object {
	return func(ns string) client.Object {
		return builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, opts...)
	}
}

// Options of an Email for each purpose, which the CRD admits.
var (
	sendInvoice = []builder.EmailOption{builder.WithPurpose(billingv1.EmailPurposeInvoice), builder.WithInvoiceRef("inv-1")}
	sendCredit  = []builder.EmailOption{builder.WithPurpose(billingv1.EmailPurposeCreditNote), builder.WithCreditNoteRef("cn-1")}
	sendRemind  = []builder.EmailOption{builder.WithPurpose(billingv1.EmailPurposeReminder), builder.WithInvoiceRef("inv-1"),
		builder.WithReminderDays(7)}
	sendStatement = []builder.EmailOption{builder.WithPurpose(billingv1.EmailPurposeStatement), builder.WithCustomerRef("acme"),
		builder.WithStatement("2026-01-01", "2026-03-31")}
)

// with returns base followed by opts, without changing base.
func with[O any](base []O, opts ...O) []O {
	return append(append([]O{}, base...), opts...)
}

// addresses returns n distinct plain addresses.
func addresses(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("a", i+1) + "@example.com"
	}
	return out
}

// smtp is a BillingProfile's e-mail settings to host with tls.
func smtp(host string, tls billingv1.SMTPTLSMode) []builder.BillingProfileOption {
	return []builder.BillingProfileOption{builder.WithEmailSettings(host, 587, "billing@example.com"), builder.WithSMTPTLS(tls)}
}

// bcc sets spec.email.bcc; it needs WithEmailSettings first.
func bcc(addresses ...string) builder.BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Email.BCC = addresses }
}

// The validation rules of the Email CRD and of a BillingProfile's e-mail
// settings and reminders, against the API server, with the CRDs another
// project's envtest suite installs.
func TestTheAPIServerValidatesEmailsAndEmailSettings(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client
	ctx := context.Background()
	ns := builder.Namespace(t, ctx, c, "email-")

	cases := []validationCase{
		// Emails: each purpose with what it is about, and nothing else.
		{name: "an invoice sent", build: email(sendInvoice...)},
		{name: "an invoice sent to 10 recipients, its customer named",
			build: email(with(sendInvoice, builder.WithCustomerRef("acme"), builder.WithTo(addresses(10)...))...)},
		{name: "a credit note sent", build: email(sendCredit...)},
		{name: "a reminder 30 days before the due date", build: email(with(sendRemind, builder.WithReminderDays(-30))...)},
		{name: "a reminder 365 days after the due date", build: email(with(sendRemind, builder.WithReminderDays(365))...)},
		{name: "a statement", build: email(sendStatement...)},
		{name: "an invoice sent without invoiceRef", build: email(builder.WithPurpose(billingv1.EmailPurposeInvoice)),
			field: "spec", want: "invoiceRef is required for purpose invoice and reminder, and only for them"},
		{name: "a reminder without invoiceRef",
			build: email(builder.WithPurpose(billingv1.EmailPurposeReminder), builder.WithReminderDays(7)),
			field: "spec", want: "invoiceRef is required for purpose invoice and reminder, and only for them"},
		{name: "a credit note sent with an invoiceRef", build: email(with(sendCredit, builder.WithInvoiceRef("inv-1"))...),
			field: "spec", want: "invoiceRef is required for purpose invoice and reminder, and only for them"},
		{name: "a statement with an invoiceRef", build: email(with(sendStatement, builder.WithInvoiceRef("inv-1"))...),
			field: "spec", want: "invoiceRef is required for purpose invoice and reminder, and only for them"},
		{name: "a credit note sent without creditNoteRef", build: email(builder.WithPurpose(billingv1.EmailPurposeCreditNote)),
			field: "spec", want: "creditNoteRef is required for purpose credit_note, and only for it"},
		{name: "an invoice sent with a creditNoteRef", build: email(with(sendInvoice, builder.WithCreditNoteRef("cn-1"))...),
			field: "spec", want: "creditNoteRef is required for purpose credit_note, and only for it"},
		{name: "a statement without its period",
			build: email(builder.WithPurpose(billingv1.EmailPurposeStatement), builder.WithCustomerRef("acme")),
			field: "spec", want: "statement is required for purpose statement, and only for it"},
		{name: "an invoice sent with a statement period",
			build: email(with(sendInvoice, builder.WithStatement("2026-01-01", "2026-03-31"))...),
			field: "spec", want: "statement is required for purpose statement, and only for it"},
		{name: "a statement without customerRef",
			build: email(builder.WithPurpose(billingv1.EmailPurposeStatement), builder.WithStatement("2026-01-01", "2026-03-31")),
			field: "spec", want: "customerRef is required for purpose statement"},
		{name: "a reminder without reminderDays",
			build: email(builder.WithPurpose(billingv1.EmailPurposeReminder), builder.WithInvoiceRef("inv-1")),
			field: "spec", want: "reminderDays is required for purpose reminder, and only for it"},
		{name: "an invoice sent with reminderDays", build: email(with(sendInvoice, builder.WithReminderDays(7))...),
			field: "spec", want: "reminderDays is required for purpose reminder, and only for it"},
		{name: "a reminder 31 days before the due date", build: email(with(sendRemind, builder.WithReminderDays(-31))...),
			field: "spec.reminderDays", want: "greater than or equal to -30"},
		{name: "a reminder 366 days after the due date", build: email(with(sendRemind, builder.WithReminderDays(366))...),
			field: "spec.reminderDays", want: "less than or equal to 365"},
		{name: "a message of no known purpose", build: email(builder.WithPurpose("receipt"), builder.WithInvoiceRef("inv-1")),
			field: "spec.purpose", want: "Unsupported value"},
		{name: "a message to 11 recipients", build: email(with(sendInvoice, builder.WithTo(addresses(11)...))...),
			field: "spec.to", want: "must have at most 10 items"},
		{name: "a message to an address with a display name",
			build: email(with(sendInvoice, builder.WithTo("Ada <ada@example.com>"))...),
			field: "spec.to[0]", want: "should match"},
		{name: "a statement of days not written YYYY-MM-DD",
			build: email(builder.WithPurpose(billingv1.EmailPurposeStatement), builder.WithCustomerRef("acme"),
				builder.WithStatement("2026-1-1", "2026-03-31")),
			field: "spec.statement.from", want: "should match"},

		// A BillingProfile's e-mail settings: plain text to loopback only.
		{name: "a profile sending with STARTTLS to a provider", build: profile(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS)...)},
		{name: "a profile sending with implicit TLS to a provider", build: profile(smtp("smtp.example.com", billingv1.SMTPTLSImplicit)...)},
		{name: "a profile sending in plain text to 127.0.0.1", build: profile(smtp("127.0.0.1", billingv1.SMTPTLSNone)...)},
		{name: "a profile sending in plain text to localhost", build: profile(smtp("localhost", billingv1.SMTPTLSNone)...)},
		{name: "a profile sending in plain text to a name that begins with 127.", build: profile(smtp("127.mail.example", billingv1.SMTPTLSNone)...), field: "spec.email.smtp", want: "tls none is allowed for a loopback host"},
		{name: "a profile sending in plain text to ::1", build: profile(smtp("::1", billingv1.SMTPTLSNone)...)},
		{name: "a profile sending in plain text to a provider", build: profile(smtp("smtp.example.com", billingv1.SMTPTLSNone)...),
			field: "spec.email.smtp", want: "tls none is allowed for a loopback host (localhost, 127.0.0.0/8, ::1) only"},
		{name: "a profile sending in plain text to a network address", build: profile(smtp("192.0.2.25", billingv1.SMTPTLSNone)...),
			field: "spec.email.smtp", want: "tls none is allowed for a loopback host"},
		{name: "a profile with 5 blind copies", build: profile(with(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS),
			bcc(addresses(5)...))...)},
		{name: "a profile with 6 blind copies", build: profile(with(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS),
			bcc(addresses(6)...))...),
			field: "spec.email.bcc", want: "must have at most 5 items"},
		{name: "a profile with a blind copy twice", build: profile(with(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS),
			bcc("a@example.com", "a@example.com"))...),
			field: "spec.email.bcc[1]", want: "Duplicate value"},
		{name: "a profile sending invoices as Factur-X", build: profile(with(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS),
			builder.WithAttachEInvoice(billingv1.EInvoiceAttachmentFacturX))...)},
		{name: "a profile attaching an e-invoice of no known profile", build: profile(with(smtp("smtp.example.com", billingv1.SMTPTLSStartTLS),
			builder.WithAttachEInvoice("zugferd"))...),
			field: "spec.email.attachEInvoice", want: "Unsupported value"},
		{name: "a profile with a port of 0", build: profile(builder.WithEmailSettings("127.0.0.1", 0, "billing@example.com")),
			field: "spec.email.smtp.port", want: "greater than or equal to 1"},
		{name: "a profile sending from an address with a display name",
			build: profile(builder.WithEmailSettings("127.0.0.1", 1025, "Billing <billing@example.com>")),
			field: "spec.email.from", want: "should match"},

		// Reminders: up to 5, from 30 days before to 365 days after, each once.
		{name: "a profile with 5 reminders from -30 to 365 days", build: profile(builder.WithReminders(-30, -3, 0, 7, 365))},
		{name: "a profile with 6 reminders", build: profile(builder.WithReminders(-3, 0, 7, 14, 30, 60)),
			field: "spec.reminders", want: "must have at most 5 items"},
		{name: "a reminder 31 days before the due date", build: profile(builder.WithReminders(-31)),
			field: "spec.reminders[0].days", want: "greater than or equal to -30"},
		{name: "a reminder 366 days after the due date", build: profile(builder.WithReminders(366)),
			field: "spec.reminders[0].days", want: "less than or equal to 365"},
		{name: "a profile with the same reminder twice", build: profile(builder.WithReminders(7, 7)),
			field: "spec.reminders[1]", want: "Duplicate value"},
	}
	expectValidation(t, ctx, c, ns, cases)

	t.Run("an Email's spec is immutable, its metadata and status are not", func(t *testing.T) {
		expectSpecIsImmutable(t, ctx, c, ns)
	})
}

// expectSpecIsImmutable creates an Email, then checks that the API server
// refuses every change of its spec (a message once queued is sent as it
// was asked), and admits a label and a status written through the status
// subresource, as the controller writes it.
func expectSpecIsImmutable(t *testing.T, ctx context.Context, c client.Client, ns string) {
	t.Helper()
	sent := builder.Email(ns, "immutable", with(sendInvoice, builder.WithTo("ap@acme.example"))...)
	if err := c.Create(ctx, sent); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*billingv1.Email){
		"another invoice":    func(e *billingv1.Email) { e.Spec.InvoiceRef.Name = "inv-2" },
		"another recipient":  func(e *billingv1.Email) { e.Spec.To = []string{"cfo@acme.example"} },
		"its customer named": func(e *billingv1.Email) { e.Spec.CustomerRef = &billingv1.CustomerReference{Name: "acme"} },
	} {
		changed := &billingv1.Email{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(sent), changed); err != nil {
			t.Fatal(err)
		}
		before := changed.DeepCopy()
		edit(changed)
		err := c.Patch(ctx, changed, client.MergeFrom(before))
		if !apierrors.IsInvalid(err) ||
			!strings.Contains(err.Error(), "spec is immutable: a message once queued is sent as it was asked") {
			t.Errorf("%s: want the spec refused as immutable, got %v", name, err)
		}
	}

	labelled := &billingv1.Email{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(sent), labelled); err != nil {
		t.Fatal(err)
	}
	before := labelled.DeepCopy()
	labelled.Labels = map[string]string{"team": "finance"}
	if err := c.Patch(ctx, labelled, client.MergeFrom(before)); err != nil {
		t.Errorf("a label: %v", err)
	}
	labelled.Status = billingv1.EmailStatus{Phase: billingv1.EmailPending, Attempts: 1, To: []string{"ap@acme.example"},
		LastError: "421 4.7.0 Try again later", ObservedGeneration: labelled.Generation}
	if err := c.Status().Update(ctx, labelled); err != nil {
		t.Errorf("the status: %v", err)
	}
	got := &billingv1.Email{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(sent), got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.InvoiceRef.Name != "inv-1" || len(got.Spec.To) != 1 || got.Spec.CustomerRef != nil ||
		got.Status.Attempts != 1 || got.Labels["team"] != "finance" {
		t.Errorf("read back spec %+v, status %+v, labels %v", got.Spec, got.Status, got.Labels)
	}
}

// expectValidation creates each case's object in ns: the API server must
// admit it (then it is deleted again) or refuse it as Invalid with an
// error that names the case's field and says its want.
func expectValidation(t *testing.T, ctx context.Context, c client.Client, ns string, cases []validationCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := tc.build(ns)
			err := c.Create(ctx, obj)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("the API server refused it: %v", err)
				}
				if err := c.Delete(ctx, obj); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !apierrors.IsInvalid(err) {
				t.Fatalf("want an Invalid error naming %s, got %v", tc.field, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not name %s and say %q", msg, tc.field, tc.want)
			}
		})
	}
}
