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

// CreditApplication returns a CreditApplication named name in namespace ns
// that applies amount (minor units) of the invoice's customer's credit to
// invoice, in the invoice's currency.
func CreditApplication(ns, name, invoice string, amount int64) *billingv1.CreditApplication {
	return &billingv1.CreditApplication{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.CreditApplicationSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: invoice},
			Amount:     amount,
		},
	}
}

// RefundOption changes a Refund of Refund.
type RefundOption func(*billingv1.Refund)

// Refund returns a Refund named name in namespace ns that pays amount
// (minor units of currency) of customer's credit back to it.
func Refund(ns, name, customer string, amount int64, currency string, opts ...RefundOption) *billingv1.Refund {
	rf := &billingv1.Refund{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.RefundSpec{
			CustomerRef: billingv1.CustomerReference{Name: customer},
			Amount:      amount,
			Currency:    currency,
		},
	}
	for _, opt := range opts {
		opt(rf)
	}
	return rf
}

// WithRefundedAt sets spec.refundedAt.
func WithRefundedAt(at metav1.Time) RefundOption {
	return func(rf *billingv1.Refund) { rf.Spec.RefundedAt = &at }
}

// WriteOff returns a WriteOff named name in namespace ns that writes off
// what remains of invoice, for reason.
func WriteOff(ns, name, invoice, reason string) *billingv1.WriteOff {
	return &billingv1.WriteOff{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.WriteOffSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: invoice},
			Reason:     reason,
		},
	}
}
