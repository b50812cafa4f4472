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
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The store's series are invoicing_store_*.
const (
	metricsNamespace = "invoicing"
	metricsSubsystem = "store"
)

// metrics are the store's Prometheus series: what the read barrier costs.
type metrics struct {
	// wait is how long the barriers of last pages took: the fetch of the
	// API server's resource version, then the wait for the informer.
	wait prometheus.Histogram
	// fallbacks counts the last pages read from the API server instead, by
	// the barrier's outcome (timeout, idle, incomparable).
	fallbacks *prometheus.CounterVec
	// confirmed counts the last pages whose barrier was not reached but
	// whose cached objects a metadata-only read confirmed, by outcome.
	confirmed *prometheus.CounterVec
	// warmingPages counts the pages read from the API server before the
	// cache had synced (warming.go).
	warmingPages prometheus.Counter
	// cacheSynced is 1 once the cache has synced.
	cacheSynced prometheus.Gauge
}

func newMetrics() *metrics {
	return &metrics{
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: metricsNamespace,
			Subsystem: metricsSubsystem,
			Name:      "read_barrier_seconds",
			Help: "Time the read barrier of the last page of a list took (read your writes across replicas): " +
				"reading the API server's current resource version, then waiting for the informer to deliver it.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts(seriesOpts("read_barrier_fallbacks_total",
			"Last pages of lists read from the API server because the informer had not delivered the "+
				"read barrier: in time (timeout), having delivered nothing for as long (idle), or because the "+
				"resource version was not a number (incomparable).")), []string{"reason"}),
		confirmed: prometheus.NewCounterVec(prometheus.CounterOpts(seriesOpts("read_barrier_confirmed_total",
			"Last pages of lists whose read barrier was not reached (reason: timeout, idle) but whose "+
				"cached objects a metadata-only read of the page from the API server confirmed: served from "+
				"the cache at the cost of that read.")), []string{"reason"}),
		warmingPages: prometheus.NewCounter(prometheus.CounterOpts(seriesOpts("warming_pages_total",
			"Pages of a whole workspace read from the API server because the cache had not synced yet "+
				"(after a start)."))),
		cacheSynced: prometheus.NewGauge(prometheus.GaugeOpts(seriesOpts("cache_synced",
			"1 once the cache holds every object (filtered lists and the feeds are served), 0 while it "+
				"warms after a start (gets, creates and whole-workspace lists are read from the API server)."))),
	}
}

// seriesOpts are the options of the store's series name, described by help.
func seriesOpts(name, help string) prometheus.Opts {
	return prometheus.Opts{Namespace: metricsNamespace, Subsystem: metricsSubsystem, Name: name, Help: help}
}

// register adds the series to reg. A collector that is already registered
// (a second store in the same process, as in tests) is reused.
func (m *metrics) register(reg prometheus.Registerer) error {
	return errors.Join(
		registerOrReuse(reg, &m.wait),
		registerOrReuse(reg, &m.fallbacks),
		registerOrReuse(reg, &m.confirmed),
		registerOrReuse(reg, &m.warmingPages),
		registerOrReuse(reg, &m.cacheSynced),
	)
}

// registerOrReuse adds *c to reg, or makes *c the one already registered.
func registerOrReuse[C prometheus.Collector](reg prometheus.Registerer, c *C) error {
	err := reg.Register(*c)
	if err == nil {
		return nil
	}
	var dup prometheus.AlreadyRegisteredError
	if !errors.As(err, &dup) {
		return err
	}
	existing, ok := dup.ExistingCollector.(C)
	if !ok {
		return err
	}
	*c = existing
	return nil
}

// observe counts one barrier and its time.
func (m *metrics) observe(_ barrierOutcome, took time.Duration) {
	m.wait.Observe(took.Seconds())
}

// fallBack counts a last page read from the API server.
func (m *metrics) fallBack(outcome barrierOutcome) {
	m.fallbacks.WithLabelValues(string(outcome)).Inc()
}

// confirm counts a last page served from the cache once confirmed.
func (m *metrics) confirm(outcome barrierOutcome) {
	m.confirmed.WithLabelValues(string(outcome)).Inc()
}

// servedWhileWarming counts a page read from the API server before the
// cache had synced.
func (m *metrics) servedWhileWarming() {
	m.warmingPages.Inc()
}

// synced records that the cache has synced.
func (m *metrics) synced() {
	m.cacheSynced.Set(1)
}
