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

// Measurements 1 to 3 (after a warm-up): create, get and list invoices
// through the adapter against the Kubernetes API directly.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

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
	return b.measureCreateDefaultTax(ctx, r)
}

// measureCreateDefaultTax: POST /v1/invoices of a line without a tax of its
// own, which takes the workspace's default tax (the adapter reads the
// BillingProfile), vs. Create of the same invoice with the tax written in,
// as the adapter stores it; both in defaultTaxWorkspace.
func (b *bench) measureCreateDefaultTax(ctx context.Context, r *Report) error {
	n := b.cfg.Invoices
	a, d, err := b.pair(ctx, 2, n,
		func(ctx context.Context, _ int) error {
			_, err := b.postInvoice(ctx, defaultTaxWorkspace, defaultTaxParams)
			return err
		},
		func(ctx context.Context, _ int) error { _, err := b.createDirect(ctx, defaultTaxWorkspace); return err })
	if err != nil {
		return err
	}
	b.created.Add(int64(2 * n))
	r.CreateDefaultTaxAdapterPerSec, r.CreateDefaultTaxDirectPerSec = a.perSec(), d.perSec()
	r.CreateRatioDefaultTax = ratio(r.CreateDefaultTaxAdapterPerSec, r.CreateDefaultTaxDirectPerSec)
	r.CreateDefaultTaxP99Ms, r.Details.CreateDefaultTaxP50Ms = a.percentileMs(0.99), a.percentileMs(0.5)
	r.Details.CreateDefaultTaxDirP99Ms = d.percentileMs(0.99)
	r.Details.CreateDefaultTaxDirP50Ms = d.percentileMs(0.5)
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
// see every invoice once. The figure is invoices per second, with both
// clients decoding only the ids and the cursor of each page (the server's
// speed, on a machine whose cores the client shares); the same walks
// decoding every invoice into its type are reported beside it, and again
// with a client that decodes nothing (rawlist.go): the least the client
// can take from the cores it shares with the servers.
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
	// Measurement 1's invoices with the default tax too: the manager
	// issuing them would share the cores with the walks.
	if err := b.awaitSettled(ctx, 10*time.Minute, "bench-0", "bench-1", defaultTaxWorkspace); err != nil {
		return err
	}
	var mu sync.Mutex
	var adapterPages, directPages []time.Duration
	before, err := b.scrapeBarrier(ctx)
	if err != nil {
		return err
	}
	profiled := make(chan error, 1)
	if b.cfg.Profile {
		go func() { profiled <- b.profile(ctx, b.adapter, b.cfg.Adapter, "adapter-list", profileSecs) }()
	} else {
		profiled <- nil
	}
	a, d, err := b.pair(ctx, 1, b.cfg.Workers,
		walk(b.pageHTTPIDs, &adapterPages, &mu), walk(b.pageDirectNames, &directPages, &mu))
	if err = errors.Join(err, <-profiled); err != nil {
		return err
	}
	after, err := b.scrapeBarrier(ctx)
	if err != nil {
		return err
	}
	barrier := after.since(before)
	r.Details.BarriersPerSec = barrier.count / a.elapsed.Seconds()
	r.Details.BarrierP50Ms, r.Details.BarrierP99Ms = barrier.quantileMs(0.5), barrier.quantileMs(0.99)
	r.Details.BarrierFallbacks, r.Details.BarrierConfirmed = barrier.fallbacks, barrier.confirmed
	r.ListAdapterPerSec = float64(a.ops*want) / a.elapsed.Seconds()
	r.ListDirectPerSec = float64(d.ops*want) / d.elapsed.Seconds()
	r.ListRatio = ratio(r.ListAdapterPerSec, r.ListDirectPerSec)
	ap, dp := result{latencies: adapterPages}, result{latencies: directPages}
	r.Details.PageP50Ms, r.Details.PageP99Ms = ap.percentileMs(0.5), ap.percentileMs(0.99)
	r.Details.PageDirP50Ms, r.Details.PageDirP99Ms = dp.percentileMs(0.5), dp.percentileMs(0.99)

	var typedAdapter, typedDirect []time.Duration
	a, d, err = b.pair(ctx, 1, b.cfg.Workers, walk(b.pageHTTP, &typedAdapter, &mu), walk(b.pageDirect, &typedDirect, &mu))
	if err != nil {
		return err
	}
	r.Details.ListTypedAdapterPerSec = float64(a.ops*want) / a.elapsed.Seconds()
	r.Details.ListTypedDirectPerSec = float64(d.ops*want) / d.elapsed.Seconds()
	r.Details.ListTypedRatio = ratio(r.Details.ListTypedAdapterPerSec, r.Details.ListTypedDirectPerSec)

	a, d, err = b.pair(ctx, 1, b.cfg.Workers, rawWalk(b.pageHTTPRaw, want), rawWalk(b.pageDirectRaw, want))
	if err != nil {
		return err
	}
	r.ListRawAdapterPerSec = float64(a.ops*want) / a.elapsed.Seconds()
	r.ListRawDirectPerSec = float64(d.ops*want) / d.elapsed.Seconds()
	r.ListRawRatio = ratio(r.ListRawAdapterPerSec, r.ListRawDirectPerSec)
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
