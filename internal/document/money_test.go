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

package document

import (
	"testing"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestMinorUnitsFollowISO4217(t *testing.T) {
	cases := []struct {
		code   string
		amount int64
		want   string
	}{
		{"JPY", 0, "JPY 0"},
		{"JPY", 1500, "JPY 1,500"},
		{"JPY", 1234567, "JPY 1,234,567"},
		{"USD", 0, "USD 0.00"},
		{"USD", 5, "USD 0.05"},
		{"USD", 68050, "USD 680.50"},
		{"USD", 123456789, "USD 1,234,567.89"},
		{"usd", 100, "USD 1.00"},
		{"EUR", 100000, "EUR 1,000.00"},
		{"BHD", 1, "BHD 0.001"},
		{"BHD", 1234, "BHD 1.234"},
		{"BHD", 1234567, "BHD 1,234.567"},
		{"USD", 1<<53 - 1, "USD 90,071,992,547,409.91"},
	}
	for _, tc := range cases {
		t.Run(tc.code+" "+tc.want, func(t *testing.T) {
			c, err := billing.ParseCurrency(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatMoney(c, tc.amount); got != tc.want {
				t.Errorf("Format(%d) = %q, want %q", tc.amount, got, tc.want)
			}
		})
	}
}
