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

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// PaymentSplit splits a payment of amount, entered in inv's ledger under
// name and uid, into what it applied to the invoice (at most what remained
// before it: the total less the credit notes, the applied credit and the
// payments entered before it; a write-off does not count, since a payment
// recovers it) and what it overpaid.
// It depends only on the ledger, so a retry after a crash splits alike.
func PaymentSplit(inv *billingv1.Invoice, name, uid string, amount int64) (applied, overpaid int64) {
	remaining := int64(0)
	if inv.Status.Total != nil {
		remaining = *inv.Status.Total
	}
	if ledger := inv.Status.Ledger; ledger != nil {
		for _, c := range ledger.CreditNotes {
			remaining -= c.Amount
		}
		for _, a := range ledger.CreditApplications {
			remaining -= a.Amount
		}
		for _, p := range ledger.Payments {
			if p.Name == name && p.UID == uid {
				break
			}
			remaining -= p.Amount
		}
	}
	applied = min(amount, max(remaining, 0))
	return applied, amount - applied
}
