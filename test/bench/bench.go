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

// The benchmark's configuration and its run: start the control plane,
// provision, start the binaries, run the selected measurements in order and
// write report.json.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

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
	apiURL    string // the adapter's base URL
	// metricsURL is the adapter's metrics endpoint (plain HTTP).
	metricsURL string
	api        *v1client.Client // the adapter's /v1 API, as the benchmark's ServiceAccount
	token      string
	manager    *process
	adapter    *process
	created    atomic.Int64 // invoices in the cluster
	ids        []string     // the invoices created through the adapter, in bench-0
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
		{"8. event lag", b.measureEventLag},
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
