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

// This file is what an invoice's customer is told of its balance: the
// documents and e-mails they receive show what remains as they owe it,
// the credit notes that reduced it, and never a write-off.

// OwedByCustomer is what remains of an invoice of balance b as its
// customer is told it: amountRemaining with what the write-offs wrote off
// added back. A write-off is the issuer's own decision to stop collecting,
// internal to its books; the documents and e-mails the customer receives
// never show it, and what it wrote off is still owed there. 0 for nil.
func OwedByCustomer(b *billingv1.InvoiceBalance) int64 {
	if b == nil {
		return 0
	}
	return b.AmountRemaining + b.AmountWrittenOff
}

// AskedToPay is what the documents of an issued invoice with balance b
// and total ask its customer to pay by transfer: OwedByCustomer, or the
// total when b is nil (an invoice issued before balances existed, which
// nothing has settled).
func AskedToPay(b *billingv1.InvoiceBalance, total int64) int64 {
	if b == nil {
		return total
	}
	return OwedByCustomer(b)
}

// SettledForCustomer reports whether anything the customer is told of
// settled part of an invoice of balance b: a credit note, a payment or
// applied credit (a write-off is not one, OwedByCustomer).
func SettledForCustomer(b *billingv1.InvoiceBalance) bool {
	return b != nil && b.AmountCredited+b.AmountPaid+b.AmountApplied > 0
}

// CreditedBy is an issued credit note that reduced an invoice, as the
// invoice's documents list it.
type CreditedBy struct {
	// Number is the credit note's number; its name while notes does not
	// hold it (CreditNotesOf).
	Number string
	// Amount is its total, as the invoice's ledger holds it.
	Amount int64
}

// CreditNotesOf are the credit notes in inv's ledger, in the order they
// were entered, each with its number as notes (the invoice's credit
// notes, matched by uid) gives it; one notes lacks (deleted, or not yet
// numbered) is named by its metadata.name.
func CreditNotesOf(inv *billingv1.Invoice, notes []*billingv1.CreditNote) []CreditedBy {
	if inv.Status.Ledger == nil {
		return nil
	}
	numbers := make(map[string]string, len(notes))
	for _, cn := range notes {
		if cn != nil && cn.Status.Number != "" {
			numbers[string(cn.UID)] = cn.Status.Number
		}
	}
	out := make([]CreditedBy, 0, len(inv.Status.Ledger.CreditNotes))
	for _, e := range inv.Status.Ledger.CreditNotes {
		number := numbers[e.UID]
		if number == "" {
			number = e.Name
		}
		out = append(out, CreditedBy{Number: number, Amount: e.Amount})
	}
	return out
}
