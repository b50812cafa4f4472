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
	// MaxQuantity is the largest quantity of a line, in units; the
	// smallest is 0.0001 (one step of a DecimalQuantity).
	MaxQuantity = 1_000_000
	MinAmount   = 0
	MaxAmount   = 1_000_000_000_000
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

// Line is one line's quantity and unit price in minor units.
type Line struct {
	Quantity billingv1.DecimalQuantity
	Amount   int64
}

// Total returns the sum of the lines' gross amounts (Gross: quantity
// times amount, rounded half away from zero). It never overflows
// silently: a product or sum above MaxTotal yields ErrTotalTooLarge, and a
// negative quantity or amount an error, whatever the sizes of the inputs.
func Total(lines []Line) (int64, error) {
	var total uint64
	for i, l := range lines {
		if l.Quantity.Scaled() < 0 || l.Amount < 0 {
			return 0, fmt.Errorf("item %d: quantity and amount must not be negative", i)
		}
		gross, err := Gross(l.Quantity, l.Amount)
		if err != nil {
			return 0, err
		}
		// total and gross are both at most MaxTotal (< 2^54): no wrap-around.
		total += uint64(gross) //nolint:gosec // Gross is never negative
		if total > MaxTotal {
			return 0, ErrTotalTooLarge
		}
	}
	return int64(total), nil
}
