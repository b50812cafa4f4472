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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Identity and workspace", func() {
	DescribeTable("answers a missing or rejected token with 401 and WWW-Authenticate: Bearer",
		func(authorization, code string) {
			opts := []reqOpt{as("")}
			if authorization != "" {
				opts = append(opts, withHeader("Authorization", authorization))
			}
			resp := send(http.MethodGet, "/v1/customers", opts...)
			Expect(resp.status).To(Equal(http.StatusUnauthorized))
			Expect(resp.header.Get("WWW-Authenticate")).To(HavePrefix("Bearer"))
			Expect(resp.apiErr().Type).To(Equal("authentication_error"))
			Expect(resp.apiErr().Code).To(Equal(code))
		},
		Entry("no Authorization header", "", CodeAuthRequired),
		Entry("a garbage token", "Bearer garbage", CodeTokenInvalid),
		Entry("a forged JWT", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", CodeTokenInvalid),
		Entry("an empty bearer token", "Bearer ", CodeTokenInvalid),
		Entry("another scheme", "Basic YWxpY2U6c2VjcmV0", CodeTokenInvalid),
	)

	It("refuses the token of a deleted ServiceAccount", func() {
		token := serviceAccountToken(nsAlpha, "short-lived")
		Expect(clientset.CoreV1().ServiceAccounts(nsAlpha).Delete(ctx, "short-lived", metav1.DeleteOptions{})).To(Succeed())
		// The API server's authenticator learns of the deletion through its
		// own cache: wait until it refuses the token, then ask the adapter
		// (which has never seen the token accepted, so caches nothing).
		Eventually(func(g Gomega) {
			review, err := clientset.AuthenticationV1().TokenReviews().Create(ctx,
				&authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: token}}, metav1.CreateOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(review.Status.Authenticated).To(BeFalse())
		}).WithTimeout(10 * time.Second).Should(Succeed())
		resp := send(http.MethodGet, "/v1/customers", as(token))
		Expect(resp.status).To(Equal(http.StatusUnauthorized))
	})

	It("works in a ServiceAccount's own namespace without the header", func() {
		c := createCustomer()
		Expect(c.Workspace).To(Equal(nsAlpha))
		Expect(send(http.MethodGet, "/v1/customers/"+c.ID).status).To(Equal(http.StatusOK))
	})

	It("works in the namespace of the Invoicing-Workspace header", func() {
		c := createCustomer(v1client.Workspace(nsBeta))
		Expect(c.Workspace).To(Equal(nsBeta))
		Expect(send(http.MethodGet, "/v1/customers/"+c.ID, inWorkspace(nsBeta)).status).To(Equal(http.StatusOK))
	})

	It("answers 404, never the data, for an id from another workspace", func() {
		c := createCustomer(v1client.Workspace(nsBeta))
		resp := send(http.MethodGet, "/v1/customers/"+c.ID)
		Expect(resp.status).To(Equal(http.StatusNotFound))
		Expect(string(resp.body)).NotTo(ContainSubstring(c.Email))
		Expect(resp.apiErr().Code).To(Equal(CodeResourceMissing))

		inv := send(http.MethodPost, "/v1/invoices", inWorkspace(nsBeta), withJSON(invoiceBody(c.ID)))
		Expect(inv.status).To(Equal(http.StatusCreated))
		Expect(send(http.MethodGet, "/v1/invoices/"+inv.invoice().ID).status).To(Equal(http.StatusNotFound))

		for _, l := range send(http.MethodGet, "/v1/customers?limit=100").customers().Data {
			Expect(l.Workspace).To(Equal(nsAlpha))
		}
	})

	It("lets a reader get and list but not create", func() {
		c := createCustomer(v1client.Workspace(nsBeta))
		Expect(send(http.MethodGet, "/v1/customers/"+c.ID, as(readerToken)).status).To(Equal(http.StatusOK))
		Expect(send(http.MethodGet, "/v1/customers", as(readerToken)).status).To(Equal(http.StatusOK))

		resp := send(http.MethodPost, "/v1/customers", as(readerToken), withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusForbidden))
		Expect(resp.apiErr().Type).To(Equal("permission_error"))
		Expect(resp.apiErr().Code).To(Equal(CodePermissionDenied))
	})

	It("lets a Role limited to resourceNames get exactly the objects it names", func() {
		allowed := createCustomer(v1client.Workspace(nsBeta))
		other := createCustomer(v1client.Workspace(nsBeta))
		token := serviceAccountToken(nsBeta, "named-reader")
		Expect(k8s.Create(ctx, &rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: "named-reader", Namespace: nsBeta},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"customers"},
				Verbs: []string{"get"}, ResourceNames: []string{allowed.ID},
			}},
		})).To(Succeed())
		Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "named-reader", Namespace: nsBeta},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "named-reader"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: nsBeta, Name: "named-reader"}},
		})).To(Succeed())
		// The denial of a get before RBAC caught up is cached 5 s: wait it out.
		Eventually(func() int {
			return send(http.MethodGet, "/v1/customers/"+allowed.ID, as(token)).status
		}).WithTimeout(30 * time.Second).WithPolling(time.Second).Should(Equal(http.StatusOK))

		Expect(send(http.MethodGet, "/v1/customers/"+other.ID, as(token)).status).To(Equal(http.StatusForbidden))
		Expect(send(http.MethodGet, "/v1/customers", as(token)).status).To(Equal(http.StatusForbidden))
		Expect(send(http.MethodGet, "/v1/invoices/"+allowed.ID, as(token)).status).To(Equal(http.StatusForbidden))
	})

	It("checks access before looking at the body", func() {
		resp := send(http.MethodPost, "/v1/invoices", as(readerToken), withBody(`{not json`))
		Expect(resp.status).To(Equal(http.StatusForbidden))
	})

	DescribeTable("answers 403 permission_error where RBAC grants nothing",
		func(token tokenRef, workspace, method, path string) {
			opts := []reqOpt{as(*token.p)}
			if workspace != "" {
				opts = append(opts, inWorkspace(workspace))
			}
			if method == http.MethodPost {
				opts = append(opts, withJSON(customerBody()))
			}
			resp := send(method, path, opts...)
			Expect(resp.status).To(Equal(http.StatusForbidden))
			Expect(resp.apiErr().Type).To(Equal("permission_error"))
		},
		Entry("nobody lists customers", nobodyTokenRef, "", http.MethodGet, "/v1/customers"),
		Entry("nobody gets an invoice", nobodyTokenRef, "", http.MethodGet, "/v1/invoices/inv-1"),
		Entry("the reader lists in another workspace", readerTokenRef, nsAlpha, http.MethodGet, "/v1/invoices"),
		Entry("the writer creates in a namespace without a role", writerTokenRef, "gamma", http.MethodPost, "/v1/customers"),
	)

	It("authorizes a user who is not a ServiceAccount through her groups, given a workspace", func() {
		resp := send(http.MethodGet, "/v1/customers", as(aliceToken))
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Code).To(Equal(CodeWorkspaceRequired))

		ns := newWorkspace()
		resp = send(http.MethodGet, "/v1/customers", as(aliceToken), inWorkspace(ns))
		Expect(resp.status).To(Equal(http.StatusForbidden))

		Expect(k8s.Create(ctx, &rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: "billing-list", Namespace: ns},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"customers"}, Verbs: []string{"list"},
			}},
		})).To(Succeed())
		Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "billing-list", Namespace: ns},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "billing-list"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "billing-admins"}},
		})).To(Succeed())
		// The deny answer may be cached for DenyCacheTTL (5s).
		Eventually(func() int {
			return send(http.MethodGet, "/v1/customers", as(aliceToken), inWorkspace(ns)).status
		}).WithTimeout(10 * time.Second).WithPolling(250 * time.Millisecond).Should(Equal(http.StatusOK))
	})

	DescribeTable("refuses an Invoicing-Workspace header that is not a namespace name with 400",
		func(values ...string) {
			opts := []reqOpt{}
			for _, v := range values {
				opts = append(opts, inWorkspace(v))
			}
			resp := send(http.MethodGet, "/v1/customers", opts...)
			Expect(resp.status).To(Equal(http.StatusBadRequest))
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal(WorkspaceHeader))
		},
		Entry("upper case", "Alpha"),
		Entry("an underscore", "al_pha"),
		Entry("empty", ""),
		Entry("64 characters", "a123456789012345678901234567890123456789012345678901234567890123"),
		Entry("sent twice", nsAlpha, nsBeta),
	)
})

// Tokens are made in BeforeSuite, after table entries are built: entries
// take a reference.
var (
	writerTokenRef = tokenRef{&writerToken}
	readerTokenRef = tokenRef{&readerToken}
	nobodyTokenRef = tokenRef{&nobodyToken}
)

type tokenRef struct{ p *string }
