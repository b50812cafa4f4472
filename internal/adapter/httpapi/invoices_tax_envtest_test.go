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

package httpapi

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Invoices with tax over HTTP (issue 22): each item's own tax, the
// workspace's default tax resolved at create time, the amounts answered,
// and the 400s and 422s of taxes that break a rule.

// taxedItem is a line item of a body with tax, a JSON object.
func taxedItem(description string, quantity, amount int64, tax string) string {
	return fmt.Sprintf(`{"description":%q,"quantity":%d,"amount":%d,"tax":%s}`, description, quantity, amount, tax)
}

// untaxedItem is one unit of a line item of a body without tax, a JSON
// object.
func untaxedItem(description string, amount int64) string {
	return fmt.Sprintf(`{"description":%q,"quantity":1,"amount":%d}`, description, amount)
}

// standard is the JSON of a tax of category S at rate, a JSON value.
func standard(rate string) string { return `{"category":"S","rate":` + rate + `}` }

var _ = Describe("Invoices with tax", func() {
	var ns string
	var customer apiobject.Customer
	BeforeEach(func() {
		ns = newWorkspace()
		customer = createCustomer(v1client.Workspace(ns))
	})

	// create posts an invoice of items (JSON objects) for the customer.
	create := func(opts []reqOpt, items ...string) response {
		body := fmt.Sprintf(`{"customer_id":%q,"currency":"EUR","items":[%s]}`, customer.ID, strings.Join(items, ","))
		return send(http.MethodPost, "/v1/invoices", append([]reqOpt{inWorkspace(ns), withBody(body)}, opts...)...)
	}
	stored := func(id string) *billingv1.Invoice {
		inv := &billingv1.Invoice{}
		ExpectWithOffset(1, k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: id}, inv)).To(Succeed())
		return inv
	}
	countInvoices := func() int {
		var list billingv1.InvoiceList
		ExpectWithOffset(1, k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		return len(list.Items)
	}
	setDefaultTax := func(tax *billingv1.Tax) {
		p := &billingv1.BillingProfile{}
		err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: billingv1.DefaultBillingProfileName}, p)
		if client.IgnoreNotFound(err) == nil && err != nil {
			ExpectWithOffset(1, k8s.Create(ctx, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
				builder.WithDefaultTax(tax)))).To(Succeed())
			return
		}
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		p.Spec.DefaultTax = tax
		ExpectWithOffset(1, k8s.Update(ctx, p)).To(Succeed())
	}
	issued := func(id string) apiobject.Invoice {
		var inv apiobject.Invoice
		EventuallyWithOffset(1, func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK))
			inv = got.invoice()
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		return inv
	}

	It("answers the subtotal, one breakdown entry per rate in order of appearance, the tax total and the total", func() {
		resp := create(nil,
			taxedItem("Consulting", 3, 15000, standard("19")),
			taxedItem("Books", 1, 2000, standard(`"7"`)),
			taxedItem("Travel", 1, 1000, standard(`"19.0000"`)))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		inv := resp.invoice()
		Expect(inv.Subtotal).To(HaveValue(BeEquivalentTo(48000)))
		Expect(inv.TaxBreakdown).To(Equal([]apiobject.TaxBreakdownEntry{
			{Category: "S", Rate: ptr.To("19"), TaxableAmount: 46000, TaxAmount: 8740},
			{Category: "S", Rate: ptr.To("7"), TaxableAmount: 2000, TaxAmount: 140},
		}))
		Expect(inv.TaxTotal).To(HaveValue(BeEquivalentTo(8880)))
		Expect(inv.Total).To(HaveValue(BeEquivalentTo(56880)))
		Expect(inv.Items[0].Tax).To(Equal(&apiobject.Tax{Category: "S", Rate: ptr.To("19")}))
		Expect(inv.Items[2].Tax).To(Equal(&apiobject.Tax{Category: "S", Rate: ptr.To("19")}), "19.0000 is answered as 19")
		Expect(string(resp.body)).NotTo(ContainSubstring("19.0000"))

		By("storing the taxes in the shortest form, not to take the profile's default at issue")
		spec := stored(inv.ID).Spec
		Expect(spec.DefaultTaxFrom).To(Equal(billingv1.DefaultTaxNone))
		Expect(spec.Items[2].Tax).To(Equal(builder.StandardTax("19")))

		By("answering the same amounts to a get")
		got := send(http.MethodGet, "/v1/invoices/"+inv.ID, inWorkspace(ns)).invoice()
		Expect(got.TaxBreakdown).To(Equal(inv.TaxBreakdown))
		Expect(got.Total).To(Equal(inv.Total))
	})

	It("rounds the tax once per group, not per line (the issue's example)", func() {
		resp := create(nil,
			taxedItem("A", 1, 6833, standard("20")), taxedItem("B", 1, 6833, standard("20")),
			taxedItem("C", 1, 5750, standard("20")), taxedItem("D", 1, 8500, standard("20")))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		inv := resp.invoice()
		Expect(inv.TaxBreakdown).To(Equal([]apiobject.TaxBreakdownEntry{
			{Category: "S", Rate: ptr.To("20"), TaxableAmount: 27916, TaxAmount: 5583},
		}))
		Expect(inv.TaxTotal).To(HaveValue(BeEquivalentTo(5583)), "rounding each line would make 5584")
		Expect(inv.Total).To(HaveValue(BeEquivalentTo(33499)))
	})

	It("gives items without tax the workspace's default at create, and issues the invoice with it whatever the default becomes", func() {
		setDefaultTax(builder.StandardTax("19"))
		resp := create(nil, untaxedItem("Consulting", 10000), taxedItem("Books", 1, 1000, `{"category":"Z","rate":0}`))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		inv := resp.invoice()
		Expect(inv.Items[0].Tax).To(Equal(&apiobject.Tax{Category: "S", Rate: ptr.To("19")}))
		Expect(inv.Items[1].Tax).To(Equal(&apiobject.Tax{Category: "Z", Rate: ptr.To("0")}))
		Expect(inv.Subtotal).To(HaveValue(BeEquivalentTo(11000)))
		Expect(inv.TaxTotal).To(HaveValue(BeEquivalentTo(1900)))
		Expect(inv.Total).To(HaveValue(BeEquivalentTo(12900)))
		Expect(stored(inv.ID).Spec.Items[0].Tax).To(Equal(builder.StandardTax("19")))

		By("issuing it with the total the create answered")
		Expect(issued(inv.ID).Total).To(HaveValue(BeEquivalentTo(12900)))

		By("answering the same total after the workspace's default changes")
		setDefaultTax(builder.StandardTax("7"))
		got := send(http.MethodGet, "/v1/invoices/"+inv.ID, inWorkspace(ns)).invoice()
		Expect(got.Total).To(HaveValue(BeEquivalentTo(12900)))
		Expect(got.Items[0].Tax).To(Equal(&apiobject.Tax{Category: "S", Rate: ptr.To("19")}))

		By("giving the new default to the next invoice")
		Expect(create(nil, untaxedItem("Consulting", 10000)).invoice().Total).To(HaveValue(BeEquivalentTo(10700)))
	})

	It("refuses a default tax that breaks a rule with 422 on the item that took it, and creates nothing", func() {
		setDefaultTax(builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope of VAT"))
		resp := create(nil, taxedItem("Books", 1, 1000, standard(`"7"`)), untaxedItem("Consulting", 10000))
		Expect(resp.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", resp.body)
		Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
		Expect(resp.apiErr().Param).To(Equal("items[1].tax"))
		Expect(resp.apiErr().Message).To(ContainSubstring("the workspace's default tax"))
		Expect(countInvoices()).To(BeZero())
	})

	It("replays a taxed create to a retry with the rate written another way, even after the default changed", func() {
		setDefaultTax(builder.StandardTax("19"))
		key := "order-" + rand.String(12)
		first := create([]reqOpt{withIdempotencyKey(key)}, taxedItem("Books", 1, 1000, standard("7")), untaxedItem("Consulting", 10000))
		Expect(first.status).To(Equal(http.StatusCreated), "body: %s", first.body)
		setDefaultTax(builder.StandardTax("20"))
		again := create([]reqOpt{withIdempotencyKey(key)}, taxedItem("Books", 1, 1000, standard(`"7.0000"`)), untaxedItem("Consulting", 10000))
		Expect(again.status).To(Equal(http.StatusCreated), "body: %s", again.body)
		Expect(again.header.Get(IdempotentReplayedHeader)).To(Equal("true"))
		Expect(again.invoice().ID).To(Equal(first.invoice().ID))
		Expect(again.invoice().Total).To(HaveValue(BeEquivalentTo(1070 + 11900)))
		Expect(countInvoices()).To(Equal(1))

		By("refusing the key with another tax")
		other := create([]reqOpt{withIdempotencyKey(key)}, taxedItem("Books", 1, 1000, standard("19")), untaxedItem("Consulting", 10000))
		Expect(other.status).To(Equal(http.StatusConflict))
		Expect(other.apiErr().Code).To(Equal(CodeIdempotencyReused))
	})

	DescribeTable("refuses a tax that breaks a rule or has the wrong JSON type, with the JSON path of the value, and creates nothing",
		func(items string, status int, code, param string) {
			resp := create(nil, items)
			Expect(resp.status).To(Equal(status), "body: %s", resp.body)
			e := resp.apiErr()
			Expect(e.Type).To(Equal("invalid_request_error"))
			Expect(e.Code).To(Equal(code))
			Expect(e.Param).To(Equal(param))
			Expect(countInvoices()).To(BeZero())
		},
		Entry("a standard rate of 0", taxedItem("x", 1, 1, standard("0")), 422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("a standard rate with an exemption reason", taxedItem("x", 1, 1, `{"category":"S","rate":"19","exemption_reason":"No"}`),
			422, CodeParameterInvalid, "items[0].tax.exemption_reason"),
		Entry("a zero rate of 7", taxedItem("x", 1, 1, `{"category":"Z","rate":7}`), 422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("a zero rate with an exemption reason", taxedItem("x", 1, 1, `{"category":"Z","rate":0,"exemption_reason":"Books"}`),
			422, CodeParameterInvalid, "items[0].tax.exemption_reason"),
		Entry("an exemption without reason", taxedItem("x", 1, 1, `{"category":"E","rate":0}`),
			422, CodeParameterInvalid, "items[0].tax.exemption_reason"),
		Entry("a reverse charge at 19", taxedItem("x", 1, 1, `{"category":"AE","rate":19,"exemption_reason":"Reverse charge"}`),
			422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("an intra-community supply without rate", taxedItem("x", 1, 1, `{"category":"K","exemption_reason":"Intra-community supply"}`),
			422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("an export whose reason has 501 characters",
			taxedItem("x", 1, 1, `{"category":"G","rate":0,"exemption_reason":"`+strings.Repeat("g", 501)+`"}`),
			422, CodeParameterInvalid, "items[0].tax.exemption_reason"),
		Entry("an item not subject to tax with a rate", taxedItem("x", 1, 1, `{"category":"O","rate":0,"exemption_reason":"Outside"}`),
			422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("an item not subject to tax without reason", taxedItem("x", 1, 1, `{"category":"O"}`),
			422, CodeParameterInvalid, "items[0].tax.exemption_reason"),
		Entry("an unknown category on the third item", untaxedItem("a", 1)+","+untaxedItem("b", 1)+","+
			taxedItem("x", 1, 1, `{"category":"VAT","rate":"19"}`), 422, CodeParameterInvalid, "items[2].tax.category"),
		Entry("a tax without category", taxedItem("x", 1, 1, `{"rate":"19"}`), 422, CodeParameterMissing, "items[0].tax.category"),
		Entry("a rate of five decimals", taxedItem("x", 1, 1, standard(`"19.00001"`)), 422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("a rate above 100", taxedItem("x", 1, 1, standard("100.5")), 422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("a rate with an exponent", taxedItem("x", 1, 1, standard("1.9e1")), 422, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("an item not subject to tax beside a standard-rated one", taxedItem("a", 1, 1, standard("19"))+","+
			taxedItem("b", 1, 1, `{"category":"O","exemption_reason":"Outside"}`), 422, CodeParameterInvalid, "items[1].tax.category"),
		Entry("two exemption reasons for one category and rate",
			taxedItem("a", 1, 1, `{"category":"E","rate":0,"exemption_reason":"Medical"}`)+","+
				taxedItem("b", 1, 1, `{"category":"E","rate":"0","exemption_reason":"Education"}`),
			422, CodeParameterInvalid, "items[1].tax.exemption_reason"),
		Entry("a total above 2^53-1 once taxed", taxedItem("x", 8000, 1_000_000_000_000, standard("19")),
			422, CodeParameterInvalid, "items"),
		Entry("a tax that is a string", taxedItem("x", 1, 1, `"S"`), 400, CodeParameterInvalid, "items[0].tax"),
		Entry("a category that is a number", taxedItem("x", 1, 1, `{"category":1}`), 400, CodeParameterInvalid, "items[0].tax.category"),
		Entry("a rate that is a boolean", taxedItem("x", 1, 1, standard("true")), 400, CodeParameterInvalid, "items[0].tax.rate"),
		Entry("an unknown key in a tax", taxedItem("x", 1, 1, `{"category":"S","rate":"19","vat":true}`),
			400, CodeParameterUnknown, "items[0].tax.vat"),
	)
})
