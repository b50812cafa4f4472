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

package builder_test

import (
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestAnInvoiceWithoutOptionsHasOnlyItsNamespaceAndName(t *testing.T) {
	inv := builder.Invoice("ws", "inv-1")
	if inv.Namespace != "ws" || inv.Name != "inv-1" {
		t.Errorf("got %s/%s, want ws/inv-1", inv.Namespace, inv.Name)
	}
	if !reflect.DeepEqual(inv.Spec, billingv1.InvoiceSpec{}) {
		t.Errorf("got spec %+v, want an empty one", inv.Spec)
	}
}

func TestInvoiceOptionsApplyInOrder(t *testing.T) {
	inv := builder.Invoice("ws", "inv-1",
		builder.WithCustomer("acme"),
		builder.WithCurrency("EUR"),
		builder.WithItem("Consulting", 3, 15000),
		builder.WithNumberedItems(2, 1, 100))
	want := billingv1.InvoiceSpec{
		CustomerRef: billingv1.CustomerReference{Name: "acme"},
		Currency:    "EUR",
		Items: []billingv1.LineItem{
			{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000},
			{Description: "Line 1", Quantity: billingv1.Units(1), Amount: 100},
			{Description: "Line 2", Quantity: billingv1.Units(1), Amount: 100},
		},
	}
	if !reflect.DeepEqual(inv.Spec, want) {
		t.Errorf("got %+v, want %+v", inv.Spec, want)
	}
	if got := builder.Invoice("ws", "inv-2", builder.WithItem("x", 1, 1), builder.WithNoItems()).Spec.Items; got == nil || len(got) != 0 {
		t.Errorf("WithNoItems gave %#v, want an empty, not a missing, list", got)
	}
}

func TestACustomerIsValidWithoutOptions(t *testing.T) {
	c := builder.Customer("ws", "acme")
	if c.Spec.Name != "Customer acme" || c.Spec.Email != "billing@acme.example" {
		t.Errorf("got name %q and email %q", c.Spec.Name, c.Spec.Email)
	}
	c = builder.Customer("ws", "acme", builder.WithDisplayName("Acme"), builder.WithEmail("a@acme.example"), builder.WithTaxID("DE1"))
	if c.Spec.Name != "Acme" || c.Spec.Email != "a@acme.example" || c.Spec.TaxID != "DE1" {
		t.Errorf("options not applied: %+v", c.Spec)
	}
}

func TestAWebhookEndpointDeliversIssuedInvoicesByDefault(t *testing.T) {
	e := builder.WebhookEndpoint("ws", "erp", "https://erp.example/hooks", "signing", "secret",
		builder.WithPaused(true), builder.WithStartAfterSequence(7))
	want := billingv1.WebhookEndpointSpec{
		URL:                "https://erp.example/hooks",
		SecretRef:          billingv1.SecretKeyRef{Name: "signing", Key: "secret"},
		Events:             []string{billingv1.EventInvoiceIssued},
		Paused:             true,
		StartAfterSequence: 7,
	}
	if !reflect.DeepEqual(e.Spec, want) {
		t.Errorf("got %+v, want %+v", e.Spec, want)
	}
}

func TestEmailOptionsBuildItsSpec(t *testing.T) {
	e := builder.Email("ws", "remind-1", builder.WithPurpose(billingv1.EmailPurposeReminder),
		builder.WithInvoiceRef("inv-1"), builder.WithCustomerRef("acme"), builder.WithReminderDays(-3),
		builder.WithTo("ap@acme.example", "cfo@acme.example"))
	days := int32(-3)
	want := billingv1.EmailSpec{
		Purpose:      billingv1.EmailPurposeReminder,
		InvoiceRef:   &billingv1.InvoiceReference{Name: "inv-1"},
		CustomerRef:  &billingv1.CustomerReference{Name: "acme"},
		ReminderDays: &days,
		To:           []string{"ap@acme.example", "cfo@acme.example"},
	}
	if e.Namespace != "ws" || e.Name != "remind-1" || !reflect.DeepEqual(e.Spec, want) {
		t.Errorf("got %s/%s %+v, want %+v", e.Namespace, e.Name, e.Spec, want)
	}
	s := builder.Email("ws", "statement", builder.WithPurpose(billingv1.EmailPurposeStatement),
		builder.WithCustomerRef("acme"), builder.WithStatement("2026-01-01", "2026-03-31"))
	if s.Spec.Statement == nil || *s.Spec.Statement != (billingv1.StatementPeriod{From: "2026-01-01", To: "2026-03-31"}) {
		t.Errorf("statement not applied: %+v", s.Spec)
	}
	c := builder.Email("ws", "credit", builder.WithPurpose(billingv1.EmailPurposeCreditNote), builder.WithCreditNoteRef("cn-1"))
	if c.Spec.CreditNoteRef == nil || c.Spec.CreditNoteRef.Name != "cn-1" || c.Spec.InvoiceRef != nil {
		t.Errorf("credit note not applied: %+v", c.Spec)
	}
}

func TestBillingProfileEmailOptionsBuildSpecEmailAndReminders(t *testing.T) {
	p := builder.BillingProfile("ws", billingv1.DefaultBillingProfileName,
		builder.WithEmailSettings("127.0.0.1", 1025, "billing@example.com"),
		builder.WithSMTPTLS(billingv1.SMTPTLSStartTLS), builder.WithSMTPCredentials("smtp"),
		builder.WithSendOnIssue(), builder.WithAttachEInvoice("peppol"), builder.WithReminders(-3, 0, 7))
	want := &billingv1.EmailSettings{
		From: "billing@example.com",
		SMTP: billingv1.SMTPServer{Host: "127.0.0.1", Port: 1025, TLS: billingv1.SMTPTLSStartTLS,
			CredentialsSecretRef: &billingv1.SecretReference{Name: "smtp"}},
		SendOnIssue:    true,
		AttachEInvoice: "peppol",
	}
	if !reflect.DeepEqual(p.Spec.Email, want) {
		t.Errorf("got %+v, want %+v", p.Spec.Email, want)
	}
	if want := []billingv1.Reminder{{Days: -3}, {Days: 0}, {Days: 7}}; !reflect.DeepEqual(p.Spec.Reminders, want) {
		t.Errorf("got reminders %+v, want %+v", p.Spec.Reminders, want)
	}
	if tls := builder.BillingProfile("ws", "p", builder.WithEmailSettings("localhost", 1025, "a@b.c")).Spec.Email.SMTP.TLS; tls != billingv1.SMTPTLSNone {
		t.Errorf("default tls = %q, want none", tls)
	}
}
