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

// Package reliability injects real faults while the service works: the
// kube-apiserver of an envtest control plane is stopped and started again,
// the real manager and adapter binaries are killed with SIGKILL and
// restarted, and mixed traffic soaks an adapter whose goroutines and heap
// are measured. The control plane runs in the test process's children, the
// manager (and, where it is killed, the adapter) as processes built from
// cmd/; the adapters whose resources are measured run in the test process.
package reliability

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/invoicing-dev/invoicing/internal/adapter"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// clerks is the group of the callers; each workspace binds it to clerkRole.
const (
	clerks    = "billing-clerks"
	clerkRole = "billing-clerk"
)

// callers are the identities of the traffic: users of the API server's
// static token file, members of clerks.
var callers = []string{"ann", "bob", "cy"}

var (
	ctx       context.Context
	cancel    context.CancelFunc
	testEnv   *testenv.Env
	adminCfg  *rest.Config
	k8s       crclient.Client
	clientset kubernetes.Interface
	// tokens are the callers' bearer tokens, by name.
	tokens = map[string]string{}
	// workDir holds the binaries, the kubeconfig and the processes' logs.
	workDir    string
	kubeconfig string
	// manager is the controller manager process running now.
	manager *process
	// logFile receives the logs of the in-process adapters, so that a soak
	// does not grow the test's own memory with them.
	logFile *os.File
)

func TestReliability(t *testing.T) {
	testenv.Require(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "Reliability suite")
}

var _ = BeforeSuite(func() {
	var err error
	workDir, err = os.MkdirTemp("", "reliability-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, workDir)
	logFile, err = os.Create(filepath.Join(workDir, "in-process.log"))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(logFile.Close)
	log := zap.New(zap.WriteTo(logFile), zap.UseDevMode(true))
	logf.SetLogger(log)
	klog.SetLogger(log.WithName("klog"))
	ctx, cancel = context.WithCancel(logf.IntoContext(context.Background(), log))
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)

	By("building the manager and the adapter")
	buildBinaries()

	By("starting the control plane, with certificates that survive an API server restart")
	// envtest makes a new certificate directory, and so a new serving CA and
	// ServiceAccount signing key, on each start unless it is given one.
	certDir := filepath.Join(workDir, "apiserver")
	Expect(os.Mkdir(certDir, 0o700)).To(Succeed())
	tokenFile := filepath.Join(workDir, "tokens.csv")
	var lines string
	for i, name := range callers {
		tokens[name] = rand.String(32)
		lines += fmt.Sprintf("%s,%s,%s-uid-%d,%q\n", tokens[name], name, name, i, clerks)
	}
	Expect(os.WriteFile(tokenFile, []byte(lines), 0o600)).To(Succeed())
	testEnv, err = testenv.Start(testenv.WithScheme(adapter.Scheme()), testenv.WithCertDir(certDir),
		testenv.WithAPIServerFlag("token-auth-file", tokenFile))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(testEnv.Stop()).To(Succeed()) })
	adminCfg, k8s = testEnv.Config, testEnv.Client
	clientset, err = kubernetes.NewForConfig(adminCfg)
	Expect(err).NotTo(HaveOccurred())
	kubeconfig = filepath.Join(workDir, "kubeconfig")
	Expect(os.WriteFile(kubeconfig, testEnv.Environment.KubeConfig, 0o600)).To(Succeed())

	Expect(k8s.Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: clerkRole},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"customers", "invoices", "banktransactions"},
			Verbs: []string{"get", "list", "create"},
		}},
	})).To(Succeed())

	By("starting the manager")
	manager = startManager()
})

// When a spec fails, its report carries the errors the in-process
// adapters logged, which say why a request got the answer it did; the
// log file itself goes with the work directory.
var _ = AfterEach(func() {
	if !CurrentSpecReport().Failed() || logFile == nil {
		return
	}
	data, err := os.ReadFile(logFile.Name())
	if err != nil {
		return
	}
	var errs []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "\tERROR\t") {
			errs = append(errs, line)
		}
	}
	if len(errs) > 20 {
		errs = errs[len(errs)-20:]
	}
	GinkgoWriter.Printf("Errors logged in process:\n%s\n", strings.Join(errs, "\n"))
})

var _ = AfterSuite(func() {
	if manager != nil {
		manager.stop()
	}
	if cancel != nil {
		cancel()
	}
})

// bins is where buildBinaries puts the manager and the adapter.
func bin(name string) string { return filepath.Join(workDir, "bin", name) }

// buildBinaries builds them, for coverage when make test asks for it (as
// in test/e2e).
func buildBinaries() {
	GinkgoHelper()
	Expect(binaries.Build(ctx, filepath.Join(workDir, "bin"),
		map[string]string{"manager": "./cmd", "adapter": "./cmd/adapter"})).To(Succeed())
}

// process is a manager or adapter binary running as a child process, its
// output in a log file (not in memory: a soak would grow the test's heap).
type process struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

var processCount int

func startProcess(name string, args ...string) *process {
	GinkgoHelper()
	processCount++
	p := &process{
		name: name,
		log:  filepath.Join(workDir, fmt.Sprintf("%s-%d.log", name, processCount)),
		done: make(chan struct{}),
	}
	out, err := os.Create(p.log)
	Expect(err).NotTo(HaveOccurred())
	p.cmd = exec.Command(bin(name), append([]string{"--kubeconfig", kubeconfig}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = out, out
	p.cmd.Env = binaries.CoverEnv(os.Environ())
	// The child never outlives the test.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	Expect(p.cmd.Start()).To(Succeed())
	go func() {
		_ = p.cmd.Wait()
		_ = out.Close()
		close(p.done)
	}()
	return p
}

func (p *process) pid() int { return p.cmd.Process.Pid }

func (p *process) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// kill ends the process with SIGKILL: no shutdown code runs.
func (p *process) kill() {
	GinkgoHelper()
	Expect(p.cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
	Eventually(p.done).WithTimeout(10 * time.Second).Should(BeClosed())
}

// stop ends the process with SIGTERM and expects a clean exit.
func (p *process) stop() {
	GinkgoHelper()
	if !p.running() {
		return
	}
	Expect(p.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
	Eventually(p.done).WithTimeout(30*time.Second).Should(BeClosed(), "%s did not stop on SIGTERM", p.name)
	Expect(p.cmd.ProcessState.ExitCode()).To(Equal(0), "%s exited uncleanly; its log: %s", p.name, p.tail())
}

// tail is the end of the process's log, for failure messages.
func (p *process) tail() string {
	b, _ := os.ReadFile(p.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// startManager runs the manager binary and waits until it is healthy.
func startManager() *process {
	GinkgoHelper()
	probe := netutil.MustFreeAddr(GinkgoT())
	// Webhook receivers here listen on loopback over plain http.
	p := startProcess("manager", "--health-probe-bind-address", probe, "--metrics-bind-address", "0",
		"--webhook-allow-insecure-loopback")
	Eventually(func() (int, error) { return probeStatus("http://" + probe + "/readyz") }).
		Should(Equal(200), "the manager did not become ready: %s", p.tail())
	return p
}

// startAdapterProcess runs the adapter binary on addr and waits until it is
// ready.
func startAdapterProcess(addr string, args ...string) *process {
	GinkgoHelper()
	p := startProcess("adapter", append([]string{"--listen-address", addr}, args...)...)
	Eventually(func() (int, error) { return probeStatus("http://" + addr + "/readyz") }).
		Should(Equal(200), "the adapter did not become ready: %s", p.tail())
	return p
}

// inProcessAdapter is an adapter served by the test process itself, so that
// the test can count its goroutines and measure its heap.
type inProcessAdapter struct {
	url  string
	stop context.CancelFunc
	done chan error
}

func startInProcessAdapter(opts httpapi.Options) *inProcessAdapter {
	GinkgoHelper()
	cfg := rest.CopyConfig(adminCfg)
	cfg.QPS, cfg.Burst = 0, 0 // the adapter's own defaults
	a, err := adapter.New(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	actx, stop := context.WithCancel(ctx)
	ad := &inProcessAdapter{url: "http://" + ln.Addr().String(), stop: stop, done: make(chan error, 1)}
	go func() { ad.done <- a.Run(actx, ln) }()
	DeferCleanup(func() {
		stop()
		Eventually(ad.done).WithTimeout(30 * time.Second).Should(Receive(BeNil()))
	})
	Eventually(func() (int, error) { return probeStatus(ad.url + "/readyz") }).Should(Equal(200))
	return ad
}

// crashAPIServer kills the kube-apiserver with SIGKILL (etcd keeps
// running), as a crash or an OOM kill would, and returns once it is gone. A
// graceful stop is no quicker: with watches and load open, it outlasts
// envtest's stop timeout.
func crashAPIServer() {
	GinkgoHelper()
	pid := apiServerPID()
	Expect(syscall.Kill(pid, syscall.SIGKILL)).To(Succeed())
	// envtest's process state reaps it; Stop then only notes that it exited.
	Eventually(func() bool {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		return err != nil || bytes.Contains(stat, []byte(") Z "))
	}).WithTimeout(10 * time.Second).Should(BeTrue())
	Eventually(func() error { return testEnv.Environment.ControlPlane.APIServer.Stop() }).WithTimeout(10 * time.Second).Should(Succeed())
}

// apiServerPID finds the kube-apiserver of the suite by its certificate
// directory on its command line.
func apiServerPID() int {
	GinkgoHelper()
	entries, err := os.ReadDir("/proc")
	Expect(err).NotTo(HaveOccurred())
	needle := []byte(testEnv.Environment.ControlPlane.APIServer.CertDir)
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte("kube-apiserver")) && bytes.Contains(cmdline, needle) {
			return pid
		}
	}
	Fail("the kube-apiserver process was not found")
	return 0
}

// startAPIServer starts the kube-apiserver again on the same address with
// the same certificates, and returns once it is healthy.
func startAPIServer() {
	GinkgoHelper()
	Expect(testEnv.Environment.ControlPlane.APIServer.Start()).To(Succeed())
}

// newWorkspace creates a namespace where the clerks may work, and waits
// until the API server's authorizer says so.
func newWorkspace(prefix string) string {
	GinkgoHelper()
	ns := builder.Namespace(GinkgoT(), ctx, k8s, prefix+"-")
	Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: clerkRole, Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: clerkRole},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: clerks}},
	})).To(Succeed())
	Eventually(func() (bool, error) {
		review, err := clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx,
			&authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
				User: callers[0], Groups: []string{clerks},
				ResourceAttributes: &authorizationv1.ResourceAttributes{
					Namespace: ns, Verb: "create", Group: "billing.invoicing.dev", Resource: "invoices",
				},
			}}, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return review.Status.Allowed, nil
	}).Should(BeTrue())
	return ns
}
