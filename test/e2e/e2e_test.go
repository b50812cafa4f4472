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
	"bytes"
	"context"
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

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// repoRoot is where config/ lives, relative to this package.
var repoRoot = filepath.Join("..", "..")

// coverDir, when set, is where the binaries under test write coverage data.
var coverDir = os.Getenv("E2E_COVERDIR")

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

	start := func() *localenv {
		env := &localenv{stateDir: stateDir, apiAddr: freeAddr()}
		cmd := exec.Command(filepath.Join(bins, "localenv"),
			"--assets", assets,
			"--state-dir", stateDir,
			"--crds", filepath.Join(repoRoot, "config", "crd", "bases"),
			"--rbac", filepath.Join(repoRoot, "config", "rbac"),
			"--manager", filepath.Join(bins, "manager"),
			"--adapter", filepath.Join(bins, "adapter"),
			"--api-addr", env.apiAddr,
			"--probe-addr", freeAddr(),
		)
		if coverDir != "" {
			// The manager and adapter inherit it from localenv.
			cmd.Env = append(os.Environ(), "GOCOVERDIR="+coverDir)
		}
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

	It("finds yesterday's objects after a restart, and releases the customer once its invoices are gone", func() {
		env := start()
		Expect(env.kubectl("get", "-n", "demo", "invoice", "acme-2026-001", "-o", "jsonpath={.status.phase}")).To(Equal("Issued"))

		env.kubectl("delete", "-n", "demo", "invoice", "acme-2026-001", "acme-2026-002")
		Eventually(func() string {
			return env.kubectlAllowFailure("get", "-n", "demo", "customer", "acme", "-o", "name")
		}, 30*time.Second).Should(ContainSubstring("NotFound"))

		env.interrupt()
	})
})

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

// kubectlAllowFailure runs kubectl and returns its combined output, whatever its exit code.
func (e *localenv) kubectlAllowFailure(args ...string) string {
	out, _ := e.kubectlCommand(args...).CombinedOutput()
	return string(out)
}

func (e *localenv) kubectlCommand(args ...string) *exec.Cmd {
	full := append([]string{"--kubeconfig", filepath.Join(e.stateDir, "kubeconfig")}, args...)
	return exec.Command(filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl"), full...)
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
// mentions s: the manager, adapter and etcd of a run all name its state dir.
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

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr() string {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := l.Addr().String()
	Expect(l.Close()).To(Succeed())
	return addr
}
