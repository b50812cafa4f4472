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
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

func TestTheReceiverPrintsEachDeliveryAndChecksItsSignature(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	event := `{"id":"evt-demo-1","object":"event","sequence":1,"type":"invoice.issued",` +
		`"data":{"object":{"id":"acme-2026-001","object":"invoice","number":"DEMO-000001"}}}`
	for _, c := range []struct {
		name      string
		method    string
		body      string
		signature string
		status    int
		printed   string
	}{
		{"a delivery signed with the secret is taken and printed", http.MethodPost, event,
			delivery.Sign(secret, now, []byte(event)), http.StatusNoContent,
			"evt-demo-1 invoice.issued acme-2026-001 DEMO-000001 signature ok\n"},
		{"a delivery signed with another secret is refused", http.MethodPost, event,
			delivery.Sign([]byte("another secret"), now, []byte(event)), http.StatusUnauthorized,
			"evt-demo-1 invoice.issued acme-2026-001 DEMO-000001 rejected: bad signature\n"},
		{"a delivery whose body was changed is refused", http.MethodPost, strings.Replace(event, "DEMO-000001", "DEMO-000009", 1),
			delivery.Sign(secret, now, []byte(event)), http.StatusUnauthorized,
			"evt-demo-1 invoice.issued acme-2026-001 DEMO-000009 rejected: bad signature\n"},
		{"a delivery signed six minutes ago is a replay and refused", http.MethodPost, event,
			delivery.Sign(secret, now.Add(-6*time.Minute), []byte(event)), http.StatusUnauthorized,
			"evt-demo-1 invoice.issued acme-2026-001 DEMO-000001 rejected: stale timestamp\n"},
		{"a delivery without a signature is refused", http.MethodPost, event, "", http.StatusUnauthorized,
			"evt-demo-1 invoice.issued acme-2026-001 DEMO-000001 rejected: no timestamp\n"},
		{"a body that is not an event is said to be so", http.MethodPost, "hello",
			delivery.Sign(secret, now, []byte("hello")), http.StatusNoContent, "(not an event) signature ok\n"},
		{"a GET is not a delivery", http.MethodGet, "", "", http.StatusMethodNotAllowed, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			h := newReceiver(secret, &out, func() time.Time { return now })
			req := httptest.NewRequest(c.method, "/hooks", strings.NewReader(c.body))
			if c.signature != "" {
				req.Header.Set(delivery.SignatureHeader, c.signature)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.status {
				t.Errorf("status %d, want %d", rec.Code, c.status)
			}
			if out.String() != c.printed {
				t.Errorf("printed %q, want %q", out.String(), c.printed)
			}
		})
	}
}
