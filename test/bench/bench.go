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

package main

// The benchmark's configuration and its run: start the control plane,
// provision, start the binaries, run the selected measurements in order and
// write report.json.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	// MemoryInvoices is how many invoices measurement 5 fills the cluster
	// up to (0: the other measurements' and Invoices in each workspace it
	// fills); RestartSizes are the sizes of measurement 9's restarts
	// (none: one at the size reached).
	MemoryInvoices int
	RestartSizes   []int
	// MillionInvoices is the size of measurement 11 (only when asked for
	// by name: -only million).
	MillionInvoices int
	Workers         int
	Profile         bool
	// NoWatchCache starts the kube-apiserver with --watch-cache=false, as
	// the dedicated control plane of docs/performance.md's Sizing (the zero
	// value keeps the default, on). Measurement 9 turns it on and off
	// itself.
	NoWatchCache bool
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

// bench is a running benchmark's world.
type bench struct {
	cfg       Config
	log       io.Writer
	admin     client.WithWatch
	cs        kubernetes.Interface // as the admin
	install   *install
	neighbour *noisyNeighbour
	direct    client.Client // as the benchmark's ServiceAccount, like the HTTP client
	// directHTTP and directHost read the Kubernetes API as direct does,
	// for the pages of measurement 3 that decode only the names.
	directHTTP *http.Client
	directHost string
	http       *http.Client
	apiURL     string // the adapter's base URL
	// metricsURL is the adapter's metrics endpoint (plain HTTP).
	metricsURL string
	api        *v1client.Client // the adapter's /v1 API, as the benchmark's ServiceAccount
	token      string
	manager    *process
	adapter    *process
	// kubeconfig is the binaries', startedAt when they were last started,
	// logSuffix what their log files' names end with since a restart.
	kubeconfig, logSuffix string
	startedAt             time.Time
	// lastReady is how long the manager and the adapter took to become
	// ready after their last start, and the adapter to serve a page of a
	// workspace (before it is ready: awaitServing).
	lastReady [3]time.Duration
	// managerReady and adapterReady are their readiness probes' URLs.
	managerReady, adapterReady string
	plane                      *controlPlane
	created                    atomic.Int64 // invoices in the cluster
	ids                        []string     // the invoices created through the adapter, in bench-0
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
	env, stopPlane, err := b.startControlPlane()
	if err != nil {
		return nil, err
	}
	defer stopPlane()
	cfg, scheme := env.Config, env.Client.Scheme()
	b.admin = env.Client
	if b.cs, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}

	kubeconfig, err := b.provisionAll(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := b.directClients(cfg, scheme); err != nil {
		return nil, err
	}
	b.http = &http.Client{
		Transport: &http.Transport{MaxIdleConns: 4 * c.Workers, MaxIdleConnsPerHost: 4 * c.Workers},
		Timeout:   30 * time.Second,
	}

	r := &Report{path: filepath.Join(c.OutDir, "report.json")}
	if selected(c.Only, restartStep) {
		if err := b.restartEmpty(ctx, r); err != nil {
			return nil, err
		}
	}
	if err := b.startBinaries(ctx, kubeconfig); err != nil {
		return nil, err
	}
	defer func() { b.stopBinaries() }() // the binaries of the last start
	for _, ns := range b.workspaces() {
		if err := b.awaitAllowed(ctx, ns); err != nil {
			return nil, err
		}
	}

	r.Details.Invoices, r.Details.Workers, r.Details.Workspaces = c.Invoices, c.Workers, workspaces
	r.Details.WatchCache = !c.NoWatchCache
	r.Details.APFWait = map[string]map[string]apfLevelWait{}
	if err := b.readStartMemory(ctx, r); err != nil {
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
		{"8. event lag", b.measureEventLag},
		{sealingStep, b.measureSealing},
		{scheduleStep, b.measureSchedules},
		{bankStep, b.measureBankMatch},
		{"5. memory", b.measureMemory},
		{restartStep, b.measureRestart},
		{millionStep, b.measureMillion},
	}
	for _, s := range steps {
		if !selected(c.Only, s.name) {
			continue
		}
		b.logf("Measuring %s", s.name)
		if err := s.run(ctx, r); err != nil {
			// What the steps before measured is kept: a long run (the
			// million's) is not lost to its last step.
			err = fmt.Errorf("%s: %w", s.name, err)
			r.Details.Failed = err.Error()
			return nil, errors.Join(err, r.write(started))
		}
	}
	if err := r.write(started); err != nil {
		return nil, err
	}
	return r, nil
}

// write writes the report as report.json, with the run's seconds since
// started.
func (r *Report) write(started time.Time) error {
	r.Details.Seconds = time.Since(started).Seconds()
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(r.path, append(out, '\n'), 0o600)
}

// directClients makes the clients that use the Kubernetes API as the
// benchmark's ServiceAccount: typed, and plain HTTP for the light pages.
func (b *bench) directClients(cfg *rest.Config, scheme *runtime.Scheme) error {
	direct := rest.AnonymousClientConfig(cfg)
	direct.BearerToken = b.token
	var err error
	if b.direct, err = client.New(direct, client.Options{Scheme: scheme}); err != nil {
		return err
	}
	if b.directHTTP, err = rest.HTTPClientFor(direct); err != nil {
		return err
	}
	b.directHost = direct.Host
	return nil
}

// startControlPlane starts the kube-apiserver and etcd, with a certificate
// directory of their own kept over restarts of the API server (measurement
// 8), so that its CA and the ServiceAccount tokens' key stay the same, and
// writes an admin's kubeconfig for kubectl.
func (b *bench) startControlPlane() (*testenv.Env, func(), error) {
	certDir, err := os.MkdirTemp("", "bench-apiserver-")
	if err != nil {
		return nil, nil, err
	}
	// No client-side rate limit: the API server's own is the limit.
	env, err := testenv.Start(testenv.WithAssets(b.cfg.Assets), testenv.WithCRDDirectory(b.cfg.CRDs),
		testenv.WithClientRateLimit(-1, 0), testenv.WithCertDir(certDir),
		testenv.WithAPIServerFlag("watch-cache", strconv.FormatBool(!b.cfg.NoWatchCache)))
	if err != nil {
		_ = os.RemoveAll(certDir)
		return nil, nil, err
	}
	stop := func() {
		_ = env.Stop()
		_ = os.RemoveAll(certDir)
	}
	b.plane = &controlPlane{env: env, kubeconfig: filepath.Join(b.cfg.OutDir, "admin.kubeconfig")}
	if err := env.WriteKubeconfig(b.plane.kubeconfig, "bench-admin"); err != nil {
		stop()
		return nil, nil, err
	}
	return env, stop, nil
}

// readStartMemory reads every process's resident memory before the
// measurements: the bases of measurement 5.
func (b *bench) readStartMemory(ctx context.Context, r *Report) error {
	time.Sleep(2 * time.Second) // let the start-up garbage be collected
	var err error
	if r.Details.AdapterRSS0, err = b.adapter.rss(); err != nil {
		return err
	}
	if r.Details.ManagerRSS0, err = b.manager.rss(); err != nil {
		return err
	}
	r.Details.Plane0, err = b.plane.usage(ctx)
	return err
}

// selected reports whether the step named name runs when only the
// measurements numbered (or named, see measurementNames) in only are asked
// for (all when only is empty). The warm-up always runs; get and list
// (2, 3) need create's (1) invoices.
func selected(only []string, name string) bool {
	number, _, numbered := strings.Cut(name, ".")
	if !numbered {
		return true
	}
	if len(only) == 0 {
		// A million invoices take an hour: only when asked for.
		return number != measurementNames["million"]
	}
	only = slices.Clone(only)
	for i, o := range only {
		if n, ok := measurementNames[o]; ok {
			only[i] = n
		}
	}
	return slices.Contains(only, number) ||
		(number == "1" && (slices.Contains(only, "2") || slices.Contains(only, "3")))
}

// measurementNames are the names -only takes beside the numbers: those
// of the measurements at size, which run alone most often.
var measurementNames = map[string]string{"memory": "5", "restart": "9", "sealing": "10", "million": "11",
	"schedules": "12", "banking": "13"}

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
