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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kptr "k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// issuedInvoice is an issued invoice of two lines, 3 x 1000 at 19% and
// 1 x 500 at 7%, of which creditedNet of line 0 was credited.
func issuedInvoice(creditedNet int64) *billingv1.Invoice {
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "inv-a", Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Currency: "EUR",
			Items: []billingv1.LineItem{
				{Description: "Hours", Quantity: billingv1.Units(3), Amount: 1000},
				{Description: "Book", Quantity: billingv1.Units(1), Amount: 500},
			}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000001",
			Items: []billingv1.InvoiceItemStatus{
				{Tax: &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("19")}},
				{Tax: &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("7")}},
			},
			Subtotal: kptr.To[int64](3500), TaxTotal: kptr.To[int64](605), Total: kptr.To[int64](4105),
			TaxBreakdown: []billingv1.TaxBreakdownEntry{
				{Category: "S", Rate: kptr.To("19"), TaxableAmount: 3000, TaxAmount: 570},
				{Category: "S", Rate: kptr.To("7"), TaxableAmount: 500, TaxAmount: 35},
			}},
	}
	if creditedNet > 0 {
		inv.Status.Ledger = &billingv1.InvoiceLedger{
			CreditedLines:  []billingv1.CreditedLine{{Net: creditedNet}, {}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: creditedNet, TaxAmount: creditedNet * 19 / 100}, {}},
		}
	}
	return inv
}

func TestAnIssuedInvoiceIsCreditedAgainstItsFrozenAmounts(t *testing.T) {
	rate := func(r billing.Rate) *billing.Rate { return &r }
	// taxed are issuedInvoice's lines, with the taxes of its status.items.
	taxed := []billing.TaxedLine{
		{Quantity: billingv1.Units(3), Amount: 1000, Tax: &billing.LineTax{Category: billingv1.TaxStandard, Rate: rate(190_000)}},
		{Quantity: billingv1.Units(1), Amount: 500, Tax: &billing.LineTax{Category: billingv1.TaxStandard, Rate: rate(70_000)}},
	}
	for _, tc := range []struct {
		name    string
		invoice func() *billingv1.Invoice
		want    billing.Amounts
		lines   []billing.TaxedLine
	}{{
		name:    "the amounts are the status's, the lines taxed as status.items says",
		invoice: func() *billingv1.Invoice { return issuedInvoice(0) },
		want: billing.Amounts{Subtotal: 3500, TaxTotal: 605, Total: 4105, TaxBreakdown: []billing.TaxGroup{
			{Category: billingv1.TaxStandard, Rate: rate(190_000), TaxableAmount: 3000, TaxAmount: 570},
			{Category: billingv1.TaxStandard, Rate: rate(70_000), TaxableAmount: 500, TaxAmount: 35},
		}},
		lines: taxed,
	}, {
		name: "the status's amounts are the record, even where computing them again would round otherwise",
		invoice: func() *billingv1.Invoice {
			inv := issuedInvoice(0)
			inv.Status.TaxTotal, inv.Status.Total = kptr.To[int64](606), kptr.To[int64](4106)
			inv.Status.TaxBreakdown[1].TaxAmount = 36
			return inv
		},
		want: billing.Amounts{Subtotal: 3500, TaxTotal: 606, Total: 4106, TaxBreakdown: []billing.TaxGroup{
			{Category: billingv1.TaxStandard, Rate: rate(190_000), TaxableAmount: 3000, TaxAmount: 570},
			{Category: billingv1.TaxStandard, Rate: rate(70_000), TaxableAmount: 500, TaxAmount: 36},
		}},
		lines: taxed,
	}, {
		name: "an invoice issued before tax existed is computed from its items, without tax",
		invoice: func() *billingv1.Invoice {
			inv := issuedInvoice(0)
			inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Total: kptr.To[int64](3500)}
			return inv
		},
		want:  billing.Amounts{Subtotal: 3500, Total: 3500, TaxBreakdown: []billing.TaxGroup{}},
		lines: []billing.TaxedLine{{Quantity: billingv1.Units(3), Amount: 1000}, {Quantity: billingv1.Units(1), Amount: 500}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := billing.ToCredit(tc.invoice())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(taxOnly(got.Amounts), tc.want) {
				t.Errorf("amounts = %+v, want %+v", got.Amounts, tc.want)
			}
			if !reflect.DeepEqual(got.Lines, tc.lines) {
				t.Errorf("lines = %+v, want %+v", got.Lines, tc.lines)
			}
		})
	}
}

func TestToCreditReadsWhatTheLedgerCredited(t *testing.T) {
	got, err := billing.ToCredit(issuedInvoice(1000))
	if err != nil {
		t.Fatal(err)
	}
	want := billing.Credited{
		Lines:  []billing.CreditedLine{{Net: 1000}, {}},
		Groups: []billing.CreditedGroup{{TaxableAmount: 1000, TaxAmount: 190}, {}},
	}
	if !reflect.DeepEqual(got.Credited, want) {
		t.Errorf("credited = %+v, want %+v", got.Credited, want)
	}
	if left := got.Remaining(); left != 4105-1190 {
		t.Errorf("Remaining() = %d, want %d", left, 4105-1190)
	}
}

func TestToCreditRefusesARateThatDoesNotParse(t *testing.T) {
	inv := issuedInvoice(0)
	inv.Status.TaxBreakdown[0].Rate = kptr.To("19%")
	var field *billing.TaxFieldError
	if _, err := billing.ToCredit(inv); !errors.As(err, &field) || field.Field != billing.TaxFieldRate {
		t.Errorf("ToCredit() error = %v, want a TaxFieldError on the rate", err)
	}
}

func TestCreditPartsAreTheSpecsOrAllThatIsLeft(t *testing.T) {
	toCredit, err := billing.ToCredit(issuedInvoice(1000))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		spec billingv1.CreditNoteSpec
		want billing.CreditParts
	}{{
		name: "a line of a quantity and a line of an amount are the spec's",
		spec: billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{
			{InvoiceLine: 0, Quantity: kptr.To(billingv1.Units(1))}, {InvoiceLine: 1, Amount: kptr.To[int64](200)}}},
		want: billing.CreditParts{Lines: []billing.CreditLine{
			{InvoiceLine: 0, Quantity: billingv1.Units(1)}, {InvoiceLine: 1, Amount: 200}}},
	}, {
		name: "a full credit credits the net left of each line, as an amount",
		spec: billingv1.CreditNoteSpec{FullCredit: true},
		want: billing.CreditParts{Lines: []billing.CreditLine{{InvoiceLine: 0, Amount: 2000}, {InvoiceLine: 1, Amount: 500}}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := billing.CreditPartsOf(&tc.spec, toCredit)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("CreditPartsOf() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPendingCreditNoteHasTheAmountsItWouldBeIssuedWith(t *testing.T) {
	for _, tc := range []struct {
		name        string
		credited    int64
		spec        billingv1.CreditNoteSpec
		ok          bool
		wantTotal   int64
		wantLines   int
		wantNetLine int64
	}{
		{name: "one unit of the first line credits its net and its tax", ok: true,
			spec:      billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: kptr.To(billingv1.Units(1))}}},
			wantTotal: 1190, wantLines: 1, wantNetLine: 1000},
		{name: "a full credit of an untouched invoice credits its total", ok: true,
			spec:      billingv1.CreditNoteSpec{FullCredit: true},
			wantTotal: 4105, wantLines: 2, wantNetLine: 3000},
		{name: "a full credit after a credit note credits what is left", credited: 1000, ok: true,
			spec:      billingv1.CreditNoteSpec{FullCredit: true},
			wantTotal: 4105 - 1190, wantLines: 2, wantNetLine: 2000},
		{name: "a line above what is left has no amounts", credited: 3000,
			spec: billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Amount: kptr.To[int64](1)}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := billing.PendingCreditNote(&tc.spec, issuedInvoice(tc.credited))
			if ok != tc.ok {
				t.Fatalf("PendingCreditNote() ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if got.Total != tc.wantTotal || len(got.Lines) != tc.wantLines || got.Lines[0].Amount != tc.wantNetLine {
				t.Errorf("total %d, %d lines, line 0 amount %d; want %d, %d and %d",
					got.Total, len(got.Lines), got.Lines[0].Amount, tc.wantTotal, tc.wantLines, tc.wantNetLine)
			}
		})
	}
}

func TestAPendingCreditNoteOfAnInvoiceNotIssuedHasNoAmounts(t *testing.T) {
	inv := issuedInvoice(0)
	inv.Status.Phase = billingv1.InvoicePending
	if _, ok := billing.PendingCreditNote(&billingv1.CreditNoteSpec{FullCredit: true}, inv); ok {
		t.Errorf("a credit note of a pending invoice has amounts")
	}
}

func TestACreditNotesLinesCarryTheInvoiceLinesDescriptionAndTax(t *testing.T) {
	inv := issuedInvoice(0)
	got, ok := billing.PendingCreditNote(&billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{
		{InvoiceLine: 1, Amount: kptr.To[int64](100)}, {InvoiceLine: 0, Quantity: kptr.To(billingv1.Units(2))}}}, inv)
	if !ok {
		t.Fatal("no amounts")
	}
	want := []billingv1.CreditNoteLineStatus{
		{InvoiceLine: 1, Description: "Book", Amount: 100, Tax: inv.Status.Items[1].Tax},
		{InvoiceLine: 0, Description: "Hours", Quantity: kptr.To(billingv1.Units(2)), Amount: 2000, Tax: inv.Status.Items[0].Tax},
	}
	if !reflect.DeepEqual(got.Lines, want) {
		t.Errorf("lines = %+v, want %+v", got.Lines, want)
	}
	if got.Lines[0].Tax == inv.Status.Items[1].Tax {
		t.Errorf("a line's tax shares memory with the invoice's")
	}
	wantBreakdown := []billingv1.TaxBreakdownEntry{
		{Category: "S", Rate: kptr.To("7"), TaxableAmount: 100, TaxAmount: 7},
		{Category: "S", Rate: kptr.To("19"), TaxableAmount: 2000, TaxAmount: 380},
	}
	if !reflect.DeepEqual(got.TaxBreakdown, wantBreakdown) || got.Subtotal != 2100 || got.TaxTotal != 387 ||
		got.Total != 2487 {
		t.Errorf("amounts = %d, %+v, %d, %d", got.Subtotal, got.TaxBreakdown, got.TaxTotal, got.Total)
	}
}

func TestCreditOfComposesOneCreditForEveryReader(t *testing.T) {
	unparsable := issuedInvoice(0)
	unparsable.Status.Items[0].Tax.Rate = kptr.To("abc")
	credited := issuedInvoice(3000)
	credited.Status.Ledger.CreditedLines[1] = billingv1.CreditedLine{Quantity: billingv1.Units(1), Net: 500}
	credited.Status.Ledger.CreditedGroups[1] = billingv1.CreditedGroup{TaxableAmount: 500, TaxAmount: 35}
	for _, tc := range []struct {
		name      string
		invoice   *billingv1.Invoice
		spec      billingv1.CreditNoteSpec
		readable  bool
		wantErr   func(error) bool
		wantTotal int64
	}{{
		name:      "a quantity of a line credits its net and its tax",
		invoice:   issuedInvoice(0),
		spec:      billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: kptr.To(billingv1.Units(1))}}},
		readable:  true,
		wantErr:   func(err error) bool { return err == nil },
		wantTotal: 1190,
	}, {
		name:      "a full credit credits what is left",
		invoice:   issuedInvoice(1000),
		spec:      billingv1.CreditNoteSpec{FullCredit: true},
		readable:  true,
		wantErr:   func(err error) bool { return err == nil },
		wantTotal: 4105 - 1190,
	}, {
		name:     "a full credit of a fully credited invoice is refused as such",
		invoice:  credited,
		spec:     billingv1.CreditNoteSpec{FullCredit: true},
		readable: true,
		wantErr:  func(err error) bool { return errors.Is(err, billing.ErrFullyCredited) },
	}, {
		name:     "a line that credits more than is left is a line error",
		invoice:  issuedInvoice(0),
		spec:     billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: kptr.To(billingv1.Units(4))}}},
		readable: true,
		wantErr: func(err error) bool {
			var lineErr *billing.CreditLineError
			return errors.As(err, &lineErr) && lineErr.Exceeds
		},
	}, {
		name:    "an invoice whose rate does not parse gives no credit at all",
		invoice: unparsable,
		spec:    billingv1.CreditNoteSpec{FullCredit: true},
		wantErr: func(err error) bool { return err != nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			credit, err := billing.CreditOf(&tc.spec, tc.invoice)
			if (credit != nil) != tc.readable || !tc.wantErr(err) {
				t.Fatalf("CreditOf = %+v, %v; want a credit: %v", credit, err, tc.readable)
			}
			pending, ok := billing.PendingCreditNote(&tc.spec, tc.invoice)
			if ok != (err == nil) {
				t.Fatalf("PendingCreditNote ok = %v, want %v", ok, err == nil)
			}
			if err != nil {
				return
			}
			if got := credit.Totals(tc.invoice); !reflect.DeepEqual(got, pending) || got.Total != tc.wantTotal {
				t.Errorf("Totals = %+v, PendingCreditNote = %+v; want both of total %d", got, pending, tc.wantTotal)
			}
		})
	}
}

// discountedInvoice is the reference case issued: 3 x 45.00 at 21 % less
// 10 % of the lines (13.50) for "Loyalty", frozen as the controller
// writes it: base 121.50, tax 25.52, total 147.02.
func discountedInvoice() *billingv1.Invoice {
	s21 := &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("21")}
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "inv-d", Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Currency: "EUR",
			Items:      []billingv1.LineItem{{Description: "Hours", Quantity: billingv1.Units(3), Amount: 4500, UnitCode: "HUR", Tax: s21}},
			Allowances: []billingv1.DocumentAllowance{{Percent: kptr.To(billingv1.Percent("10")), Reason: "Loyalty", Tax: s21}}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000002"},
	}
	amounts, err := billing.InvoiceAmounts(&inv.Spec, billing.DocumentTaxesOf(inv))
	if err != nil {
		panic(err)
	}
	billing.SetAmounts(&inv.Status, &inv.Spec, amounts, billing.DocumentTaxesOf(inv))
	return inv
}

func TestACreditNoteOfAnInvoiceWithAnAllowanceWritesItsAllowances(t *testing.T) {
	inv := discountedInvoice()
	if *inv.Status.Total != 14_702 {
		t.Fatalf("invoice total = %d, want 14702", *inv.Status.Total)
	}
	for _, tc := range []struct {
		name       string
		spec       billingv1.CreditNoteSpec
		allowances []billingv1.AppliedAllowanceCharge
		total      int64
	}{{
		name:       "a full credit repeats the invoice's allowance as it was applied",
		spec:       billingv1.CreditNoteSpec{FullCredit: true},
		allowances: inv.Status.Allowances,
		total:      14_702,
	}, {
		name: "a note's own allowance is written as given, its rate in its shortest form",
		spec: billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: kptr.To(quantity("1.5"))}},
			Allowances: []billingv1.DocumentAllowance{{Amount: kptr.To[int64](675), ReasonCode: "95",
				Tax: &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("21.000")}}}},
		allowances: []billingv1.AppliedAllowanceCharge{{Amount: 675, ReasonCode: "95",
			Tax: &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("21")}}},
		total: 6_075 + 1_276,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := billing.PendingCreditNote(&tc.spec, inv)
			if !ok {
				t.Fatal("no amounts")
			}
			if !reflect.DeepEqual(got.Allowances, tc.allowances) || got.Total != tc.total {
				t.Errorf("allowances %+v, total %d; want %+v, %d", got.Allowances, got.Total, tc.allowances, tc.total)
			}
			if got.Lines[0].UnitCode != "HUR" {
				t.Errorf("line unit = %q, want HUR", got.Lines[0].UnitCode)
			}
		})
	}
}

func TestAFullCreditAfterAPartialOneCreditsTheRestOfTheAllowance(t *testing.T) {
	inv := discountedInvoice()
	// A note credited 1 of the 3 hours without its share of the
	// allowance: 45.00 of the 121.50 base, and 9.45 of tax.
	inv.Status.Ledger = &billingv1.InvoiceLedger{
		CreditNotes:    []billingv1.LedgerEntry{{Name: "cn-1", UID: "u1", Amount: 5_445}},
		CreditedLines:  []billingv1.CreditedLine{{Quantity: billingv1.Units(1), Net: 4_500}},
		CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: 4_500, TaxAmount: 945}},
	}
	got, ok := billing.PendingCreditNote(&billingv1.CreditNoteSpec{FullCredit: true}, inv)
	if !ok {
		t.Fatal("no amounts")
	}
	want := []billingv1.AppliedAllowanceCharge{{Amount: 1_350, Reason: "Loyalty",
		Tax: &billingv1.Tax{Category: billingv1.TaxStandard, Rate: kptr.To("21")}}}
	if !reflect.DeepEqual(got.Allowances, want) || got.Total != 14_702-5_445 {
		t.Errorf("allowances %+v, total %d; want %+v, %d", got.Allowances, got.Total, want, 14_702-5_445)
	}
}

func TestToCreditCountsWhatNotesCreditedWithoutTax(t *testing.T) {
	inv := issuedInvoice(0)
	inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Total: kptr.To[int64](3500),
		Ledger: &billingv1.InvoiceLedger{CreditNotes: []billingv1.LedgerEntry{{Name: "cn-1", UID: "u1", Amount: 1_200}},
			CreditedLines: []billingv1.CreditedLine{{Net: 1_200}, {}}}}
	got, err := billing.ToCredit(inv)
	if err != nil {
		t.Fatal(err)
	}
	if got.Credited.Untaxed != 1_200 || got.Remaining() != 3_500-1_200 {
		t.Errorf("credited without tax %d, %d left; want 1200, %d", got.Credited.Untaxed, got.Remaining(), 3_500-1_200)
	}
}
