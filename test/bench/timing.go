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

// Timing: operations run in parallel on the configured workers, pairs of
// sides measured in alternating rounds, and the percentiles and ratios
// derived.

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

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
	return b.parallelWith(ctx, b.cfg.Workers, n, op)
}

// parallelWith is parallel with workers workers.
func (b *bench) parallelWith(ctx context.Context, workers, n int, op func(ctx context.Context, i int) error) (
	result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	latencies := make([]time.Duration, n)
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
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
