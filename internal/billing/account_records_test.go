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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Records of an account for the statement and aging tests, each final and
// dated as the controllers leave it.

// march1 is 10:00 UTC on 1 March 2026; day(n) is n days later.
var march1 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// day is n days after march1, at 10:00 UTC.
func day(n int) time.Time { return march1.AddDate(0, 0, n) }

// mt is t as a metav1.Time.
func mt(t time.Time) *metav1.Time { return &metav1.Time{Time: t} }

// issuedInvoice is invoice name of customer, of total in currency, issued
// at issued and due termsDays later.
func accountInvoice(name, customer, currency string, total int64, issued time.Time, termsDays int) *billingv1.Invoice {
	return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: customer}, Currency: currency,
			Items: []billingv1.LineItem{{Description: "Work", Quantity: billingv1.Units(1), Amount: total}}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Total: amountPtr(total), IssuedAt: mt(issued),
			DueAt: mt(issued.AddDate(0, 0, termsDays)), Number: "INV-" + name}}
}

// issuedCreditNote is credit note name of invoice, of total, issued at at.
func issuedCreditNote(name, invoice string, total int64, at time.Time) *billingv1.CreditNote {
	return &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, IssuedAt: mt(at), Total: amountPtr(total),
			Number: "CN-" + name}}
}

// recordedPayment is payment name of amount to invoice, paid at at.
func recordedPayment(name, invoice string, amount int64, at time.Time) *billingv1.Payment {
	return &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Amount: amount, PaidAt: mt(at)},
		Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded}}
}

// appliedCredit is credit application name of amount to invoice, applied
// at at.
func appliedCredit(name, invoice string, amount int64, at time.Time) *billingv1.CreditApplication {
	return &billingv1.CreditApplication{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:   billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Amount: amount},
		Status: billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, AppliedAt: mt(at)}}
}

// recordedRefund is refund name of amount in currency to customer,
// refunded at at.
func recordedRefund(name, customer, currency string, amount int64, at time.Time) *billingv1.Refund {
	return &billingv1.Refund{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: customer}, Amount: amount,
			Currency: currency, RefundedAt: mt(at)},
		Status: billingv1.RefundStatus{Phase: billingv1.RefundRecorded}}
}

// recordedWriteOff is write-off name of invoice, of amount, recorded at at.
func recordedWriteOff(name, invoice string, amount int64, at time.Time) *billingv1.WriteOff {
	return &billingv1.WriteOff{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:   billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Reason: "bad debt"},
		Status: billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, RecordedAt: mt(at), Amount: amountPtr(amount)}}
}

// amountPtr is a pointer to amount.
func amountPtr(amount int64) *int64 { return &amount }
