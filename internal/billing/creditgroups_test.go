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
	"errors"
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// adjustedInvoice is an issued invoice of lines, allowances and charges,
// with the amounts ComputeDocument gives them.
func adjustedInvoice(lines []billing.TaxedLine, allowances, charges []billing.Adjustment) (*billing.InvoiceToCredit, error) {
	amounts, err := billing.ComputeDocument(lines, allowances, charges)
	if err != nil {
		return nil, err
	}
	inv := &billing.InvoiceToCredit{Lines: lines, Amounts: amounts}
	for i, a := range amounts.Allowances {
		inv.Allowances = append(inv.Allowances, billing.Adjustment{Amount: a.Amount, Tax: allowances[i].Tax})
	}
	for i, c := range amounts.Charges {
		inv.Charges = append(inv.Charges, billing.Adjustment{Amount: c.Amount, Tax: charges[i].Tax})
	}
	return inv, nil
}

func mustAdjustedInvoice(t *testing.T, lines []billing.TaxedLine, allowances, charges []billing.Adjustment) *billing.InvoiceToCredit {
	t.Helper()
	inv, err := adjustedInvoice(lines, allowances, charges)
	if err != nil {
		t.Fatalf("ComputeDocument: %v", err)
	}
	return inv
}

func quantity(s string) billingv1.DecimalQuantity {
	q, err := billingv1.ParseDecimalQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

func qtyOf(line int, q string) billing.CreditLine {
	return billing.CreditLine{InvoiceLine: line, Quantity: quantity(q)}
}

func off(amount int64, tax *billing.LineTax) billing.Adjustment {
	return billing.Adjustment{Amount: amount, Tax: tax}
}

func TestACreditNoteCreditsDecimalQuantitiesAndDiscountedLinesProRata(t *testing.T) {
	tenPercent := billing.Percent(1000)
	for _, tc := range []struct {
		name  string
		line  billing.TaxedLine
		notes []string
		nets  []int64
	}{{
		name:  "2.5 of 7.5 hours less 10 % credit a third of the net, the rest the other two thirds",
		line:  billing.TaxedLine{Quantity: quantity("7.5"), Amount: 12_000, Discount: &billing.Adjustment{Percent: &tenPercent}},
		notes: []string{"2.5", "5"},
		nets:  []int64{27_000, 54_000},
	}, {
		name:  "thirds of a discounted net round half away from zero, and the last takes the rest",
		line:  billing.TaxedLine{Quantity: quantity("3"), Amount: 3_333, Discount: &billing.Adjustment{Percent: &tenPercent}},
		notes: []string{"1", "1", "1"},
		nets:  []int64{3_000, 2_999, 3_000},
	}, {
		name:  "four decimals of a large price are exact",
		line:  billing.TaxedLine{Quantity: quantity("0.0003"), Amount: 9_007_199_254_740, Discount: &billing.Adjustment{Amount: 1}},
		notes: []string{"0.0001", "0.0002"},
		nets:  []int64{900_719_925, 1_801_439_850},
	}, {
		name:  "an amount discount is credited pro rata too",
		line:  billing.TaxedLine{Quantity: quantity("4"), Amount: 2_500, Discount: &billing.Adjustment{Amount: 1_000}},
		notes: []string{"1.5", "2.5"},
		nets:  []int64{3_375, 5_625},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tc.line.Tax = standard("19")
			inv := mustAdjustedInvoice(t, []billing.TaxedLine{tc.line}, nil, nil)
			var total int64
			for i, q := range tc.notes {
				amounts, err := billing.ComputeCredit(inv, billing.CreditParts{Lines: []billing.CreditLine{qtyOf(0, q)}})
				if err != nil {
					t.Fatalf("credit note %d: %v", i, err)
				}
				if amounts.LineNets[0] != tc.nets[i] {
					t.Errorf("credit note %d credits a net of %d, want %d", i, amounts.LineNets[0], tc.nets[i])
				}
				inv.Apply(billing.CreditParts{Lines: []billing.CreditLine{qtyOf(0, q)}}, amounts)
				total += amounts.Total
			}
			if total != inv.Amounts.Total || inv.Remaining() != 0 {
				t.Errorf("credited %d, %d left; want the invoice's total %d, nothing left", total, inv.Remaining(), inv.Amounts.Total)
			}
		})
	}
}

func TestACreditNotesAllowancesAndChargesCreditEachTaxGroupsBase(t *testing.T) {
	s21, s7 := standard("21"), standard("7")
	// The reference case: 3 x 45.00 at 21 % less 60.00 at 21 %: base
	// 75.00, tax 15.75, total 90.75; and a line of 10.00 at 7 % with 5.00
	// of freight at 7 %: base 15.00, tax 1.05.
	reference := func(t *testing.T) *billing.InvoiceToCredit {
		t.Helper()
		return mustAdjustedInvoice(t,
			[]billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4_500, Tax: s21}, line(1_000, s7)},
			[]billing.Adjustment{off(6_000, s21)}, []billing.Adjustment{off(500, s7)})
	}
	for _, tc := range []struct {
		name   string
		note   billing.CreditParts
		totals []int64
		err    func(error) bool
	}{{
		name:   "returning all the goods under the document allowance credits what was charged for them",
		note:   billing.CreditParts{Lines: []billing.CreditLine{qty(0, 3)}, Allowances: []billing.Adjustment{off(6_000, s21)}},
		totals: []int64{9_075},
	}, {
		name: "returning them without the allowance exceeds what is left of their group",
		note: billing.CreditParts{Lines: []billing.CreditLine{qty(0, 3)}},
		err:  func(err error) bool { return errors.Is(err, billing.ErrExceedsCreditable) },
	}, {
		name:   "one unit less a part of the allowance credits its base and tax",
		note:   billing.CreditParts{Lines: []billing.CreditLine{qty(0, 1)}, Allowances: []billing.Adjustment{off(2_000, s21)}},
		totals: []int64{2_500 + 525},
	}, {
		name:   "a charge of the note's own is credited in its group",
		note:   billing.CreditParts{Lines: []billing.CreditLine{qty(1, 1)}, Charges: []billing.Adjustment{off(500, s7)}},
		totals: []int64{1_500 + 105},
	}, {
		name: "a charge that takes its group above what is left exceeds it",
		note: billing.CreditParts{Lines: []billing.CreditLine{qty(1, 1)}, Charges: []billing.Adjustment{off(501, s7)}},
		err:  func(err error) bool { return errors.Is(err, billing.ErrExceedsCreditable) },
	}, {
		name: "an allowance above the note's base in its group is refused as on an invoice",
		note: billing.CreditParts{Lines: []billing.CreditLine{qty(1, 1)}, Allowances: []billing.Adjustment{off(1_001, s7)}},
		err: func(err error) bool {
			var adj *billing.AdjustmentError
			return errors.As(err, &adj) && adj.Param == "allowances[0]" && errors.Is(err, billing.ErrAllowanceExceedsBase)
		},
	}, {
		name: "an allowance of a rate the invoice has not is refused on its rate",
		note: billing.CreditParts{Lines: []billing.CreditLine{qty(1, 1)}, Allowances: []billing.Adjustment{off(1, standard("19"))}},
		err: func(err error) bool {
			var adj *billing.AdjustmentError
			var field *billing.TaxFieldError
			return errors.As(err, &adj) && adj.Param == "allowances[0].tax" && errors.As(err, &field) &&
				field.Field == billing.TaxFieldRate
		},
	}, {
		name: "an allowance without tax on an invoice with tax is refused on its tax",
		note: billing.CreditParts{Lines: []billing.CreditLine{qty(1, 1)}, Allowances: []billing.Adjustment{off(1, nil)}},
		err: func(err error) bool {
			var adj *billing.AdjustmentError
			return errors.As(err, &adj) && adj.Param == "allowances[0].tax"
		},
	}, {
		name:   "a percent allowance is taken of the note's lines in its group",
		note:   billing.CreditParts{Lines: []billing.CreditLine{qty(0, 2)}, Allowances: []billing.Adjustment{{Percent: pct("50"), Tax: s21}}},
		totals: []int64{4_500 + 945},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			inv := reference(t)
			if inv.Amounts.Total != 9_075+1_605 {
				t.Fatalf("invoice total = %d, want %d", inv.Amounts.Total, 9_075+1_605)
			}
			amounts, err := billing.ComputeCredit(inv, tc.note)
			if tc.err != nil {
				if !tc.err(err) {
					t.Fatalf("ComputeCredit error = %v, want another", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if amounts.Total != tc.totals[0] {
				t.Errorf("total = %d, want %d (%+v)", amounts.Total, tc.totals[0], amounts)
			}
			inv.Apply(tc.note, amounts)
			rest, err := inv.FullCredit()
			if err != nil {
				t.Fatal(err)
			}
			restAmounts, err := billing.ComputeCredit(inv, rest)
			if err != nil {
				t.Fatalf("the full credit after it: %v", err)
			}
			if sum := amounts.Total + restAmounts.Total; sum != 9_075+1_605 {
				t.Errorf("credited %d + %d = %d, want the invoice's total %d", amounts.Total, restAmounts.Total, sum, 9_075+1_605)
			}
		})
	}
}

func TestAFullCreditCreditsWhatIsLeftAllowancesAndChargesIncluded(t *testing.T) {
	s21, s7 := standard("21"), standard("7")
	lines := []billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 4_500, Tax: s21}, line(10_000, s7)}
	allowances, charges := []billing.Adjustment{off(6_000, s21)}, []billing.Adjustment{off(2_000, s7)}
	for _, tc := range []struct {
		name                  string
		before                []billing.CreditParts
		want                  billing.CreditParts
		wantTotal             int64
		untaxed, withoutTaxes bool
	}{{
		name: "of an untouched invoice, its lines with the invoice's own allowances and charges",
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(0, 13_500), amount(1, 10_000)},
			Allowances: []billing.Adjustment{off(6_000, s21)}, AllowanceOf: []int{0},
			Charges: []billing.Adjustment{off(2_000, s7)}, ChargeOf: []int{0}},
		wantTotal: 9_075 + 12_840,
	}, {
		name:   "after a unit less part of the allowance, the rest of that group's base as an allowance",
		before: []billing.CreditParts{{Lines: []billing.CreditLine{qty(0, 1)}, Allowances: []billing.Adjustment{off(2_000, s21)}}},
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(0, 9_000), amount(1, 10_000)},
			Allowances: []billing.Adjustment{off(4_000, s21)}, AllowanceOf: []int{-1},
			Charges: []billing.Adjustment{off(2_000, s7)}, ChargeOf: []int{0}},
		wantTotal: 6_050 + 12_840,
	}, {
		name:   "after a unit without the allowance, a larger allowance for the rest",
		before: []billing.CreditParts{{Lines: []billing.CreditLine{qty(0, 1)}}},
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(0, 9_000), amount(1, 10_000)},
			Allowances: []billing.Adjustment{off(6_000, s21)}, AllowanceOf: []int{-1},
			Charges: []billing.Adjustment{off(2_000, s7)}, ChargeOf: []int{0}},
		wantTotal: 9_075 - 5_445 + 12_840,
	}, {
		name:   "after every line of a group, its charge alone",
		before: []billing.CreditParts{{Lines: []billing.CreditLine{amount(1, 10_000)}}},
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(0, 13_500)},
			Allowances: []billing.Adjustment{off(6_000, s21)}, AllowanceOf: []int{0},
			Charges: []billing.Adjustment{off(2_000, s7)}, ChargeOf: []int{-1}},
		wantTotal: 9_075 + 2_140,
	}, {
		name: "of an invoice without tax, its allowance and charge without tax",
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(0, 13_500), amount(1, 10_000)},
			Allowances: []billing.Adjustment{off(6_000, nil)}, AllowanceOf: []int{0},
			Charges: []billing.Adjustment{off(2_000, nil)}, ChargeOf: []int{0}},
		wantTotal:    13_500 + 10_000 - 6_000 + 2_000,
		withoutTaxes: true,
	}, {
		name:   "of an invoice without tax after a line, the rest of its base",
		before: []billing.CreditParts{{Lines: []billing.CreditLine{qty(0, 3)}, Allowances: []billing.Adjustment{off(3_000, nil)}}},
		want: billing.CreditParts{Lines: []billing.CreditLine{amount(1, 10_000)},
			Allowances: []billing.Adjustment{off(1_000, nil)}, AllowanceOf: []int{-1}},
		wantTotal:    10_000 - 1_000,
		withoutTaxes: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			ls, as, cs := append([]billing.TaxedLine(nil), lines...), []billing.Adjustment{allowances[0]}, []billing.Adjustment{charges[0]}
			if tc.withoutTaxes {
				ls[0].Tax, ls[1].Tax, as[0].Tax, cs[0].Tax = nil, nil, nil, nil
			}
			inv := mustAdjustedInvoice(t, ls, as, cs)
			credited := int64(0)
			for _, note := range tc.before {
				credited += creditNote(t, inv, note)
			}
			got, err := inv.FullCredit()
			if err != nil {
				t.Fatal(err)
			}
			if !equalParts(got, tc.want) {
				t.Errorf("FullCredit() = %+v, want %+v", got, tc.want)
			}
			if total := creditNote(t, inv, got); total != tc.wantTotal || credited+total != inv.Amounts.Total {
				t.Errorf("the full credit credits %d, want %d; with the notes before, %d of the total %d",
					total, tc.wantTotal, credited+total, inv.Amounts.Total)
			}
			if _, err := inv.FullCredit(); !errors.Is(err, billing.ErrFullyCredited) {
				t.Errorf("FullCredit() after it: %v, want ErrFullyCredited", err)
			}
		})
	}
}

// equalParts compares credit notes' parts, taxes by value.
func equalParts(a, b billing.CreditParts) bool {
	if len(a.Lines) != len(b.Lines) || len(a.Allowances) != len(b.Allowances) || len(a.Charges) != len(b.Charges) {
		return false
	}
	for i := range a.Lines {
		if a.Lines[i] != b.Lines[i] {
			return false
		}
	}
	same := func(x, y []billing.Adjustment, xOf, yOf []int) bool {
		for i := range x {
			if x[i].Amount != y[i].Amount || (x[i].Tax == nil) != (y[i].Tax == nil) || xOf[i] != yOf[i] ||
				(x[i].Tax != nil && !reflect.DeepEqual(*x[i].Tax, *y[i].Tax)) {
				return false
			}
		}
		return true
	}
	return same(a.Allowances, b.Allowances, a.AllowanceOf, b.AllowanceOf) && same(a.Charges, b.Charges, a.ChargeOf, b.ChargeOf)
}
