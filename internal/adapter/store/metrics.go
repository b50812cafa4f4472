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

package store

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the store's Prometheus series: what the read barrier costs.
type metrics struct {
	// wait is how long the barriers of last pages took: the fetch of the
	// API server's resource version, then the wait for the informer.
	wait prometheus.Histogram
	// fallbacks counts the last pages read from the API server instead, by
	// the barrier's outcome (timeout, idle, incomparable).
	fallbacks *prometheus.CounterVec
}

func newMetrics() *metrics {
	return &metrics{
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "invoicing",
			Subsystem: "store",
			Name:      "read_barrier_seconds",
			Help: "Time the read barrier of the last page of a list took (read your writes across replicas): " +
				"reading the API server's current resource version, then waiting for the informer to deliver it.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "invoicing",
			Subsystem: "store",
			Name:      "read_barrier_fallbacks_total",
			Help: "Last pages of lists read from the API server because the informer had not delivered the " +
				"read barrier: in time (timeout), having delivered nothing for as long (idle), or because the " +
				"resource version was not a number (incomparable).",
		}, []string{"reason"}),
	}
}

// register adds the series to reg. A collector that is already registered
// (a second store in the same process, as in tests) is reused.
func (m *metrics) register(reg prometheus.Registerer) error {
	if err := reg.Register(m.wait); err != nil {
		var dup prometheus.AlreadyRegisteredError
		if !errors.As(err, &dup) {
			return err
		}
		existing, ok := dup.ExistingCollector.(prometheus.Histogram)
		if !ok {
			return err
		}
		m.wait = existing
	}
	if err := reg.Register(m.fallbacks); err != nil {
		var dup prometheus.AlreadyRegisteredError
		if !errors.As(err, &dup) {
			return err
		}
		existing, ok := dup.ExistingCollector.(*prometheus.CounterVec)
		if !ok {
			return err
		}
		m.fallbacks = existing
	}
	return nil
}

// observe counts one barrier.
func (m *metrics) observe(outcome barrierOutcome, took time.Duration) {
	m.wait.Observe(took.Seconds())
	if outcome != barrierReached {
		m.fallbacks.WithLabelValues(string(outcome)).Inc()
	}
}
