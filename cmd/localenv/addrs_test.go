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
	"slices"
	"strings"
	"testing"
)

func TestMetricsAreServedOnLoopbackOverPlainHTTPOrNotAtAll(t *testing.T) {
	tests := []struct {
		name    string
		addr    string
		want    []string
		wantErr bool
	}{
		{name: "0 serves no metrics", addr: "0", want: []string{"--metrics-bind-address", "0"}},
		{name: "an empty address serves no metrics", addr: "", want: []string{"--metrics-bind-address", "0"}},
		{name: "a loopback address serves plain HTTP there", addr: "127.0.0.1:8443",
			want: []string{"--metrics-bind-address", "127.0.0.1:8443", "--metrics-secure=false"}},
		{name: "localhost is loopback", addr: "localhost:8443",
			want: []string{"--metrics-bind-address", "localhost:8443", "--metrics-secure=false"}},
		{name: "every interface is refused, as the metrics have no authentication", addr: ":8443", wantErr: true},
		{name: "an address without a port is refused", addr: "127.0.0.1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := metricsArgs("--manager-metrics-addr", tt.addr)
			if (err != nil) != tt.wantErr {
				t.Fatalf("metricsArgs(%q): %v, want an error: %v", tt.addr, err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "--manager-metrics-addr") {
				t.Errorf("the error does not name the flag: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("metricsArgs(%q) = %q, want %q", tt.addr, got, tt.want)
			}
		})
	}
}

func TestTheBannerNamesTheMetricsOnlyWhenServed(t *testing.T) {
	o := options{apiAddr: "127.0.0.1:9080", probeAddr: "127.0.0.1:9081", managerMetricsAddr: "0",
		adapterMetricsAddr: "127.0.0.1:9083"}
	b := metricsBanner(o)
	for _, want := range []string{"http://127.0.0.1:9081/readyz", "http://127.0.0.1:9080/readyz",
		"adapter: curl -s http://127.0.0.1:9083/metrics"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner %q lacks %q", b, want)
		}
	}
	if strings.Contains(b, "of the manager") {
		t.Errorf("banner names the manager's metrics, which are off: %q", b)
	}
}
