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

package httpapi

import "testing"

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
