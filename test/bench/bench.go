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

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Config is one benchmark run.
type Config struct {
	Assets, CRDs     string
	Manager, Adapter string
	// Install is the kustomization of the install (config/default): the
	// manager and the adapter run as its ServiceAccount, and its API
	// Priority and Fairness objects are applied in some rounds.
	Install string
	// ManagerArgs and AdapterArgs are extra flags for the binaries, to
	// measure the effect of a setting.
	ManagerArgs, AdapterArgs []string
	OutDir                   string
	// Invoices is the size of each measurement; the memory measurement
	// fills workspaces (10) workspaces with this many each.
	Invoices int
	Workers  int
	Profile  bool
	// Only names the measurements to run, by number ("4"); empty runs all.
	Only []string
	Log  io.Writer
}

// tokenLifetime is how long the benchmark's ServiceAccount tokens last:
// longer than a run.
const tokenLifetime = 3 * time.Hour

const (
	workspaces  = 10
	customer    = "acme"
	clientNS    = "bench-0"
	clientSA    = "bench-client"
	profileSecs = 10
)

// Report is report.json: the ratios (adapter or controller over the
// Kubernetes API directly; higher is better), the p99s, the memory per
// invoice, and the per-second figures behind the ratios.
type Report struct {
	CreateRatio               float64 `json:"create_ratio"`
	GetRatio                  float64 `json:"get_ratio"`
	ListRatio                 float64 `json:"list_ratio"`
	ControllerRatio           float64 `json:"controller_ratio"`
	CreateP99Ms               float64 `json:"create_p99_ms"`
	GetP99Ms                  float64 `json:"get_p99_ms"`
	IssueLagP99Ms             float64 `json:"issue_lag_p99_ms"`
	AdapterBytesPerInvoice    float64 `json:"adapter_bytes_per_invoice"`
	ControllerBytesPerInvoice float64 `json:"controller_bytes_per_invoice"`

	CreateAdapterPerSec     float64 `json:"create_adapter_per_s"`
	CreateDirectPerSec      float64 `json:"create_direct_per_s"`
	GetAdapterPerSec        float64 `json:"get_adapter_per_s"`
	GetDirectPerSec         float64 `json:"get_direct_per_s"`
	ListAdapterPerSec       float64 `json:"list_adapter_invoices_per_s"`
	ListDirectPerSec        float64 `json:"list_direct_invoices_per_s"`
	ControllerIssuedPerSec  float64 `json:"controller_issued_per_s"`
	ControllerCreatedPerSec float64 `json:"controller_created_per_s"`

	// Measurement 4 again, with the install's APF objects applied.
	ControllerRatioAPF         float64 `json:"controller_ratio_apf"`
	IssueLagP99MsAPF           float64 `json:"issue_lag_p99_ms_apf"`
	ControllerIssuedPerSecAPF  float64 `json:"controller_issued_per_s_apf"`
	ControllerCreatedPerSecAPF float64 `json:"controller_created_per_s_apf"`

	// Measurement 6: invoices created directly in one workspace, numbered
	// per second over created per second and the create-to-number p99;
	// then the controller's batched allocator alone over a naive one (one
	// number per round trip), numbers per second.
	NumberingRatio          float64 `json:"numbering_ratio"`
	NumberingLagP99Ms       float64 `json:"numbering_lag_p99_ms"`
	NumberingCreatedPerSec  float64 `json:"numbering_created_per_s"`
	NumberingNumberedPerSec float64 `json:"numbering_numbered_per_s"`
	BatchedNumbersPerSec    float64 `json:"batched_numbers_per_s"`
	NaiveNumbersPerSec      float64 `json:"naive_numbers_per_s"`
	BatchedOverNaive        float64 `json:"batched_over_naive"`

	// Measurement 7: the adapter's creates while a noisy neighbour writes,
	// rate over the quiet round's rate, and the p99s, without and with APF.
	NoisyRateRatio      float64 `json:"noisy_create_rate_ratio"`
	NoisyRateRatioAPF   float64 `json:"noisy_create_rate_ratio_apf"`
	NoisyCreateP99Ms    float64 `json:"noisy_create_p99_ms"`
	NoisyCreateP99MsAPF float64 `json:"noisy_create_p99_ms_apf"`
	QuietCreateP99Ms    float64 `json:"quiet_create_p99_ms"`
	QuietCreateP99MsAPF float64 `json:"quiet_create_p99_ms_apf"`

	// The adapter process's CPU time (user and system) during its creates
	// of measurement 1, per 1,000 creates.
	AdapterCPUPer1000Creates float64 `json:"adapter_cpu_s_per_1000_creates"`

	Details Details `json:"details"`
	path    string
}

// Details are the rest of what was measured, for reading the figures.
type Details struct {
	Invoices         int     `json:"invoices"`
	Workers          int     `json:"workers"`
	MemoryInvoices   int     `json:"memory_invoices"`
	Workspaces       int     `json:"memory_workspaces"`
	CreateP50Ms      float64 `json:"create_adapter_p50_ms"`
	CreateDirP50Ms   float64 `json:"create_direct_p50_ms"`
	CreateDirP99Ms   float64 `json:"create_direct_p99_ms"`
	GetP50Ms         float64 `json:"get_adapter_p50_ms"`
	GetDirP50Ms      float64 `json:"get_direct_p50_ms"`
	GetDirP99Ms      float64 `json:"get_direct_p99_ms"`
	PageP50Ms        float64 `json:"list_adapter_page_p50_ms"`
	PageP99Ms        float64 `json:"list_adapter_page_p99_ms"`
	PageDirP50Ms     float64 `json:"list_direct_page_p50_ms"`
	PageDirP99Ms     float64 `json:"list_direct_page_p99_ms"`
	IssueLagP50Ms    float64 `json:"issue_lag_p50_ms"`
	IssueLagP50MsAPF float64 `json:"issue_lag_p50_ms_apf"`
	// Measurement 6's create-to-number p50, and each allocator's p99 per
	// number.
	NumberingLagP50Ms float64 `json:"numbering_lag_p50_ms"`
	BatchedP99Ms      float64 `json:"batched_number_p99_ms"`
	NaiveP99Ms        float64 `json:"naive_number_p99_ms"`
	// Measurement 7's invoices per variant and condition, its per-second
	// figures, and the neighbour's writers and writes per second.
	NoisyInvoices            int     `json:"noisy_invoices"`
	QuietPerSec              float64 `json:"quiet_create_per_s"`
	QuietPerSecAPF           float64 `json:"quiet_create_per_s_apf"`
	NoisyPerSec              float64 `json:"noisy_create_per_s"`
	NoisyPerSecAPF           float64 `json:"noisy_create_per_s_apf"`
	NeighbourWriters         int     `json:"neighbour_writers"`
	NeighbourWritesPerSec    float64 `json:"neighbour_writes_per_s"`
	NeighbourWritesPerSecAPF float64 `json:"neighbour_writes_per_s_apf"`
	// The API server's mean queue wait per priority level during
	// measurements 4 and 7, without and with APF objects.
	APFWait map[string]map[string]apfLevelWait `json:"apf_queue_wait"`
	// The adapter's CPU seconds during measurement 1's adapter rounds.
	AdapterCPUSecondsCreate float64 `json:"adapter_cpu_seconds_create"`
	AdapterRSS0             int64   `json:"adapter_rss_start_bytes"`
	AdapterRSS              int64   `json:"adapter_rss_bytes"`
	ManagerRSS0             int64   `json:"controller_rss_start_bytes"`
	ManagerRSS              int64   `json:"controller_rss_bytes"`
	Seconds                 float64 `json:"seconds"`
}

// bench is a running benchmark's world.
type bench struct {
	cfg       Config
	log       io.Writer
	admin     client.WithWatch
	cs        kubernetes.Interface // as the admin
	install   *install
	neighbour *noisyNeighbour
	direct    client.Client // as the benchmark's ServiceAccount, like the HTTP client
	http      *http.Client
	apiURL    string           // the adapter's base URL
	api       *v1client.Client // the adapter's /v1 API, as the benchmark's ServiceAccount
	token     string
	manager   *process
	adapter   *process
	created   atomic.Int64 // invoices in the cluster
	ids       []string     // the invoices created through the adapter, in bench-0
}

// Run starts everything, measures, writes report.json and stops everything.
func Run(ctx context.Context, c Config) (*Report, error) {
	started := time.Now()
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Workers <= 0 || c.Invoices < c.Workers {
		return nil, fmt.Errorf("need at least one worker and as many invoices as workers, have %d and %d",
			c.Workers, c.Invoices)
	}
	if err := os.MkdirAll(c.OutDir, 0o750); err != nil {
		return nil, err
	}
	b := &bench{cfg: c, log: c.Log}

	b.logf("Starting the control plane (kube-apiserver and etcd)")
	// No client-side rate limit: the API server's own is the limit.
	env, err := testenv.Start(testenv.WithAssets(c.Assets), testenv.WithCRDDirectory(c.CRDs),
		testenv.WithClientRateLimit(-1, 0))
	if err != nil {
		return nil, err
	}
	defer func() { _ = env.Stop() }()
	cfg, scheme := env.Config, env.Client.Scheme()
	b.admin = env.Client
	if b.cs, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}

	kubeconfig, err := b.provisionAll(ctx, cfg)
	if err != nil {
		return nil, err
	}
	direct := rest.AnonymousClientConfig(cfg)
	direct.BearerToken = b.token
	if b.direct, err = client.New(direct, client.Options{Scheme: scheme}); err != nil {
		return nil, err
	}
	b.http = &http.Client{
		Transport: &http.Transport{MaxIdleConns: 4 * c.Workers, MaxIdleConnsPerHost: 4 * c.Workers},
		Timeout:   30 * time.Second,
	}

	if err := b.startBinaries(ctx, kubeconfig); err != nil {
		return nil, err
	}
	defer b.adapter.stop()
	defer b.manager.stop()
	for _, ns := range b.workspaces() {
		if err := b.awaitAllowed(ctx, ns); err != nil {
			return nil, err
		}
	}

	r := &Report{path: filepath.Join(c.OutDir, "report.json")}
	r.Details.Invoices, r.Details.Workers, r.Details.Workspaces = c.Invoices, c.Workers, workspaces
	r.Details.APFWait = map[string]map[string]apfLevelWait{}
	time.Sleep(2 * time.Second) // let the start-up garbage be collected
	if r.Details.AdapterRSS0, err = b.adapter.rss(); err != nil {
		return nil, err
	}
	if r.Details.ManagerRSS0, err = b.manager.rss(); err != nil {
		return nil, err
	}

	steps := []struct {
		name string
		run  func(context.Context, *Report) error
	}{
		{"warm-up", b.warmUp},
		{"1. create", b.measureCreate},
		{"2. get", b.measureGet},
		{"3. list", b.measureList},
		{"4. controller, without and with APF", b.measureController},
		{"6. numbering in one workspace, and a naive allocator", b.measureNumbering},
		{"7. noisy neighbour, without and with APF", b.measureNoisyNeighbour},
		{"5. memory", b.measureMemory},
	}
	for _, s := range steps {
		if !selected(c.Only, s.name) {
			continue
		}
		b.logf("Measuring %s", s.name)
		if err := s.run(ctx, r); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	r.Details.Seconds = time.Since(started).Seconds()
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(r.path, append(out, '\n'), 0o600); err != nil {
		return nil, err
	}
	return r, nil
}

// selected reports whether the step named name runs when only the
// measurements numbered in only are asked for (all when only is empty).
// The warm-up always runs; get and list (2, 3) need create's (1) invoices.
func selected(only []string, name string) bool {
	number, _, numbered := strings.Cut(name, ".")
	if len(only) == 0 || !numbered {
		return true
	}
	return slices.Contains(only, number) ||
		(number == "1" && (slices.Contains(only, "2") || slices.Contains(only, "3")))
}

func (b *bench) logf(format string, args ...any) {
	_, _ = fmt.Fprintf(b.log, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func (b *bench) workspaces() []string {
	ns := make([]string, workspaces)
	for i := range ns {
		ns[i] = fmt.Sprintf("bench-%d", i)
	}
	return ns
}

// provisionAll makes the benchmark's client, the install's identity (whose
// kubeconfig it returns, for the binaries) and the noisy neighbour.
func (b *bench) provisionAll(ctx context.Context, cfg *rest.Config) (string, error) {
	if err := b.provision(ctx, b.cs); err != nil {
		return "", err
	}
	kubeconfig, err := b.provisionInstall(ctx, b.cs, cfg)
	if err != nil {
		return "", err
	}
	b.neighbour, err = b.provisionNoisyNeighbour(ctx, cfg)
	return kubeconfig, err
}

// provision makes the workspaces, a customer in each, and a ServiceAccount
// allowed to get, list, watch and create customers and invoices in all of
// them, and takes a token for it.
func (b *bench) provision(ctx context.Context, cs kubernetes.Interface) error {
	for _, ns := range b.workspaces() {
		objs := []client.Object{
			&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
			&rbacv1.Role{
				ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns},
				Rules: []rbacv1.PolicyRule{{
					APIGroups: []string{billingv1.GroupVersion.Group}, Resources: []string{"customers", "invoices"},
					Verbs: []string{"get", "list", "watch", "create"},
				}},
			},
			&rbacv1.RoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns},
				RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: clientSA},
				Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: clientSA, Namespace: clientNS}},
			},
			&billingv1.Customer{
				ObjectMeta: metav1.ObjectMeta{Name: customer, Namespace: ns},
				Spec:       billingv1.CustomerSpec{Name: "Acme Corporation", Email: "billing@acme.example"},
			},
		}
		if ns == clientNS {
			objs = slices.Insert(objs, 1, client.Object(&corev1.ServiceAccount{
				ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns}}))
		}
		for _, o := range objs {
			if err := b.admin.Create(ctx, o); err != nil {
				return fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
			}
		}
	}
	var err error
	b.token, err = serviceaccount.Token(ctx, cs, clientNS, clientSA, tokenLifetime)
	return err
}

// awaitAllowed waits until RBAC allows the client in ns (the API server
// sees new Roles a moment after they are created).
func (b *bench) awaitAllowed(ctx context.Context, ns string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: "system:serviceaccount:" + clientNS + ":" + clientSA,
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: ns, Verb: "create", Group: billingv1.GroupVersion.Group, Resource: "invoices",
			},
		}}
		if err := b.admin.Create(ctx, sar); err != nil {
			return err
		}
		if sar.Status.Allowed {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("RBAC does not allow the client in %s", ns)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startBinaries runs the manager and the adapter as the install's
// ServiceAccount (kubeconfig) and with the GOMAXPROCS their containers'
// CPU limits give them, the adapter without its per-caller rate limit
// (the benchmark has one caller).
func (b *bench) startBinaries(ctx context.Context, kubeconfig string) error {
	var err error
	addrs := make([]string, 4)
	for i := range addrs {
		if addrs[i], err = netutil.FreeAddr(ctx); err != nil {
			return err
		}
	}
	b.apiURL = "http://" + addrs[0]
	b.api = v1client.New(b.apiURL, b.http, v1client.Token(b.token))
	managerArgs := append([]string{"--kubeconfig", kubeconfig, "--health-probe-bind-address", addrs[2],
		"--metrics-bind-address", "0", "--pprof-bind-address", addrs[1]}, b.cfg.ManagerArgs...)
	b.manager, err = startProcess(b.cfg.Manager, filepath.Join(b.cfg.OutDir, "manager.log"), addrs[1],
		b.install.env("manager"), managerArgs...)
	if err != nil {
		return err
	}
	adapterArgs := append([]string{"--kubeconfig", kubeconfig, "--listen-address", addrs[0], "--rate-limit", "-1",
		"--pprof-address", addrs[3]}, b.cfg.AdapterArgs...)
	b.adapter, err = startProcess(b.cfg.Adapter, filepath.Join(b.cfg.OutDir, "adapter.log"), addrs[3],
		b.install.env("adapter"), adapterArgs...)
	if err != nil {
		b.manager.stop()
		return err
	}
	deadline := time.Now().Add(time.Minute)
	for _, probe := range []string{"http://" + addrs[2] + "/readyz", b.apiURL + "/readyz"} {
		for {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, probe, nil)
			if err != nil {
				return err
			}
			resp, err := b.http.Do(req)
			if err == nil {
				_ = resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("%s did not become ready (see the logs in %s)", probe, b.cfg.OutDir)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// process is a binary under measurement.
type process struct {
	cmd   *exec.Cmd
	pprof string
	done  chan struct{}
}

// startProcess starts a binary with env added to the benchmark's environment.
func startProcess(path, logPath, pprofAddr string, env []string, args ...string) (*process, error) {
	logFile, err := os.Create(logPath) //nolint:gosec // under the output directory
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(context.Background(), path, args...) //nolint:gosec // the binaries make builds
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	p := &process{cmd: cmd, pprof: pprofAddr, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// stop sends SIGTERM, and SIGKILL after 15 s.
func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// rss is the process's resident memory (VmRSS), in bytes.
func (p *process) rss() (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// profile saves a CPU profile of secs seconds as name.pprof, and its top
// entries as name.txt (and a graph as name.svg when Graphviz is there).
func (b *bench) profile(ctx context.Context, p *process, binary, name string, secs int) error {
	slow := &http.Client{Timeout: time.Duration(secs+30) * time.Second}
	path, err := b.saveProfile(ctx, slow, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", p.pprof, secs),
		"profile of "+binary, name)
	if err != nil {
		return err
	}
	b.summarize(ctx, binary, path, name)
	if _, err := exec.LookPath("dot"); err == nil {
		_, _ = pprofTool(ctx, "-svg", "-output", filepath.Join(b.cfg.OutDir, name+".svg"), binary, path)
	}
	return nil
}

// heapProfile saves the process's heap profile as name.pprof and the top
// entries of its live memory as name.txt.
func (b *bench) heapProfile(ctx context.Context, p *process, binary, name string) error {
	path, err := b.saveProfile(ctx, b.http, "http://"+p.pprof+"/debug/pprof/heap", "heap profile of "+binary, name)
	if err != nil {
		return err
	}
	b.summarize(ctx, binary, path, name, "-sample_index=inuse_space")
	return nil
}

// saveProfile GETs a pprof endpoint and writes the profile as name.pprof
// under the output directory, returning its path.
func (b *bench) saveProfile(ctx context.Context, hc *http.Client, endpoint, what, name string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", what, resp.Status)
	}
	path := filepath.Join(b.cfg.OutDir, name+".pprof")
	return path, os.WriteFile(path, data, 0o600)
}

// summarize writes the top entries of a profile as name.txt, when pprof
// can read it (a summary is a convenience, not a result).
func (b *bench) summarize(ctx context.Context, binary, path, name string, flags ...string) {
	args := append(append([]string{"-top", "-nodecount=30"}, flags...), binary, path)
	if top, err := pprofTool(ctx, args...); err == nil {
		_ = os.WriteFile(filepath.Join(b.cfg.OutDir, name+".txt"), top, 0o600)
	}
}

// pprofTool runs go tool pprof (from the Go that make uses) on a profile.
func pprofTool(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "go", append([]string{"tool", "pprof"}, args...)...).Output() //nolint:gosec // our own files
}

// ---- the operations each side measures ----

var invoiceParams = v1client.InvoiceParams{CustomerID: customer, Items: []v1client.Item{
	{Description: "Consulting", Quantity: 3, Amount: 15000},
	{Description: "Travel", Quantity: 1, Amount: 42000},
}}

// newInvoice is invoiceParams as the Kubernetes object a direct create makes.
func newInvoice(ns string) *billingv1.Invoice {
	opts := []builder.InvoiceOption{builder.WithCustomer(customer)}
	for _, it := range invoiceParams.Items {
		opts = append(opts, builder.WithItem(it.Description, it.Quantity, it.Amount))
	}
	return builder.Invoice(ns, billing.NewID(billing.InvoiceIDPrefix), opts...)
}

func (b *bench) createHTTP(ctx context.Context, ns string) (string, error) {
	inv, _, err := b.api.CreateInvoice(ctx, invoiceParams, v1client.Workspace(ns))
	if err != nil {
		return "", err
	}
	return inv.ID, nil
}

func (b *bench) createDirect(ctx context.Context, ns string) (string, error) {
	inv := newInvoice(ns)
	return inv.Name, b.direct.Create(ctx, inv)
}

// page is one page of a walk: the ids and the token of the next page.
type page struct {
	ids  []string
	next string
}

func (b *bench) pageHTTP(ctx context.Context, ns, cursor string) (page, error) {
	list, _, err := b.api.ListInvoices(ctx, v1client.ListParams{Limit: 100, Cursor: cursor}, v1client.Workspace(ns))
	if err != nil {
		return page{}, err
	}
	p := page{ids: v1client.IDs(list)}
	if list.NextCursor != nil {
		p.next = *list.NextCursor
	}
	return p, nil
}

func (b *bench) pageDirect(ctx context.Context, ns, cont string) (page, error) {
	var list billingv1.InvoiceList
	if err := b.direct.List(ctx, &list, client.InNamespace(ns), client.Limit(100), client.Continue(cont)); err != nil {
		return page{}, err
	}
	p := page{next: list.Continue}
	for _, inv := range list.Items {
		p.ids = append(p.ids, inv.Name)
	}
	return p, nil
}

// ---- measuring ----

// result is what one side of a pair did: how many operations in how long,
// and each one's latency.
type result struct {
	ops       int
	elapsed   time.Duration
	latencies []time.Duration
}

func (r result) perSec() float64 { return float64(r.ops) / r.elapsed.Seconds() }

func (r result) percentileMs(p float64) float64 {
	if len(r.latencies) == 0 {
		return 0
	}
	s := slices.Clone(r.latencies)
	slices.Sort(s)
	i := min(int(p*float64(len(s))), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}

func (r *result) add(o result) {
	r.ops += o.ops
	r.elapsed += o.elapsed
	r.latencies = append(r.latencies, o.latencies...)
}

// parallel runs op(i) for i in [0, n) on the configured number of workers
// and times the whole and each call. It stops at the first error.
func (b *bench) parallel(ctx context.Context, n int, op func(ctx context.Context, i int) error) (result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	latencies := make([]time.Duration, n)
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range b.cfg.Workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				t := time.Now()
				if err := op(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				latencies[i] = time.Since(t)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return result{}, firstErr
	}
	return result{ops: n, elapsed: time.Since(start), latencies: latencies}, nil
}

// pair measures the two sides of a pair in alternating rounds, so that
// drift (the API server's data growing, other load on the machine) falls
// on both alike.
func (b *bench) pair(ctx context.Context, rounds, n int, adapter, direct func(ctx context.Context, i int) error) (
	a, d result, err error) {
	return b.meteredPair(ctx, rounds, n, nil, adapter, direct)
}

// meteredPair is pair with the adapter's CPU time metered over its side's
// rounds when meter is not nil.
func (b *bench) meteredPair(ctx context.Context, rounds, n int, meter *cpuMeter,
	adapter, direct func(ctx context.Context, i int) error) (a, d result, err error) {
	per := n / rounds
	for round := range rounds {
		for side, op := range []func(context.Context, int) error{adapter, direct} {
			base := round * per
			if meter != nil && side == 0 {
				meter.on()
			}
			r, err := b.parallel(ctx, per, func(ctx context.Context, i int) error { return op(ctx, base+i) })
			if meter != nil && side == 0 {
				meter.off()
			}
			if err != nil {
				return a, d, err
			}
			if side == 0 {
				a.add(r)
			} else {
				d.add(r)
			}
		}
	}
	return a, d, nil
}

func ratio(a, d float64) float64 {
	if d == 0 {
		return 0
	}
	return float64(int(a/d*1000+0.5)) / 1000
}

// warmUp opens the connections and fills the adapter's review caches, in
// the workspace the memory measurement fills last.
func (b *bench) warmUp(ctx context.Context, _ *Report) error {
	n := 4 * b.cfg.Workers
	_, _, err := b.pair(ctx, 1, n,
		func(ctx context.Context, _ int) error { _, err := b.createHTTP(ctx, "bench-9"); return err },
		func(ctx context.Context, _ int) error { _, err := b.createDirect(ctx, "bench-9"); return err })
	b.created.Add(int64(2 * n))
	return err
}

// measureCreate: POST /v1/invoices in bench-0 vs. Create in bench-1.
func (b *bench) measureCreate(ctx context.Context, r *Report) error {
	n := b.cfg.Invoices
	ids := make([]string, n)
	profiled := make(chan error, 1)
	if b.cfg.Profile {
		go func() { profiled <- b.profile(ctx, b.adapter, b.cfg.Adapter, "adapter-create", profileSecs) }()
	} else {
		profiled <- nil
	}
	cpu := &cpuMeter{p: b.adapter}
	a, d, err := b.meteredPair(ctx, 2, n, cpu,
		func(ctx context.Context, i int) (err error) { ids[i], err = b.createHTTP(ctx, "bench-0"); return err },
		func(ctx context.Context, _ int) error { _, err := b.createDirect(ctx, "bench-1"); return err })
	if err = errors.Join(err, cpu.err); err != nil {
		return err
	}
	r.Details.AdapterCPUSecondsCreate = cpu.total.Seconds()
	r.AdapterCPUPer1000Creates = float64(int(cpu.total.Seconds()/float64(a.ops)*1000*1000+0.5)) / 1000
	if err := <-profiled; err != nil {
		return err
	}
	b.created.Add(int64(2 * n))
	b.ids = ids
	r.CreateAdapterPerSec, r.CreateDirectPerSec = a.perSec(), d.perSec()
	r.CreateRatio = ratio(r.CreateAdapterPerSec, r.CreateDirectPerSec)
	r.CreateP99Ms, r.Details.CreateP50Ms = a.percentileMs(0.99), a.percentileMs(0.5)
	r.Details.CreateDirP99Ms, r.Details.CreateDirP50Ms = d.percentileMs(0.99), d.percentileMs(0.5)
	return nil
}

// measureGet: GET /v1/invoices/{id} vs. Get, of the same invoices of
// bench-0 in the same random order.
func (b *bench) measureGet(ctx context.Context, r *Report) error {
	ids := slices.Clone(b.ids)
	rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] }) //nolint:gosec // an order, not a secret
	a, d, err := b.pair(ctx, 2, len(ids),
		func(ctx context.Context, i int) error {
			inv, _, err := b.api.GetInvoice(ctx, ids[i], v1client.Workspace("bench-0"))
			if err != nil {
				return err
			}
			if inv.ID != ids[i] {
				return fmt.Errorf("got invoice %q for %q", inv.ID, ids[i])
			}
			return nil
		},
		func(ctx context.Context, i int) error {
			var inv billingv1.Invoice
			return b.direct.Get(ctx, client.ObjectKey{Namespace: "bench-0", Name: ids[i]}, &inv)
		})
	if err != nil {
		return err
	}
	r.GetAdapterPerSec, r.GetDirectPerSec = a.perSec(), d.perSec()
	r.GetRatio = ratio(r.GetAdapterPerSec, r.GetDirectPerSec)
	r.GetP99Ms, r.Details.GetP50Ms = a.percentileMs(0.99), a.percentileMs(0.5)
	r.Details.GetDirP99Ms, r.Details.GetDirP50Ms = d.percentileMs(0.99), d.percentileMs(0.5)
	return nil
}

// measureList: each worker walks all invoices of bench-0, 100 per page,
// through the adapter vs. with List, Limit and Continue. Every walk must
// see every invoice once. The figure is invoices per second.
func (b *bench) measureList(ctx context.Context, r *Report) error {
	want := len(b.ids)
	walk := func(next func(ctx context.Context, ns, token string) (page, error), pages *[]time.Duration,
		mu *sync.Mutex) func(context.Context, int) error {
		return func(ctx context.Context, _ int) error {
			seen := make(map[string]struct{}, want)
			token := ""
			var mine []time.Duration
			for {
				t := time.Now()
				p, err := next(ctx, "bench-0", token)
				if err != nil {
					return err
				}
				mine = append(mine, time.Since(t))
				for _, id := range p.ids {
					seen[id] = struct{}{}
				}
				if token = p.next; token == "" {
					break
				}
			}
			if len(seen) != want {
				return fmt.Errorf("a walk saw %d invoices, not %d", len(seen), want)
			}
			mu.Lock()
			*pages = append(*pages, mine...)
			mu.Unlock()
			return nil
		}
	}
	var mu sync.Mutex
	var adapterPages, directPages []time.Duration
	a, d, err := b.pair(ctx, 1, b.cfg.Workers, walk(b.pageHTTP, &adapterPages, &mu), walk(b.pageDirect, &directPages, &mu))
	if err != nil {
		return err
	}
	r.ListAdapterPerSec = float64(a.ops*want) / a.elapsed.Seconds()
	r.ListDirectPerSec = float64(d.ops*want) / d.elapsed.Seconds()
	r.ListRatio = ratio(r.ListAdapterPerSec, r.ListDirectPerSec)
	ap, dp := result{latencies: adapterPages}, result{latencies: directPages}
	r.Details.PageP50Ms, r.Details.PageP99Ms = ap.percentileMs(0.5), ap.percentileMs(0.99)
	r.Details.PageDirP50Ms, r.Details.PageDirP99Ms = dp.percentileMs(0.5), dp.percentileMs(0.99)
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// measureMemory fills every workspace up to Invoices invoices, waits until
// the controller has issued them all, and reads both processes' resident
// memory: its growth since the start over the invoices in the cluster.
func (b *bench) measureMemory(ctx context.Context, r *Report) error {
	w, err := b.watchIssued(ctx, "")
	if err != nil {
		return err
	}
	defer w.stop()
	n := b.cfg.Invoices
	todo := []string{}
	for _, ns := range b.workspaces()[3:] {
		for range n {
			todo = append(todo, ns)
		}
	}
	if _, err := b.parallel(ctx, len(todo), func(ctx context.Context, i int) error {
		_, err := b.createDirect(ctx, todo[i])
		return err
	}); err != nil {
		return err
	}
	b.created.Add(int64(len(todo)))
	if _, err := w.await(ctx, len(todo), time.Duration(len(todo))*10*time.Millisecond+2*time.Minute); err != nil {
		return err
	}
	time.Sleep(5 * time.Second) // let the garbage of the load be collected
	if r.Details.AdapterRSS, err = b.adapter.rss(); err != nil {
		return err
	}
	if r.Details.ManagerRSS, err = b.manager.rss(); err != nil {
		return err
	}
	if b.cfg.Profile {
		for _, p := range []struct {
			proc         *process
			binary, name string
		}{{b.adapter, b.cfg.Adapter, "adapter-heap"}, {b.manager, b.cfg.Manager, "manager-heap"}} {
			if err := b.heapProfile(ctx, p.proc, p.binary, p.name); err != nil {
				return err
			}
		}
	}
	total := b.created.Load()
	r.Details.MemoryInvoices = int(total)
	r.AdapterBytesPerInvoice = float64((r.Details.AdapterRSS - r.Details.AdapterRSS0) / total)
	r.ControllerBytesPerInvoice = float64((r.Details.ManagerRSS - r.Details.ManagerRSS0) / total)
	return nil
}

// issuedWatch records when each invoice of a namespace ("" for all) was
// first seen Issued, from a watch that starts now.
type issuedWatch struct {
	mu     sync.Mutex
	issued map[string]time.Time
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func (b *bench) watchIssued(ctx context.Context, ns string) (*issuedWatch, error) {
	var list billingv1.InvoiceList
	if err := b.admin.List(ctx, &list, client.InNamespace(ns), client.Limit(1)); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &issuedWatch{issued: map[string]time.Time{}, cancel: cancel, done: make(chan struct{})}
	rv := list.ResourceVersion
	go func() {
		defer close(w.done)
		for ctx.Err() == nil {
			wi, err := b.admin.Watch(ctx, &billingv1.InvoiceList{}, client.InNamespace(ns),
				&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true}})
			if err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
				return
			}
			for ev := range wi.ResultChan() {
				inv, ok := ev.Object.(*billingv1.Invoice)
				if !ok {
					continue
				}
				rv = inv.ResourceVersion
				// An invoice is issued and numbered in one status write.
				if ev.Type == watch.Bookmark || inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Number == "" {
					continue
				}
				key := inv.Namespace + "/" + inv.Name
				w.mu.Lock()
				if _, seen := w.issued[key]; !seen {
					w.issued[key] = time.Now()
				}
				w.mu.Unlock()
			}
			wi.Stop()
		}
	}()
	return w, nil
}

// await waits until n invoices are Issued and returns when each was, by name.
func (w *issuedWatch) await(ctx context.Context, n int, timeout time.Duration) (map[string]time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		w.mu.Lock()
		got, err := len(w.issued), w.err
		w.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if got >= n {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%d of %d invoices issued after %s", got, n, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	byName := make(map[string]time.Time, len(w.issued))
	for key, at := range w.issued {
		byName[key[strings.Index(key, "/")+1:]] = at
	}
	return byName, nil
}

func (w *issuedWatch) stop() {
	w.cancel()
	<-w.done
}
