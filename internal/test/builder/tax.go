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

package builder

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Tax returns a line's tax of category at rate ("" for none, as category O
// has) with reason as its exemption reason ("" for none).
func Tax(category billingv1.TaxCategory, rate, reason string) *billingv1.Tax {
	t := &billingv1.Tax{Category: category, ExemptionReason: reason}
	if rate != "" {
		t.Rate = &rate
	}
	return t
}

// StandardTax is category S at rate, for example StandardTax("19").
func StandardTax(rate string) *billingv1.Tax {
	return Tax(billingv1.TaxStandard, rate, "")
}

// ReverseCharge is category AE at rate 0 with the exemption reason
// "Reverse charge".
func ReverseCharge() *billingv1.Tax {
	return Tax(billingv1.TaxReverseCharge, "0", "Reverse charge")
}
