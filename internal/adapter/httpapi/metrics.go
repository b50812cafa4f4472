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

package httpapi

import (
	"errors"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the adapter's Prometheus series. Routes are the route table's
// patterns (for example "GET /v1/invoices/{invoice_id}") or "unmatched", so
// the label values are bounded whatever clients send.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

const routeUnmatched = "unmatched"

func newMetrics() *metrics {
	return &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "invoicing",
			Subsystem: "http",
			Name:      "requests_total",
			Help:      "HTTP requests served by the /v1 adapter, by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "invoicing",
			Subsystem: "http",
			Name:      "request_duration_seconds",
			Help:      "Time from reading a request's headers to writing its response, by route and status code.",
			Buckets:   []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20},
		}, []string{"route", "code"}),
	}
}

// register adds the series to reg. A collector that is already registered
// (a second adapter in the same process, as in tests) is reused.
func (m *metrics) register(reg prometheus.Registerer) error {
	var err error
	if m.requests, err = registerOrReuse(reg, m.requests); err != nil {
		return err
	}
	m.duration, err = registerOrReuse(reg, m.duration)
	return err
}

func registerOrReuse[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	if err := reg.Register(c); err != nil {
		var dup prometheus.AlreadyRegisteredError
		if errors.As(err, &dup) {
			if existing, ok := dup.ExistingCollector.(C); ok {
				return existing, nil
			}
		}
		return c, err
	}
	return c, nil
}

// observe counts one request. An adapter built without New (as some tests
// do) has no metrics and counts nothing.
func (m *metrics) observe(route string, status int, took time.Duration) {
	if m == nil {
		return
	}
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.duration.WithLabelValues(route, code).Observe(took.Seconds())
}
