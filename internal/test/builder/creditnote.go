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

// CreditNoteOption changes a CreditNote of CreditNote.
type CreditNoteOption func(*billingv1.CreditNote)

// CreditNote returns a CreditNote named name in namespace ns that credits
// invoice for reason "other". Without options it credits no line (the API
// server refuses it); WithCreditedQuantity, WithCreditedAmount or
// WithFullCredit fill it in.
func CreditNote(ns, name, invoice string, opts ...CreditNoteOption) *billingv1.CreditNote {
	note := &billingv1.CreditNote{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.CreditNoteSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: invoice},
			Reason:     "other",
		},
	}
	for _, opt := range opts {
		opt(note)
	}
	return note
}

// WithCreditedQuantity appends a line crediting quantity units of the
// invoice's line at index line.
func WithCreditedQuantity(line int32, quantity int64) CreditNoteOption {
	return func(note *billingv1.CreditNote) {
		q := billingv1.Units(quantity)
		note.Spec.Lines = append(note.Spec.Lines, billingv1.CreditNoteLine{InvoiceLine: line, Quantity: &q})
	}
}

// WithCreditedAmount appends a line crediting amount (net, minor units) of
// the invoice's line at index line.
func WithCreditedAmount(line int32, amount int64) CreditNoteOption {
	return func(note *billingv1.CreditNote) {
		note.Spec.Lines = append(note.Spec.Lines, billingv1.CreditNoteLine{InvoiceLine: line, Amount: &amount})
	}
}

// WithFullCredit credits all that is left of the invoice.
func WithFullCredit() CreditNoteOption {
	return func(note *billingv1.CreditNote) { note.Spec.FullCredit = true }
}
