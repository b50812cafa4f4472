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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// objectBuilder builds the object a validation entry sends, in the spec's namespace.
type objectBuilder func(ns string) client.Object

// validInvoiceOptions make an invoice the API server accepts.
var validInvoiceOptions = []builder.InvoiceOption{builder.WithCustomer("acme"), builder.WithItem("Consulting", 3, 15_000)}

// invoiceWith builds an invoice from opts alone.
func invoiceWith(opts ...builder.InvoiceOption) objectBuilder {
	return func(ns string) client.Object { return builder.Invoice(ns, "inv", opts...) }
}

// validInvoiceWith builds a valid invoice changed by opts.
func validInvoiceWith(opts ...builder.InvoiceOption) objectBuilder {
	return invoiceWith(append(append([]builder.InvoiceOption{}, validInvoiceOptions...), opts...)...)
}

// rawInvoice builds a valid invoice, then edits its JSON with edit, so the
// request carries what the Go types cannot express.
func rawInvoice(edit func(obj map[string]any)) objectBuilder {
	return func(ns string) client.Object {
		u := toUnstructured(builder.Invoice(ns, "inv", validInvoiceOptions...))
		edit(u.Object)
		return u
	}
}

// setFirstItemField sets field of spec.items[0] to value in an unstructured invoice.
func setFirstItemField(field string, value any) func(map[string]any) {
	return func(obj map[string]any) {
		items, found, err := unstructured.NestedSlice(obj, "spec", "items")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(items).NotTo(BeEmpty())
		item, ok := items[0].(map[string]any)
		Expect(ok).To(BeTrue())
		item[field] = value
		Expect(unstructured.SetNestedSlice(obj, items, "spec", "items")).To(Succeed())
	}
}

// removeField removes the field at path from an unstructured object.
func removeField(path ...string) func(map[string]any) {
	return func(obj map[string]any) { unstructured.RemoveNestedField(obj, path...) }
}

// customerWith builds a customer named acme changed by opts.
func customerWith(opts ...builder.CustomerOption) objectBuilder {
	return func(ns string) client.Object { return builder.Customer(ns, "acme", opts...) }
}

// emailOfLength returns a plain address of exactly n ASCII characters.
func emailOfLength(n int) string {
	const domain = "@example.com"
	return strings.Repeat("a", n-len(domain)) + domain
}

// nonASCIIEmailOfLength returns a plain address of exactly n characters,
// most of them two bytes long in UTF-8.
func nonASCIIEmailOfLength(n int) string {
	const domain = "@example.com"
	return strings.Repeat("é", n-len(domain)) + domain
}

// expectNothingIn asserts that the namespace holds no customers and no invoices.
func expectNothingIn(ns string) {
	GinkgoHelper()
	invoices := &billingv1.InvoiceList{}
	Expect(k8sClient.List(ctx, invoices, client.InNamespace(ns))).To(Succeed())
	Expect(invoices.Items).To(BeEmpty())
	customers := &billingv1.CustomerList{}
	Expect(k8sClient.List(ctx, customers, client.InNamespace(ns))).To(Succeed())
	Expect(customers.Items).To(BeEmpty())
}

var _ = Describe("Validation by the API server", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	DescribeTable("refuses an invalid object and creates nothing",
		func(build objectBuilder, field, message string) {
			err := k8sClient.Create(ctx, build(ns))
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want an Invalid error, got %v", err)
			Expect(err).To(MatchError(And(ContainSubstring(field), ContainSubstring(message))))
			expectNothingIn(ns)
		},
		Entry("a customer with an empty name",
			customerWith(builder.WithDisplayName("")), "spec.name", "at least 1 chars long"),
		Entry("a customer with a name of 257 characters",
			customerWith(builder.WithDisplayName(strings.Repeat("n", 257))), "spec.name", "may not be more than 256"),
		Entry("a customer with an e-mail of 255 characters",
			customerWith(builder.WithEmail(emailOfLength(255))), "spec.email", "may not be more than 254"),
		Entry("a customer with an e-mail in display-name form",
			customerWith(builder.WithEmail("Ada <ada@example.com>")), "spec.email", "should match"),
		Entry("a customer with an empty e-mail",
			customerWith(builder.WithEmail("")), "spec.email", "at least 3 chars long"),
		Entry("an invoice with an empty list of items",
			validInvoiceWith(builder.WithNoItems()), "spec.items", "at least 1 items"),
		Entry("an invoice without items",
			rawInvoice(removeField("spec", "items")), "spec.items", "Required value"),
		Entry("an invoice with 501 items",
			invoiceWith(builder.WithCustomer("acme"), builder.WithNumberedItems(501, 1, 100)), "spec.items", "at most 500 items"),
		Entry("an invoice with a quantity of 0",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Consulting", 0, 100)),
			"spec.items[0].quantity", "must be above 0"),
		Entry("an invoice with a quantity of 2.50001, a fifth decimal",
			rawInvoice(setFirstItemField("quantity", 2.50001)), "spec.items[0].quantity", "must have at most 4 decimal places"),
		Entry("an invoice with a quantity of 1,000,001",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Consulting", 1_000_001, 100)),
			"spec.items[0].quantity", "less than or equal to 1000000"),
		Entry("an invoice with a negative amount",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Refund", 1, -100)),
			"spec.items[0].amount", "greater than or equal to 0"),
		Entry("an invoice with an amount above 10^12",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 1_000_000_000_001)),
			"spec.items[0].amount", "less than or equal to 1000000000000"),
		Entry("an invoice with an empty description",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("", 1, 100)),
			"spec.items[0].description", "at least 1 chars long"),
		Entry("an invoice with a description of 1001 characters",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem(strings.Repeat("d", 1001), 1, 100)),
			"spec.items[0].description", "may not be more than 1000"),
		Entry("an invoice in a lower-case currency",
			validInvoiceWith(builder.WithCurrency("usd")), "spec.currency", "should match"),
		Entry("an invoice in a four-letter currency",
			validInvoiceWith(builder.WithCurrency("USDT")), "spec.currency", "should match"),
		Entry("an invoice without customerRef",
			rawInvoice(removeField("spec", "customerRef")), "spec.customerRef", "Required value"),
		Entry("an invoice whose customerRef has an empty name",
			invoiceWith(builder.WithItem("Consulting", 1, 100)), "spec.customerRef.name", "at least 1 chars long"),
	)

	DescribeTable("accepts an object at the bounds",
		func(build objectBuilder) {
			Expect(k8sClient.Create(ctx, build(ns))).To(Succeed())
		},
		Entry("a customer with a name of 256 characters", customerWith(builder.WithDisplayName(strings.Repeat("n", 256)))),
		Entry("a customer with an e-mail of 254 characters", customerWith(builder.WithEmail(emailOfLength(254)))),
		Entry("an invoice with 500 items", invoiceWith(builder.WithCustomer("acme"), builder.WithNumberedItems(500, 1, 100))),
		Entry("an invoice with a quantity of 1 and an amount of 0",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Free sample", 1, 0))),
		Entry("an invoice with a quantity of 1,000,000 and an amount of 10^12",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem("Everything", 1_000_000, 1_000_000_000_000))),
		Entry("an invoice with a description of 1000 characters",
			invoiceWith(builder.WithCustomer("acme"), builder.WithItem(strings.Repeat("d", 1000), 1, 100))),
		Entry("an invoice in EUR", validInvoiceWith(builder.WithCurrency("EUR"))),
	)

	// The HTTP adapter checks e-mails with billing.ValidEmail before it
	// creates a Customer; both must draw the line in the same place.
	DescribeTable("decides on an e-mail address as billing.ValidEmail does",
		func(email string, valid bool) {
			Expect(billing.ValidEmail(email)).To(Equal(valid), "billing.ValidEmail(%q)", email)
			err := k8sClient.Create(ctx, builder.Customer(ns, "ada", builder.WithEmail(email)))
			if valid {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want an Invalid error, got %v", err)
			Expect(err).To(MatchError(ContainSubstring("spec.email")))
			expectNothingIn(ns)
		},
		Entry("a plain address", "ada@example.com", true),
		Entry("dots, a plus tag and sub-domains", "ada.lovelace+invoices@mail.example.co.uk", true),
		Entry("a unicode address", "jörg@bücher.example", true),
		Entry("254 characters", emailOfLength(254), true),
		Entry("255 characters", emailOfLength(255), false),
		Entry("254 non-ASCII characters", nonASCIIEmailOfLength(254), true),
		Entry("255 non-ASCII characters", nonASCIIEmailOfLength(255), false),
		Entry("a display name", "Ada <ada@example.com>", false),
		Entry("a quoted display name", `"Ada Lovelace" <ada@example.com>`, false),
		Entry("angle brackets alone", "<ada@example.com>", false),
		Entry("a trailing comment", "ada@example.com (Ada)", false),
		Entry("a space inside", "ada lovelace@example.com", false),
		Entry("a trailing space", "ada@example.com ", false),
		Entry("no @", "ada.example.com", false),
		Entry("two @", "ada@lovelace@example.com", false),
		Entry("nothing before @", "@example.com", false),
		Entry("nothing after @", "ada@", false),
		Entry("two dots in a row", "ada..lovelace@example.com", false),
	)

	It("defaults the currency to USD", func() {
		inv := builder.Invoice(ns, "inv", validInvoiceOptions...)
		Expect(inv.Spec.Currency).To(BeEmpty())
		Expect(k8sClient.Create(ctx, inv)).To(Succeed())
		Expect(getInvoice(Default, inv).Spec.Currency).To(Equal("USD"))
	})

	It("shows a new invoice as Pending until the controller has looked at it", func() {
		inv := builder.Invoice(ns, "inv", validInvoiceOptions...)
		Expect(k8sClient.Create(ctx, inv)).To(Succeed())
		// The create response is what the API server stored, before any
		// reconcile: status defaults to phase Pending.
		Expect(inv.Status.Phase).To(Equal(billingv1.InvoicePending))
		Expect(inv.Status.Conditions).To(BeEmpty())
	})

	It("refuses any change to an invoice's spec, and allows changes to its metadata", func() {
		inv := builder.Invoice(ns, "inv", validInvoiceOptions...)
		Expect(k8sClient.Create(ctx, inv)).To(Succeed())

		for _, edit := range []func(*billingv1.Invoice){
			func(inv *billingv1.Invoice) { inv.Spec.Items[0].Amount++ },
			func(inv *billingv1.Invoice) { inv.Spec.Currency = "EUR" },
			func(inv *billingv1.Invoice) { inv.Spec.CustomerRef.Name = "globex" },
			builder.WithItem("Extra", 1, 100),
		} {
			changed := getInvoice(Default, inv)
			before := changed.DeepCopy()
			edit(changed)
			err := k8sClient.Patch(ctx, changed, client.MergeFrom(before))
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want an Invalid error, got %v", err)
			Expect(err).To(MatchError(ContainSubstring("spec is immutable: create a new invoice instead")))
		}
		Expect(getInvoice(Default, inv).Spec).To(Equal(billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "acme"},
			Currency:    "USD",
			Items:       []billingv1.LineItem{{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15_000}},
		}))

		labelled := getInvoice(Default, inv)
		before := labelled.DeepCopy()
		labelled.Labels = map[string]string{"team": "finance"}
		Expect(k8sClient.Patch(ctx, labelled, client.MergeFrom(before))).To(Succeed())
		Expect(getInvoice(Default, inv).Labels).To(HaveKeyWithValue("team", "finance"))
	})
})
