/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package billing

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// BalanceOf returns inv's balance as the API shows it, total being its
// total (TotalsOf; nil when it cannot be computed): the controller's
// (status.balance) once it has computed it; for an issued invoice it has
// not yet looked at since balances existed, nothing credited or paid and
// the total remaining, not overdue. It is nil until the invoice is
// issued. The result may share memory with inv: read it, never change it.
func BalanceOf(inv *billingv1.Invoice, total *int64) *billingv1.InvoiceBalance {
	if inv.EffectivePhase() != billingv1.InvoiceIssued {
		return nil
	}
	if b := inv.Status.Balance; b != nil {
		return b
	}
	if total == nil {
		return nil
	}
	computed, err := ComputeBalance(*total, nil, nil)
	if err != nil {
		return nil
	}
	return &billingv1.InvoiceBalance{AmountRemaining: computed.Remaining,
		PaymentStatus: billingv1.InvoicePaymentStatus(computed.Status)}
}
