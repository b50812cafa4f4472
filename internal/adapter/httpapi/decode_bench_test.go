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

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// BenchmarkDecodeHostileBodies compares the cost of refusing hostile bodies
// of 1 MiB with the cost of decoding the largest valid invoice, side by
// side: the JSON value and depth budgets keep them of the same order.
func BenchmarkDecodeHostileBodies(b *testing.B) {
	pad := func(s string) []byte { return []byte(s + strings.Repeat(" ", MaxBodyBytes-len(s))) }
	largest := `{"customer_id":"c","items":[` +
		strings.TrimSuffix(strings.Repeat(`{"description":"`+strings.Repeat("d", 1000)+`","quantity":1,"amount":2},`,
			billing.MaxItems), ",") + `]}`
	for _, bc := range []struct {
		name string
		body string
	}{
		{"the largest valid invoice", largest},
		{"an array of numbers", `{"customer_id":"c","items":[` + strings.Repeat("0,", MaxBodyBytes/2-40) + `0]}`},
		{"nested arrays", `{"customer_id":"c","items":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`},
		{"a repeated key", `{"customer_id":"c","items":[{` + strings.Repeat(`"description":"x",`, 50_000) + `"a":1}]}`},
	} {
		body := pad(bc.body)
		b.Run(strings.ReplaceAll(bc.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = DecodeInvoice(body)
			}
		})
	}
}
