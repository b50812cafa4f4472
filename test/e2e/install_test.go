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

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/testca"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
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
	var (
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
	)

	BeforeAll(func() {
		c = startCluster()
	})

	var manager, adapter *gexec.Session
	AfterAll(func() {
		stopBinary(adapter)
		stopBinary(manager)
	})

	It("renders with kubectl kustomize and applies cleanly with server-side apply", func() {
		By("installing cert-manager's CRDs, which the install's Certificates and Issuers need")
		c.installCertManagerCRDs()
		out := c.kubectl("kustomize", filepath.Join(repoRoot, "config", "default"))
		rendered = decodeManifests(out)
		manifests := filepath.Join(c.dir, "install.yaml")
		Expect(os.WriteFile(manifests, []byte(out), 0o600)).To(Succeed())

		applied := c.kubectl("apply", "--server-side", "--field-manager=e2e-install", "-f", manifests)
		for _, obj := range rendered {
			Expect(applied).To(ContainSubstring("/"+obj.GetName()+" serverside-applied"),
				"%s %s was not applied", obj.GetKind(), obj.GetName())
		}
		kinds := map[string]int{}
		for _, obj := range rendered {
			kinds[obj.GetKind()]++
		}
		Expect(kinds).To(HaveKeyWithValue("Namespace", 1))
		Expect(kinds).To(HaveKeyWithValue("CustomResourceDefinition", 6))
		Expect(kinds).To(HaveKeyWithValue("Deployment", 1))
		Expect(kinds).To(HaveKeyWithValue("ServiceAccount", 1))
		Expect(kinds).To(HaveKeyWithValue("Service", 2))
		Expect(kinds).To(HaveKeyWithValue("PodDisruptionBudget", 1))
		Expect(kinds).To(HaveKeyWithValue("Certificate", 3))
		Expect(kinds).To(HaveKeyWithValue("Issuer", 2))
		// API Priority and Fairness (config/apf): a level and a FlowSchema
		// each for the controller and the adapter.
		Expect(kinds).To(HaveKeyWithValue("FlowSchema", 2))
		Expect(kinds).To(HaveKeyWithValue("PriorityLevelConfiguration", 2))
		// Retention (config/policy): issued invoices and invoice sequences
		// are not deleted but with their namespace.
		Expect(kinds).To(HaveKeyWithValue("ValidatingAdmissionPolicy", 2))
		Expect(kinds).To(HaveKeyWithValue("ValidatingAdmissionPolicyBinding", 2))

		By("applying the optional NetworkPolicies as a server-side dry run")
		policies := c.kubectl("kustomize", filepath.Join(repoRoot, "config", "network-policy"))
		policies = strings.ReplaceAll(policies, "namespace: system", "namespace: "+installNamespace)
		policyFile := filepath.Join(c.dir, "network-policy.yaml")
		Expect(os.WriteFile(policyFile, []byte(policies), 0o600)).To(Succeed())
		Expect(c.kubectl("apply", "--server-side", "--dry-run=server", "-f", policyFile)).
			To(ContainSubstring("networkpolicy.networking.k8s.io/allow-api-traffic serverside-applied"))

		By("applying the optional ServiceMonitor and PrometheusRule as a server-side dry run")
		c.installPrometheusOperatorCRDs()
		monitoring := c.kubectl("kustomize", filepath.Join(repoRoot, "config", "prometheus"))
		monitoring = strings.ReplaceAll(monitoring, "namespace: system", "namespace: "+installNamespace)
		monitoringFile := filepath.Join(c.dir, "prometheus.yaml")
		Expect(os.WriteFile(monitoringFile, []byte(monitoring), 0o600)).To(Succeed())
		Expect(c.kubectl("apply", "--server-side", "--dry-run=server", "-f", monitoringFile)).To(SatisfyAll(
			ContainSubstring("servicemonitor.monitoring.coreos.com/controller-manager-metrics-monitor serverside-applied"),
			ContainSubstring("prometheusrule.monitoring.coreos.com/alerts serverside-applied")))
	})

	It("runs the controller and the adapter as two restricted containers of one pod", func() {
		deploy := renderedDeployment(rendered)
		spec := deploy.Spec.Template.Spec
		Expect(spec.ServiceAccountName).To(Equal(installAccount))
		By("running two replicas, spread over nodes, with a grace period longer than the adapter's drain")
		Expect(deploy.Spec.Replicas).To(HaveValue(BeEquivalentTo(2)))
		Expect(spec.TopologySpreadConstraints).To(ContainElement(HaveField("TopologyKey", "kubernetes.io/hostname")))
		Expect(containerArgs(deploy, "manager")).To(ContainElement("--leader-elect"))
		drain := 15 * time.Second // the adapter's --shutdown-timeout default
		if v := flagValue(containerArgs(deploy, "adapter"), "--shutdown-timeout"); v != "" {
			var err error
			drain, err = time.ParseDuration(v)
			Expect(err).NotTo(HaveOccurred())
		}
		for _, ctr := range spec.Containers {
			if ctr.Lifecycle != nil && ctr.Lifecycle.PreStop != nil && ctr.Lifecycle.PreStop.Sleep != nil {
				drain += time.Duration(ctr.Lifecycle.PreStop.Sleep.Seconds) * time.Second
			}
		}
		Expect(time.Duration(ptr.Deref(spec.TerminationGracePeriodSeconds, 30)) * time.Second).To(BeNumerically(">", drain))
		Expect(spec.SecurityContext.RunAsNonRoot).To(HaveValue(BeTrue()))
		Expect(spec.SecurityContext.SeccompProfile.Type).To(Equal(corev1.SeccompProfileTypeRuntimeDefault))
		Expect(spec.Containers).To(HaveLen(2))
		for _, ctr := range spec.Containers {
			Expect(ctr.Image).To(Equal(spec.Containers[0].Image), "one image for both containers")
			Expect(ctr.SecurityContext.ReadOnlyRootFilesystem).To(HaveValue(BeTrue()), ctr.Name)
			Expect(ctr.SecurityContext.AllowPrivilegeEscalation).To(HaveValue(BeFalse()), ctr.Name)
			Expect(ctr.SecurityContext.Capabilities.Drop).To(ConsistOf(corev1.Capability("ALL")), ctr.Name)
			Expect(ctr.LivenessProbe).NotTo(BeNil(), ctr.Name)
			Expect(ctr.ReadinessProbe).NotTo(BeNil(), ctr.Name)
			for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				Expect(ctr.Resources.Requests).To(HaveKey(r), ctr.Name)
				Expect(ctr.Resources.Limits).To(HaveKey(r), ctr.Name)
			}
		}

		By("creating a pod of the template where the restricted Pod Security Standard is enforced")
		ns, err := c.admin.CoreV1().Namespaces().Get(context.Background(), installNamespace, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(ns.Labels).To(HaveKeyWithValue("pod-security.kubernetes.io/enforce", "restricted"))
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{GenerateName: "template-", Namespace: installNamespace},
			Spec:       deploy.Spec.Template.Spec,
		}
		_, err = c.admin.CoreV1().Pods(installNamespace).Create(context.Background(), pod,
			metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		Expect(err).NotTo(HaveOccurred(), "the pod template must pass the restricted Pod Security Standard")

		By("running both binaries with the Deployment's arguments, as its ServiceAccount")
		kubeconfig := c.writeKubeconfig("install", c.token(installNamespace, installAccount))
		managerArgs, managerAddrs := localize(containerArgs(deploy, "manager"))
		adapterArgs, adapterAddrs := localize(containerArgs(deploy, "adapter"))
		ca, err = testca.New("install test CA")
		Expect(err).NotTo(HaveOccurred())
		managerArgs = localizeCerts(managerArgs, ca, filepath.Join(c.dir, "manager"))
		adapterArgs = localizeCerts(adapterArgs, ca, filepath.Join(c.dir, "adapter"))
		Expect(flagValue(adapterArgs, "--tls-cert-dir")).NotTo(BeEmpty(), "the install serves the API over HTTPS")
		audience = flagValue(adapterArgs, "--token-audiences")
		Expect(audience).NotTo(BeEmpty(), "the install requires a token audience")
		// Outside a pod the manager cannot read its namespace from the
		// mounted ServiceAccount: name it.
		managerArgs = append(managerArgs, "--leader-election-namespace="+installNamespace)
		// The webhook receiver listens on this machine's loopback, which the
		// install refuses (in a pod, loopback is the manager itself).
		managerArgs = append(managerArgs, "--webhook-allow-insecure-loopback")
		manager = runBinary("manager", kubeconfig, managerArgs...)
		adapter = runBinary("adapter", kubeconfig, adapterArgs...)
		api = "https://" + adapterAddrs["--listen-address"]
		adapterM = adapterAddrs["--metrics-bind-address"]
		managerM = managerAddrs["--metrics-bind-address"]
		Expect(adapterM).NotTo(BeEmpty(), "the install serves the adapter's metrics")
		Expect(managerM).NotTo(BeEmpty(), "the install serves the manager's metrics")

		Eventually(func() (int, error) {
			return status("http://" + managerAddrs["--health-probe-bind-address"] + "/readyz")
		},
			time.Minute).Should(Equal(http.StatusOK))
		Eventually(func() (int, error) { return statusWith(ca.Client(), api+"/readyz") }, time.Minute).Should(Equal(http.StatusOK))

		By("holding the leader election Lease in the install's namespace")
		Eventually(func() (string, error) {
			lease, err := c.admin.CoordinationV1().Leases(installNamespace).Get(context.Background(),
				"invoicing-controller.billing.invoicing.dev", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			return ptr.Deref(lease.Spec.HolderIdentity, ""), nil
		}, time.Minute).ShouldNot(BeEmpty())
	})

	It("aggregates the viewer and editor roles into the built-in view and edit roles", func() {
		for role, verb := range map[string]string{"view": "list", "edit": "create"} {
			Eventually(func() ([]rbacv1.PolicyRule, error) {
				cr, err := c.admin.RbacV1().ClusterRoles().Get(context.Background(), role, metav1.GetOptions{})
				if err != nil {
					return nil, err
				}
				return cr.Rules, nil
			}, time.Minute).Should(ContainElement(SatisfyAll(
				HaveField("APIGroups", ContainElement("billing.invoicing.dev")),
				HaveField("Resources", ContainElement("invoices")),
				HaveField("Verbs", ContainElement(verb)),
			)), "the built-in %s role", role)
		}

		teamA = c.token("team-a", "ci")
		c.bindRole("team-a", "ci", "edit")
		c.bindRole("team-a", "auditor", "view")
		teamB = c.token("team-b", "ci")
		teamAAPI = c.token("team-a", "ci", audience)
		auditorAPI = c.token("team-a", "auditor", audience)
		teamBAPI = c.token("team-b", "ci", audience)
	})

	It("lets a team with edit on its namespace apply manifests in any order, as GitOps does", func() {
		gitops := c.dynamicFor(teamA)

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
		Eventually(invoiceState(c, "team-a", "gitops-001"), 30*time.Second).Should(Equal("Invalid/CustomerNotFound"))

		By("applying the customer: the invoice is issued without another apply")
		applyManifest(gitops, customersGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: initech, namespace: team-a}
spec: {name: Initech, email: ap@initech.example}`)
		Eventually(invoiceState(c, "team-a", "gitops-001"), 30*time.Second).Should(Equal("Issued/Issued"))
		inv := getObject(c.dynamicFor(teamA), invoicesGVR, "team-a", "gitops-001")
		Expect(inv.Object).To(HaveKeyWithValue("status", SatisfyAll(
			HaveKeyWithValue("total", BeEquivalentTo(4*12500+1999)),
			HaveKeyWithValue("billTo", HaveKeyWithValue("name", "Initech")),
		)))

		By("applying the same manifests again, which changes nothing")
		before := getObject(c.adminDyn, customersGVR, "team-a", "initech").GetResourceVersion()
		applyManifest(gitops, customersGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: initech, namespace: team-a}
spec: {name: Initech, email: ap@initech.example}`)
		Expect(getObject(c.adminDyn, customersGVR, "team-a", "initech").GetResourceVersion()).To(Equal(before))

		By("applying the workspace's billing profile (config/samples), which the controller reports Ready")
		profile, err := os.ReadFile(filepath.Join(repoRoot, "config", "samples", "billing_v1_billingprofile.yaml"))
		Expect(err).NotTo(HaveOccurred())
		applyManifest(gitops, profilesGVR, strings.Replace(string(profile), "namespace: demo", "namespace: team-a", 1))
		Eventually(func() (string, error) {
			bp, err := c.adminDyn.Resource(profilesGVR).Namespace("team-a").Get(context.Background(), "default", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			status, reason := readyCondition(bp)
			return status + "/" + reason, nil
		}, 30*time.Second).Should(Equal("True/Default"))
	})

	It("lets the same team use its workspace over HTTP, and no other workspace", func() {
		By("refusing a token for the API server: the adapter requires its audience")
		ctx := context.Background()
		_, resp, _ := apiClient(ca, api, teamA).ListCustomers(ctx, v1client.ListParams{})
		expectAPIError(resp, http.StatusUnauthorized, "token_invalid")

		a := apiClient(ca, api, teamAAPI)
		cus, resp, err := a.CreateCustomer(ctx, v1client.CustomerParams{Name: "Hooli", Email: "ap@hooli.example"})
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusCreated))
		order := v1client.InvoiceParams{CustomerID: cus.ID,
			Items: []v1client.Item{{Description: "Compression", Quantity: 2, Amount: 5000}}}
		key := v1client.IdempotencyKey("hooli-order-1")
		inv, resp, err := a.CreateInvoice(ctx, order, key)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusCreated))
		Expect(inv.Workspace).To(Equal("team-a"))
		Expect(inv.Total).To(HaveValue(BeNumerically("==", 10000)))
		replay, resp, err := a.CreateInvoice(ctx, order, key)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusCreated))
		Expect(replay.ID).To(Equal(inv.ID), "a retry with the same Idempotency-Key returns the first invoice")

		Eventually(func() (string, error) {
			got, _, err := a.GetInvoice(ctx, inv.ID)
			if err != nil {
				return "", err
			}
			return got.Status, nil
		}, 30*time.Second).Should(Equal("issued"))
		list, resp, err := a.ListInvoices(ctx, v1client.ListParams{Limit: 100})
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusOK))
		Expect(v1client.IDs(list)).To(ContainElements("gitops-001", inv.ID), "objects applied as manifests are served over HTTP too")

		By("answering 404 for ids the workspace does not have (a miss of the cache is read from the API server)")
		_, resp, _ = a.GetCustomer(ctx, "cus-missing")
		expectAPIError(resp, http.StatusNotFound, "resource_missing")
		_, resp, _ = a.GetInvoice(ctx, "inv-missing")
		expectAPIError(resp, http.StatusNotFound, "resource_missing")

		_, resp, _ = a.ListInvoices(ctx, v1client.ListParams{}, v1client.Workspace("team-b"))
		expectAPIError(resp, http.StatusForbidden, "permission_denied")
	})

	It("pushes the team's issued invoices to the webhook endpoint the team applies, signed and in order", func() {
		secret := []byte("whsec-e2e-0123456789abcdef0123456789")
		receiver := webhookreceiver.Start(secret)
		DeferCleanup(receiver.Close)
		team := c.dynamicFor(teamA)

		By("applying a Secret and a WebhookEndpoint as the team, with edit")
		applyManifest(team, secretsGVR, fmt.Sprintf(`
apiVersion: v1
kind: Secret
metadata: {name: webhook-signing, namespace: team-a}
stringData: {secret: %s}`, secret))
		applyManifest(team, endpointsGVR, fmt.Sprintf(`
apiVersion: billing.invoicing.dev/v1
kind: WebhookEndpoint
metadata: {name: accounting, namespace: team-a}
spec:
  url: %s
  secretRef: {name: webhook-signing, key: secret}
  events: [invoice.issued]`, receiver.URL))

		By("receiving every issued invoice of the workspace, 1..N, each once")
		Eventually(func(g Gomega) {
			issued := 0
			list, err := c.adminDyn.Resource(invoicesGVR).Namespace("team-a").List(context.Background(), metav1.ListOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			for _, inv := range list.Items {
				if _, ok, _ := unstructured.NestedInt64(inv.Object, "status", "sequence"); ok {
					issued++
				}
			}
			g.Expect(issued).To(BeNumerically(">", 0))
			want := make([]int64, issued)
			for i := range want {
				want[i] = int64(i + 1)
			}
			g.Expect(receiver.Accepted()).To(Equal(want))
		}, time.Minute).Should(Succeed())
		for _, a := range receiver.Attempts() {
			Expect(a.SignatureValid).To(BeTrue(), "the delivery of %s has an invalid signature", a.EventID)
			Expect(a.EventID).To(Equal(fmt.Sprintf("evt-team-a-%d", a.Sequence)))
		}

		By("reporting it Ready to the team")
		Eventually(func() (string, error) {
			e, err := team.Resource(endpointsGVR).Namespace("team-a").Get(context.Background(), "accounting", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			status, reason := readyCondition(e)
			return status + "/" + reason, nil
		}, 30*time.Second).Should(Equal("True/Delivered"))
	})

	It("refuses a team without a RoleBinding, with kubectl and over HTTP", func() {
		_, err := c.dynamicFor(teamB).Resource(customersGVR).Namespace("team-b").Create(context.Background(),
			manifest(`{"apiVersion": "billing.invoicing.dev/v1", "kind": "Customer",
				"metadata": {"name": "nope"}, "spec": {"name": "Nope", "email": "a@b.example"}}`), metav1.CreateOptions{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

		ctx := context.Background()
		b := apiClient(ca, api, teamBAPI)
		_, resp, _ := b.ListInvoices(ctx, v1client.ListParams{})
		Expect(resp.Status).To(Equal(http.StatusForbidden), "GET /v1/invoices: %s", resp.Body)
		_, resp, _ = b.ListCustomers(ctx, v1client.ListParams{})
		Expect(resp.Status).To(Equal(http.StatusForbidden), "GET /v1/customers: %s", resp.Body)
		_, resp, _ = b.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nope", Email: "a@b.example"})
		expectAPIError(resp, http.StatusForbidden, "permission_denied")
	})

	It("lets a viewer read its workspace but not write to it", func() {
		ctx := context.Background()
		v := apiClient(ca, api, auditorAPI)
		// A customer applied with kubectl is listed once the adapter's
		// informer has delivered it (docs/design.md, Known limits); on a
		// loaded machine that once took seconds. The message shows what the
		// API server holds.
		Eventually(func(g Gomega) {
			list, resp, err := v.ListCustomers(ctx, v1client.ListParams{})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(resp.Status).To(Equal(http.StatusOK))
			stored, err := c.adminDyn.Resource(customersGVR).Namespace("team-a").List(ctx, metav1.ListOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			var names []string
			for _, item := range stored.Items {
				names = append(names, item.GetName())
			}
			g.Expect(v1client.IDs(list)).To(ContainElement("initech"), "the API server holds %v; the body was %s", names, resp.Body)
		}, 10*time.Second).Should(Succeed())
		_, resp, _ := v.CreateCustomer(ctx, v1client.CustomerParams{Name: "Nope", Email: "a@b.example"})
		Expect(resp.Status).To(Equal(http.StatusForbidden), "%s", resp.Body)
	})

	It("answers a create that a ResourceQuota refuses with 403, and frees its Idempotency-Key", func() {
		ctx := context.Background()
		a := apiClient(ca, api, teamAAPI)
		quota := &corev1.ResourceQuota{
			ObjectMeta: metav1.ObjectMeta{Name: "invoices", Namespace: "team-a"},
			Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{
				"count/invoices.billing.invoicing.dev": resource.MustParse("2"),
			}},
		}
		_, err := c.admin.CoreV1().ResourceQuotas("team-a").Create(ctx, quota, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		usedUp := func() bool {
			q, err := c.admin.CoreV1().ResourceQuotas("team-a").Get(ctx, "invoices", metav1.GetOptions{})
			if err != nil {
				return false
			}
			used, hard := q.Status.Used["count/invoices.billing.invoicing.dev"], q.Status.Hard["count/invoices.billing.invoicing.dev"]
			return !hard.IsZero() && used.Cmp(hard) >= 0
		}
		Eventually(usedUp, time.Minute).Should(BeTrue(), "kube-controller-manager counts the two invoices")

		order := v1client.InvoiceParams{CustomerID: "initech",
			Items: []v1client.Item{{Description: "Fax machine", Quantity: 1, Amount: 9900}}}
		key := v1client.IdempotencyKey("initech-order-7")
		_, resp, _ := a.CreateInvoice(ctx, order, key)
		expectAPIError(resp, http.StatusForbidden, "permission_denied")
		Expect(resp.Err().Message).To(ContainSubstring("exceeded quota"))

		By("raising the quota: a retry with the same key creates the invoice")
		q, err := c.admin.CoreV1().ResourceQuotas("team-a").Get(ctx, "invoices", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		q.Spec.Hard["count/invoices.billing.invoicing.dev"] = resource.MustParse("10")
		_, err = c.admin.CoreV1().ResourceQuotas("team-a").Update(ctx, q, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() (int, error) {
			_, resp, err := a.CreateInvoice(ctx, order, key)
			if resp == nil {
				return 0, err
			}
			return resp.Status, nil
		}, time.Minute, time.Second).Should(Equal(http.StatusCreated))
	})

	It("deletes expired Idempotency-Key claims", func() {
		key := manifest(`{"apiVersion": "billing.invoicing.dev/v1", "kind": "IdempotencyKey",
			"metadata": {"name": "idem-expired", "namespace": "team-a"},
			"spec": {"requestHash": "` + strings.Repeat("a", 64) + `", "resource": "invoices",
				"objectName": "inv-gone", "expiresAt": "2026-01-01T00:00:00Z"}}`)
		admin := c.adminDyn
		_, err := admin.Resource(idemKeysGVR).Namespace("team-a").Create(context.Background(), key, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() bool {
			_, err := admin.Resource(idemKeysGVR).Namespace("team-a").Get(context.Background(), "idem-expired", metav1.GetOptions{})
			return apierrors.IsNotFound(err)
		}, 30*time.Second).Should(BeTrue())
	})

	It("holds a customer that issued invoices reference, and releases it only with its namespace", func() {
		admin := c.adminDyn
		ctx := context.Background()
		invoices := admin.Resource(invoicesGVR).Namespace("team-a")
		Expect(admin.Resource(customersGVR).Namespace("team-a").Delete(ctx, "initech", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() (string, error) {
			cus, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			_, reason := readyCondition(cus)
			return reason, nil
		}, 30*time.Second).Should(Equal("DeletionBlocked"))

		By("refusing to delete its issued invoices, one by one (forced too) or as a collection, even to the admin")
		Expect(invoiceState(c, "team-a", "gitops-001")()).To(Equal("Issued/Issued"))
		retained := MatchError(ContainSubstring("is issued and is retained as a legal record"))
		err := invoices.Delete(ctx, "gitops-001", metav1.DeleteOptions{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
		Expect(err).To(retained)
		Expect(invoices.Delete(ctx, "gitops-001", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})).To(retained)
		Expect(invoices.DeleteCollection(ctx, metav1.DeleteOptions{},
			metav1.ListOptions{FieldSelector: "spec.customerRef.name=initech"})).To(retained)
		Consistently(func() (string, error) {
			cus, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
			if err != nil {
				return "", err
			}
			_, reason := readyCondition(cus)
			return reason, nil
		}, 2*time.Second).Should(Equal("DeletionBlocked"), "a customer with issued invoices stays")
		Expect(invoiceState(c, "team-a", "gitops-001")()).To(Equal("Issued/Issued"))

		By("deleting an invoice that was never issued")
		applyManifest(c.dynamicFor(teamA), invoicesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: gitops-typo, namespace: team-a}
spec:
  customerRef: {name: initek}
  items:
  - {description: TPS report review, quantity: 1, amount: 12500}`)
		Eventually(invoiceState(c, "team-a", "gitops-typo"), 30*time.Second).Should(Equal("Invalid/CustomerNotFound"))
		Expect(invoices.Delete(ctx, "gitops-typo", metav1.DeleteOptions{})).To(Succeed())

		By("deleting the namespace: once it is terminating, its issued invoices can go, and the customer with them")
		// This control plane runs no namespace controller: the namespace
		// stays Terminating, and the spec deletes its invoices as that
		// controller would (make run's story deletes a whole workspace).
		Expect(c.admin.CoreV1().Namespaces().Delete(ctx, "team-a", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() error {
			return invoices.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
		}, 30*time.Second).Should(Succeed())
		Eventually(func() bool {
			_, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
			return apierrors.IsNotFound(err)
		}, 30*time.Second).Should(BeTrue())
	})

	It("serves both containers' metrics to an authorized scraper only", func() {
		prometheus := c.token("monitoring", "prometheus")
		_, err := c.admin.RbacV1().ClusterRoleBindings().Create(context.Background(), &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "prometheus-invoicing-metrics"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "invoicing-metrics-reader"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "prometheus", Namespace: "monitoring"}},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		Eventually(func() (string, error) { return scrape(ca, adapterM, prometheus) }, 30*time.Second).Should(SatisfyAll(
			ContainSubstring(`invoicing_http_requests_total{code="201",route="POST /v1/invoices"}`),
			ContainSubstring(`invoicing_http_requests_total{code="403",route="GET /v1/invoices"}`),
			ContainSubstring(`invoicing_http_request_duration_seconds_bucket{code="200",route="GET /v1/customers"`),
			ContainSubstring("go_goroutines "),
			ContainSubstring("process_resident_memory_bytes "),
		))
		Eventually(func() (string, error) { return scrape(ca, managerM, prometheus) }, 30*time.Second).
			Should(ContainSubstring(`controller_runtime_reconcile_total{controller="invoice",result="success"}`))

		for _, addr := range []string{adapterM, managerM} {
			_, err := scrape(ca, addr, teamB)
			Expect(err).To(MatchError(ContainSubstring("403")), "a caller without metrics-reader is refused")
		}
	})

	It("was refused nothing and used every rule the install grants its ServiceAccount", func() {
		events := c.readAudit()
		Expect(events).NotTo(BeEmpty())
		var refused []string
		for _, e := range events {
			if e.forbidden() {
				refused = append(refused, e.String())
			}
		}
		Expect(refused).To(BeEmpty(), "the install's RBAC lacks a rule the binaries need")

		var unused, twice []string
		seen := map[grant]bool{}
		for _, g := range grantsOf(c, rendered) {
			if key := (grant{namespace: g.namespace, group: g.group, resource: g.resource, verb: g.verb}); seen[key] {
				twice = append(twice, g.role+": "+g.String())
			} else {
				seen[key] = true
			}
			if !slices.ContainsFunc(events, g.allows) {
				unused = append(unused, g.role+": "+g.String())
			}
		}
		Expect(unused).To(BeEmpty(), "rules that nothing used: remove them, or test what needs them")
		Expect(twice).To(BeEmpty(), "rules granted twice: removing one of them would go unnoticed")
	})
})

// grant is one verb on one resource that a role bound to the install's
// ServiceAccount allows, in a namespace or cluster-wide.
type grant struct {
	role, namespace, group, resource, verb string
}

func (g grant) String() string {
	return fmt.Sprintf("%s %s.%s (namespace %q)", g.verb, g.resource, g.group, g.namespace)
}

func (g grant) allows(e auditEvent) bool {
	if e.ObjectRef == nil || e.Verb != g.verb || e.ObjectRef.APIGroup != g.group {
		return false
	}
	res := e.ObjectRef.Resource
	if e.ObjectRef.Subresource != "" {
		res += "/" + e.ObjectRef.Subresource
	}
	return res == g.resource && (g.namespace == "" || e.ObjectRef.Namespace == g.namespace)
}

// grantsOf lists what the rendered install's bindings grant its
// ServiceAccount, rule by rule, reading the bound roles from the API server
// (which also resolves roles the install does not ship itself).
func grantsOf(c *cluster, rendered []*unstructured.Unstructured) []grant {
	GinkgoHelper()
	ctx := context.Background()
	var grants []grant
	add := func(role, namespace string, rules []rbacv1.PolicyRule) {
		for _, r := range rules {
			Expect(r.NonResourceURLs).To(BeEmpty(), "%s grants non-resource URLs", role)
			for _, group := range r.APIGroups {
				for _, res := range r.Resources {
					for _, verb := range r.Verbs {
						Expect([]string{group, res, verb}).NotTo(ContainElement("*"), "%s grants a wildcard", role)
						grants = append(grants, grant{role: role, namespace: namespace, group: group, resource: res, verb: verb})
					}
				}
			}
		}
	}
	for _, obj := range rendered {
		var ref rbacv1.RoleRef
		var subjects []rbacv1.Subject
		switch obj.GetKind() {
		case "ClusterRoleBinding":
			var b rbacv1.ClusterRoleBinding
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &b)).To(Succeed())
			ref, subjects = b.RoleRef, b.Subjects
		case "RoleBinding":
			var b rbacv1.RoleBinding
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &b)).To(Succeed())
			ref, subjects = b.RoleRef, b.Subjects
		default:
			continue
		}
		if !slices.ContainsFunc(subjects, func(s rbacv1.Subject) bool {
			return s.Kind == rbacv1.ServiceAccountKind && s.Name == installAccount && s.Namespace == installNamespace
		}) {
			continue
		}
		switch {
		case ref.Kind == "ClusterRole" && obj.GetKind() == "ClusterRoleBinding":
			cr, err := c.admin.RbacV1().ClusterRoles().Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, "", cr.Rules)
		case ref.Kind == "ClusterRole":
			cr, err := c.admin.RbacV1().ClusterRoles().Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, obj.GetNamespace(), cr.Rules)
		default:
			r, err := c.admin.RbacV1().Roles(obj.GetNamespace()).Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, obj.GetNamespace(), r.Rules)
		}
	}
	Expect(grants).NotTo(BeEmpty(), "no binding of the install names its ServiceAccount")
	return grants
}

func renderedDeployment(rendered []*unstructured.Unstructured) *appsv1.Deployment {
	GinkgoHelper()
	for _, obj := range rendered {
		if obj.GetKind() == "Deployment" {
			d := &appsv1.Deployment{}
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, d)).To(Succeed())
			return d
		}
	}
	Fail("config/default renders no Deployment")
	return nil
}

func containerArgs(d *appsv1.Deployment, name string) []string {
	GinkgoHelper()
	for _, ctr := range d.Spec.Template.Spec.Containers {
		if ctr.Name == name {
			return slices.Clone(ctr.Args)
		}
	}
	Fail("the Deployment has no container " + name)
	return nil
}

// localize moves every --*-address=:PORT argument to a free loopback
// address, so that the binaries run here as they would in the pod, and
// returns the addresses by flag.
func localize(args []string) ([]string, map[string]string) {
	addrs := map[string]string{}
	for i, arg := range args {
		name, value, ok := strings.Cut(arg, "=")
		if ok && strings.HasSuffix(name, "-address") && strings.HasPrefix(value, ":") {
			addrs[name] = netutil.MustFreeAddr(GinkgoT())
			args[i] = name + "=" + addrs[name]
		}
	}
	return args, addrs
}

// runBinary starts one of the binaries BeforeSuite built, with kubeconfig.
// stopBinary stops it.
func runBinary(name, kubeconfig string, args ...string) *gexec.Session {
	GinkgoHelper()
	cmd := exec.Command(filepath.Join(bins, name), args...)
	// client-go's informers start with a streaming watch where the API
	// server offers one, and with a list elsewhere. Turning the streaming watch off makes the binaries ask for
	// what an older API server gets, so the audit proves the list rules too.
	cmd.Env = binaries.CoverEnv(append(os.Environ(), "KUBECONFIG="+kubeconfig, "KUBE_FEATURE_WatchListClient=false"))
	session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	return session
}

// stopBinary stops a binary with SIGTERM, as the kubelet does, so that it
// shuts down cleanly and writes its coverage.
func stopBinary(session *gexec.Session) {
	GinkgoHelper()
	if session == nil {
		return
	}
	session.Terminate()
	Eventually(session, 30*time.Second).Should(gexec.Exit(0))
}

func status(url string) (int, error) { return statusWith(http.DefaultClient, url) }

func statusWith(c *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// scrape reads /metrics over HTTPS as Prometheus does, with a bearer token,
// verifying the certificate against ca as the ServiceMonitor does.
func scrape(ca *testca.CA, addr, token string) (string, error) {
	client := ca.Client()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://"+addr+"/metrics", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /metrics: %d %s", resp.StatusCode, body)
	}
	return string(body), nil
}

// apiClient is the /v1 client of the adapter at base, calling with token
// and verifying the adapter's certificate against the test CA.
func apiClient(ca *testca.CA, base, token string) *v1client.Client {
	return v1client.New(base, ca.Client(), v1client.Token(token))
}

// expectAPIError expects resp to be an error answer with status and code.
func expectAPIError(resp *v1client.Response, status int, code string) {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no answer")
	Expect(resp.Status).To(Equal(status), "%s", resp.Body)
	Expect(resp.Err().Code).To(Equal(code), "%s", resp.Body)
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
