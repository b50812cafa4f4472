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

package e2e

// What teams may do with kubectl through the roles the install aggregates
// into view and edit.

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// aggregatesRoles: aggregates the viewer and editor roles into the built-in view and edit roles.
func (s *installSuite) aggregatesRoles() {
	for role, verb := range map[string]string{"view": "list", "edit": "create"} {
		for _, resource := range []string{"invoices", "creditnotes", "payments", "creditapplications", "refunds",
			"writeoffs", "emails", "invoiceschedules", "pendingitems", "banktransactions"} {
			Eventually(func() ([]rbacv1.PolicyRule, error) {
				cr, err := s.c.admin.RbacV1().ClusterRoles().Get(context.Background(), role, metav1.GetOptions{})
				if err != nil {
					return nil, err
				}
				return cr.Rules, nil
			}, time.Minute).Should(ContainElement(SatisfyAll(
				HaveField("APIGroups", ContainElement("billing.invoicing.dev")),
				HaveField("Resources", ContainElement(resource)),
				HaveField("Verbs", ContainElement(verb)),
			)), "the built-in %s role on %s", role, resource)
		}
	}

	s.teamA = s.c.token("team-a", "ci")
	s.c.bindRole("team-a", "ci", "edit")
	s.c.bindRole("team-a", "auditor", "view")
	s.teamB = s.c.token("team-b", "ci")
	s.teamAAPI = s.c.token("team-a", "ci", s.audience)
	s.auditorAPI = s.c.token("team-a", "auditor", s.audience)
	s.teamBAPI = s.c.token("team-b", "ci", s.audience)
}

// appliesInAnyOrder: lets a team with edit on its namespace apply manifests in any order, as GitOps does.
func (s *installSuite) appliesInAnyOrder() {
	gitops := s.c.dynamicFor(s.teamA)

	By("applying an invoice before its customer")
	applyManifest(gitops, invoicesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: gitops-001, namespace: team-a}
spec:
  customerRef: {name: initech}
  items:
  - {description: TPS report review, quantity: 4, amount: 12500}
  - {description: Stapler, quantity: 1, amount: 1999}`)
	Eventually(invoiceState(s.c, "team-a", "gitops-001"), 30*time.Second).Should(Equal("Invalid/CustomerNotFound"))

	By("applying the customer: the invoice is issued without another apply")
	applyManifest(gitops, customersGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: initech, namespace: team-a}
spec: {name: Initech, email: ap@initech.example}`)
	Eventually(invoiceState(s.c, "team-a", "gitops-001"), 30*time.Second).Should(Equal("Issued/Issued"))
	inv := getObject(s.c.dynamicFor(s.teamA), invoicesGVR, "team-a", "gitops-001")
	Expect(inv.Object).To(HaveKeyWithValue("status", SatisfyAll(
		HaveKeyWithValue("total", BeEquivalentTo(4*12500+1999)),
		HaveKeyWithValue("billTo", HaveKeyWithValue("name", "Initech")),
	)))

	By("applying the same manifests again, which changes nothing")
	before := getObject(s.c.adminDyn, customersGVR, "team-a", "initech").GetResourceVersion()
	applyManifest(gitops, customersGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: initech, namespace: team-a}
spec: {name: Initech, email: ap@initech.example}`)
	Expect(getObject(s.c.adminDyn, customersGVR, "team-a", "initech").GetResourceVersion()).To(Equal(before))

	By("applying the workspace's billing profile (config/samples), which the controller reports Ready")
	profile, err := os.ReadFile(filepath.Join(repoRoot, "config", "samples", "billing_v1_billingprofile.yaml"))
	Expect(err).NotTo(HaveOccurred())
	applyManifest(gitops, profilesGVR, strings.Replace(string(profile), "namespace: demo", "namespace: team-a", 1))
	Eventually(func() (string, error) {
		bp, err := s.c.adminDyn.Resource(profilesGVR).Namespace("team-a").Get(context.Background(), "default", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		status, reason := readyCondition(bp)
		return status + "/" + reason, nil
	}, 30*time.Second).Should(Equal("True/Default"))
}

// refusesAnUnboundTeam: refuses a team without a RoleBinding, with kubectl and over HTTP.
func (s *installSuite) refusesAnUnboundTeam() {
	_, err := s.c.dynamicFor(s.teamB).Resource(customersGVR).Namespace("team-b").Create(context.Background(),
		manifest(`{"apiVersion": "billing.invoicing.dev/v1", "kind": "Customer",
			"metadata": {"name": "nope"}, "spec": {"name": "Nope", "email": "a@b.example"}}`), metav1.CreateOptions{})
	Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

	ctx := context.Background()
	b := apiClient(s.ca, s.api, s.teamBAPI)
	_, resp, _ := b.ListInvoices(ctx, v1client.ListParams{})
	Expect(resp.Status).To(Equal(http.StatusForbidden), "GET /v1/invoices: %s", resp.Body)
	_, resp, _ = b.ListCustomers(ctx, v1client.ListParams{})
	Expect(resp.Status).To(Equal(http.StatusForbidden), "GET /v1/customers: %s", resp.Body)
	_, resp, _ = b.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nope", Email: "a@b.example"})
	expectAPIError(resp, http.StatusForbidden, "permission_denied")
}

// letsAViewerRead: lets a viewer read its workspace but not write to it.
func (s *installSuite) letsAViewerRead() {
	ctx := context.Background()
	v := apiClient(s.ca, s.api, s.auditorAPI)
	// A customer applied with kubectl is listed once the adapter's
	// informer has delivered it (docs/design.md, Known limits); on a
	// loaded machine that once took seconds. The message shows what the
	// API server holds.
	Eventually(func(g Gomega) {
		list, resp, err := v.ListCustomers(ctx, v1client.ListParams{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusOK))
		stored, err := s.c.adminDyn.Resource(customersGVR).Namespace("team-a").List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, item := range stored.Items {
			names = append(names, item.GetName())
		}
		g.Expect(v1client.IDs(list)).To(ContainElement("initech"), "the API server holds %v; the body was %s", names, resp.Body)
	}, 10*time.Second).Should(Succeed())
	_, resp, _ := v.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nope", Email: "a@b.example"})
	Expect(resp.Status).To(Equal(http.StatusForbidden), "%s", resp.Body)
}
