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

package ledger

import (
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// issuedInvoice is an issued invoice of total, due at dueAt, with ledger.
func issuedInvoice(total int64, dueAt time.Time, ledger *billingv1.InvoiceLedger) *billingv1.Invoice {
	inv := managertest.InvoiceInPhase("ns", "inv-1", "acme", billingv1.InvoiceIssued)
	inv.Status.Total = ptr.To(total)
	inv.Status.Sequence = ptr.To(int64(1))
	due := metav1.NewTime(dueAt)
	inv.Status.DueAt = &due
	inv.Status.Ledger = ledger
	return inv
}

func entries(amounts ...int64) []billingv1.LedgerEntry {
	out := make([]billingv1.LedgerEntry, len(amounts))
	for i, a := range amounts {
		out[i] = billingv1.LedgerEntry{Name: string(rune('a' + i)), UID: string(rune('a' + i)), Amount: a}
	}
	return out
}

func TestInvoiceBalance(t *testing.T) {
	later := managertest.Now.Add(time.Hour)
	for _, tc := range []struct {
		name  string
		inv   *billingv1.Invoice
		at    time.Time
		want  *billingv1.InvoiceBalance
		until time.Duration
	}{{
		name:  "a new invoice is open for its total, and becomes overdue at its due date",
		inv:   issuedInvoice(10_000, later, nil),
		at:    managertest.Now,
		want:  &billingv1.InvoiceBalance{AmountRemaining: 10_000, PaymentStatus: billingv1.InvoicePaymentOpen},
		until: time.Hour + overdueMargin,
	}, {
		name: "an invoice of total 0 is paid and never overdue",
		inv:  issuedInvoice(0, managertest.Now, nil),
		at:   later,
		want: &billingv1.InvoiceBalance{PaymentStatus: billingv1.InvoicePaymentPaid},
	}, {
		name: "a partly paid invoice past its due date is overdue",
		inv:  issuedInvoice(10_000, managertest.Now, &billingv1.InvoiceLedger{Payments: entries(4_000)}),
		at:   later,
		want: &billingv1.InvoiceBalance{AmountPaid: 4_000, AmountRemaining: 6_000,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid, Overdue: true},
	}, {
		name: "a fully credited invoice is void and not overdue",
		inv:  issuedInvoice(10_000, managertest.Now, &billingv1.InvoiceLedger{CreditNotes: entries(3_000, 7_000)}),
		at:   later,
		want: &billingv1.InvoiceBalance{AmountCredited: 10_000, PaymentStatus: billingv1.InvoicePaymentVoid},
	}, {
		name: "credits and payments beyond the total are overpaid",
		inv: issuedInvoice(10_000, managertest.Now, &billingv1.InvoiceLedger{
			CreditNotes: entries(2_000), Payments: entries(10_000)}),
		at: managertest.Now,
		want: &billingv1.InvoiceBalance{AmountCredited: 2_000, AmountPaid: 10_000, AmountOverpaid: 2_000,
			PaymentStatus: billingv1.InvoicePaymentPaid},
	}, {
		name: "an invoice that is not issued has no balance",
		inv:  managertest.InvoiceInPhase("ns", "inv-1", "acme", billingv1.InvoiceInvalid),
		at:   managertest.Now,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			got, err := billing.LedgerBalance(tc.inv, tc.at)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got).To(Equal(tc.want))
			g.Expect(untilOverdue(tc.inv, got, tc.at)).To(Equal(tc.until))
		})
	}
}
