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

	kptr "k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// ledgerEntries are entries of amounts named and uid'd "a", "b", ...
func ledgerEntries(amounts ...int64) []billingv1.LedgerEntry {
	out := make([]billingv1.LedgerEntry, len(amounts))
	for i, a := range amounts {
		name := string(rune('a' + i))
		out[i] = billingv1.LedgerEntry{Name: name, UID: name, Amount: a}
	}
	return out
}

func TestPaymentSplit(t *testing.T) {
	inv := &billingv1.Invoice{Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
		Total: kptr.To[int64](10_000), Ledger: &billingv1.InvoiceLedger{
			CreditNotes:        ledgerEntries(1_000),
			CreditApplications: ledgerEntries(500),
			Payments:           ledgerEntries(6_000, 6_000, 6_000),
			WriteOffs:          ledgerEntries(2_000),
		}}}
	for _, tc := range []struct {
		name              string
		entry             string
		applied, overpaid int64
	}{
		{"the first payment applies all of it", "a", 6_000, 0},
		{"the second applies what remained after the credit, the applied credit and the first", "b", 2_500, 3_500},
		{"the third applies nothing", "c", 0, 6_000},
		{"a payment not in the ledger yet counts all the payments before it", "z", 0, 6_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			applied, overpaid := billing.PaymentSplit(inv, tc.entry, tc.entry, 6_000)
			if applied != tc.applied || overpaid != tc.overpaid {
				t.Errorf("PaymentSplit = %d, %d; want %d, %d", applied, overpaid, tc.applied, tc.overpaid)
			}
		})
	}
}
