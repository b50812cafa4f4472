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

package banking

import (
	"fmt"
	"slices"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// This file decides, once, what a new bank transaction is: the pure rules
// of docs/payments.md#matching.

// invoicesByKey returns the issued invoices of the transaction's workspace
// whose banktransfer.InvoiceKey is key.
type invoicesByKey func(key string) ([]*billingv1.Invoice, error)

// verdict is what a transaction is found to be: matched to invoice by how,
// or unmatched or ignored for reason.
type verdict struct {
	phase   billingv1.BankTransactionPhase
	reason  billingv1.BankMatchReason
	how     billingv1.BankMatchedBy
	invoice *billingv1.Invoice
	message string
}

// decide is what entry e is, booked in a closed period or not, with the
// invoices lookup finds:
//   - a debit, or a reversal: ignored;
//   - booked in a closed period: unmatched (period_closed), its payment
//     could never be entered;
//   - an ISO 11649 reference it quotes (structured, or in its text) that is
//     one issued invoice's payment reference: matched by reference, for
//     any amount (more than remains is overpaid, as for every payment);
//   - else an invoice number in its text whose invoice has exactly the
//     amount left to pay (amount_remaining, or that with what was written
//     off added back, which the customer still owes): matched by number
//     and amount;
//   - else unmatched: no_match, or currency_mismatch when what it names is
//     in another currency, or ambiguous_reference when it names several.
func decide(e *billingv1.BankEntry, closed bool, lookup invoicesByKey) (verdict, error) {
	switch {
	case e.CreditDebit == billingv1.Debit:
		return verdict{phase: billingv1.BankTransactionIgnored, reason: billingv1.BankReasonDebit,
			message: "A debit pays no invoice."}, nil
	case e.Reversal:
		return verdict{phase: billingv1.BankTransactionIgnored, reason: billingv1.BankReasonReversal,
			message: "A reversal of an earlier entry pays no invoice."}, nil
	case closed:
		return unmatched(billingv1.BankReasonPeriodClosed,
			"It was booked on %s, in a closed period: no payment can be entered then.", e.BookingDate), nil
	}
	byRef, err := referenced(e, lookup)
	if err != nil {
		return verdict{}, err
	}
	if len(byRef) > 0 {
		return pick(e, byRef, billingv1.MatchedByReference, "its payment reference")
	}
	named, err := numbered(e, lookup)
	if err != nil {
		return verdict{}, err
	}
	var exact []*billingv1.Invoice
	for _, inv := range named {
		if b := billing.BalanceOf(inv, inv.Status.Total); b != nil && e.Amount > 0 &&
			(b.AmountRemaining == e.Amount || billing.OwedByCustomer(b) == e.Amount) {
			exact = append(exact, inv)
		}
	}
	if len(exact) > 0 {
		return pick(e, exact, billingv1.MatchedByNumberAndAmount, "its number and the amount that remained")
	}
	if len(named) > 0 {
		return unmatched(billingv1.BankReasonNoMatch,
			"It names invoice %s, but its amount %d is not the %d that remains to pay.",
			named[0].Status.Number, e.Amount, remaining(named[0])), nil
	}
	return unmatched(billingv1.BankReasonNoMatch,
		"No payment reference or invoice number in it names an issued invoice."), nil
}

// pick matches e to the one invoice of found, found by what; several are
// ambiguous, one in another currency a mismatch.
func pick(e *billingv1.BankEntry, found []*billingv1.Invoice, how billingv1.BankMatchedBy, what string) (verdict, error) {
	if len(found) > 1 {
		numbers := make([]string, len(found))
		for i, inv := range found {
			numbers[i] = inv.Status.Number
		}
		return unmatched(billingv1.BankReasonAmbiguous, "It names several invoices by %s: %v.", what, numbers), nil
	}
	inv := found[0]
	if currency := billing.InvoiceCurrency(inv); currency != e.Currency {
		return unmatched(billingv1.BankReasonCurrencyMismatch,
			"It names invoice %s by %s, which is in %s, not %s.", inv.Status.Number, what, currency, e.Currency), nil
	}
	return verdict{phase: billingv1.BankTransactionMatched, how: how, invoice: inv,
		message: fmt.Sprintf("It pays invoice %s, found by %s.", inv.Status.Number, what)}, nil
}

func unmatched(reason billingv1.BankMatchReason, format string, args ...any) verdict {
	return verdict{phase: billingv1.BankTransactionUnmatched, reason: reason, message: fmt.Sprintf(format, args...)}
}

// referenced is the issued invoices whose payment reference e quotes:
// in its structured references or its text, each invoice once.
func referenced(e *billingv1.BankEntry, lookup invoicesByKey) ([]*billingv1.Invoice, error) {
	var refs []string
	for _, r := range e.StructuredReferences {
		if banktransfer.Valid(r) {
			refs = append(refs, banktransfer.Normalize(r))
		}
	}
	refs = append(refs, banktransfer.Find(e.RemittanceText)...)
	var found []*billingv1.Invoice
	for _, ref := range refs {
		invoices, err := lookup(ref[4:])
		if err != nil {
			return nil, err
		}
		for _, inv := range invoices {
			if inv.Status.PaymentReference == ref && !slices.Contains(found, inv) {
				found = append(found, inv)
			}
		}
	}
	return found, nil
}

// numbered is the issued invoices whose number e's text or structured
// references quote, each once (lookup finds an invoice by its number's
// key, so every invoice it returns is one of them).
func numbered(e *billingv1.BankEntry, lookup invoicesByKey) ([]*billingv1.Invoice, error) {
	keys := banktransfer.NumberKeys(e.RemittanceText)
	for _, r := range e.StructuredReferences {
		keys = append(keys, banktransfer.NumberKeys(r)...)
	}
	var found []*billingv1.Invoice
	for _, key := range keys {
		invoices, err := lookup(key)
		if err != nil {
			return nil, err
		}
		for _, inv := range invoices {
			if !slices.Contains(found, inv) {
				found = append(found, inv)
			}
		}
	}
	return found, nil
}

// remaining is what remains to pay of inv as its customer is told it
// (written off or not); 0 before it has a balance.
func remaining(inv *billingv1.Invoice) int64 {
	return billing.OwedByCustomer(billing.BalanceOf(inv, inv.Status.Total))
}
