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

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

var _ = Describe("A workspace that does not exist", func() {
	It("answers a create there 404 resource_missing on the workspace header, and creates nothing", func() {
		By("granting a ServiceAccount create on customers in every namespace")
		sa := "everywhere-" + rand.String(5)
		token := serviceAccountToken(nsAlpha, sa)
		role := &rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: sa},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"customers"}, Verbs: []string{"create", "list"},
			}},
		}
		Expect(k8s.Create(ctx, role)).To(Succeed())
		DeferCleanup(func() { Expect(k8s.Delete(ctx, role)).To(Succeed()) })
		binding := &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: sa},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: sa},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: nsAlpha, Name: sa}},
		}
		Expect(k8s.Create(ctx, binding)).To(Succeed())
		DeferCleanup(func() { Expect(k8s.Delete(ctx, binding)).To(Succeed()) })

		missing := "no-such-ws-" + rand.String(5)
		for _, verb := range []string{"create", "list"} {
			awaitAllowed("system:serviceaccount:"+nsAlpha+":"+sa, missing, verb, "customers")
		}
		resp := send(http.MethodPost, "/v1/customers", as(token), inWorkspace(missing), withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusNotFound), "body: %s", resp.body)
		Expect(resp.apiErr().Code).To(Equal(CodeResourceMissing))
		Expect(resp.apiErr().Param).To(Equal(WorkspaceHeader))

		By("listing the workspace: nothing is there")
		list := send(http.MethodGet, "/v1/customers", as(token), inWorkspace(missing))
		Expect(list.status).To(Equal(http.StatusOK), "body: %s", list.body)
		Expect(list.customers().Data).To(BeEmpty())
	})
})
