/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
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
		Expect(k8s.Create(ctx, newCustomer(nsAlpha, "grace"))).To(Succeed())
		resp := send(http.MethodGet, "/v1/customers/grace")
		Expect(resp.status).To(Equal(http.StatusOK))
		c := resp.customer()
		Expect(c.ID).To(Equal("grace"))
		Expect(c.Name).To(Equal("Grace Hopper"))
		Expect(c.Workspace).To(Equal(nsAlpha))
	})

	It("lists customers ordered by id", func() {
		ns := newWorkspace()
		Expect(k8s.Create(ctx, newCustomer(ns, "zeta"))).To(Succeed())
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
})
