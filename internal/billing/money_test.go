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

package billing_test

import (
	"testing"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestMajorUnitsWritesTheCurrencysDecimals(t *testing.T) {
	for _, tc := range []struct {
		currency string
		amount   int64
		want     string
	}{
		{"USD", 1_500, "15.00"}, {"USD", 5, "0.05"}, {"JPY", 1_500, "1500"}, {"BHD", 1_500, "1.500"}, {"USD", -250, "-2.50"},
	} {
		if got := billing.MajorUnits(tc.currency, tc.amount); got != tc.want {
			t.Errorf("MajorUnits(%s, %d) = %q, want %q", tc.currency, tc.amount, got, tc.want)
		}
	}
}

func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		name     string
		currency string
		amount   int64
		want     string
	}{
		{"a currency with cents shows two decimals", "USD", 68_050, "USD 680.50"},
		{"an amount under one unit keeps its leading zero", "EUR", 5, "EUR 0.05"},
		{"zero shows its decimals", "USD", 0, "USD 0.00"},
		{"a currency without minor units shows none", "JPY", 500, "JPY 500"},
		{"a currency with three minor digits shows three", "KWD", 1_250, "KWD 1.250"},
		{"a negative amount takes its sign after the currency", "USD", -250, "USD -2.50"},
		{"the largest total is written in full", "USD", 9_007_199_254_740_991, "USD 90071992547409.91"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.Money(tc.currency, tc.amount); got != tc.want {
				t.Errorf("Money(%s, %d) = %q, want %q", tc.currency, tc.amount, got, tc.want)
			}
		})
	}
}
