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

package delivery_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

func TestSignatureIsWhatAReceiverVerifies(t *testing.T) {
	secret := []byte("whsec-test")
	body := []byte(`{"id":"evt-demo-1"}`)
	now := time.Unix(1_700_000_000, 0)
	header := delivery.Sign(secret, now, body)

	cases := []struct {
		name    string
		header  string
		body    []byte
		secret  []byte
		now     time.Time
		wantErr bool
	}{
		{"a signature made now verifies", header, body, secret, now, false},
		{"a signature four minutes old verifies", header, body, secret, now.Add(4 * time.Minute), false},
		{"a replay six minutes later is refused", header, body, secret, now.Add(6 * time.Minute), true},
		{"a changed body is refused", header, []byte(`{"id":"evt-demo-2"}`), secret, now, true},
		{"another secret is refused", header, body, []byte("other"), now, true},
		{"a header without v1 is refused", "t=1700000000", body, secret, now, true},
		{"an empty header is refused", "", body, secret, now, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := verify(tc.header, tc.body, tc.secret, tc.now)
			if (err != nil) != tc.wantErr {
				t.Fatalf("verify(%q) = %v, want error %v", tc.header, err, tc.wantErr)
			}
		})
	}
}

func TestSignatureMatchesAKnownVector(t *testing.T) {
	// Computed independently: printf '1700000000.{}' | openssl dgst -sha256 -hmac key
	got := delivery.Sign([]byte("key"), time.Unix(1_700_000_000, 0), []byte("{}"))
	want := "t=1700000000,v1=" + knownVector
	if got != want {
		t.Fatalf("Sign() = %s, want %s", got, want)
	}
}

func TestTheWebhooksPageShowsTheVerificationTheTestsUse(t *testing.T) {
	src, err := os.ReadFile("verify_test.go")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	code := between(string(src), "// docs:verify begin\n", "\n// docs:verify end")
	if code == "" {
		t.Fatal("verify_test.go has no docs:verify block")
	}
	if !strings.Contains(string(page), code) {
		t.Fatalf("docs/webhooks.md does not show the verification the tests use; copy this into it:\n%s", code)
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	code, _, _ := strings.Cut(after, end)
	return code
}

func TestBackoffDoublesUpToFiveMinutes(t *testing.T) {
	cases := []struct {
		failures int32
		want     time.Duration
	}{
		{0, 0}, {1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second},
		{9, 256 * time.Second}, {10, 5 * time.Minute}, {1000, 5 * time.Minute},
	}
	for _, tc := range cases {
		if got := delivery.Backoff(tc.failures); got != tc.want {
			t.Errorf("Backoff(%d) = %v, want %v", tc.failures, got, tc.want)
		}
	}
}

// knownVector is HMAC-SHA256("key", "1700000000.{}") in hex.
const knownVector = "9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae"
