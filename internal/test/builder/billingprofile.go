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
