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
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// recordedPayment returns payment's status Recorded against inv, in whose
// ledger it is entered, at now.
func recordedPayment(payment *billingv1.Payment, inv *billingv1.Invoice, now time.Time) billingv1.PaymentStatus {
	status := *payment.Status.DeepCopy()
	applied, overpaid := billing.PaymentSplit(inv, payment.Name, string(payment.UID), payment.Spec.Amount)
	status.Phase = billingv1.PaymentRecorded
	status.AppliedAmount, status.OverpaidAmount = &applied, &overpaid
	record(payment, recordedFields{conditions: &status.Conditions, customerName: &status.CustomerName,
		currency: &status.Currency, display: &status.Display, at: &status.RecordedAt, observedGeneration: &status.ObservedGeneration},
		recording{inv: inv, currency: billing.InvoiceCurrency(inv), amount: &payment.Spec.Amount, reason: billingv1.ReasonRecorded,
			message: "The payment is recorded in the invoice's balance"}, now)
	return status
}
