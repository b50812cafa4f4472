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

package billing_test

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"errors"
	"math/rand/v2"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// invoiceToCredit is an issued invoice of lines, with the amounts
// ComputeAmounts gives them.
func invoiceToCredit(t *testing.T, lines ...billing.TaxedLine) *billing.InvoiceToCredit {
	t.Helper()
	amounts, err := billing.ComputeAmounts(lines)
	if err != nil {
		t.Fatalf("ComputeAmounts: %v", err)
	}
	return &billing.InvoiceToCredit{Lines: lines, Amounts: amounts}
}

// credit computes a credit note of lines against inv, applies it, and
// returns its total.
func credit(t *testing.T, inv *billing.InvoiceToCredit, lines ...billing.CreditLine) int64 {
	t.Helper()
	return creditNote(t, inv, billing.CreditParts{Lines: lines})
}

// creditNote computes a credit note of parts against inv, applies it, and
// returns its total.
func creditNote(t *testing.T, inv *billing.InvoiceToCredit, note billing.CreditParts) int64 {
	t.Helper()
	amounts, err := billing.ComputeCredit(inv, note)
	if err != nil {
		t.Fatalf("ComputeCredit(%+v): %v", note, err)
	}
	inv.Apply(note, amounts)
	return amounts.Total
}

func qty(line int, q int64) billing.CreditLine {
	return billing.CreditLine{InvoiceLine: line, Quantity: billingv1.Units(q)}
}
func amount(line int, a int64) billing.CreditLine {
	return billing.CreditLine{InvoiceLine: line, Amount: a}
}

func TestCreditingEachLineOfAThreeLineInvoiceCreditsExactlyItsTotal(t *testing.T) {
	// At 20%: the group's tax is 4433 (22166 x 0.2 = 4433.2); one line at
	// a time would round to 1367 + 1367 + 1700 = 4434.
	inv := invoiceToCredit(t, line(6833, standard("20")), line(6833, standard("20")), line(8500, standard("20")))
	if inv.Amounts.Total != 26_599 {
		t.Fatalf("invoice total = %d, want 26599", inv.Amounts.Total)
	}
	totals := []int64{credit(t, inv, qty(0, 1)), credit(t, inv, amount(1, 6833)), credit(t, inv, qty(2, 1))}
	want := []int64{6833 + 1367, 6833 + 1367, 8500 + 1699}
	var sum int64
	for i, got := range totals {
		if got != want[i] {
			t.Errorf("credit note %d total = %d, want %d", i, got, want[i])
		}
		sum += got
	}
	if sum != inv.Amounts.Total {
		t.Errorf("the credit notes credit %d, want exactly the invoice's total %d", sum, inv.Amounts.Total)
	}
	if inv.Remaining() != 0 {
		t.Errorf("Remaining() = %d, want 0", inv.Remaining())
	}
	if _, err := inv.FullCredit(); !errors.Is(err, billing.ErrFullyCredited) {
		t.Errorf("FullCredit() of a fully credited invoice: %v, want ErrFullyCredited", err)
	}
}

func TestPartialCreditsNeverTakeMoreTaxThanTheGroupHas(t *testing.T) {
	// Four lines of 1 at 50%: a tax of 2; each line alone rounds 0.5 up to 1.
	inv := invoiceToCredit(t, line(1, standard("50")), line(1, standard("50")), line(1, standard("50")), line(1, standard("50")))
	got := []int64{credit(t, inv, qty(0, 1)), credit(t, inv, qty(1, 1)), credit(t, inv, qty(2, 1)), credit(t, inv, qty(3, 1))}
	want := []int64{2, 2, 1, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("credit note %d total = %d, want %d (all: %v)", i, got[i], want[i], got)
		}
	}
	if inv.Remaining() != 0 {
		t.Errorf("Remaining() = %d, want 0", inv.Remaining())
	}
}

func TestAFullCreditAfterAPartialOneCreditsTheRest(t *testing.T) {
	inv := invoiceToCredit(t,
		billing.TaxedLine{Quantity: billingv1.Units(3), Amount: 15_000, Tax: standard("19")},
		billing.TaxedLine{Quantity: billingv1.Units(2), Amount: 2_450, Tax: standard("7")},
		billing.TaxedLine{Quantity: billingv1.Units(1), Amount: 999})
	first := credit(t, inv, qty(0, 1), amount(1, 1_000))
	note, err := inv.FullCredit()
	if err != nil {
		t.Fatal(err)
	}
	rest := creditNote(t, inv, note)
	if first+rest != inv.Amounts.Total {
		t.Errorf("credited %d + %d = %d, want the invoice's total %d", first, rest, first+rest, inv.Amounts.Total)
	}
}

func TestComputeCreditRefusesALineAtFault(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []billing.CreditLine
		index   int
		field   string
		exceeds bool
	}{
		{"a line that names no invoice line", []billing.CreditLine{qty(3, 1)}, 0, "invoice_line", false},
		{"a negative invoice line", []billing.CreditLine{qty(-1, 1)}, 0, "invoice_line", false},
		{"a line with both a quantity and an amount", []billing.CreditLine{{InvoiceLine: 0, Quantity: billingv1.Units(1), Amount: 1}}, 0, "quantity", false},
		{"a line with neither", []billing.CreditLine{{InvoiceLine: 0}}, 0, "quantity", false},
		{"a negative quantity", []billing.CreditLine{qty(0, -1)}, 0, "quantity", false},
		{"a negative amount", []billing.CreditLine{amount(0, -1)}, 0, "amount", false},
		{"more units than the line has", []billing.CreditLine{qty(0, 4)}, 0, "quantity", true},
		{"more net than the line has", []billing.CreditLine{amount(1, 4_901)}, 0, "amount", true},
		{"two lines of one note that together exceed their invoice line", []billing.CreditLine{qty(0, 2), qty(0, 2)}, 1, "quantity", true},
		{"units whose net exceeds what an amount credit left", []billing.CreditLine{amount(0, 40_000), qty(0, 1)}, 1, "quantity", true},
		{"no lines at all", nil, 0, "lines", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := invoiceToCredit(t,
				billing.TaxedLine{Quantity: billingv1.Units(3), Amount: 15_000, Tax: standard("19")},
				billing.TaxedLine{Quantity: billingv1.Units(2), Amount: 2_450, Tax: standard("7")})
			_, err := billing.ComputeCredit(inv, billing.CreditParts{Lines: tc.lines})
			var lineErr *billing.CreditLineError
			if !errors.As(err, &lineErr) {
				t.Fatalf("ComputeCredit error = %v, want a CreditLineError", err)
			}
			if lineErr.Index != tc.index || lineErr.Field != tc.field || lineErr.Exceeds != tc.exceeds {
				t.Errorf("error on line %d, field %s, exceeds %v (%v); want line %d, field %s, exceeds %v",
					lineErr.Index, lineErr.Field, lineErr.Exceeds, lineErr, tc.index, tc.field, tc.exceeds)
			}
		})
	}
}

// Whatever the lines, rates and order of partial credits, the credit notes
// of an invoice never credit more than its total, and crediting all of it
// credits exactly its total.
func TestRandomCreditsSumToExactlyTheInvoicesTotal(t *testing.T) {
	rates := []string{"19", "7", "5.5", "8.875", "20", "0.0001", "33.3333"}
	r := rand.New(rand.NewPCG(22, 23))
	for round := range 2_000 {
		n := 1 + r.IntN(6)
		lines := make([]billing.TaxedLine, n)
		for i := range lines {
			lines[i] = billing.TaxedLine{Quantity: billingv1.Units(1 + r.Int64N(5)), Amount: r.Int64N(100_000)}
			if r.IntN(5) > 0 {
				lines[i].Tax = standard(rates[r.IntN(len(rates))])
			}
		}
		inv := invoiceToCredit(t, lines...)
		var credited int64
		for inv.Remaining() > 0 {
			var note billing.CreditParts
			if r.IntN(4) == 0 {
				var err error
				if note, err = inv.FullCredit(); err != nil {
					t.Fatalf("round %d: FullCredit: %v", round, err)
				}
			} else {
				note.Lines = randomPartialCredit(r, inv)
				if note.Lines == nil {
					continue
				}
			}
			credited += creditNote(t, inv, note)
			if credited > inv.Amounts.Total {
				t.Fatalf("round %d: credited %d, above the invoice's total %d", round, credited, inv.Amounts.Total)
			}
		}
		if credited != inv.Amounts.Total {
			t.Fatalf("round %d: credited %d in all, want exactly the total %d (lines %+v)", round, credited, inv.Amounts.Total, lines)
		}
	}
}

// randomPartialCredit is a credit note of one line that credits part of
// what is left of a random invoice line, or nil when that line has none.
func randomPartialCredit(r *rand.Rand, inv *billing.InvoiceToCredit) []billing.CreditLine {
	i := r.IntN(len(inv.Lines))
	left := inv.Amounts.Lines[i].Net
	if i < len(inv.Credited.Lines) {
		left -= inv.Credited.Lines[i].Net
	}
	if left <= 0 {
		return nil
	}
	return []billing.CreditLine{amount(i, 1+r.Int64N(left))}
}
