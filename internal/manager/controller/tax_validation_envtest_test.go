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

package controller

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// taxedInvoice is a valid invoice with one line of tax.
func taxedInvoice(tax *billingv1.Tax) objectBuilder {
	return invoiceWith(builder.WithCustomer("acme"), builder.WithTaxedItem("Consulting", 1, 100, tax))
}

// profileWithDefault is the workspace's profile with default tax.
func profileWithDefault(tax *billingv1.Tax) objectBuilder {
	return func(ns string) client.Object {
		return builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithDefaultTax(tax))
	}
}

var _ = Describe("Validation of taxes by the API server", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	DescribeTable("refuses a tax that breaks a rule, and creates nothing",
		func(build objectBuilder, field, message string) {
			err := k8sClient.Create(ctx, build(ns))
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want an Invalid error, got %v", err)
			Expect(err).To(MatchError(And(ContainSubstring(field), ContainSubstring(message))))
			expectNothingIn(ns)
			profiles := &billingv1.BillingProfileList{}
			Expect(k8sClient.List(ctx, profiles, client.InNamespace(ns))).To(Succeed())
			Expect(profiles.Items).To(BeEmpty())
		},
		Entry("an unknown category", taxedInvoice(builder.Tax("VAT", "19", "")),
			"spec.items[0].tax.category", "Unsupported value"),
		Entry("a lower-case category", taxedInvoice(builder.Tax("s", "19", "")),
			"spec.items[0].tax.category", "Unsupported value"),
		Entry("S without a rate", taxedInvoice(builder.Tax(billingv1.TaxStandard, "", "")),
			"spec.items[0].tax.rate", "must be above 0 for category S"),
		Entry("S at a rate of 0", taxedInvoice(builder.StandardTax("0.00")),
			"spec.items[0].tax.rate", "must be above 0 for category S"),
		Entry("S with an exemption reason", taxedInvoice(builder.Tax(billingv1.TaxStandard, "19", "Because")),
			"spec.items[0].tax.exemptionReason", "must be empty for categories S and Z"),
		Entry("Z at 5%", taxedInvoice(builder.Tax(billingv1.TaxZeroRated, "5", "")),
			"spec.items[0].tax.rate", "must be 0, for categories Z, E, AE, K and G"),
		Entry("AE without a rate", taxedInvoice(builder.Tax(billingv1.TaxReverseCharge, "", "Reverse charge")),
			"spec.items[0].tax.rate", "must be 0, for categories Z, E, AE, K and G"),
		Entry("E without an exemption reason", taxedInvoice(builder.Tax(billingv1.TaxExempt, "0", "")),
			"spec.items[0].tax.exemptionReason", "is required for categories E, AE, K, G and O"),
		Entry("G with an exemption reason of 501 characters",
			taxedInvoice(builder.Tax(billingv1.TaxExport, "0", strings.Repeat("r", 501))),
			"spec.items[0].tax.exemptionReason", "may not be more than 500"),
		Entry("O with a rate", taxedInvoice(builder.Tax(billingv1.TaxNotSubject, "0", "Not subject")),
			"spec.items[0].tax.rate", "must be absent for category O"),
		Entry("a rate above 100", taxedInvoice(builder.StandardTax("100.01")),
			"spec.items[0].tax.rate", "should match"),
		Entry("a rate with 5 decimals", taxedInvoice(builder.StandardTax("19.00001")),
			"spec.items[0].tax.rate", "spec.items[0].tax.rate"),
		Entry("a rate with a leading zero", taxedInvoice(builder.StandardTax("019")),
			"spec.items[0].tax.rate", "should match"),
		Entry("a rate with a percent sign", taxedInvoice(builder.StandardTax("19%")),
			"spec.items[0].tax.rate", "should match"),
		Entry("an O line beside a line of category S",
			invoiceWith(builder.WithCustomer("acme"),
				builder.WithTaxedItem("Donation", 1, 100, builder.Tax(billingv1.TaxNotSubject, "", "Not subject")),
				builder.WithTaxedItem("Consulting", 1, 100, builder.StandardTax("19"))),
			"spec.items", "has only lines of category O"),
		Entry("an O line beside a line without tax",
			invoiceWith(builder.WithCustomer("acme"),
				builder.WithTaxedItem("Donation", 1, 100, builder.Tax(billingv1.TaxNotSubject, "", "Not subject")),
				builder.WithItem("Consulting", 1, 100)),
			"spec.items", "has only lines of category O"),
		Entry("an unknown defaultTaxFrom", validInvoiceWith(builder.WithDefaultTaxFrom("Customer")),
			"spec.defaultTaxFrom", "Unsupported value"),
		Entry("a profile's default tax of category S at 0%", profileWithDefault(builder.StandardTax("0")),
			"spec.defaultTax.rate", "must be above 0 for category S"),
		Entry("a profile's default tax of category AE without a reason",
			profileWithDefault(builder.Tax(billingv1.TaxReverseCharge, "0", "")),
			"spec.defaultTax.exemptionReason", "is required"),
	)

	DescribeTable("accepts a tax that keeps the rules",
		func(build objectBuilder) {
			Expect(k8sClient.Create(ctx, build(ns))).To(Succeed())
		},
		Entry("S at 19%", taxedInvoice(builder.StandardTax("19"))),
		Entry("S at 8.875%, 4 decimals at most", taxedInvoice(builder.StandardTax("8.8750"))),
		Entry("S at 100%", taxedInvoice(builder.StandardTax("100.0000"))),
		Entry("Z at 0%", taxedInvoice(builder.Tax(billingv1.TaxZeroRated, "0", ""))),
		Entry("AE with its reason", taxedInvoice(builder.ReverseCharge())),
		Entry("E with a reason of 500 characters", taxedInvoice(builder.Tax(billingv1.TaxExempt, "0.0", strings.Repeat("é", 500)))),
		Entry("only O lines",
			invoiceWith(builder.WithCustomer("acme"),
				builder.WithTaxedItem("Donation", 1, 100, builder.Tax(billingv1.TaxNotSubject, "", "Not subject")),
				builder.WithTaxedItem("Gift", 1, 100, builder.Tax(billingv1.TaxNotSubject, "", "Not subject")))),
		Entry("500 lines, each with a tax",
			invoiceWith(builder.WithCustomer("acme"), func(inv *billingv1.Invoice) {
				for range 500 {
					builder.WithTaxedItem(strings.Repeat("d", 1000), 1, 100, builder.Tax(billingv1.TaxExempt, "0", strings.Repeat("r", 500)))(inv)
				}
			})),
		Entry("a profile with a default tax", profileWithDefault(builder.StandardTax("20"))),
	)
})
