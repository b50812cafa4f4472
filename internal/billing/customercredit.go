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
	"slices"
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// A customer's credit (docs/ledger.md#money-on-account): its invoices'
// amountOverpaid, as entered in its status (sources), less the credit
// applications and refunds that spent it (uses), plus what the entries
// folded out of the ledger once their records were sealed left (carried,
// creditfold.go). These functions are the one place it is derived from
// the status; the manager writes what they return, the adapter answers
// and checks against it. Aging replays it from the records (account.go);
// a seeded random test holds the two equal, folded or not
// (customercredit_equality_test.go).

// CreditBalance is the customer's credit per currency, carried and
// sources less uses, in currency order, without the currencies at 0.
func CreditBalance(credit *billingv1.CustomerCredit) []billingv1.CurrencyAmount {
	if credit == nil {
		return nil
	}
	sums := map[string]int64{}
	for _, c := range credit.Carried {
		sums[c.Currency] += c.Amount
	}
	for _, s := range credit.Sources {
		sums[s.Currency] += s.Amount
	}
	for _, u := range credit.Uses {
		sums[u.Currency] -= u.Amount
	}
	var out []billingv1.CurrencyAmount
	for currency, amount := range sums {
		if amount > 0 {
			out = append(out, billingv1.CurrencyAmount{Currency: currency, Amount: amount})
		}
	}
	slices.SortFunc(out, func(a, b billingv1.CurrencyAmount) int { return strings.Compare(a.Currency, b.Currency) })
	return out
}

// AvailableCredit is customer's credit in currency, as its status holds it.
func AvailableCredit(customer *billingv1.Customer, currency string) int64 {
	for _, b := range CreditBalance(customer.Status.Credit) {
		if b.Currency == currency {
			return b.Amount
		}
	}
	return 0
}

// CreditSummary is balance for people: "EUR 15.00, USD 2.50".
func CreditSummary(balance []billingv1.CurrencyAmount) string {
	parts := make([]string, 0, len(balance))
	for _, b := range balance {
		parts = append(parts, Money(b.Currency, b.Amount))
	}
	return strings.Join(parts, ", ")
}

// withDerived returns credit with its balance and summary computed afresh.
func withDerived(credit *billingv1.CustomerCredit) *billingv1.CustomerCredit {
	credit.Balance = CreditBalance(credit)
	credit.Summary = CreditSummary(credit.Balance)
	return credit
}

// copyCredit returns a deep copy of credit, or an empty credit for nil.
func copyCredit(credit *billingv1.CustomerCredit) *billingv1.CustomerCredit {
	if credit == nil {
		return &billingv1.CustomerCredit{}
	}
	return credit.DeepCopy()
}

// WithSource returns a copy of credit in which invoice inv (its name and
// uid) is a source of amount in its currency, with eventSequence: the
// amount of an invoice already entered only grows, since an invoice's
// amountOverpaid never decreases. changed is false when credit held it
// already.
func WithSource(credit *billingv1.CustomerCredit, inv *billingv1.Invoice, amount, eventSequence int64) (
	out *billingv1.CustomerCredit, changed bool) {
	out = copyCredit(credit)
	for i := range out.Sources {
		s := &out.Sources[i]
		if s.Invoice != inv.Name || s.UID != string(inv.UID) {
			continue
		}
		if amount <= s.Amount {
			return withDerived(out), false
		}
		s.Amount, s.EventSequence = amount, max(s.EventSequence, eventSequence)
		return withDerived(out), true
	}
	out.Sources = append(out.Sources, billingv1.CreditSource{Invoice: inv.Name, UID: string(inv.UID),
		Currency: InvoiceCurrency(inv), Amount: amount, EventSequence: eventSequence})
	return withDerived(out), true
}

// CreditHolds reports whether credit holds inv (its name and uid) as a
// source of amount or more, listed in sources. A source folded into
// carried is not listed any more: its invoice is sealed, and who asks
// (the customer reconciler before it enters a source, the sealer before
// it seals an invoice) asks of live invoices not sealed yet only; the
// customer reconciler never enters a source for a sealed invoice.
func CreditHolds(credit *billingv1.CustomerCredit, inv *billingv1.Invoice, amount int64) bool {
	if credit == nil {
		return false
	}
	for _, s := range credit.Sources {
		if s.Invoice == inv.Name && s.UID == string(inv.UID) && s.Amount >= amount {
			return true
		}
	}
	return false
}

// FindUse returns the use of kind named name with uid in credit, or nil.
// A use folded into carried is not found: its record is sealed, final, and
// never entered again, so its reconciler does not look for it; a record
// made again under its name has another uid, and is refused as sealed
// already.
func FindUse(credit *billingv1.CustomerCredit, kind billingv1.CreditUseKind, name, uid string) *billingv1.CreditUse {
	if credit == nil {
		return nil
	}
	for i := range credit.Uses {
		if u := &credit.Uses[i]; u.Kind == kind && u.Name == name && u.UID == uid {
			return u
		}
	}
	return nil
}

// WithUse returns a copy of credit with use entered after the others.
func WithUse(credit *billingv1.CustomerCredit, use billingv1.CreditUse) *billingv1.CustomerCredit {
	out := copyCredit(credit)
	out.Uses = append(out.Uses, use)
	return withDerived(out)
}

// WithoutUse returns a copy of credit without the use of kind named name
// with uid: the hold of a credit application that did not fit its invoice,
// given back before it is rejected.
func WithoutUse(credit *billingv1.CustomerCredit, kind billingv1.CreditUseKind, name, uid string) *billingv1.CustomerCredit {
	out := copyCredit(credit)
	out.Uses = slices.DeleteFunc(out.Uses, func(u billingv1.CreditUse) bool {
		return u.Kind == kind && u.Name == name && u.UID == uid
	})
	return withDerived(out)
}

// CreditEventsAfter is the highest event sequence of the sources of credit
// in currency, those folded into carried included: a use's event comes
// after the events that gave the credit.
func CreditEventsAfter(credit *billingv1.CustomerCredit, currency string) int64 {
	var after int64
	if credit != nil {
		for _, c := range credit.Carried {
			if c.Currency == currency {
				after = max(after, c.EventSequence)
			}
		}
		for _, s := range credit.Sources {
			if s.Currency == currency {
				after = max(after, s.EventSequence)
			}
		}
	}
	return after
}

// InvoiceRemaining is what inv leaves to pay according to its ledger, and
// whether it is issued with a total.
func InvoiceRemaining(inv *billingv1.Invoice) (int64, bool) {
	// The time only decides overdue, on which what remains does not depend;
	// LedgerBalance answers nil for an invoice not issued or without a total.
	b, err := LedgerBalance(inv, time.Time{})
	if err != nil || b == nil {
		return 0, false
	}
	return b.AmountRemaining, true
}
