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

package apiobject

import (
	"cmp"
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Payment is the /v1 representation of a Payment. AppliedAmount and
// OverpaidAmount are null until it is recorded.
type Payment struct {
	ID             string  `json:"id"`
	Object         string  `json:"object"`
	InvoiceID      string  `json:"invoice_id"`
	CustomerID     string  `json:"customer_id"`
	Amount         int64   `json:"amount"`
	Currency       string  `json:"currency"`
	PaidAt         string  `json:"paid_at"`
	Method         string  `json:"method"`
	Reference      *string `json:"reference"`
	Status         string  `json:"status"`
	AppliedAmount  *int64  `json:"applied_amount"`
	OverpaidAmount *int64  `json:"overpaid_amount"`
	CreatedAt      string  `json:"created_at"`
	// Seal is the name of the seal that holds it; null while it is live.
	Seal *string `json:"seal"`
}

// DefaultPaymentMethod is a payment's method when none is given.
const DefaultPaymentMethod = billingv1.PaymentMethod("other")

// PaymentOf is the /v1 representation of p. inv is its invoice, or nil
// when it cannot be read; it gives the customer and currency of a payment
// the controller has not yet recorded.
func PaymentOf(p *billingv1.Payment, inv *billingv1.Invoice) Payment {
	st := &p.Status
	phase := cmp.Or(st.Phase, billingv1.PaymentPending)
	method, paidAt := methodAndDate(p.Spec.Method, billing.PaymentDate(p))
	out := Payment{
		ID: p.Name, Object: "payment", InvoiceID: p.Spec.InvoiceRef.Name, CustomerID: st.CustomerName,
		Amount: p.Spec.Amount, Currency: cmp.Or(p.Spec.Currency, st.Currency), PaidAt: paidAt, Method: method,
		Reference: optional(p.Spec.Reference), Status: strings.ToLower(string(phase)),
		CreatedAt: timestamp(p.CreationTimestamp.Time), Seal: SealOfRecord(p),
	}
	if phase == billingv1.PaymentRecorded {
		out.AppliedAmount, out.OverpaidAmount = st.AppliedAmount, st.OverpaidAmount
	}
	out.CustomerID, out.Currency = withInvoiceParties(out.CustomerID, out.Currency, inv)
	return out
}

// methodAndDate are how and when money moved, for a payment or a refund:
// method, or the default "other", and at, its date (billing.PaymentDate,
// billing.RefundDate).
func methodAndDate(method billingv1.PaymentMethod, at time.Time) (string, string) {
	if method == "" {
		method = DefaultPaymentMethod
	}
	return string(method), timestamp(at)
}
