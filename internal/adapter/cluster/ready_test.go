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

package cluster

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/adapter/store"
)

func TestReadinessWhileTheCacheWarms(t *testing.T) {
	answering := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"36","gitVersion":"v1.36.3"}`))
	}))
	defer answering.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer failing.Close()

	for _, tc := range []struct {
		name              string
		api               string
		readyBeforeSynced bool
		ready             bool
	}{
		{"an adapter whose cache warms is not ready", answering.URL, false, false},
		{"ready before synced, it is ready once the API server answers", answering.URL, true, true},
		{"ready before synced, it is not ready while the API server does not answer", failing.URL, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := kubernetes.NewForConfig(&rest.Config{Host: tc.api})
			if err != nil {
				t.Fatal(err)
			}
			c := &Conn{Store: store.New(nil, nil, store.Options{}), clientset: cs, readyBeforeSynced: tc.readyBeforeSynced}
			if err := c.Ready(t.Context()); (err == nil) != tc.ready {
				t.Errorf("Ready = %v; want ready %t", err, tc.ready)
			}
		})
	}
}
