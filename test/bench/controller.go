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

// Measurement 4, the controller: invoices created directly as fast as the
// API server takes them, and the time until each is Issued, without and with
// the install's APF objects, in alternating rounds.

import (
	"context"
	"time"
)

// controllerRun is what the rounds of one variant measured.
type controllerRun struct {
	created       result          // the creates: count, time, and nothing else
	issuedElapsed time.Duration   // from each round's first create to its last Issued
	lags          []time.Duration // create to Issued, per invoice
	wait          apfWait
	cpu           stackCPU // used from each round's first create to its last Issued
}

// measureController creates invoices in controllerWorkspace directly, as fast as the API
// server takes them, and watches them become Issued: issued per second over
// created per second, and the time from each create to its Issued.
func (b *bench) measureController(ctx context.Context, r *Report) error {
	per := max(b.cfg.Invoices/apfRounds, b.cfg.Workers)
	runs := map[bool]*controllerRun{}
	for round := range apfRounds {
		for _, applied := range apfVariants(round) {
			if err := b.setAPF(ctx, applied); err != nil {
				return err
			}
			if runs[applied] == nil {
				runs[applied] = &controllerRun{wait: apfWait{}}
			}
			// One profile of the manager, in the first round without the
			// objects (the figures before this measurement had two variants).
			profile := b.cfg.Profile && round == 0 && !applied
			dump := applied && round == apfRounds-1
			if err := b.controllerRound(ctx, controllerWorkspace, per, profile, dump, runs[applied]); err != nil {
				return err
			}
		}
	}
	if err := b.setAPF(ctx, false); err != nil {
		return err
	}
	without, with := runs[false], runs[true]
	r.ControllerCreatedPerSec, r.ControllerIssuedPerSec, r.ControllerRatio = without.rates()
	r.ControllerCreatedPerSecAPF, r.ControllerIssuedPerSecAPF, r.ControllerRatioAPF = with.rates()
	lag, lagAPF := result{latencies: without.lags}, result{latencies: with.lags}
	r.IssueLagP99Ms, r.Details.IssueLagP50Ms = lag.percentileMs(0.99), lag.percentileMs(0.5)
	r.IssueLagP99MsAPF, r.Details.IssueLagP50MsAPF = lagAPF.percentileMs(0.99), lagAPF.percentileMs(0.5)
	r.Details.APFWait["controller"], r.Details.APFWait["controller_apf"] = without.wait.meanMs(), with.wait.meanMs()
	r.Details.ControllerCPUMsPerInvoice = map[string]map[string]float64{
		"controller":     without.cpu.msPer(without.created.ops),
		"controller_apf": with.cpu.msPer(with.created.ops),
	}
	return nil
}

// rates are created and issued per second over all rounds, and their ratio.
func (c *controllerRun) rates() (created, issued, r float64) {
	created = c.created.perSec()
	issued = float64(c.created.ops) / c.issuedElapsed.Seconds()
	return created, issued, ratio(issued, created)
}

// controllerWorkspace is where measurement 4 creates.
const controllerWorkspace = "bench-2"

// controllerRound is one round: n creates in ns and their Issued.
func (b *bench) controllerRound(ctx context.Context, ns string, n int, profile, dump bool, into *controllerRun) error {
	w, err := b.watchIssued(ctx, ns)
	if err != nil {
		return err
	}
	defer w.stop()
	before, err := b.scrapeAPFWait(ctx)
	if err != nil {
		return err
	}
	profiled := make(chan error, 1)
	if profile {
		go func() { profiled <- b.profile(ctx, b.manager, b.cfg.Manager, "manager-controller", profileSecs) }()
	} else {
		profiled <- nil
	}
	createdAt := make([]time.Time, n)
	names := make([]string, n)
	cpuBefore, err := b.stackCPU()
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := b.parallel(ctx, n, func(ctx context.Context, i int) (err error) {
		names[i], err = b.createDirect(ctx, ns)
		createdAt[i] = time.Now()
		return err
	})
	if err != nil {
		return err
	}
	b.created.Add(int64(n))
	if dump {
		// While the controller works through what was created.
		if err := b.dumpPriorityLevels(ctx, "apf-priority-levels-controller"); err != nil {
			return err
		}
	}
	issued, err := w.await(ctx, n, time.Duration(n)*10*time.Millisecond+2*time.Minute)
	if err != nil {
		return err
	}
	cpuAfter, err := b.stackCPU()
	if err != nil {
		return err
	}
	into.cpu = into.cpu.add(cpuBefore, cpuAfter)
	if err := <-profiled; err != nil {
		return err
	}
	after, err := b.scrapeAPFWait(ctx)
	if err != nil {
		return err
	}
	into.wait.add(before, after)
	var last time.Time
	for i, name := range names {
		at := issued[name]
		last = maxTime(last, at)
		into.lags = append(into.lags, max(at.Sub(createdAt[i]), 0))
	}
	into.created.add(result{ops: res.ops, elapsed: res.elapsed})
	into.issuedElapsed += last.Sub(start)
	return nil
}
