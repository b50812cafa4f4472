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

package crd_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// TestTheAPIServerHoldsASchedulesBounds applies schedules as a manifest
// writes them: the CRD takes what the HTTP API takes and refuses what it
// refuses, and a name too long for its invoices' names.
func TestTheAPIServerHoldsASchedulesBounds(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client
	ctx := context.Background()
	tests := []struct {
		name, metaName, spec string
		accepted             bool
	}{
		{"a monthly schedule is accepted", "", `"interval":{"unit":"month","count":1},"startDate":"2026-01-31"`, true},
		{"an end by count is accepted", "", `"interval":{"unit":"month","count":3},"startDate":"2026-01-31","end":{"count":4}`, true},
		{"an end by date is accepted", "", `"interval":{"unit":"day","count":1},"startDate":"2026-01-31","end":{"date":"2026-12-31"}`, true},
		{"a count of 37 is refused", "", `"interval":{"unit":"month","count":37},"startDate":"2026-01-31"`, false},
		{"a count of 0 is refused", "", `"interval":{"unit":"month","count":0},"startDate":"2026-01-31"`, false},
		{"an unknown unit is refused", "", `"interval":{"unit":"fortnight","count":1},"startDate":"2026-01-31"`, false},
		{"a start that is no date is refused", "", `"interval":{"unit":"month","count":1},"startDate":"31.01.2026"`, false},
		{"an end with both a count and a date is refused", "",
			`"interval":{"unit":"month","count":1},"startDate":"2026-01-31","end":{"count":2,"date":"2026-12-31"}`, false},
		{"an end of 0 periods is refused", "", `"interval":{"unit":"month","count":1},"startDate":"2026-01-31","end":{"count":0}`, false},
		{"max_catch_up of 121 is refused", "", `"interval":{"unit":"month","count":1},"startDate":"2026-01-31","maxCatchUp":121`, false},
		{"an unknown billing is refused", "", `"interval":{"unit":"month","count":1},"startDate":"2026-01-31","billing":"later"`, false},
		{"a name of 244 characters is accepted", strings.Repeat("a", 244), `"interval":{"unit":"month","count":1},"startDate":"2026-01-31"`, true},
		{"a name of 245 characters is refused: its invoices' names would pass 253", strings.Repeat("b", 245),
			`"interval":{"unit":"month","count":1},"startDate":"2026-01-31"`, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.metaName
			if name == "" {
				name = fmt.Sprintf("isch-%d", i)
			}
			var manifest map[string]any
			if err := json.Unmarshal([]byte(fmt.Sprintf(`{"apiVersion":"billing.invoicing.dev/v1","kind":"InvoiceSchedule",
				"metadata":{"name":%q,"namespace":"default"},
				"spec":{"customerRef":{"name":"acme"},"template":{"items":[{"description":"Rent","quantity":1,"amount":100}]},%s}}`,
				name, tt.spec)), &manifest); err != nil {
				t.Fatal(err)
			}
			err := c.Create(ctx, &unstructured.Unstructured{Object: manifest})
			if (err == nil) != tt.accepted {
				t.Fatalf("create: %v; want accepted %v", err, tt.accepted)
			}
		})
	}
}
