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

package seal

import "testing"

func TestALinesKindIsReadWhereverItStands(t *testing.T) {
	cases := []struct {
		name, line, want string
		fails            bool
	}{
		{"as Line writes it", `{"apiVersion":"billing.invoicing.dev/v1","kind":"Payment","metadata":{}}`, "Payment", false},
		{"kind before apiVersion", `{"kind":"CreditNote","apiVersion":"billing.invoicing.dev/v1"}`, "CreditNote", false},
		{"another apiVersion", `{"apiVersion":"billing.invoicing.dev/v2","kind":"Invoice"}`, "Invoice", false},
		{"an escape in the kind", `{"apiVersion":"billing.invoicing.dev/v1","kind":"Inv\u006fice"}`, "Invoice", false},
		{"no kind", `{"apiVersion":"billing.invoicing.dev/v1"}`, "", false},
		{"not JSON", `{"apiVersion":`, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := kindOf([]byte(tc.line))
			if (err != nil) != tc.fails {
				t.Fatalf("kindOf(%s): error %v, want an error: %t", tc.line, err, tc.fails)
			}
			if got != tc.want {
				t.Errorf("kindOf(%s) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}
