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

// Package billing holds the money and identity rules shared by the invoice
// controller and the HTTP adapter: how an invoice's total and tax are
// computed, what a credit note credits and what an invoice's balance is, which
// currencies exist and how many minor units they have, what an e-mail
// address is, and how new object ids are made. Keeping them in one
// place is what guarantees that kubectl and HTTP clients see the same numbers.
package billing

import (
	"errors"
	"fmt"
	"math/bits"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// MaxTotal is the largest total an invoice may have: 2^53-1, the largest
// integer every JSON client (JavaScript's Number included) reads exactly.
const MaxTotal = 1<<53 - 1

// Bounds of a line item, the same as the Invoice CRD's validation.
const (
	MinItems       = 1
	MaxItems       = 500
	MaxDescription = 1000
	MinQuantity    = 1
	MaxQuantity    = 1_000_000
	MinAmount      = 0
	MaxAmount      = 1_000_000_000_000
)

// DefaultCurrency is the currency of an invoice that names none, the same as
// the Invoice CRD's default for spec.currency.
const DefaultCurrency = "USD"

// InvoiceCurrency is inv's currency: the one it names, else
// DefaultCurrency.
func InvoiceCurrency(inv *billingv1.Invoice) string {
	if inv.Spec.Currency == "" {
		return DefaultCurrency
	}
	return inv.Spec.Currency
}

// ErrTotalTooLarge is returned when a total exceeds MaxTotal.
var ErrTotalTooLarge = errors.New("total exceeds 9007199254740991 (2^53-1) minor units")

// Line is one line item: how many units, at what price each.
type Line struct {
	Quantity int64
	Amount   int64
}

// Total returns the sum of Quantity*Amount over lines. It never overflows
// silently: a product or sum above MaxTotal yields ErrTotalTooLarge, and a
// negative quantity or amount an error, whatever the sizes of the inputs.
func Total(lines []Line) (int64, error) {
	var total uint64
	for i, l := range lines {
		if l.Quantity < 0 || l.Amount < 0 {
			return 0, fmt.Errorf("item %d: quantity and amount must not be negative", i)
		}
		hi, product := bits.Mul64(uint64(l.Quantity), uint64(l.Amount))
		if hi != 0 || product > MaxTotal {
			return 0, ErrTotalTooLarge
		}
		// total and product are both at most MaxTotal (< 2^54): no wrap-around.
		total += product
		if total > MaxTotal {
			return 0, ErrTotalTooLarge
		}
	}
	return int64(total), nil
}

// InvoiceTotal is Total over an Invoice's line items: the one computation
// behind both the controller's status.total and the HTTP adapter's total.
func InvoiceTotal(items []billingv1.LineItem) (int64, error) {
	lines := make([]Line, len(items))
	for i, it := range items {
		lines[i] = Line{Quantity: it.Quantity, Amount: it.Amount}
	}
	return Total(lines)
}
