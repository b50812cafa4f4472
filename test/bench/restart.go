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

// Measurement 9: restarts at size. At each of RestartSizes invoices the
// API server restarts (the manager and the adapter stopped), then the two
// binaries start, then they restart once more with the API server up and
// warm. At the largest size the API server restarts once more without its
// watch cache, and measurements 1 and 4 run at a reduced size before and
// after, side by side.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// restartStep is measurement 9's name.
const restartStep = "9. restart at size, and the API server without its watch cache"

// restartEmpty restarts the API server without and with its watch cache
// before anything but the benchmark's own objects is there, and records
// its resident memory after each: the bases of the memory per invoice
// after a restart.
func (b *bench) restartEmpty(ctx context.Context, r *Report) error {
	for _, watchCache := range []bool{false, true} {
		if _, err := b.plane.restartAPIServer(ctx, watchCache); err != nil {
			return err
		}
		time.Sleep(2 * time.Second)
		u, err := b.plane.usage(ctx)
		if err != nil {
			return err
		}
		if watchCache {
			r.Details.PlaneEmpty = u
		} else {
			r.Details.PlaneEmptyNoWatchCache = u
		}
	}
	return nil
}

// measureRestart fills up to each size and restarts there.
func (b *bench) measureRestart(ctx context.Context, r *Report) error {
	sizes := slices.Sorted(slices.Values(b.cfg.RestartSizes))
	if len(sizes) == 0 {
		sizes = []int{int(b.created.Load())}
	}
	for _, size := range sizes {
		if _, _, err := b.fillTo(ctx, size); err != nil {
			return err
		}
		run, err := b.restartAt(ctx, true)
		if err != nil {
			return err
		}
		r.Details.Restarts = append(r.Details.Restarts, run)
	}
	last := r.Details.Restarts[len(r.Details.Restarts)-1]
	r.AdapterReadyAfterRestartS, r.ManagerReadyAfterRestartS = last.AdapterReadyS, last.ManagerReadyS
	r.AdapterServingAfterRestartS = last.AdapterServingS
	r.APIServerStartS, r.KubectlGetS = last.APIServerStartS, last.KubectlGetS
	r.APIServerBytesPerInvoiceAfterRestart = perInvoice(last.Plane.APIServerRSS-r.Details.PlaneEmpty.APIServerRSS,
		last.Invoices)
	const million = 1_000_000
	r.AdapterReadyAfterRestart1MS = extrapolate(r.Details.Restarts, million, func(x restartRun) float64 { return x.AdapterReadyS })
	r.ManagerReadyAfterRestart1MS = extrapolate(r.Details.Restarts, million, func(x restartRun) float64 { return x.ManagerReadyS })
	r.AdapterServingAfterRestart1MS = extrapolate(r.Details.Restarts, million,
		func(x restartRun) float64 { return x.AdapterServingS })
	r.APIServerStart1MS = extrapolate(r.Details.Restarts, million, func(x restartRun) float64 { return x.APIServerStartS })

	r.Details.ReducedInvoices = max(b.cfg.Invoices/5, b.cfg.Workers)
	r.Details.ReducedPerSec = map[string]float64{}
	var err error
	if r.CreateRatioWatchCache, r.ControllerRatioWatchCache, err = b.reducedRatios(ctx, r, ""); err != nil {
		return err
	}
	off, err := b.restartAt(ctx, false)
	if err != nil {
		return err
	}
	r.Details.Restarts = append(r.Details.Restarts, off)
	r.KubectlGetSNoWatchCache = off.KubectlGetS
	r.APIServerBytesPerInvoiceNoWatchCache = perInvoice(off.Plane.APIServerRSS-r.Details.PlaneEmptyNoWatchCache.APIServerRSS,
		off.Invoices)
	r.CreateRatioNoWatchCache, r.ControllerRatioNoWatchCache, err = b.reducedRatios(ctx, r, "_no_watch_cache")
	return err
}

// restartAt restarts the API server (with or without its watch cache),
// then the binaries twice, and measures each start.
func (b *bench) restartAt(ctx context.Context, watchCache bool) (restartRun, error) {
	run := restartRun{Invoices: int(b.created.Load()), WatchCache: watchCache}
	b.logf("Restarting at %d invoices, watch cache %t", run.Invoices, watchCache)
	b.stopBinaries()
	took, err := b.plane.restartAPIServer(ctx, watchCache)
	if err != nil {
		return run, err
	}
	run.APIServerStartS = took.Seconds()
	ready, err := b.restartBinaries(ctx, fmt.Sprintf("-%d-stack", run.Invoices))
	if err != nil {
		return run, err
	}
	run.StackManagerReadyS, run.StackAdapterReadyS = ready[0].Seconds(), ready[1].Seconds()
	time.Sleep(5 * time.Second) // let the garbage of the lists be collected
	if run.Plane, err = b.plane.usage(ctx); err != nil {
		return run, err
	}
	get, rows, err := b.plane.timeKubectlGet(ctx, filepath.Join(b.cfg.Assets, "kubectl"), b.fillWorkspaces()[0])
	if err != nil {
		return run, fmt.Errorf("kubectl get invoices: %w", err)
	}
	run.KubectlGetS, run.KubectlRows = get.Seconds(), rows
	b.stopBinaries()
	if ready, err = b.restartBinaries(ctx, fmt.Sprintf("-%d", run.Invoices)); err != nil {
		return run, err
	}
	run.ManagerReadyS, run.AdapterReadyS, run.AdapterServingS = ready[0].Seconds(), ready[1].Seconds(), ready[2].Seconds()
	b.logf("API server %.1f s; manager %.1f s, adapter %.1f s after the API server's start; "+
		"manager %.1f s, adapter %.1f s (serving %.1f s) with it up; API server %.0f MiB; kubectl get %.1f s",
		run.APIServerStartS, run.StackManagerReadyS, run.StackAdapterReadyS, run.ManagerReadyS, run.AdapterReadyS,
		run.AdapterServingS,
		mib(run.Plane.APIServerRSS), run.KubectlGetS)
	return run, nil
}

// restartBinaries starts the manager and the adapter and returns how long
// each took until its /readyz answered.
func (b *bench) restartBinaries(ctx context.Context, logSuffix string) ([3]time.Duration, error) {
	b.logSuffix = logSuffix
	err := b.startBinaries(ctx, b.kubeconfig)
	return b.lastReady, err
}

// stopBinaries stops the adapter and the manager.
func (b *bench) stopBinaries() {
	b.adapter.stop()
	b.manager.stop()
}

// reducedRatios runs measurements 1 and 4 at the reduced size and returns
// their ratios; suffix names their rates in Details.ReducedPerSec.
func (b *bench) reducedRatios(ctx context.Context, r *Report, suffix string) (create, controller float64, err error) {
	n := r.Details.ReducedInvoices
	a, d, err := b.pair(ctx, 2, n,
		func(ctx context.Context, _ int) error { _, err := b.createHTTP(ctx, "bench-0"); return err },
		func(ctx context.Context, _ int) error { _, err := b.createDirect(ctx, "bench-1"); return err })
	if err != nil {
		return 0, 0, err
	}
	b.created.Add(int64(2 * n))
	run := &controllerRun{wait: apfWait{}}
	if err := b.controllerRound(ctx, controllerWorkspace, n, false, false, run); err != nil {
		return 0, 0, err
	}
	created, issued, controller := run.rates()
	r.Details.ReducedPerSec["create_adapter"+suffix] = a.perSec()
	r.Details.ReducedPerSec["create_direct"+suffix] = d.perSec()
	r.Details.ReducedPerSec["controller_created"+suffix] = created
	r.Details.ReducedPerSec["controller_issued"+suffix] = issued
	return ratio(a.perSec(), d.perSec()), controller, nil
}

// perInvoice is bytes over invoices.
func perInvoice(bytes int64, invoices int) float64 {
	if invoices <= 0 {
		return 0
	}
	return float64(bytes / int64(invoices))
}

// extrapolate fits a line through the restarts with the watch cache (by
// least squares over their invoices and y; through the origin when there
// is only one size) and returns its value at invoices.
func extrapolate(runs []restartRun, invoices float64, y func(restartRun) float64) float64 {
	var xs, ys []float64
	for _, run := range runs {
		if run.WatchCache {
			xs, ys = append(xs, float64(run.Invoices)), append(ys, y(run))
		}
	}
	return linearAt(xs, ys, invoices)
}

// linearAt is the least-squares line through (xs, ys) at x, or the line
// through the origin and the mean point when the xs do not differ.
func linearAt(xs, ys []float64, x float64) float64 {
	n := float64(len(xs))
	if n == 0 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		if sx == 0 {
			return 0
		}
		return sy / sx * x
	}
	slope := (n*sxy - sx*sy) / den
	return (sy-slope*sx)/n + slope*x
}
