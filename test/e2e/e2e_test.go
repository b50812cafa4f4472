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
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// repoRoot is where config/ lives.
var repoRoot = testenv.ModuleRoot()

// localenv is one run of the localenv program.
type localenv struct {
	session  *gexec.Session
	stateDir string
	apiAddr  string
}

var _ = Describe("make run", Ordered, func() {
	var (
		assets   string
		stateDir string
	)

	BeforeAll(func() {
		assets = os.Getenv("KUBEBUILDER_ASSETS")
		stateDir = GinkgoT().TempDir()
	})

	start := func() *localenv { return startLocalenv(assets, stateDir) }

	It("serves the samples through kubectl and HTTP, holds a referenced customer, and stops cleanly", func() {
		env := start()

		By("applying config/samples with kubectl and waiting for the invoice to be Ready")
		env.kubectl("apply", "-k", filepath.Join(repoRoot, "config", "samples"))
		env.kubectl("wait", "-n", "demo", "--for=condition=Ready", "invoice/acme-2026-001", "invoice/acme-2026-002", "--timeout=60s")
		Expect(env.kubectl("get", "-n", "demo", "invoice", "acme-2026-001", "-o",
			"jsonpath={.status.phase} {.status.total} {.status.billTo.name} {.status.billTo.email}")).
			To(Equal("Issued 68050 Acme Corporation billing@acme.example"))

		By("reading the same invoice over HTTP with the token make run wrote")
		token, err := os.ReadFile(filepath.Join(stateDir, "token"))
		Expect(err).NotTo(HaveOccurred())
		invoice, _, err := env.api(string(token)).GetInvoice(context.Background(), "acme-2026-001")
		Expect(err).NotTo(HaveOccurred())
		Expect(invoice.ID).To(Equal("acme-2026-001"))
		Expect(invoice.Total).To(HaveValue(Equal(int64(68050))))
		Expect(invoice.Status).To(Equal("issued"))

		By("deleting the referenced customer, which stays while the invoice exists")
		env.kubectl("delete", "-n", "demo", "customer", "acme", "--wait=false")
		Eventually(func() string {
			return env.kubectl("get", "-n", "demo", "customer", "acme", "-o", "jsonpath={.status.conditions[?(@.type=='Ready')].reason}")
		}, 30*time.Second).Should(Equal("DeletionBlocked"))
		Consistently(func() string {
			return env.kubectl("get", "-n", "demo", "customer", "acme", "-o", "name")
		}, 2*time.Second).Should(Equal("customer.billing.invoicing.dev/acme"))

		By("stopping with Ctrl-C")
		env.interrupt()
		for _, f := range []string{"kubeconfig", "token", "etcd"} {
			Expect(filepath.Join(stateDir, f)).To(BeAnExistingFile())
		}
	})

	It("finds yesterday's objects after a restart, and retains the issued invoices and so their customer", func() {
		env := start()
		Expect(env.kubectl("get", "-n", "demo", "invoice", "acme-2026-001", "-o", "jsonpath={.status.phase}")).To(Equal("Issued"))

		By("refusing to delete the issued invoices, also with --force (make run installs config/policy)")
		Eventually(func() string {
			return env.kubectlAllowFailure("delete", "-n", "demo", "invoice", "acme-2026-001", "acme-2026-002")
		}, 30*time.Second).Should(ContainSubstring("invoice acme-2026-001 is issued and is retained as a legal record"))
		Expect(env.kubectlAllowFailure("delete", "-n", "demo", "invoice", "acme-2026-002", "--force", "--grace-period=0")).
			To(ContainSubstring("invoice acme-2026-002 is issued and is retained as a legal record"))
		Consistently(func() string {
			return env.kubectl("get", "-n", "demo", "customer", "acme", "-o", "jsonpath={.status.conditions[?(@.type=='Ready')].reason}")
		}, 2*time.Second).Should(Equal("DeletionBlocked"), "the customer of issued invoices stays")
		Expect(env.kubectl("get", "-n", "demo", "invoice", "-o", "name")).
			To(ContainSubstring("invoice.billing.invoicing.dev/acme-2026-002"))

		By("deleting an invoice that was never issued")
		env.kubectlStdin(env.kubeconfig(), `apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: draft-001, namespace: demo}
spec:
  customerRef: {name: nobody}
  items: [{description: Consulting, quantity: 1, amount: 5000}]
`, "apply", "-f", "-")
		Eventually(func() string {
			return env.kubectl("get", "-n", "demo", "invoice", "draft-001", "-o", "jsonpath={.status.phase}")
		}, 30*time.Second).Should(Equal("Invalid"))
		env.kubectl("delete", "-n", "demo", "invoice", "draft-001")

		env.interrupt()
	})

	It("deletes a workspace with its customers and issued and sealed invoices, as the README cleans one up", func() {
		env := start()
		env.kubectl("create", "namespace", "scratch")
		Eventually(func() string {
			return env.kubectlAllowFailure("get", "-n", "scratch", "serviceaccount", "default", "-o", "name")
		}, 30*time.Second).Should(Equal("serviceaccount/default"), "every namespace gets its default ServiceAccount")
		env.kubectlStdin(env.kubeconfig(), workspaceManifests("scratch"), "apply", "-f", "-")
		env.kubectl("wait", "-n", "scratch", "--for=condition=Ready", "invoice/scratch-001", "--timeout=60s")

		By("sealing a paid invoice of a second customer, whose deletion it then holds")
		env.sealPaidInvoice("scratch", "customer-2", "scratch-002")
		env.kubectl("delete", "-n", "scratch", "customer", "customer-2", "--wait=false")
		Eventually(func() string {
			return env.kubectl("get", "-n", "scratch", "customer", "customer-2", "-o",
				"jsonpath={.status.conditions[?(@.type=='Ready')].message}")
		}, 30*time.Second).Should(Equal("Deletion waits for 1 invoice(s) that reference this customer"))

		By("deleting the namespace, which takes the seals and so lets the customer go")
		env.kubectl("delete", "namespace", "scratch", "--wait=false")
		Eventually(func() string {
			return env.kubectlAllowFailure("get", "namespace", "scratch", "-o", "name")
		}, time.Minute).Should(ContainSubstring("NotFound"), "the namespace, its invoices and its customer are deleted")

		env.interrupt()
	})

	It("gives a team a workspace with the built-in edit role, for kubectl and HTTP", func() {
		env := start()
		const team = "team-b"
		pipeline := "system:serviceaccount:" + team + ":pipeline"
		env.kubectl("create", "namespace", team)
		env.kubectl("create", "serviceaccount", "-n", team, "pipeline")
		Expect(env.kubectlAllowFailure("auth", "can-i", "create", "invoices.billing.invoicing.dev", "-n", team, "--as", pipeline)).
			To(HavePrefix("no"), "nothing is granted before the binding")

		By("binding edit in the workspace, as the README says")
		env.kubectl("create", "rolebinding", "pipeline-edit", "-n", team, "--clusterrole=edit", "--serviceaccount="+team+":pipeline")
		Eventually(func() string {
			return env.kubectlAllowFailure("auth", "can-i", "create", "invoices.billing.invoicing.dev", "-n", team, "--as", pipeline)
		}, 30*time.Second).Should(HavePrefix("yes"), "invoicing-editor-role is aggregated into edit")

		By("creating a customer and an invoice with kubectl as the team's ServiceAccount")
		kubeconfig := env.tokenKubeconfig(env.kubectl("create", "token", "-n", team, "pipeline"))
		env.kubectlStdin(kubeconfig, workspaceManifests(team), "apply", "-f", "-")
		env.kubectl("wait", "-n", team, "--for=condition=Ready", "invoice/"+team+"-001", "--timeout=60s")

		By("creating an invoice over HTTP with the token of a ServiceAccount token Secret")
		env.kubectlStdin(env.kubeconfig(), `apiVersion: v1
kind: Secret
metadata:
  name: pipeline-token
  namespace: `+team+`
  annotations: {kubernetes.io/service-account.name: pipeline}
type: kubernetes.io/service-account-token`, "apply", "-f", "-")
		var token string
		Eventually(func() string {
			token = env.kubectlAllowFailure("get", "secret", "-n", team, "pipeline-token", "-o", "jsonpath={.data.token}")
			return token
		}, 30*time.Second).ShouldNot(BeEmpty(), "the token controller fills the Secret")
		decoded, err := base64.StdEncoding.DecodeString(token)
		Expect(err).NotTo(HaveOccurred())
		api := env.api(string(decoded))
		inv, resp, err := api.CreateInvoice(context.Background(), v1client.InvoiceParams{
			CustomerID: "customer-1",
			Items:      []v1client.Item{{Description: "Support", Quantity: billingv1.Units(1), Amount: 9900}},
		}, v1client.IdempotencyKey("team-b-order-1"))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusCreated))
		Expect(inv.Workspace).To(Equal(team))
		Eventually(func() (string, error) {
			got, _, err := api.GetInvoice(context.Background(), inv.ID)
			if err != nil {
				return "", err
			}
			return got.Status, nil
		}, 30*time.Second).Should(Equal("issued"))

		env.interrupt()
	})
})

// workspaceManifests are a customer ("customer-1") and an invoice
// ("<namespace>-001") of it in namespace.
func workspaceManifests(namespace string) string {
	return fmt.Sprintf(`apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: customer-1, namespace: %[1]s}
spec: {name: Customer One, email: ap@one.example}
---
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: %[1]s-001, namespace: %[1]s}
spec:
  customerRef: {name: customer-1}
  currency: USD
  items: [{description: Consulting, quantity: 2, amount: 5000}]
`, namespace)
}

// sealPaidInvoice creates customer and an invoice named invoice of it in
// namespace, pays it, and closes the books through the next second: the
// paid invoice leaves the live set into a LedgerSeal.
func (e *localenv) sealPaidInvoice(namespace, customer, invoice string) {
	GinkgoHelper()
	e.kubectlStdin(e.kubeconfig(), fmt.Sprintf(`apiVersion: billing.invoicing.dev/v1
kind: Customer
metadata: {name: %[2]s, namespace: %[1]s}
spec: {name: Customer Two, email: ap@two.example}
---
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: %[3]s, namespace: %[1]s}
spec:
  customerRef: {name: %[2]s}
  currency: USD
  items: [{description: Hosting, quantity: 1, amount: 4000}]
`, namespace, customer, invoice), "apply", "-f", "-")
	e.kubectl("wait", "-n", namespace, "--for=condition=Ready", "invoice/"+invoice, "--timeout=60s")
	total := e.kubectl("get", "-n", namespace, "invoice", invoice, "-o", "jsonpath={.status.total}")
	e.kubectlStdin(e.kubeconfig(), fmt.Sprintf(`apiVersion: billing.invoicing.dev/v1
kind: Payment
metadata: {name: %[2]s-wire, namespace: %[1]s}
spec: {invoiceRef: {name: %[2]s}, amount: %[3]s, currency: USD, method: bank_transfer}
`, namespace, invoice, total), "apply", "-f", "-")
	Eventually(func() string {
		return e.kubectl("get", "-n", namespace, "invoice", invoice, "-o",
			"jsonpath={.status.events[?(@.type=='invoice.paid')].type}")
	}, 30*time.Second).Should(Equal("invoice.paid"))
	through := time.Now().Add(time.Second).UTC().Truncate(time.Second)
	time.Sleep(time.Until(through.Add(time.Second)))
	e.kubectlStdin(e.kubeconfig(), fmt.Sprintf(`apiVersion: billing.invoicing.dev/v1
kind: PeriodClose
metadata: {name: close-now, namespace: %s}
spec: {through: %q}
`, namespace, through.Format(time.RFC3339)), "apply", "-f", "-")
	Eventually(func() string {
		return e.kubectlAllowFailure("get", "-n", namespace, "invoice", invoice, "-o", "name")
	}, time.Minute).Should(ContainSubstring("NotFound"), "the paid invoice is sealed")
	Expect(e.kubectl("get", "-n", namespace, "ledgerseals", "-o", "name")).NotTo(BeEmpty())
}

// startLocalenv starts the localenv program as make run does, with its
// state in stateDir and free ports, and waits until it serves.
func startLocalenv(assets, stateDir string) *localenv {
	env := &localenv{stateDir: stateDir, apiAddr: netutil.MustFreeAddr(GinkgoT())}
	cmd := exec.Command(filepath.Join(bins, "localenv"),
		"--assets", assets,
		"--state-dir", stateDir,
		"--install", filepath.Join(repoRoot, "config", "local"),
		"--manager", filepath.Join(bins, "manager"),
		"--adapter", filepath.Join(bins, "adapter"),
		"--api-addr", env.apiAddr,
		"--probe-addr", netutil.MustFreeAddr(GinkgoT()),
	)
	// The manager and adapter inherit GOCOVERDIR from localenv.
	cmd.Env = binaries.CoverEnv(os.Environ())
	var err error
	env.session, err = gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	// A failed spec skips its interrupt(): stop the run anyway (a no-op
	// when it has already exited).
	DeferCleanup(func() { env.session.Interrupt().Wait(time.Minute) })
	Eventually(env.session.Out, 2*time.Minute).Should(gbytes.Say("Invoicing is running"))
	Eventually(func() (int, error) { return env.get("/readyz", "") }, time.Minute).Should(Equal(http.StatusOK))
	return env
}

// kubectl runs the kubectl built with the control plane with make run's
// admin kubeconfig, and returns its trimmed standard output.
func (e *localenv) kubectl(args ...string) string {
	GinkgoHelper()
	out, err := e.kubectlCommand(args...).Output()
	var stderr []byte
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		stderr = exitErr.Stderr
	}
	Expect(err).NotTo(HaveOccurred(), "kubectl %s: %s", strings.Join(args, " "), stderr)
	return strings.TrimSpace(string(out))
}

// kubectlAllowFailure runs kubectl and returns its trimmed combined output,
// whatever its exit code.
func (e *localenv) kubectlAllowFailure(args ...string) string {
	out, _ := e.kubectlCommand(args...).CombinedOutput()
	return strings.TrimSpace(string(out))
}

func (e *localenv) kubectlCommand(args ...string) *exec.Cmd {
	return kubectlWith(e.kubeconfig(), args...)
}

// kubectlStdin runs kubectl with kubeconfig and stdin, and fails the spec
// when it fails.
func (e *localenv) kubectlStdin(kubeconfig, stdin string, args ...string) {
	GinkgoHelper()
	cmd := kubectlWith(kubeconfig, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "kubectl %s: %s", strings.Join(args, " "), out)
}

func kubectlWith(kubeconfig string, args ...string) *exec.Cmd {
	full := append([]string{"--kubeconfig", kubeconfig}, args...)
	return exec.Command(filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl"), full...)
}

// kubeconfig is the admin kubeconfig make run wrote.
func (e *localenv) kubeconfig() string { return filepath.Join(e.stateDir, "kubeconfig") }

// tokenKubeconfig writes a kubeconfig for make run's API server that
// authenticates with token only, and returns its path.
func (e *localenv) tokenKubeconfig(token string) string {
	GinkgoHelper()
	cfg, err := clientcmd.LoadFromFile(e.kubeconfig())
	Expect(err).NotTo(HaveOccurred())
	cluster := cfg.Clusters[cfg.Contexts[cfg.CurrentContext].Cluster]
	tokenCfg := clientcmdapi.NewConfig()
	tokenCfg.Clusters["local"] = cluster
	tokenCfg.AuthInfos["token"] = &clientcmdapi.AuthInfo{Token: token}
	tokenCfg.Contexts["local"] = &clientcmdapi.Context{Cluster: "local", AuthInfo: "token"}
	tokenCfg.CurrentContext = "local"
	path := filepath.Join(GinkgoT().TempDir(), "token.kubeconfig")
	Expect(clientcmd.WriteToFile(*tokenCfg, path)).To(Succeed())
	return path
}

// api is the /v1 client of the adapter make run serves, calling with token.
func (e *localenv) api(token string) *v1client.Client {
	return v1client.New("http://"+e.apiAddr, &http.Client{Timeout: 10 * time.Second},
		v1client.Token(strings.TrimSpace(token)))
}

// get GETs path and returns the status code.
func (e *localenv) get(path, token string) (int, error) {
	resp, err := e.api(token).Do(context.Background(), http.MethodGet, path, nil)
	if err != nil {
		return 0, err
	}
	return resp.Status, nil
}

// interrupt sends SIGINT as Ctrl-C does and checks that localenv exits
// cleanly and leaves no process of this run behind.
func (e *localenv) interrupt() {
	GinkgoHelper()
	kubeconfig, err := clientcmd.LoadFromFile(filepath.Join(e.stateDir, "kubeconfig"))
	Expect(err).NotTo(HaveOccurred())
	apiServer, err := url.Parse(kubeconfig.Clusters[kubeconfig.Contexts[kubeconfig.CurrentContext].Cluster].Server)
	Expect(err).NotTo(HaveOccurred())

	Expect(e.session.Command.Process.Signal(syscall.SIGINT)).To(Succeed())
	Eventually(e.session, time.Minute).Should(gexec.Exit(0))
	Eventually(func() []string { return processesMentioning(e.stateDir) }, 15*time.Second).Should(BeEmpty())
	for _, addr := range []string{e.apiAddr, apiServer.Host} {
		Eventually(func() error {
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				_ = conn.Close()
				return fmt.Errorf("%s still accepts connections", addr)
			}
			return nil
		}, 15*time.Second).Should(Succeed(), "the adapter and the kube-apiserver must be gone")
	}
}

// processesMentioning lists the running processes whose command line
// mentions s: the manager, adapter, kube-controller-manager and etcd of a
// run all name its state dir.
func processesMentioning(s string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, entry := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(s)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "stat"))
		if err == nil && bytes.Contains(stat, []byte(") Z ")) {
			continue // a zombie waiting to be reaped is no longer running
		}
		found = append(found, strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return found
}
