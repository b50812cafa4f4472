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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// PaymentOption changes a Payment of Payment.
type PaymentOption func(*billingv1.Payment)

// Payment returns a Payment named name in namespace ns of amount (minor
// units) towards invoice, in the invoice's currency unless
// WithPaymentCurrency sets one.
func Payment(ns, name, invoice string, amount int64, opts ...PaymentOption) *billingv1.Payment {
	payment := &billingv1.Payment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.PaymentSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: invoice},
			Amount:     amount,
		},
	}
	for _, opt := range opts {
		opt(payment)
	}
	return payment
}

// WithPaymentCurrency sets spec.currency.
func WithPaymentCurrency(currency string) PaymentOption {
	return func(p *billingv1.Payment) { p.Spec.Currency = currency }
}

// WithPaidAt sets spec.paidAt.
func WithPaidAt(at metav1.Time) PaymentOption {
	return func(p *billingv1.Payment) { p.Spec.PaidAt = &at }
}
