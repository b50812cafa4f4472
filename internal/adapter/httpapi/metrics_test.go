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
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestTwoAdaptersInOneProcessShareTheirSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	first, second := newMetrics(), newMetrics()
	if err := first.register(reg); err != nil {
		t.Fatal(err)
	}
	if err := second.register(reg); err != nil {
		t.Fatalf("a second adapter must reuse the series, got %v", err)
	}
	first.observe("GET /v1/invoices", 200, time.Millisecond)
	second.observe("GET /v1/invoices", 200, 3*time.Millisecond)
	second.observe(routeUnmatched, 404, time.Millisecond)

	if got := testutil.ToFloat64(first.requests.WithLabelValues("GET /v1/invoices", "200")); got != 2 {
		t.Errorf("requests{GET /v1/invoices, 200} = %v, want 2", got)
	}
	if got := testutil.ToFloat64(first.requests.WithLabelValues(routeUnmatched, "404")); got != 1 {
		t.Errorf("requests{unmatched, 404} = %v, want 1", got)
	}
	if got := testutil.CollectAndCount(reg, "invoicing_http_request_duration_seconds"); got != 2 {
		t.Errorf("the histogram has %d series, want 2", got)
	}
}

func TestAnAdapterWithoutMetricsCountsNothing(t *testing.T) {
	// An adapter built without New has no metrics: it must serve as usual
	// and leave no series behind, not even in the default registry, the
	// only place a fallback could count.
	a := &Adapter{opts: Options{}.withDefaults()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/invoices", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	rec := httptest.NewRecorder()
	a.middleware(mux).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/invoices", nil))
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status = %d, want %d", rec.Code, http.StatusNoContent)
	}

	got, err := testutil.GatherAndCount(prometheus.DefaultGatherer,
		"invoicing_http_requests_total", "invoicing_http_request_duration_seconds")
	if err != nil {
		t.Fatal(err)
	}
	if got != 0 {
		t.Errorf("an adapter without metrics left %d series, want none", got)
	}
}
