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

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/invoicing-dev/invoicing/internal/test/netutil"
)

// Removing the operator must not remove a money record. The CRDs carry the
// label invoicing.dev/keep=true, which make undeploy skips: the controller,
// the adapter and their RBAC go, every customer and invoice stays readable,
// and only make uninstall CONFIRM_DELETE_INVOICES=yes deletes the CRDs.
// The suite runs the Makefile's own recipes against the control plane, so
// it proves what a platform team runs.
var _ = Describe("Removing the install (make undeploy)", Ordered, func() {
	const workspace = "books"
	var (
		c        *cluster
		manifest string // config/default as rendered and applied
		manager  *gexec.Session
		kubectl  = filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl")
		before   = map[string]any{} // the invoices' status by name, before undeploy
	)

	BeforeAll(func() {
		c = startCluster()
		c.installCertManagerCRDs()
		// kubectl delete waits until a deleted Namespace is gone, which
		// takes kube-controller-manager's namespace controller.
		kcm := exec.Command(filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kube-controller-manager"),
			"--kubeconfig", c.kubeconfig, "--controllers", "namespace", "--leader-elect=false", "--secure-port=0")
		session, err := gexec.Start(kcm, GinkgoWriter, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { session.Kill().Wait(10 * time.Second) })
	})
	AfterAll(func() { stopBinary(manager) })

	// make runs one of the Makefile's targets against the control plane, with
	// its kubectl, and returns the output and the error.
	run := func(timeout time.Duration, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "make", append([]string{"--no-print-directory", "KUBECTL=" + kubectl}, args...)...)
		// On timeout, stop make and what it runs (kubectl) together.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 10 * time.Second
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), "KUBECONFIG="+c.kubeconfig)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	It("installs config/default and issues invoices", func() {
		By("installing the Makefile's kustomize (built from the Go module proxy the first time)")
		out, err := run(15*time.Minute, "kustomize")
		Expect(err).NotTo(HaveOccurred(), out)

		manifest = filepath.Join(c.dir, "install.yaml")
		Expect(os.WriteFile(manifest, []byte(c.kubectl("kustomize", filepath.Join(repoRoot, "config", "default"))), 0o600)).To(Succeed())
		c.kubectl("apply", "--server-side", "--field-manager=e2e-undeploy", "-f", manifest)

		kubeconfig := c.writeKubeconfig("undeploy", c.token(installNamespace, installAccount))
		manager = runBinary("manager", kubeconfig, "--health-probe-bind-address="+netutil.MustFreeAddr(GinkgoT()))

		_ = c.token(workspace, "default") // creates the namespace
		applyManifest(c.adminDyn, customersGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: globex, namespace: books}
spec: {name: Globex, email: ap@globex.example}`)
		for _, inv := range []string{"globex-001", "globex-002"} {
			applyManifest(c.adminDyn, invoicesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: `+inv+`, namespace: books}
spec:
  customerRef: {name: globex}
  items: [{description: Sprockets, quantity: 12, amount: 250}]`)
			Eventually(invoiceState(c, workspace, inv), 30*time.Second).Should(Equal("Issued/Issued"))
		}
		applyManifest(c.adminDyn, invoicesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: initrode-001, namespace: books}
spec:
  customerRef: {name: initrode}
  items: [{description: Widgets, quantity: 1, amount: 100}]`)
		Eventually(invoiceState(c, workspace, "initrode-001"), 30*time.Second).Should(Equal("Invalid/CustomerNotFound"))

		list, err := c.adminDyn.Resource(invoicesGVR).Namespace(workspace).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(list.Items).To(HaveLen(3))
		for _, inv := range list.Items {
			before[inv.GetName()] = inv.Object["status"]
		}
	})

	It("removes the controller, the adapter and their RBAC, and keeps the CRDs", func() {
		// The controller stops first, as the Deployment's pod would.
		stopBinary(manager)
		manager = nil

		// Bounded: were the CRDs deleted, kubectl would wait for the
		// customers' finalizers, which no controller releases any more.
		out, err := run(3*time.Minute, "undeploy")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(ContainSubstring(`deployment.apps "invoicing-controller-manager" deleted`))
		Expect(out).NotTo(ContainSubstring("customresourcedefinition"))

		// What is left of the install: the CRDs and nothing else.
		left := strings.Fields(c.kubectl("get", "--ignore-not-found", "-o", "name", "-f", manifest))
		Expect(left).To(ConsistOf(
			"customresourcedefinition.apiextensions.k8s.io/customers.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/invoices.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/idempotencykeys.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/billingprofiles.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/invoicesequences.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/webhookendpoints.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/creditnotes.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/periodcloses.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/ledgerseals.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/payments.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/creditapplications.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/refunds.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/writeoffs.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/emails.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/invoiceschedules.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/pendingitems.billing.invoicing.dev",
			"customresourcedefinition.apiextensions.k8s.io/banktransactions.billing.invoicing.dev",
		))
	})

	It("leaves every invoice readable, with the status the controller gave it", func() {
		list, err := c.adminDyn.Resource(invoicesGVR).Namespace(workspace).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		after := map[string]any{}
		for _, inv := range list.Items {
			after[inv.GetName()] = inv.Object["status"]
		}
		Expect(after).To(Equal(before))
		Expect(getObject(c.adminDyn, customersGVR, workspace, "globex").GetFinalizers()).
			To(ConsistOf("billing.invoicing.dev/referenced-by-invoices"), "the customer is still guarded")
		Expect(c.kubectl("get", "invoices", "-n", workspace)).To(ContainSubstring("globex-001"), "kubectl still reads them")
	})

	It("refuses to delete the CRDs without CONFIRM_DELETE_INVOICES=yes", func() {
		out, err := run(time.Minute, "uninstall")
		Expect(err).To(HaveOccurred(), out)
		Expect(out).To(ContainSubstring("make uninstall CONFIRM_DELETE_INVOICES=yes"))
		Expect(c.kubectl("get", "invoices", "-n", workspace, "-o", "name")).To(ContainSubstring("globex-002"))
	})
})
