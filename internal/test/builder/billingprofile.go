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

// BillingProfileOption changes a BillingProfile of BillingProfile.
type BillingProfileOption func(*billingv1.BillingProfile)

// BillingProfile returns a BillingProfile named name in namespace ns with
// an empty spec. The one that applies to a namespace's invoices is named
// billingv1.DefaultBillingProfileName.
func BillingProfile(ns, name string, opts ...BillingProfileOption) *billingv1.BillingProfile {
	p := &billingv1.BillingProfile{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// WithProfileSpec sets the whole spec.
func WithProfileSpec(spec billingv1.BillingProfileSpec) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec = spec }
}

// WithIssuer sets spec.issuer.
func WithIssuer(issuer billingv1.Issuer) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Issuer = &issuer }
}

// WithFooter sets spec.footer.
func WithFooter(footer string) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Footer = footer }
}

// WithDefaultTax sets spec.defaultTax.
func WithDefaultTax(tax *billingv1.Tax) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.DefaultTax = tax }
}

// WithLocale sets spec.locale, the workspace's BCP 47 tag.
func WithLocale(tag string) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Locale = tag }
}

// WithTimeZone sets spec.timeZone, the workspace's IANA time zone.
func WithTimeZone(zone string) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.TimeZone = zone }
}

// WithCloseMonthsAfterDays sets spec.closeMonthsAfterDays: each month is
// closed that many days after it ends.
func WithCloseMonthsAfterDays(days int32) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.CloseMonthsAfterDays = &days }
}

// WithApplyCreditOnIssue sets spec.applyCreditOnIssue: the customer's
// credit is applied to each invoice as it is issued.
func WithApplyCreditOnIssue() BillingProfileOption {
	return func(p *billingv1.BillingProfile) {
		apply := true
		p.Spec.ApplyCreditOnIssue = &apply
	}
}

// WithEmailSettings sets spec.email: messages from from, handed to the
// SMTP server at host:port in plain text (tls none, which the CRD allows
// for a loopback host only, such as a test's mail catcher), without
// credentials. WithSMTPTLS, WithSMTPCredentials, WithSendOnIssue and
// WithAttachEInvoice change it afterwards. (WithEmail is the Customer's.)
func WithEmailSettings(host string, port int32, from string) BillingProfileOption {
	return func(p *billingv1.BillingProfile) {
		p.Spec.Email = &billingv1.EmailSettings{
			From: from,
			SMTP: billingv1.SMTPServer{Host: host, Port: port, TLS: billingv1.SMTPTLSNone},
		}
	}
}

// WithSMTPTLS sets spec.email.smtp.tls; it needs WithEmailSettings first.
func WithSMTPTLS(mode billingv1.SMTPTLSMode) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Email.SMTP.TLS = mode }
}

// WithSMTPCredentials sets spec.email.smtp.credentialsSecretRef, a Secret
// of the namespace with username and password; it needs WithEmailSettings
// first.
func WithSMTPCredentials(secret string) BillingProfileOption {
	return func(p *billingv1.BillingProfile) {
		p.Spec.Email.SMTP.CredentialsSecretRef = &billingv1.SecretReference{Name: secret}
	}
}

// WithSendOnIssue sets spec.email.sendOnIssue: every invoice and credit
// note is sent when it is issued. It needs WithEmailSettings first.
func WithSendOnIssue() BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Email.SendOnIssue = true }
}

// WithAttachEInvoice sets spec.email.attachEInvoice, the e-invoice profile
// attached beside the PDF; it needs WithEmailSettings first.
func WithAttachEInvoice(profile billingv1.EInvoiceAttachment) BillingProfileOption {
	return func(p *billingv1.BillingProfile) { p.Spec.Email.AttachEInvoice = profile }
}

// WithReminders sets spec.reminders, one reminder at each days relative
// to the due date.
func WithReminders(days ...int32) BillingProfileOption {
	return func(p *billingv1.BillingProfile) {
		p.Spec.Reminders = nil
		for _, d := range days {
			p.Spec.Reminders = append(p.Spec.Reminders, billingv1.Reminder{Days: d})
		}
	}
}
