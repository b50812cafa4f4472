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
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Lines that bill real work over HTTP and kubectl (issue 48): decimal
// quantities, units, line discounts, and document allowances and charges,
// answered the same before and after issue, and every refusal with
// nothing created.

var _ = Describe("Invoice lines of decimal quantities, units, discounts, allowances and charges", func() {
	const s19, s21, s7 = `{"category":"S","rate":"19"}`, `{"category":"S","rate":"21"}`, `{"category":"S","rate":"7"}`
	var ns, customerID string
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
	})

	create := func(body string) response {
		return send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(body))
	}
	issuedBody := func(id string) string {
		var body string
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns))
			g.Expect(got.invoice().Status).To(Equal("issued"))
			body = string(got.body)
		}).Should(Succeed())
		return body
	}
	count := func() int {
		var list billingv1.InvoiceList
		ExpectWithOffset(1, k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		return len(list.Items)
	}

	It("bills 7.5 hours less 10 % and answers the same lines when created, when issued and as stored", func() {
		resp := create(fmt.Sprintf(`{"customer_id":%q,"currency":"EUR","items":[`+
			`{"description":"Consulting","quantity":7.5,"unit_code":"HUR","amount":15000,`+
			`"discount":{"percent":"10","reason":"Framework agreement"},"tax":%s},`+
			`{"description":"Travel","quantity":3,"amount":999,"tax":%s}]}`, customerID, s19, s19))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		// 7.5 × 150.00 = 1125.00, less 10 % = 1012.50; 3 × 9.99 = 29.97;
		// 19 % of 1042.47 is 198.0693, 198.07; the total 1240.54.
		line := `"quantity":7.5,"unit_code":"HUR","amount":15000,"discount":{"percent":"10","amount":11250,` +
			`"reason":"Framework agreement","reason_code":null},"net_amount":101250`
		whole := `"quantity":3,"unit_code":"C62","amount":999,"discount":null,"net_amount":2997`
		totals := `"subtotal":104247,"allowances":[],"charges":[],"allowance_total":0,"charge_total":0`
		for _, want := range []string{line, whole, totals, `"tax_total":19807,"total":124054`} {
			Expect(string(resp.body)).To(ContainSubstring(want))
		}
		id := resp.invoice().ID

		By("answering the same lines and totals once the controller has issued it")
		body := issuedBody(id)
		for _, want := range []string{line, whole, totals, `"tax_total":19807,"total":124054`} {
			Expect(body).To(ContainSubstring(want))
		}

		By("storing the quantity exactly and the unit as sent")
		stored := &billingv1.Invoice{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, stored)).To(Succeed())
		Expect(stored.Spec.Items[0].Quantity.Scaled()).To(Equal(int64(75_000)))
		Expect(stored.Spec.Items[0].UnitCode).To(Equal(billingv1.UnitCode("HUR")))
		Expect(stored.Status.Total).To(HaveValue(Equal(int64(124_054))))
	})

	It("takes a document allowance off its tax group: 3 × 45.00 at 21 % less 60.00 is 90.75", func() {
		resp := create(fmt.Sprintf(`{"customer_id":%q,"currency":"EUR","items":[`+
			`{"description":"Gloves","quantity":3,"unit_code":"H87","amount":4500,"tax":%s}],`+
			`"allowances":[{"amount":6000,"reason_code":"95","tax":%s}]}`, customerID, s21, s21))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		want := []string{
			`"allowances":[{"percent":null,"amount":6000,"base":null,"reason":null,"reason_code":"95",`,
			`"subtotal":13500`, `"allowance_total":6000,"charge_total":0`,
			`"taxable_amount":7500,"tax_amount":1575`, `"tax_total":1575,"total":9075`,
		}
		for _, w := range want {
			Expect(string(resp.body)).To(ContainSubstring(w))
		}
		body := issuedBody(resp.invoice().ID)
		for _, w := range want {
			Expect(body).To(ContainSubstring(w))
		}
	})

	It("takes a percent allowance of its group's lines and adds a charge to another group", func() {
		resp := create(fmt.Sprintf(`{"customer_id":%q,"currency":"EUR","items":[`+
			`{"description":"Licences","quantity":2,"amount":10000,"tax":%s},`+
			`{"description":"Books","quantity":1,"amount":5000,"tax":%s}],`+
			`"allowances":[{"percent":"10","reason":"Volume","tax":%s}],`+
			`"charges":[{"amount":500,"reason_code":"FC","tax":%s}]}`, customerID, s19, s7, s19, s7))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		// 19 %: 20000 less 10 % = 18000, tax 3420; 7 %: 5000 + 500 = 5500,
		// tax 385; 25000 − 2000 + 500 + 3805 = 27305.
		for _, w := range []string{
			`"allowances":[{"percent":"10","amount":2000,"base":20000,"reason":"Volume","reason_code":null,`,
			`"charges":[{"percent":null,"amount":500,"base":null,"reason":null,"reason_code":"FC",`,
			`"allowance_total":2000,"charge_total":500`,
			`"taxable_amount":18000,"tax_amount":3420`, `"taxable_amount":5500,"tax_amount":385`,
			`"tax_total":3805,"total":27305`,
		} {
			Expect(string(resp.body)).To(ContainSubstring(w))
		}
	})

	It("answers an Invoice applied with kubectl of 7.5 hours less 10 % as it answers the same POST", func() {
		ten := billingv1.Percent("10")
		inv := builder.Invoice(ns, "hours-by-kubectl", builder.WithCustomer(customerID), builder.WithCurrency("EUR"),
			builder.WithLine(billingv1.LineItem{Description: "Consulting", Quantity: billingv1.QuantityOfScaled(75_000),
				UnitCode: "HUR", Amount: 15000, Discount: &billingv1.LineDiscount{Percent: &ten, Reason: "Framework agreement"}}))
		Expect(k8s.Create(ctx, inv)).To(Succeed())
		body := issuedBody(inv.Name)
		Expect(body).To(ContainSubstring(`"quantity":7.5,"unit_code":"HUR","amount":15000,"discount":{"percent":"10",` +
			`"amount":11250,"reason":"Framework agreement","reason_code":null},"net_amount":101250`))
		Expect(body).To(ContainSubstring(`"subtotal":101250`))
	})

	DescribeTable("refuses a line, allowance or charge at fault with its code and JSON path, and creates nothing",
		func(items, rest string, code, param string) {
			before := count()
			resp := create(fmt.Sprintf(`{"customer_id":%q,"items":[%s]%s}`, customerID, items, rest))
			Expect(resp.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", resp.body)
			Expect(resp.apiErr().Code).To(Equal(code), "body: %s", resp.body)
			Expect(resp.apiErr().Param).To(Equal(param))
			Consistently(count).Should(Equal(before))
		},
		Entry("a quantity of five decimals", `{"description":"x","quantity":7.50001,"amount":1}`, "",
			CodeParameterInvalid, "items[0].quantity"),
		Entry("a quantity of 0", `{"description":"x","quantity":0,"amount":1}`, "",
			CodeParameterInvalid, "items[0].quantity"),
		Entry("a negative quantity", `{"description":"x","quantity":-0.5,"amount":1}`, "",
			CodeParameterInvalid, "items[0].quantity"),
		Entry("a quantity as a string", `{"description":"x","quantity":"7.5","amount":1}`, "",
			CodeParameterInvalid, "items[0].quantity"),
		Entry("a quantity above 1,000,000", `{"description":"x","quantity":1000000.0001,"amount":1}`, "",
			CodeParameterInvalid, "items[0].quantity"),
		Entry("a unit code of no recommendation", `{"description":"x","quantity":1,"amount":1,"unit_code":"HOURS"}`, "",
			CodeParameterInvalid, "items[0].unit_code"),
		Entry("a discount above the line's gross", `{"description":"x","quantity":1.5,"amount":100,`+
			`"discount":{"amount":151,"reason":"Too much"}}`, "", CodeAllowanceExceedsBase, "items[0].discount"),
		Entry("a discount of 101 %", `{"description":"x","quantity":1,"amount":100,"discount":{"percent":"101","reason":"r"}}`, "",
			CodeParameterInvalid, "items[0].discount.percent"),
		Entry("a discount without a reason", `{"description":"x","quantity":1,"amount":100,"discount":{"amount":1}}`, "",
			CodeParameterMissing, "items[0].discount.reason"),
		Entry("an allowance above its group's base", `{"description":"x","quantity":1,"amount":100}`,
			`,"allowances":[{"amount":101,"reason":"Too much"}]`, CodeAllowanceExceedsBase, "allowances[0]"),
		Entry("an allowance without tax beside lines with tax", `{"description":"x","quantity":1,"amount":100,"tax":`+s19+`}`,
			`,"allowances":[{"amount":1,"reason":"r"}]`, CodeParameterInvalid, "allowances[0].tax"),
		Entry("a charge with tax beside lines without", `{"description":"x","quantity":1,"amount":100}`,
			`,"charges":[{"amount":1,"reason_code":"FC","tax":`+s19+`}]`, CodeParameterInvalid, "charges[0].tax"),
		Entry("21 allowances", `{"description":"x","quantity":1,"amount":100}`,
			`,"allowances":[`+strings.TrimSuffix(strings.Repeat(`{"amount":1,"reason":"r"},`, 21), ",")+`]`,
			CodeParameterInvalid, "allowances"),
	)
})
