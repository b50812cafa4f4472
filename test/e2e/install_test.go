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

// The install suite's shape: its specs in order, what they share, and the
// helpers that read and write its objects.

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

var (
	customersGVR = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "customers"}
	invoicesGVR  = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "invoices"}
	idemKeysGVR  = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "idempotencykeys"}
	profilesGVR  = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "billingprofiles"}
	endpointsGVR = schema.GroupVersionResource{Group: "billing.invoicing.dev", Version: "v1", Resource: "webhookendpoints"}
	secretsGVR   = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// The install: config/default rendered with kubectl kustomize and applied
// with server-side apply to a real API server, then the controller and the
// adapter binaries run as processes with the arguments of the rendered
// Deployment and as its ServiceAccount, so that only the install's RBAC
// lets them work. The last spec reads the API server's audit log: the
// ServiceAccount must have been refused nothing and must have used every
// rule it is granted, so a rule removed from config/rbac fails the suite,
// and so does a rule nothing needs.
var _ = Describe("The install (config/default)", Ordered, func() {
	s := &installSuite{}

	BeforeAll(func() {
		s.c = startCluster()
	})

	AfterAll(func() {
		stopBinary(s.adapter)
		stopBinary(s.manager)
	})

	It("renders with kubectl kustomize and applies cleanly with server-side apply", s.rendersAndApplies)
	It("runs the controller and the adapter as two restricted containers of one pod", s.runsThePod)
	It("aggregates the viewer and editor roles into the built-in view and edit roles", s.aggregatesRoles)
	It("lets a team with edit on its namespace apply manifests in any order, as GitOps does", s.appliesInAnyOrder)
	It("lets the same team use its workspace over HTTP, and no other workspace", s.servesTheWorkspaceOverHTTP)
	It("pushes the team's issued invoices to the webhook endpoint the team applies, signed and in order", s.pushesIssuedInvoices)
	It("refuses a team without a RoleBinding, with kubectl and over HTTP", s.refusesAnUnboundTeam)
	It("lets a viewer read its workspace but not write to it", s.letsAViewerRead)
	It("answers a create that a ResourceQuota refuses with 403, and frees its Idempotency-Key", s.answersAQuotaRefusal)
	It("deletes expired Idempotency-Key claims", s.deletesExpiredClaims)
	It("closes a team's books over HTTP, seals its paid invoice, and still serves it", s.closesTheBooks)
	It("turns an overpaid invoice into credit, applies it on issue, refunds and writes off, over HTTP", s.usesMoneyOnAccount)
	It("sends an invoice on issue and on request over HTTP, and shows its deliveries", s.sendsEmail)
	It("closes the books again and seals applied credit, a write-off, a refund and e-mails", s.sealsMoneyOnAccount)
	It("creates a schedule over HTTP, adds a pending item that its first invoice takes, and pauses it", s.issuesSchedules)
	It("imports a bank statement over HTTP, and the manager pays the invoice its line names", s.paysByStatement)
	It("holds a customer that issued invoices reference, and releases it only with its namespace", s.holdsAReferencedCustomer)
	It("serves both containers' metrics to an authorized scraper only", s.servesMetrics)
	It("was refused nothing and used every rule the install grants its ServiceAccount", s.usedEveryRule)
})

// installSuite is what the install's specs share, in their order: each
// spec is a method, in the file of its part of the install.
type installSuite struct {
	c        *cluster
	rendered []*unstructured.Unstructured
	api      string // the adapter's base URL
	adapterM string // the adapter's metrics address
	managerM string // the manager's metrics address
	teamA    string // token of team-a/ci, bound to the built-in edit role in team-a
	teamB    string // token of team-b/ci, bound to nothing
	// Tokens for the /v1 API, bound to the audience the install's
	// adapter requires (--token-audiences): of team-a/ci, of
	// team-a/auditor (bound to view in team-a), and of team-b/ci.
	teamAAPI, auditorAPI, teamBAPI string
	audience                       string
	// ca issues the certificates the pod would mount from cert-manager.
	ca *testca.CA
	// The binaries, as the pod's two containers.
	manager, adapter *gexec.Session
}

func manifest(doc string) *unstructured.Unstructured {
	GinkgoHelper()
	objs := decodeManifests(doc)
	Expect(objs).To(HaveLen(1))
	return objs[0]
}

// applyManifest server-side applies a YAML manifest as a GitOps controller
// does.
func applyManifest(d dynamic.Interface, gvr schema.GroupVersionResource, doc string) {
	GinkgoHelper()
	obj := manifest(doc)
	_, err := d.Resource(gvr).Namespace(obj.GetNamespace()).Apply(context.Background(), obj.GetName(), obj,
		metav1.ApplyOptions{FieldManager: "gitops", Force: true})
	Expect(err).NotTo(HaveOccurred())
}

func getObject(d dynamic.Interface, gvr schema.GroupVersionResource, namespace, name string) *unstructured.Unstructured {
	GinkgoHelper()
	obj, err := d.Resource(gvr).Namespace(namespace).Get(context.Background(), name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return obj
}

// invoiceState is "phase/reason of Ready" of an invoice, read as the admin.
func invoiceState(c *cluster, namespace, name string) func() (string, error) {
	return func() (string, error) {
		inv, err := c.adminDyn.Resource(invoicesGVR).Namespace(namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		phase, _, _ := unstructured.NestedString(inv.Object, "status", "phase")
		_, reason := readyCondition(inv)
		return phase + "/" + reason, nil
	}
}

// readyCondition is the status ("True", "False", "Unknown") and reason
// of an object's Ready condition, or empty strings when it has none.
func readyCondition(obj *unstructured.Unstructured) (status, reason string) {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conditions {
		if m, ok := c.(map[string]any); ok && m["type"] == "Ready" {
			return fmt.Sprint(m["status"]), fmt.Sprint(m["reason"])
		}
	}
	return "", ""
}
