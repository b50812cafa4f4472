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

import (
	"maps"
	"testing"
)

func TestTheBarriersCostIsReadFromTwoScrapes(t *testing.T) {
	before := parseBarrier([]byte(`# HELP invoicing_store_read_barrier_seconds ...
invoicing_store_read_barrier_seconds_bucket{le="0.001"} 10
invoicing_store_read_barrier_seconds_bucket{le="0.01"} 10
invoicing_store_read_barrier_seconds_bucket{le="0.1"} 10
invoicing_store_read_barrier_seconds_bucket{le="+Inf"} 10
invoicing_store_read_barrier_seconds_count 10
invoicing_store_read_barrier_fallbacks_total{reason="idle"} 2
`))
	after := parseBarrier([]byte(`invoicing_store_read_barrier_seconds_bucket{le="0.001"} 60
invoicing_store_read_barrier_seconds_bucket{le="0.01"} 109
invoicing_store_read_barrier_seconds_bucket{le="0.1"} 110
invoicing_store_read_barrier_seconds_bucket{le="+Inf"} 110
invoicing_store_read_barrier_seconds_count 110
invoicing_store_read_barrier_fallbacks_total{reason="idle"} 2
invoicing_store_read_barrier_fallbacks_total{reason="timeout"} 3
invoicing_store_read_barrier_confirmed_total{reason="idle"} 4
invoicing_http_requests_total{route="GET /v1/invoices",code="200"} 7
`))
	d := after.since(before)
	for _, tc := range []struct {
		q    float64
		want float64
	}{{0.5, 1}, {0.99, 10}, {1, 100}} {
		if got := d.quantileMs(tc.q); got != tc.want {
			t.Errorf("p%v = %v ms; want %v", tc.q*100, got, tc.want)
		}
	}
	if d.count != 100 {
		t.Errorf("waits = %v; want 100", d.count)
	}
	if want := map[string]float64{"timeout": 3}; !maps.Equal(d.fallbacks, want) {
		t.Errorf("fallbacks = %v; want %v", d.fallbacks, want)
	}
	if want := map[string]float64{"idle": 4}; !maps.Equal(d.confirmed, want) {
		t.Errorf("confirmed = %v; want %v", d.confirmed, want)
	}
	if got := (barrierStats{}).quantileMs(0.5); got != 0 {
		t.Errorf("p50 of no waits = %v; want 0", got)
	}
}
