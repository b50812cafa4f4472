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
	"strings"
	"testing"
)

// What the middleware does to every request's id and path.

func TestSanitizeRequestID(t *testing.T) {
	cases := map[string]string{
		"abc":                       "abc",
		"A-Z.a_z:0-9":               "A-Z.a_z:0-9",
		strings.Repeat("x", 200):    strings.Repeat("x", 200),
		strings.Repeat("x", 201):    "",
		"":                          "",
		"with space":                "",
		"new\nline":                 "",
		"ünïcode":                   "",
		"semi;colon":                "",
		"550e8400-e29b-41d4-a716-4": "550e8400-e29b-41d4-a716-4",
	}
	for in, want := range cases {
		if got := sanitizeRequestID(in); got != want {
			t.Errorf("sanitizeRequestID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanPath(t *testing.T) {
	for p, want := range map[string]string{
		"/v1/invoices":                   "/v1/invoices",
		"/v1/invoices/":                  "/v1/invoices/",
		"/v1//invoices":                  "/v1/invoices",
		"/v1/invoices/../../secrets":     "/secrets",
		"/v1/invoices/./inv-1":           "/v1/invoices/inv-1",
		"/v1/invoices/..%2F..%2Fsecrets": "/v1/invoices/..%2F..%2Fsecrets",
		"/v1/invoices/%2e%2e":            "/v1/invoices/%2e%2e",
		"":                               "/",
		"v1":                             "/v1",
	} {
		if got := cleanPath(p); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", p, got, want)
		}
	}
}
