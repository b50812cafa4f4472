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

package billing

import "testing"

func TestOnlyISO4217CodesAreCurrencies(t *testing.T) {
	for code, want := range map[string]bool{
		"USD": true, "usd": true, "JPY": true, "BHD": true, "CHF": true, "EUR": true,
		"XYZ": false, "ABC": false, "US": false, "USDD": false, "": false, "U$D": false,
	} {
		if got := ValidCurrency(code); got != want {
			t.Errorf("ValidCurrency(%q) = %v, want %v", code, got, want)
		}
	}
}
