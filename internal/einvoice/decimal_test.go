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

package einvoice

import (
	"testing"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestAmountWritesMinorUnitsWithTheCurrencysDecimals(t *testing.T) {
	usd, jpy := billing.Currency{Code: "USD", Digits: 2}, billing.Currency{Code: "JPY"}
	for _, c := range []struct {
		cur   billing.Currency
		minor int64
		want  string
	}{
		{usd, 68050, "680.50"},
		{usd, 5, "0.05"},
		{usd, 0, "0.00"},
		{usd, -120, "-1.20"},
		{usd, 123456789, "1234567.89"},
		{jpy, 1500, "1500"},
		{jpy, 0, "0"},
	} {
		if got := amount(c.cur, c.minor); got != c.want {
			t.Errorf("amount(%s, %d) = %q, want %q", c.cur.Code, c.minor, got, c.want)
		}
	}
}

func TestVATIDOfKeepsOnlyVATNumbersWithTheirCountryPrefix(t *testing.T) {
	for id, want := range map[string]string{
		"DE123456789":     "DE123456789",
		"FR 40 303265045": "FR40303265045",
		"el094259216":     "EL094259216",
		"IE1234567FA":     "IE1234567FA",
		"US-12-3456789":   "",
		"12-3456789":      "",
		"DEABC":           "",
		"":                "",
	} {
		if got := vatIDOf(id); got != want {
			t.Errorf("vatIDOf(%q) = %q, want %q", id, got, want)
		}
	}
}
