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
)

func TestAnEventFrameEndsWithItsIDAfterItsData(t *testing.T) {
	for _, tt := range []struct {
		name string
		e    sse
		want string
	}{
		{"an invoice of the feed", sse{typ: "invoice.issued", id: 42, data: []byte(`{"id":"inv-1"}`)},
			"event: invoice.issued\ndata: {\"id\":\"inv-1\"}\nid: 42\n\n"},
		{"an event of the events", sse{typ: "payment.recorded", id: 1, data: []byte(`{}`)},
			"event: payment.recorded\ndata: {}\nid: 1\n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendSSE(nil, tt.e)); got != tt.want {
				t.Errorf("appendSSE = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAnEventFrameIsAppendedToWhatIsThere(t *testing.T) {
	got := string(appendSSE([]byte(": c\n\n"), sse{typ: "t", id: 2, data: []byte(`1`)}))
	if want := ": c\n\nevent: t\ndata: 1\nid: 2\n\n"; got != want {
		t.Errorf("appendSSE = %q, want %q", got, want)
	}
}

// A client that stops reading is dropped once a write has blocked for
// StreamWriteTimeout, which frees its place under the caller's bound.
func TestAStreamDropsAClientThatStopsReading(t *testing.T) {
	s := newFakeStore()
	s.endless = issuedFakeInvoice(nil, 0)
	a, err := New(Deps{Store: s, Claims: &fakeClaims{}, Authn: fakeAuthn, Authz: allowAll},
		Options{RateLimit: -1, MaxStreamsPerCaller: 1, StreamWriteTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	// Each stream on a connection of its own: a connection the server
	// closed after a 429 is never reused for the next try.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	open := func() (*http.Response, error) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/v1/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+fakeToken)
		req.Header.Set("Invoicing-Workspace", fakeWorkspace)
		req.Header.Set("Accept", eventStreamType)
		return hc.Do(req)
	}
	stalled, err := open() // never read: the connection's buffers fill up
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stalled.Body.Close() }()
	if stalled.StatusCode != http.StatusOK {
		t.Fatalf("the first stream answered %d", stalled.StatusCode)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := open()
		if err != nil {
			t.Fatalf("another stream: %v", err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return
		}
		if resp.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("another stream answered %d; the stalled one was not dropped", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
