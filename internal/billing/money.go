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

import "fmt"

// Money and MajorUnits write an amount in minor units for people: the one
// way kubectl shows money, in the customer's credit summary and in the
// status.display of invoices, credit notes, payments, credit applications,
// refunds and write-offs (docs/kubectl.md).

// Money writes amount, in minor units of currency, as the currency and its
// major units: "USD 680.50", "JPY 500", "KWD 1.250".
func Money(currency string, amount int64) string {
	return currency + " " + MajorUnits(currency, amount)
}

// MajorUnits writes amount, in minor units of currency, in major units with
// the currency's number of decimals ("1500" EUR is "15.00"); a currency it
// does not know takes 2.
func MajorUnits(currency string, amount int64) string {
	digits := 2
	if c, err := ParseCurrency(currency); err == nil {
		digits = c.Digits
	}
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	if digits == 0 {
		return fmt.Sprintf("%s%d", sign, amount)
	}
	scale := int64(1)
	for range digits {
		scale *= 10
	}
	return fmt.Sprintf("%s%d.%0*d", sign, amount/scale, digits, amount%scale)
}
