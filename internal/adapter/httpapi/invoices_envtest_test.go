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
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Invoices", func() {
	var customer apiobject.Customer
	BeforeEach(func() {
		customer = createCustomer()
	})

	It("creates an invoice that the controller then issues", func() {
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(customer.ID,
			set("currency", "eur"),
			set("items", []any{item("Consulting", 3, 15000), item("Travel", 1, 999)}))))
		Expect(resp.status).To(Equal(http.StatusCreated))
		inv := resp.invoice()
		Expect(inv.ID).To(MatchRegexp(`^inv-[0-9a-z]{26}$`))
		Expect(inv.Object).To(Equal("invoice"))
		Expect(inv.Workspace).To(Equal(nsAlpha))
		Expect(inv.CustomerID).To(Equal(customer.ID))
		Expect(inv.Currency).To(Equal("EUR"))
		Expect(inv.Items).To(Equal([]apiobject.Item{
			{Description: "Consulting", Quantity: billingv1.Units(3), UnitCode: "C62", Amount: 15000, NetAmount: ptr.To[int64](45000)},
			{Description: "Travel", Quantity: billingv1.Units(1), UnitCode: "C62", Amount: 999, NetAmount: ptr.To[int64](999)},
		}))
		Expect(inv.Total).To(HaveValue(BeEquivalentTo(45999)))
		Expect(inv.Status).To(BeElementOf("pending", "issued"))
		Expect(resp.header.Get("Location")).To(Equal("/v1/invoices/" + inv.ID))

		By("waiting for the controller to issue it")
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+inv.ID)
			g.Expect(got.status).To(Equal(http.StatusOK))
			g.Expect(got.invoice().Status).To(Equal("issued"))
			g.Expect(got.invoice().Total).To(HaveValue(BeEquivalentTo(45999)))
		}).Should(Succeed())

		stored := &billingv1.Invoice{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: nsAlpha, Name: inv.ID}, stored)).To(Succeed())
		Expect(stored.Spec.CustomerRef.Name).To(Equal(customer.ID))
		Expect(stored.Status.Total).To(HaveValue(BeEquivalentTo(45999)))
	})

	It("defaults the currency to USD", func() {
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(customer.ID)))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.invoice().Currency).To(Equal("USD"))
	})

	It("accepts a total of exactly 2^53-1", func() {
		// 9007199254740991 = 9007 × 1000000000000 + 199254740991
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(customer.ID, set("items", []any{
			item("Big", 9007, 1_000_000_000_000), item("Rest", 1, 199_254_740_991),
		}))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		Expect(resp.invoice().Total).To(HaveValue(BeEquivalentTo(int64(1<<53 - 1))))
	})

	It("accepts 500 items and whole numbers written with a fraction or exponent", func() {
		items := make([]any, 500)
		for i := range items {
			items[i] = item(fmt.Sprintf("Line %d", i), 1, 1)
		}
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(customer.ID, set("items", items))))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.invoice().Items).To(HaveLen(500))

		resp = send(http.MethodPost, "/v1/invoices", withBody(fmt.Sprintf(
			`{"customer_id": %q, "items": [{"description": "x", "quantity": 3.0, "amount": 1.5e3}]}`, customer.ID)))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.invoice().Items[0]).To(Equal(apiobject.Item{Description: "x", Quantity: billingv1.Units(3), UnitCode: "C62", Amount: 1500,
			NetAmount: ptr.To[int64](4500)}))
	})

	DescribeTable("refuses an invalid invoice with 422 and the JSON path of the value",
		func(mutate func(id string) map[string]any, code, param string) {
			resp := send(http.MethodPost, "/v1/invoices", withJSON(mutate(customer.ID)))
			Expect(resp.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", resp.body)
			e := resp.apiErr()
			Expect(e.Type).To(Equal("invalid_request_error"))
			Expect(e.Code).To(Equal(code))
			Expect(e.Param).To(Equal(param))
		},
		Entry("a missing customer_id", func(string) map[string]any {
			return invoiceBody("", without("customer_id"))
		}, CodeParameterMissing, "customer_id"),
		Entry("a customer_id naming no customer", func(string) map[string]any {
			return invoiceBody("cus-nobody")
		}, CodeResourceMissing, "customer_id"),
		Entry("a customer_id that cannot be a name", func(string) map[string]any {
			return invoiceBody("Not A Name")
		}, CodeResourceMissing, "customer_id"),
		Entry("missing items", func(id string) map[string]any {
			return invoiceBody(id, without("items"))
		}, CodeParameterMissing, "items"),
		Entry("no items", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{}))
		}, CodeParameterInvalid, "items"),
		Entry("501 items", func(id string) map[string]any {
			items := make([]any, 501)
			for i := range items {
				items[i] = item("x", 1, 1)
			}
			return invoiceBody(id, set("items", items))
		}, CodeParameterInvalid, "items"),
		Entry("a missing description", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1, 1), map[string]any{"quantity": 1, "amount": 1}}))
		}, CodeParameterMissing, "items[1].description"),
		Entry("an empty description", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("", 1, 1)}))
		}, CodeParameterInvalid, "items[0].description"),
		Entry("a description of 1001 characters", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item(strings.Repeat("ü", 1001), 1, 1)}))
		}, CodeParameterInvalid, "items[0].description"),
		Entry("a quantity of 0", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1, 1), item("x", 1, 1), item("x", 0, 1)}))
		}, CodeParameterInvalid, "items[2].quantity"),
		Entry("a quantity above 1,000,000", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1_000_001, 1)}))
		}, CodeParameterInvalid, "items[0].quantity"),
		Entry("a quantity of five decimals", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 2.50001, 1)}))
		}, CodeParameterInvalid, "items[0].quantity"),
		Entry("a negative quantity", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", -1, 1)}))
		}, CodeParameterInvalid, "items[0].quantity"),
		Entry("a quantity as a string", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", "7.5", 1)}))
		}, CodeParameterInvalid, "items[0].quantity"),
		Entry("a missing quantity", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{map[string]any{"description": "x", "amount": 1}}))
		}, CodeParameterMissing, "items[0].quantity"),
		Entry("a negative amount", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1, -1)}))
		}, CodeParameterInvalid, "items[0].amount"),
		Entry("an amount above 10^12", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1, 1_000_000_000_001)}))
		}, CodeParameterInvalid, "items[0].amount"),
		Entry("a fractional amount", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{item("x", 1, 0.01)}))
		}, CodeParameterInvalid, "items[0].amount"),
		Entry("a total above 2^53-1", func(id string) map[string]any {
			return invoiceBody(id, set("items", []any{
				item("Big", 9007, 1_000_000_000_000), item("Rest", 1, 199_254_740_992),
			}))
		}, CodeParameterInvalid, "items"),
		Entry("a currency of two letters", func(id string) map[string]any {
			return invoiceBody(id, set("currency", "US"))
		}, CodeParameterInvalid, "currency"),
		Entry("a currency with a digit", func(id string) map[string]any {
			return invoiceBody(id, set("currency", "US1"))
		}, CodeParameterInvalid, "currency"),
	)

	It("refuses a customer of another workspace as resource_missing", func() {
		other := createCustomer(v1client.Workspace(nsBeta))
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(other.ID)))
		Expect(resp.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(resp.apiErr().Code).To(Equal(CodeResourceMissing))
		Expect(resp.apiErr().Param).To(Equal("customer_id"))
	})

	It("accepts a customer created with the client library a moment ago", func() {
		Expect(k8s.Create(ctx, builder.Customer(nsAlpha, "fresh-customer", graceHopper()...))).To(Succeed())
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody("fresh-customer")))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
	})

	It("reads an invoice created with the client library by its name, total computed before the controller ran", func() {
		Expect(k8s.Create(ctx, builder.Invoice(nsAlpha, "kubectl-invoice", inEUR("no-such-customer",
			billingv1.LineItem{Description: "Audit", Quantity: billingv1.Units(4), Amount: 250})...))).To(Succeed())
		resp := send(http.MethodGet, "/v1/invoices/kubectl-invoice")
		Expect(resp.status).To(Equal(http.StatusOK))
		inv := resp.invoice()
		Expect(inv.ID).To(Equal("kubectl-invoice"))
		Expect(inv.Currency).To(Equal("EUR"))
		Expect(inv.Total).To(HaveValue(BeEquivalentTo(1000)))
		Expect(inv.Status).To(BeElementOf("pending", "invalid"))

		By("showing the controller's verdict once it has one")
		Eventually(func() string {
			return send(http.MethodGet, "/v1/invoices/kubectl-invoice").invoice().Status
		}).Should(Equal("invalid"))
	})

	It("shows a null total for an invoice made with kubectl whose total is too large", func() {
		Expect(k8s.Create(ctx, builder.Invoice(nsAlpha, "huge-invoice", inEUR(customer.ID,
			billingv1.LineItem{Description: "Too much", Quantity: billingv1.Units(1_000_000), Amount: 1_000_000_000_000})...))).To(Succeed())
		resp := send(http.MethodGet, "/v1/invoices/huge-invoice")
		Expect(resp.status).To(Equal(http.StatusOK))
		Expect(resp.json()).To(HaveKeyWithValue("total", BeNil()))
		Eventually(func() string {
			return send(http.MethodGet, "/v1/invoices/huge-invoice").invoice().Status
		}).Should(Equal("invalid"))
		Expect(send(http.MethodGet, "/v1/invoices/huge-invoice").json()).To(And(
			HaveKeyWithValue("status_reason", "total_too_large"), HaveKeyWithValue("number", BeNil())))
	})

	It("answers an unknown invoice id with 404 resource_missing", func() {
		resp := send(http.MethodGet, "/v1/invoices/inv-01jd3m5x8ckq0a5w7h3v2n9r4t")
		Expect(resp.status).To(Equal(http.StatusNotFound))
		Expect(resp.apiErr().Code).To(Equal(CodeResourceMissing))
		Expect(resp.apiErr().Param).To(Equal("invoice_id"))
	})

	It("lists invoices, filtered by customer_id", func() {
		ns := newWorkspace()
		a := createCustomer(v1client.Workspace(ns))
		b := createCustomer(v1client.Workspace(ns))
		var ofA []string
		for _, c := range []string{a.ID, b.ID, a.ID} {
			resp := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(c)))
			Expect(resp.status).To(Equal(http.StatusCreated))
			if c == a.ID {
				ofA = append(ofA, resp.invoice().ID)
			}
		}
		resp := send(http.MethodGet, "/v1/invoices?customer_id="+a.ID, inWorkspace(ns))
		Expect(resp.status).To(Equal(http.StatusOK))
		list := resp.invoices()
		Expect(list.Data).To(HaveLen(2))
		Expect([]string{list.Data[0].ID, list.Data[1].ID}).To(Equal(ofA))
		Expect(list.Data[0].Items).To(HaveLen(1))

		Expect(send(http.MethodGet, "/v1/invoices", inWorkspace(ns)).invoices().Data).To(HaveLen(3))
		Expect(send(http.MethodGet, "/v1/invoices?customer_id=cus-nobody", inWorkspace(ns)).invoices().Data).To(BeEmpty())

		empty := send(http.MethodGet, "/v1/invoices?customer_id=", inWorkspace(ns))
		Expect(empty.status).To(Equal(http.StatusBadRequest))
		Expect(empty.apiErr().Param).To(Equal("customer_id"))
	})

	It("answers the number, dates, bill_to, issuer and status_reason, null until the invoice is issued", func() {
		resp := send(http.MethodPost, "/v1/invoices", withJSON(invoiceBody(customer.ID)))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.json()).To(And(HaveKey("number"), HaveKey("issued_at"), HaveKey("due_at"), HaveKey("bill_to"),
			HaveKey("issuer"), HaveKeyWithValue("status_reason", BeNil())))
		if inv := resp.invoice(); inv.Status == "pending" {
			Expect(inv.Number).To(BeNil())
			Expect(inv.BillTo).To(BeNil())
			Expect(inv.IssuedAt).To(BeNil())
		}
		id := resp.invoice().ID

		By("answering them once the controller has issued it")
		var inv apiobject.Invoice
		Eventually(func(g Gomega) {
			inv = send(http.MethodGet, "/v1/invoices/"+id).invoice()
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		Expect(inv.StatusReason).To(BeNil())
		Expect(inv.BillTo).To(HaveValue(And(HaveField("Name", customer.Name), HaveField("Email", customer.Email))))
		Expect(inv.Issuer).To(BeNil(), "the workspace has no billing profile")
		Expect(inv.IssuedAt).NotTo(BeNil())
		issued, err := time.Parse(time.RFC3339, *inv.IssuedAt)
		Expect(err).NotTo(HaveOccurred())
		Expect(*inv.IssuedAt).To(HaveSuffix("Z"))
		if inv.Number != nil {
			Expect(*inv.Number).To(MatchRegexp(`^[A-Z0-9./-]*[0-9]{6,}$`))
		}
		if inv.DueAt != nil {
			due, err := time.Parse(time.RFC3339, *inv.DueAt)
			Expect(err).NotTo(HaveOccurred())
			Expect(due).To(BeTemporally(">=", issued))
		}

		By("answering the same object in the list")
		list := send(http.MethodGet, "/v1/invoices?customer_id="+customer.ID+"&status=issued").invoices()
		Expect(list.Data).To(ContainElement(inv))
	})

	It("says customer_not_found for an invoice whose customer is missing, and gives it no number", func() {
		Expect(k8s.Create(ctx, builder.Invoice(nsAlpha, "orphan-invoice", inEUR("cus-missing")...))).To(Succeed())
		Eventually(func(g Gomega) {
			body := send(http.MethodGet, "/v1/invoices/orphan-invoice").json()
			g.Expect(body).To(HaveKeyWithValue("status", "invalid"))
			g.Expect(body).To(HaveKeyWithValue("status_reason", "customer_not_found"))
			g.Expect(body).To(And(HaveKeyWithValue("number", BeNil()), HaveKeyWithValue("bill_to", BeNil()),
				HaveKeyWithValue("issued_at", BeNil()), HaveKeyWithValue("due_at", BeNil())))
		}).Should(Succeed())
	})

	It("lists the invoices of one status in full pages, with or without customer_id", func() {
		ns := newWorkspace()
		c := createCustomer(v1client.Workspace(ns))
		var issued, invalid []string
		for i := range 12 {
			name := fmt.Sprintf("inv-%02d", i)
			if i%2 == 0 {
				Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR(c.ID)...))).To(Succeed())
				issued = append(issued, name)
			} else {
				Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR("cus-missing")...))).To(Succeed())
				invalid = append(invalid, name)
			}
		}
		Eventually(func() []any {
			return send(http.MethodGet, "/v1/invoices?status=pending&limit=100", inWorkspace(ns)).json()["data"].([]any)
		}).Should(BeEmpty())

		walk := func(p v1client.ListParams) []string {
			var ids []string
			for {
				list, resp, err := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns)).
					ListInvoices(ctx, p)
				Expect(err).NotTo(HaveOccurred())
				Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
				if list.HasMore {
					Expect(list.Data).To(HaveLen(p.Limit), "a page with more after it is full")
				}
				for _, inv := range list.Data {
					Expect(inv.Status).To(Equal(p.Status))
					ids = append(ids, inv.ID)
				}
				if !list.HasMore {
					return ids
				}
				p.Cursor = *list.NextCursor
			}
		}
		Expect(walk(v1client.ListParams{Limit: 2, Status: "issued"})).To(Equal(issued))
		Expect(walk(v1client.ListParams{Limit: 4, Status: "invalid"})).To(Equal(invalid))
		Expect(walk(v1client.ListParams{Limit: 5, Status: "issued", CustomerID: c.ID})).To(Equal(issued))
		Expect(walk(v1client.ListParams{Limit: 5, Status: "invalid", CustomerID: "cus-missing"})).To(Equal(invalid))
		Expect(walk(v1client.ListParams{Limit: 5, Status: "invalid", CustomerID: c.ID})).To(BeEmpty())
		Expect(walk(v1client.ListParams{Limit: 3, Status: "pending"})).To(BeEmpty())

		By("refusing the cursor of a page with changed filters")
		first := send(http.MethodGet, "/v1/invoices?status=issued&limit=2", inWorkspace(ns)).invoices()
		Expect(first.NextCursor).NotTo(BeNil())
		cur := "cursor=" + url.QueryEscape(*first.NextCursor)
		for _, query := range []string{"status=invalid&" + cur, cur, "customer_id=" + c.ID + "&status=issued&" + cur} {
			resp := send(http.MethodGet, "/v1/invoices?"+query, inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusBadRequest), query)
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal("cursor"))
		}
		Expect(send(http.MethodGet, "/v1/invoices?status=issued&limit=2&"+cur, inWorkspace(ns)).status).To(Equal(http.StatusOK))
	})
})
