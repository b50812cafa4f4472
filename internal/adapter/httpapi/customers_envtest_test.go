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
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// newWorkspace creates a fresh namespace in which the writer may get, list
// and create, so that a spec's lists hold only its own objects.
func newWorkspace() string {
	ns := "ws-" + rand.String(8)
	ExpectWithOffset(1, k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
	grant(nsAlpha, "writer", ns, "get", "list", "create")
	return ns
}

var _ = Describe("Customers", func() {
	It("creates a customer: 201, the object, and its Location", func() {
		before := time.Now().UTC().Truncate(time.Second)
		resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody(set("name", "Ada Lovelace"))))
		Expect(resp.status).To(Equal(http.StatusCreated))
		c := resp.customer()
		Expect(c.ID).To(MatchRegexp(`^cus-[0-9a-z]{26}$`))
		Expect(c.Object).To(Equal("customer"))
		Expect(c.Workspace).To(Equal(nsAlpha))
		Expect(c.Name).To(Equal("Ada Lovelace"))
		Expect(c.Email).To(Equal("ada@example.com"))
		Expect(resp.header.Get("Location")).To(Equal("/v1/customers/" + c.ID))
		Expect(resp.header.Get(IdempotentReplayedHeader)).To(BeEmpty())
		created, err := time.Parse(time.RFC3339, c.CreatedAt)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CreatedAt).To(HaveSuffix("Z"))
		Expect(created).To(BeTemporally(">=", before))

		By("storing it as a Customer whose name is the id, so kubectl finds it")
		stored := &billingv1.Customer{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: nsAlpha, Name: c.ID}, stored)).To(Succeed())
		Expect(stored.Spec).To(Equal(billingv1.CustomerSpec{Name: "Ada Lovelace", Email: "ada@example.com"}))
	})

	It("makes ids that sort in creation order", func() {
		var ids []string
		for range 5 {
			ids = append(ids, createCustomer().ID)
		}
		Expect(ids).To(HaveLen(5))
		for i := 1; i < len(ids); i++ {
			Expect(ids[i] > ids[i-1]).To(BeTrue(), "%s sorts before %s", ids[i], ids[i-1])
		}
	})

	It("counts name lengths in characters, not bytes", func() {
		name := strings.Repeat("é", 256) // 512 bytes
		resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody(set("name", name))))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.customer().Name).To(Equal(name))

		resp = send(http.MethodPost, "/v1/customers", withJSON(customerBody(set("name", name+"é"))))
		Expect(resp.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(resp.apiErr().Param).To(Equal("name"))
	})

	DescribeTable("refuses an invalid customer with 422 and the parameter",
		func(body map[string]any, code, param string) {
			resp := send(http.MethodPost, "/v1/customers", withJSON(body))
			Expect(resp.status).To(Equal(http.StatusUnprocessableEntity))
			e := resp.apiErr()
			Expect(e.Type).To(Equal("invalid_request_error"))
			Expect(e.Code).To(Equal(code))
			Expect(e.Param).To(Equal(param))
		},
		Entry("a missing name", customerBody(without("name")), CodeParameterMissing, "name"),
		Entry("a null name", customerBody(set("name", nil)), CodeParameterMissing, "name"),
		Entry("an empty name", customerBody(set("name", "")), CodeParameterInvalid, "name"),
		Entry("a name of 257 characters", customerBody(set("name", strings.Repeat("a", 257))), CodeParameterInvalid, "name"),
		Entry("a missing e-mail", customerBody(without("email")), CodeParameterMissing, "email"),
		Entry("an e-mail with a display name", customerBody(set("email", "Ada <ada@example.com>")), CodeParameterInvalid, "email"),
		Entry("an e-mail without @", customerBody(set("email", "ada.example.com")), CodeParameterInvalid, "email"),
		Entry("an e-mail of 255 characters", customerBody(set("email", strings.Repeat("a", 243)+"@example.com")), CodeParameterInvalid, "email"),
	)

	It("accepts an e-mail of exactly 254 characters", func() {
		email := strings.Repeat("a", 242) + "@example.com"
		Expect(email).To(HaveLen(254))
		resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody(set("email", email))))
		Expect(resp.status).To(Equal(http.StatusCreated))
	})

	It("answers an unknown customer id with 404 resource_missing", func() {
		for _, id := range []string{"cus-01jd3m5x8ckq0a5w7h3v2n9r4t", "Not-A-Name", strings.Repeat("a", 300)} {
			resp := send(http.MethodGet, "/v1/customers/"+id)
			Expect(resp.status).To(Equal(http.StatusNotFound), id)
			Expect(resp.apiErr().Code).To(Equal(CodeResourceMissing))
			Expect(resp.apiErr().Param).To(Equal("customer_id"))
		}
	})

	It("reads a customer created with the client library by its name", func() {
		Expect(k8s.Create(ctx, builder.Customer(nsAlpha, "grace", graceHopper()...))).To(Succeed())
		resp := send(http.MethodGet, "/v1/customers/grace")
		Expect(resp.status).To(Equal(http.StatusOK))
		c := resp.customer()
		Expect(c.ID).To(Equal("grace"))
		Expect(c.Name).To(Equal("Grace Hopper"))
		Expect(c.Workspace).To(Equal(nsAlpha))
	})

	It("lists customers ordered by id", func() {
		ns := newWorkspace()
		Expect(k8s.Create(ctx, builder.Customer(ns, "zeta", graceHopper()...))).To(Succeed())
		made := []string{createCustomer(v1client.Workspace(ns)).ID, createCustomer(v1client.Workspace(ns)).ID}
		Eventually(func(g Gomega) {
			resp := send(http.MethodGet, "/v1/customers", inWorkspace(ns))
			g.Expect(resp.status).To(Equal(http.StatusOK))
			list := resp.customers()
			g.Expect(list.Object).To(Equal("list"))
			g.Expect(list.HasMore).To(BeFalse())
			g.Expect(list.NextCursor).To(BeNil())
			ids := make([]string, len(list.Data))
			for i, c := range list.Data {
				ids[i] = c.ID
			}
			g.Expect(ids).To(Equal([]string{made[0], made[1], "zeta"}))
		}).Should(Succeed())
	})

	It("answers an empty list as an empty data array", func() {
		resp := send(http.MethodGet, "/v1/customers", inWorkspace(newWorkspace()))
		Expect(resp.status).To(Equal(http.StatusOK))
		Expect(string(resp.body)).To(ContainSubstring(`"data":[]`))
		Expect(resp.json()).To(HaveKeyWithValue("next_cursor", BeNil()))
	})

	It("stores an address and a tax id, and echoes them on create, get and list", func() {
		ns := newWorkspace()
		address := map[string]any{"line1": "221B Baker Street", "line2": "Flat B", "city": "London",
			"postal_code": "NW1 6XE", "state": "Greater London", "country": "GB"}
		resp := send(http.MethodPost, "/v1/customers", inWorkspace(ns),
			withJSON(customerBody(set("address", address), set("tax_id", "GB123456789"))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		created := resp.json()
		Expect(created).To(HaveKeyWithValue("address", Equal(address)))
		Expect(created).To(HaveKeyWithValue("tax_id", "GB123456789"))
		id := resp.customer().ID

		By("storing them in the Customer's spec")
		stored := &billingv1.Customer{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: id}, stored)).To(Succeed())
		Expect(stored.Spec.Address).To(Equal(&billingv1.Address{Line1: "221B Baker Street", Line2: "Flat B",
			City: "London", PostalCode: "NW1 6XE", State: "Greater London", Country: "GB"}))
		Expect(stored.Spec.TaxID).To(Equal("GB123456789"))

		By("echoing them on get and list")
		Expect(send(http.MethodGet, "/v1/customers/"+id, inWorkspace(ns)).json()).To(Equal(created))
		list := send(http.MethodGet, "/v1/customers", inWorkspace(ns)).json()
		Expect(list["data"]).To(HaveExactElements(Equal(created)))
	})

	It("answers a customer without address or tax id with both null, and absent address fields as null", func() {
		resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.json()).To(And(HaveKeyWithValue("address", BeNil()), HaveKeyWithValue("tax_id", BeNil())))

		resp = send(http.MethodPost, "/v1/customers", withJSON(customerBody(set("address", map[string]any{"country": "DE"}))))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.json()).To(HaveKeyWithValue("address", Equal(map[string]any{"line1": nil, "line2": nil, "city": nil,
			"postal_code": nil, "state": nil, "country": "DE"})))

		By("reading an address set with kubectl the same way")
		c := builder.Customer(nsAlpha, "kubectl-address", graceHopper()...)
		c.Spec.Address = &billingv1.Address{City: "Paris", Country: "FR"}
		c.Spec.TaxID = "FR40303265045"
		Expect(k8s.Create(ctx, c)).To(Succeed())
		got := send(http.MethodGet, "/v1/customers/kubectl-address").customer()
		Expect(got.Address).To(HaveValue(HaveField("City", HaveValue(Equal("Paris")))))
		Expect(got.Address.Line1).To(BeNil())
		Expect(got.TaxID).To(HaveValue(Equal("FR40303265045")))
	})

	DescribeTable("refuses a bad address or tax id with its JSON path, and creates nothing",
		func(status int, code, param string, opts ...bodyOpt) {
			before := &billingv1.CustomerList{}
			Expect(k8s.List(ctx, before, client.InNamespace(nsAlpha))).To(Succeed())
			resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody(opts...)))
			Expect(resp.status).To(Equal(status), "body: %s", resp.body)
			e := resp.apiErr()
			Expect(e.Type).To(Equal("invalid_request_error"))
			Expect(e.Code).To(Equal(code))
			Expect(e.Param).To(Equal(param))
			after := &billingv1.CustomerList{}
			Expect(k8s.List(ctx, after, client.InNamespace(nsAlpha))).To(Succeed())
			Expect(after.Items).To(HaveLen(len(before.Items)))
		},
		Entry("a user-assigned country", 422, CodeParameterInvalid, "address.country",
			set("address", map[string]any{"country": "ZZ"})),
		Entry("a lower-case country", 422, CodeParameterInvalid, "address.country",
			set("address", map[string]any{"country": "gb"})),
		Entry("a three-letter country", 422, CodeParameterInvalid, "address.country",
			set("address", map[string]any{"country": "GBR"})),
		Entry("an empty city", 422, CodeParameterInvalid, "address.city", set("address", map[string]any{"city": ""})),
		Entry("a line1 of 257 characters", 422, CodeParameterInvalid, "address.line1",
			set("address", map[string]any{"line1": strings.Repeat("a", 257)})),
		Entry("a postal code of 33 characters", 422, CodeParameterInvalid, "address.postal_code",
			set("address", map[string]any{"postal_code": strings.Repeat("1", 33)})),
		Entry("a tax id of 65 characters", 422, CodeParameterInvalid, "tax_id", set("tax_id", strings.Repeat("1", 65))),
		Entry("an empty tax id", 422, CodeParameterInvalid, "tax_id", set("tax_id", "")),
		Entry("an address that is a string", 400, CodeParameterInvalid, "address", set("address", "London")),
		Entry("an unknown address field", 400, CodeParameterUnknown, "address.zip", set("address", map[string]any{"zip": "1"})),
		Entry("a numeric postal code", 400, CodeParameterInvalid, "address.postal_code",
			set("address", map[string]any{"postal_code": 75001})),
	)

	It("lists the customers of one e-mail address in full pages, and refuses a cursor whose filter changed", func() {
		ns := newWorkspace()
		var billing []string
		for i := range 9 {
			email := []string{"billing@acme.example", "other@acme.example", "Billing@acme.example"}[i%3]
			resp := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withJSON(customerBody(set("email", email))))
			Expect(resp.status).To(Equal(http.StatusCreated))
			if email == "billing@acme.example" {
				billing = append(billing, resp.customer().ID)
			}
		}
		Expect(billing).To(HaveLen(3))

		var seen []string
		cursor := ""
		for {
			list, resp, err := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns)).ListCustomers(ctx,
				v1client.ListParams{Limit: 2, Cursor: cursor, Email: "billing@acme.example"})
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Status).To(Equal(http.StatusOK))
			if list.HasMore {
				Expect(list.Data).To(HaveLen(2), "a page with more after it is full")
			}
			for _, c := range list.Data {
				Expect(c.Email).To(Equal("billing@acme.example"))
				seen = append(seen, c.ID)
			}
			if !list.HasMore {
				break
			}
			cursor = *list.NextCursor
		}
		Expect(seen).To(Equal(billing))

		By("refusing the first page's cursor with another e-mail or without one")
		first := send(http.MethodGet, "/v1/customers?limit=1&email="+url.QueryEscape("billing@acme.example"), inWorkspace(ns)).customers()
		Expect(first.NextCursor).NotTo(BeNil())
		for _, query := range []string{"email=" + url.QueryEscape("other@acme.example") + "&", ""} {
			resp := send(http.MethodGet, "/v1/customers?"+query+"cursor="+url.QueryEscape(*first.NextCursor), inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusBadRequest), query)
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal("cursor"))
		}

		By("matching the address exactly, case included")
		Expect(send(http.MethodGet, "/v1/customers?email="+url.QueryEscape("Billing@acme.example"), inWorkspace(ns)).
			customers().Data).To(HaveLen(3))
		Expect(send(http.MethodGet, "/v1/customers?email="+url.QueryEscape("nobody@acme.example"), inWorkspace(ns)).
			customers().Data).To(BeEmpty())

		By("refusing a value that is no e-mail address")
		for _, bad := range []string{"", "billing", "Ada <ada@example.com>"} {
			resp := send(http.MethodGet, "/v1/customers?email="+url.QueryEscape(bad), inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusBadRequest), bad)
			Expect(resp.apiErr().Param).To(Equal("email"))
		}
	})
})
