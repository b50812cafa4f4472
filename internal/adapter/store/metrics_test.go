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

package store

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestTwoStoresInOneProcessShareTheBarriersSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	a, b := New(nil, nil, Options{}), New(nil, nil, Options{})
	for _, s := range []*Store{a, b} {
		if err := s.RegisterMetrics(reg); err != nil {
			t.Fatal(err)
		}
	}
	a.metrics.observe(barrierReached, 3*time.Millisecond)
	b.metrics.observe(barrierTimeout, 250*time.Millisecond)
	b.metrics.observe(barrierIdle, time.Millisecond)
	b.metrics.fallBack(barrierTimeout)
	b.metrics.fallBack(barrierIdle)
	a.metrics.confirm(barrierIdle)
	want := `
# HELP invoicing_store_read_barrier_fallbacks_total Last pages of lists read from the API server because the informer had not delivered the read barrier: in time (timeout), having delivered nothing for as long (idle), or because the resource version was not a number (incomparable).
# TYPE invoicing_store_read_barrier_fallbacks_total counter
invoicing_store_read_barrier_fallbacks_total{reason="idle"} 1
invoicing_store_read_barrier_fallbacks_total{reason="timeout"} 1
# HELP invoicing_store_read_barrier_confirmed_total Last pages of lists whose read barrier was not reached (reason: timeout, idle) but whose cached objects a metadata-only read of the page from the API server confirmed: served from the cache at the cost of that read.
# TYPE invoicing_store_read_barrier_confirmed_total counter
invoicing_store_read_barrier_confirmed_total{reason="idle"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"invoicing_store_read_barrier_fallbacks_total", "invoicing_store_read_barrier_confirmed_total"); err != nil {
		t.Error(err)
	}
	a.metrics.servedWhileWarming()
	b.metrics.servedWhileWarming()
	b.metrics.synced()
	warming := `
# HELP invoicing_store_warming_pages_total Pages of a whole workspace read from the API server because the cache had not synced yet (after a start).
# TYPE invoicing_store_warming_pages_total counter
invoicing_store_warming_pages_total 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(warming), "invoicing_store_warming_pages_total"); err != nil {
		t.Error(err)
	}
	if got := testutil.ToFloat64(a.metrics.cacheSynced); got != 1 {
		t.Errorf("cache_synced of the first store = %v; want the shared gauge's 1", got)
	}
	if n := testutil.CollectAndCount(a.metrics.wait); n != 1 {
		t.Errorf("%d histograms; want 1", n)
	}
	if got := histogramCount(t, reg); got != 3 {
		t.Errorf("barriers timed = %v; want 3, one histogram for both stores", got)
	}
}

// histogramCount is the number of barriers the histogram of reg timed.
func histogramCount(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "invoicing_store_read_barrier_seconds" {
			return float64(f.GetMetric()[0].GetHistogram().GetSampleCount())
		}
	}
	return 0
}
