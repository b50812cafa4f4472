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

// The manager and the adapter as processes under measurement: started as
// the install's ServiceAccount, probed until ready, stopped, and their
// resident memory read.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// startBinaries starts the manager and the adapter against kubeconfig
// and waits until they are ready (lastReady).
func (b *bench) startBinaries(ctx context.Context, kubeconfig string) error {
	if err := b.launchBinaries(ctx, kubeconfig); err != nil {
		return err
	}
	var err error
	b.lastReady, err = b.awaitReady(ctx, b.startedAt, readyTimeout)
	return err
}

// launchBinaries starts the manager and the adapter against kubeconfig,
// on free addresses, without waiting for them: as the install's
// ServiceAccount (kubeconfig) and with the GOMAXPROCS their containers'
// CPU limits give them, the adapter without its per-caller rate limit
// (the benchmark has one caller).
func (b *bench) launchBinaries(ctx context.Context, kubeconfig string) error {
	var err error
	b.kubeconfig = kubeconfig
	b.startedAt = time.Now()
	addrs := make([]string, 5)
	for i := range addrs {
		if addrs[i], err = netutil.FreeAddr(ctx); err != nil {
			return err
		}
	}
	b.apiURL = "http://" + addrs[0]
	b.api = v1client.New(b.apiURL, b.http, v1client.Token(b.token))
	managerArgs := append([]string{"--kubeconfig", kubeconfig, "--health-probe-bind-address", addrs[2],
		"--metrics-bind-address", "0", "--pprof-bind-address", addrs[1]}, b.cfg.ManagerArgs...)
	b.manager, err = startProcess(b.cfg.Manager, filepath.Join(b.cfg.OutDir, "manager"+b.logSuffix+".log"), addrs[1],
		b.install.env("manager"), managerArgs...)
	if err != nil {
		return err
	}
	b.metricsURL = "http://" + addrs[4] + "/metrics"
	adapterArgs := append([]string{"--kubeconfig", kubeconfig, "--listen-address", addrs[0], "--rate-limit", "-1",
		"--pprof-address", addrs[3], "--metrics-bind-address", addrs[4], "--metrics-secure=false"},
		b.cfg.AdapterArgs...)
	b.adapter, err = startProcess(b.cfg.Adapter, filepath.Join(b.cfg.OutDir, "adapter"+b.logSuffix+".log"), addrs[3],
		b.install.env("adapter"), adapterArgs...)
	if err != nil {
		b.manager.stop()
		return err
	}
	b.managerReady, b.adapterReady = "http://"+addrs[2]+"/readyz", b.apiURL+"/readyz"
	return nil
}

// readyTimeout is how long the binaries have to become ready after a start.
const readyTimeout = 10 * time.Minute

// awaitReady waits until the manager's and the adapter's readiness probes
// answer 200 and the adapter serves a page, probing all three at once, and
// returns how long after since each did: the manager's, the adapter's,
// then the adapter's page.
func (b *bench) awaitReady(ctx context.Context, since time.Time, timeout time.Duration) ([3]time.Duration, error) {
	var took [3]time.Duration
	var errs [3]error
	var wg sync.WaitGroup
	for i, probe := range []string{b.managerReady, b.adapterReady} {
		wg.Go(func() { took[i], errs[i] = b.awaitProbe(ctx, probe, since, since.Add(timeout)) })
	}
	wg.Go(func() { took[2], errs[2] = b.awaitServing(ctx, since, since.Add(timeout)) })
	wg.Wait()
	return took, errors.Join(errs[:]...)
}

// awaitServing polls a page of one invoice of the first fill workspace on
// the adapter until it is answered other than with a 5xx, and returns the
// time since: the adapter serves a whole workspace's pages from the API
// server while its cache warms, before its /readyz says ready
// (internal/adapter/store/warming.go).
func (b *bench) awaitServing(ctx context.Context, since, deadline time.Time) (time.Duration, error) {
	ws := v1client.Workspace(b.fillWorkspaces()[0])
	for {
		resp, err := b.api.Do(ctx, http.MethodGet, "/v1/invoices?limit=1", nil, ws)
		if err == nil && resp.Status < http.StatusInternalServerError {
			return time.Since(since), nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, fmt.Errorf("the adapter served no page of invoices (see the logs in %s)", b.cfg.OutDir)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// awaitProbe polls probe until it answers 200 and returns the time since.
func (b *bench) awaitProbe(ctx context.Context, probe string, since, deadline time.Time) (time.Duration, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, probe, nil)
		if err != nil {
			return 0, err
		}
		resp, err := b.http.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(since), nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, fmt.Errorf("%s did not become ready (see the logs in %s)", probe, b.cfg.OutDir)
		}
		time.Sleep(50 * time.Millisecond)
	}
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
func (p *process) rss() (int64, error) { return rssOf(p.cmd.Process.Pid) }

// rssOf is a process's resident memory (VmRSS), in bytes.
func rssOf(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
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
