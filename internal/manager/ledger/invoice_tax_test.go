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

package ledger

import (
	"github.com/invoicing-dev/invoicing/internal/billing"

	"testing"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// profileWith is the workspace's profile "default" changed by opts.
func profileWith(opts ...builder.BillingProfileOption) *billingv1.BillingProfile {
	return builder.BillingProfile("ns", billingv1.DefaultBillingProfileName, opts...)
}

// statusOutcome is what a tax table expects of invoiceStatus.
type statusOutcome struct {
	phase        billingv1.InvoicePhase
	reason       string
	also         string // Reconciling or Stalled for an Invalid invoice
	subtotal     *int64
	taxTotal     *int64
	total        *int64
	taxBreakdown []billingv1.TaxBreakdownEntry
	items        []billingv1.InvoiceItemStatus
}

func TestInvoiceStatusWithTax(t *testing.T) {
	acme := builder.Customer("ns", "acme", builder.WithTaxID("FR40303265045"))
	acmeWithoutTaxID := builder.Customer("ns", "acme")
	issuerWithTaxID := builder.WithIssuer(billingv1.Issuer{Name: "Example GmbH", TaxID: "DE123456789"})
	exempt := func(reason string) *billingv1.Tax { return builder.Tax(billingv1.TaxExempt, "0", reason) }
	notSubject := builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope of VAT")

	for _, tc := range []struct {
		name     string
		invoice  *billingv1.Invoice
		customer *billingv1.Customer
		profile  *billingv1.BillingProfile
		want     statusOutcome
	}{
		{
			name: "lines at 19% and 7% are issued with one breakdown entry per rate, in the order they appear",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Consulting", 2, 10_000, builder.StandardTax("19")),
				builder.WithTaxedItem("Books", 1, 2_999, builder.StandardTax("7")),
				builder.WithTaxedItem("Travel", 1, 5_001, builder.StandardTax("19.00"))),
			customer: acme,
			want: statusOutcome{
				phase: billingv1.InvoiceIssued, reason: billingv1.ReasonIssued,
				subtotal: ptr.To[int64](28_000), taxTotal: ptr.To[int64](4_960), total: ptr.To[int64](32_960),
				taxBreakdown: []billingv1.TaxBreakdownEntry{
					managertest.Group(billingv1.TaxStandard, "19", 25_001, 4_750, ""),
					managertest.Group(billingv1.TaxStandard, "7", 2_999, 210, ""),
				},
				items: managertest.ItemTaxes(builder.StandardTax("19"), builder.StandardTax("7"), builder.StandardTax("19")),
			},
		},
		{
			name: "the issue's four lines at 20% are taxed once on their sum: 5583, not 5584",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("A", 1, 6_833, builder.StandardTax("20")),
				builder.WithTaxedItem("B", 1, 6_833, builder.StandardTax("20")),
				builder.WithTaxedItem("C", 1, 5_750, builder.StandardTax("20")),
				builder.WithTaxedItem("D", 1, 8_500, builder.StandardTax("20"))),
			customer: acme,
			want: statusOutcome{
				phase: billingv1.InvoiceIssued, reason: billingv1.ReasonIssued,
				subtotal: ptr.To[int64](27_916), taxTotal: ptr.To[int64](5_583), total: ptr.To[int64](33_499),
				taxBreakdown: []billingv1.TaxBreakdownEntry{managertest.Group(billingv1.TaxStandard, "20", 27_916, 5_583, "")},
				items: managertest.ItemTaxes(builder.StandardTax("20"), builder.StandardTax("20"),
					builder.StandardTax("20"), builder.StandardTax("20")),
			},
		},
		{
			name: "the profile's default tax applies to the lines without their own",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithItem("Consulting", 1, 10_000),
				builder.WithTaxedItem("Books", 1, 1_000, builder.StandardTax("7"))),
			customer: acme,
			profile:  profileWith(builder.WithDefaultTax(builder.StandardTax("19"))),
			want: statusOutcome{
				phase: billingv1.InvoiceIssued, reason: billingv1.ReasonIssued,
				subtotal: ptr.To[int64](11_000), taxTotal: ptr.To[int64](1_970), total: ptr.To[int64](12_970),
				taxBreakdown: []billingv1.TaxBreakdownEntry{
					managertest.Group(billingv1.TaxStandard, "19", 10_000, 1_900, ""),
					managertest.Group(billingv1.TaxStandard, "7", 1_000, 70, ""),
				},
				items: managertest.ItemTaxes(builder.StandardTax("19"), builder.StandardTax("7")),
			},
		},
		{
			name: "an invoice whose default was resolved at create time ignores the profile's default",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithItem("Consulting", 1, 10_000), builder.WithDefaultTaxFrom(billingv1.DefaultTaxNone)),
			customer: acme,
			profile:  profileWith(builder.WithDefaultTax(builder.StandardTax("19"))),
			want: statusOutcome{
				phase: billingv1.InvoiceIssued, reason: billingv1.ReasonIssued,
				subtotal: ptr.To[int64](10_000), taxTotal: ptr.To[int64](0), total: ptr.To[int64](10_000),
			},
		},
		{
			name: "a reverse charge waits for the customer's tax id, Reconciling, with its amounts",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Consulting", 1, 10_000, builder.ReverseCharge())),
			customer: acmeWithoutTaxID,
			profile:  profileWith(issuerWithTaxID),
			want: statusOutcome{
				phase: billingv1.InvoiceInvalid, reason: billingv1.ReasonTaxIDRequired, also: billingv1.ConditionReconciling,
				subtotal: ptr.To[int64](10_000), taxTotal: ptr.To[int64](0), total: ptr.To[int64](10_000),
				taxBreakdown: []billingv1.TaxBreakdownEntry{managertest.Group(billingv1.TaxReverseCharge, "0", 10_000, 0, "Reverse charge")},
				items:        managertest.ItemTaxes(builder.ReverseCharge()),
			},
		},
		{
			name: "an intra-community supply waits for the issuer's tax id when the workspace has no profile",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Machine", 1, 10_000, builder.Tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply"))),
			customer: acme,
			want: statusOutcome{
				phase: billingv1.InvoiceInvalid, reason: billingv1.ReasonTaxIDRequired, also: billingv1.ConditionReconciling,
				subtotal: ptr.To[int64](10_000), taxTotal: ptr.To[int64](0), total: ptr.To[int64](10_000),
				taxBreakdown: []billingv1.TaxBreakdownEntry{
					managertest.Group(billingv1.TaxIntraCommunity, "0", 10_000, 0, "Intra-community supply")},
				items: managertest.ItemTaxes(builder.Tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply")),
			},
		},
		{
			name: "a reverse charge is issued once both tax ids exist",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Consulting", 1, 10_000, builder.ReverseCharge())),
			customer: acme,
			profile:  profileWith(issuerWithTaxID),
			want: statusOutcome{
				phase: billingv1.InvoiceIssued, reason: billingv1.ReasonIssued,
				subtotal: ptr.To[int64](10_000), taxTotal: ptr.To[int64](0), total: ptr.To[int64](10_000),
				taxBreakdown: []billingv1.TaxBreakdownEntry{managertest.Group(billingv1.TaxReverseCharge, "0", 10_000, 0, "Reverse charge")},
				items:        managertest.ItemTaxes(builder.ReverseCharge()),
			},
		},
		{
			name: "a default of category O beside a line of category S is InvalidTax and Reconciling: a new default issues it",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Consulting", 1, 10_000, builder.StandardTax("19")),
				builder.WithItem("Donation", 1, 500)),
			customer: acme,
			profile:  profileWith(builder.WithDefaultTax(notSubject)),
			want: statusOutcome{
				phase: billingv1.InvoiceInvalid, reason: billingv1.ReasonInvalidTax, also: billingv1.ConditionReconciling,
			},
		},
		{
			name: "two exempt lines with different reasons are InvalidTax and Stalled: only a new invoice helps",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Course", 1, 10_000, exempt("Education")),
				builder.WithTaxedItem("Care", 1, 500, exempt("Medical care"))),
			customer: acme,
			want: statusOutcome{
				phase: billingv1.InvoiceInvalid, reason: billingv1.ReasonInvalidTax, also: billingv1.ConditionStalled,
			},
		},
		{
			name: "a missing customer comes before missing tax ids",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{},
				builder.WithTaxedItem("Consulting", 1, 10_000, builder.ReverseCharge())),
			want: statusOutcome{
				phase: billingv1.InvoiceInvalid, reason: billingv1.ReasonCustomerNotFound, also: billingv1.ConditionReconciling,
				subtotal: ptr.To[int64](10_000), taxTotal: ptr.To[int64](0), total: ptr.To[int64](10_000),
				taxBreakdown: []billingv1.TaxBreakdownEntry{managertest.Group(billingv1.TaxReverseCharge, "0", 10_000, 0, "Reverse charge")},
				items:        managertest.ItemTaxes(builder.ReverseCharge()),
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			unchanged := tc.invoice.DeepCopy()
			got := invoiceStatus(tc.invoice, tc.customer, tc.profile, managertest.Now)
			g.Expect(tc.invoice).To(Equal(unchanged), "invoiceStatus changed its input")
			g.Expect(got.Phase).To(Equal(tc.want.phase))
			g.Expect(got.Conditions).To(ContainElement(And(
				HaveField("Type", billingv1.ConditionReady), HaveField("Reason", tc.want.reason))))
			if tc.want.also != "" {
				g.Expect(got.Conditions).To(ContainElement(And(
					HaveField("Type", tc.want.also), HaveField("Status", metav1.ConditionTrue),
					HaveField("Reason", tc.want.reason))))
			}
			g.Expect(got.Subtotal).To(Equal(tc.want.subtotal), "subtotal")
			g.Expect(got.TaxTotal).To(Equal(tc.want.taxTotal), "taxTotal")
			g.Expect(got.Total).To(Equal(tc.want.total), "total")
			g.Expect(got.TaxBreakdown).To(Equal(tc.want.taxBreakdown), "taxBreakdown")
			g.Expect(got.Items).To(Equal(tc.want.items), "items")
		})
	}
}

func TestAnIssuedInvoiceKeepsItsTaxWhenTheProfilesDefaultChanges(t *testing.T) {
	g := NewWithT(t)
	acme := builder.Customer("ns", "acme")
	inv := invoiceOfGeneration2(billingv1.InvoiceStatus{}, builder.WithItem("Consulting", 1, 10_000))
	inv.Status = invoiceStatus(inv, acme, profileWith(builder.WithDefaultTax(builder.StandardTax("19"))), managertest.Earlier)
	g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
	g.Expect(inv.Status.Total).To(Equal(ptr.To[int64](11_900)))

	again := invoiceStatus(inv, acme, profileWith(builder.WithDefaultTax(builder.StandardTax("20"))), managertest.Now)
	g.Expect(again.Total).To(Equal(ptr.To[int64](11_900)))
	g.Expect(again.TaxTotal).To(Equal(ptr.To[int64](1_900)))
	g.Expect(again.Items).To(Equal(managertest.ItemTaxes(builder.StandardTax("19"))))
}

func TestMissingTaxIDsNamesEveryMissingID(t *testing.T) {
	g := NewWithT(t)
	taxes := []*billingv1.Tax{nil, builder.ReverseCharge()}
	missing := missingTaxIDs(billing.DocumentTaxes{Items: taxes}, nil, builder.Customer("ns", "acme"))
	g.Expect(missing).To(Equal([]string{`the BillingProfile "default"'s spec.issuer.taxId`, `Customer "acme"'s spec.taxId`}))
	g.Expect(taxIDsMessage(missing)).To(ContainSubstring("missing: the BillingProfile"))
	g.Expect(missingTaxIDs(billing.DocumentTaxes{Items: []*billingv1.Tax{builder.StandardTax("19")}}, nil, builder.Customer("ns", "acme"))).To(BeNil())
}
