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

package einvoice_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
)

// The invoices of these tests: one for each tax case EN 16931 knows.

func rate(r string) *string { return &r }

func tax(category billingv1.TaxCategory, r string, reason string) *billingv1.Tax {
	t := &billingv1.Tax{Category: category, ExemptionReason: reason}
	if category != billingv1.TaxNotSubject {
		t.Rate = rate(r)
	}
	return t
}

func item(desc string, qty, amount int64, t *billingv1.Tax) billingv1.LineItem {
	return billingv1.LineItem{Description: desc, Quantity: billingv1.Units(qty), Amount: amount, Tax: t}
}

// quantity is the decimal quantity q, written as the API reads it.
func quantity(q string) billingv1.DecimalQuantity {
	d, err := billingv1.ParseDecimalQuantity(q)
	if err != nil {
		panic(err)
	}
	return d
}

// measured is a line of qty (a decimal) of unit at amount per unit, less
// discount (nil: none).
func measured(desc, qty string, unit billingv1.UnitCode, amount int64, discount *billingv1.LineDiscount,
	t *billingv1.Tax) billingv1.LineItem {
	return billingv1.LineItem{Description: desc, Quantity: quantity(qty), UnitCode: unit, Amount: amount,
		Discount: discount, Tax: t}
}

// percentOff is a discount of p percent, for reason.
func percentOff(p, reason string) *billingv1.LineDiscount {
	pc := billingv1.Percent(p)
	return &billingv1.LineDiscount{Percent: &pc, Reason: reason}
}

// amountOff is a discount of minor units, for the reason of code.
func amountOff(minor int64, code billingv1.AllowanceReasonCode) *billingv1.LineDiscount {
	return &billingv1.LineDiscount{Amount: &minor, ReasonCode: code}
}

// allowance is a document allowance of minor units, or of percent p when
// p is not "", at tax t.
func allowance(minor int64, p, reason string, t *billingv1.Tax) billingv1.DocumentAllowance {
	pc, amount := percentOrAmount(minor, p)
	return billingv1.DocumentAllowance{Percent: pc, Amount: amount, Reason: reason, Tax: t}
}

// charge is a document charge of minor units, or of percent p when p is
// not "", for the reason of code, at tax t.
func charge(minor int64, p string, code billingv1.ChargeReasonCode, t *billingv1.Tax) billingv1.DocumentCharge {
	pc, amount := percentOrAmount(minor, p)
	return billingv1.DocumentCharge{Percent: pc, Amount: amount, ReasonCode: code, Tax: t}
}

// percentOrAmount is percent p when it is not "", else minor units.
func percentOrAmount(minor int64, p string) (*billingv1.Percent, *int64) {
	if p != "" {
		pc := billingv1.Percent(p)
		return &pc, nil
	}
	return nil, &minor
}

// adjusted is inv with the document allowances and charges given.
func adjusted(inv *billingv1.Invoice, allowances []billingv1.DocumentAllowance,
	charges ...billingv1.DocumentCharge) *billingv1.Invoice {
	inv.Spec.Allowances, inv.Spec.Charges = allowances, charges
	return inv
}

// issued is an invoice issued on 2026-03-01 by a German company to a
// French one, its amounts left for apiobject to compute from the items,
// with all Peppol and XRechnung need: a buyer reference and purchase order,
// both electronic addresses, the issuer's contact and legal registration,
// and the account to pay to.
func issued(currency string, items ...billingv1.LineItem) *billingv1.Invoice {
	inv := bare(currency, items...)
	inv.Spec.BuyerReference, inv.Spec.PurchaseOrder = "04011000-12345-34", "PO-2026-0042"
	is, bt := inv.Status.Issuer, inv.Status.BillTo
	is.LegalRegistrationID = "HRB 12345 B"
	is.Contact = &billingv1.Contact{Name: "Accounts receivable", Phone: "+49 30 1234567", Email: "ar@example.com"}
	is.ElectronicAddress = &billingv1.ElectronicAddress{Scheme: "0088", Value: "4035811991021"}
	bt.ElectronicAddress = &billingv1.ElectronicAddress{Scheme: "9957", Value: "FR40303265045"}
	inv.Status.PaymentAccount = &billingv1.PaymentAccount{
		IBAN: "DE02120300000000202051", BIC: "BYLADEM1001", AccountName: "Example Invoicing GmbH",
	}
	inv.Status.PaymentReference = banktransfer.InvoiceReference(inv.Status.PaymentAccount, inv.Status.Number)
	return inv
}

// bare is issued without what only Peppol and XRechnung need: what EN
// 16931 alone needs.
func bare(currency string, items ...billingv1.LineItem) *billingv1.Invoice {
	at := metav1.NewTime(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	due := metav1.NewTime(at.AddDate(0, 0, 30))
	return &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "inv-1", Namespace: "acme"},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "cus-1"}, Currency: currency, Items: items,
			DefaultTaxFrom: billingv1.DefaultTaxNone,
		},
		Status: billingv1.InvoiceStatus{
			Phase: billingv1.InvoiceIssued, Number: "INV-000042", IssuedAt: &at, DueAt: &due,
			Issuer: &billingv1.Issuer{
				Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
				Address: &billingv1.Address{Line1: "Friedrichstraße 1", PostalCode: "10117", City: "Berlin", Country: "DE"},
			},
			BillTo: &billingv1.BillTo{
				Name: "Acme SARL", Email: "compta@acme.example", TaxID: "FR40303265045",
				Address: &billingv1.Address{Line1: "1 rue de Rivoli", PostalCode: "75001", City: "Paris", Country: "FR"},
			},
		},
	}
}

type taxCase struct {
	name string
	inv  *billingv1.Invoice
}

// taxCases are an invoice for each tax case: S at 19% and 7%, Z, E with
// its exemption reason, AE reverse charge, K, S and K with a date of
// supply, S and K billed for a period, G, O, JPY and 500 lines; then the lines that bill real work
// (adjustmentCases).
func taxCases() []taxCase {
	many := make([]billingv1.LineItem, 500)
	for i := range many {
		r := "19"
		if i%3 == 0 {
			r = "7"
		}
		many[i] = item(fmt.Sprintf("Item %d", i+1), int64(i%7+1), int64(333*(i+1)), tax(billingv1.TaxStandard, r, ""))
	}
	cases := []taxCase{
		{"S 19% and S 7%", issued("EUR",
			item("Consulting, March", 3, 12_345, tax(billingv1.TaxStandard, "19", "")),
			item("Book & <manual>", 2, 1_999, tax(billingv1.TaxStandard, "7", "")),
			item("Support", 1, 333, tax(billingv1.TaxStandard, "19", "")))},
		{"Z zero rated", issued("EUR",
			item("Printed matter", 4, 2_500, tax(billingv1.TaxZeroRated, "0", "")))},
		{"E exempt with its reason", issued("EUR",
			item("Medical care", 1, 80_000, tax(billingv1.TaxExempt, "0", "Exempt under Article 132(1)(c) of Directive 2006/112/EC")))},
		{"AE reverse charge", issued("EUR",
			item("Construction work", 1, 500_000, tax(billingv1.TaxReverseCharge, "0", "Reverse charge")))},
		{"K intra-community supply", issued("EUR",
			item("Machine parts", 10, 4_999, tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply")))},
		{"S 19% supplied on a day of its own", suppliedOn("2026-02-27", issued("EUR",
			item("Consulting, February", 2, 12_345, tax(billingv1.TaxStandard, "19", ""))))},
		{"K supplied on a day of its own", suppliedOn("2026-02-20", issued("EUR",
			item("Machine parts", 10, 4_999, tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply"))))},
		{"S 19% of a schedule's monthly period", billedFor("2026-01-31", "2026-02-27", issued("EUR",
			item("Hosting, monthly", 1, 4_900, tax(billingv1.TaxStandard, "19", ""))))},
		{"K billed for a period, with no date of supply", billedFor("2026-02-01", "2026-02-28", issued("EUR",
			item("Machine rental", 1, 49_999, tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply"))))},
		{"G export outside the EU", issued("USD",
			item("Machine", 1, 1_250_000, tax(billingv1.TaxExport, "0", "Export outside the EU")))},
		{"O not subject to tax", issued("EUR",
			item("Membership fee", 1, 10_000, tax(billingv1.TaxNotSubject, "", "Not subject to VAT")))},
		{"JPY without decimals", issued("JPY",
			item("Licence", 3, 1_333, tax(billingv1.TaxStandard, "10", "")),
			item("Food", 7, 999, tax(billingv1.TaxStandard, "8", "")))},
		{"500 lines", issued("EUR", many...)},
	}
	return append(cases, adjustmentCases()...)
}

// adjustmentCases are invoices with decimal quantities in units, line
// discounts of a percent and of an amount, and document allowances and
// charges in several tax groups, among them a charge in a group without
// lines; in EUR and in JPY, which has no decimals.
func adjustmentCases() []taxCase {
	s19, s7, s21 := tax(billingv1.TaxStandard, "19", ""), tax(billingv1.TaxStandard, "7", ""), tax(billingv1.TaxStandard, "21", "")
	return []taxCase{
		{"decimal quantities in hours, days and kilograms", issued("EUR",
			measured("Consulting", "7.5", "HUR", 12_000, nil, s19),
			measured("Workshop", "0.25", "DAY", 80_000, nil, s19),
			measured("Coffee beans", "1234.5678", "KGM", 235, nil, s7),
			item("Licence", 3, 4_999, s19))},
		{"line discounts of a percent and of an amount", issued("EUR",
			measured("Consulting", "7.5", "HUR", 9_500, percentOff("10", "Loyal customer"), s19),
			measured("Training", "3", "DAY", 45_000, amountOff(5_000, "95"), s19),
			measured("Handbook", "2", "", 1_999, percentOff("12.5", "Volume discount"), s7))},
		{"document allowances and charges in several tax groups", adjusted(issued("EUR",
			measured("Consulting", "7.5", "HUR", 12_000, percentOff("10", "Loyal customer"), s19),
			measured("Handbook", "4", "", 1_999, nil, s7)),
			[]billingv1.DocumentAllowance{
				allowance(6_000, "", "Early booking", s19),
				allowance(0, "5", "Book fair discount", s7),
			},
			charge(0, "2.5", "ABL", s19),
			charge(1_250, "", "FC", tax(billingv1.TaxStandard, "7", "")),
			charge(1_500, "", "FC", tax(billingv1.TaxZeroRated, "0", "")))},
		{"the reference case: 3 x 45.00 at 21% less 60.00", adjusted(issued("EUR",
			item("Consulting", 3, 4_500, s21)),
			[]billingv1.DocumentAllowance{allowance(6_000, "", "Discount", s21)})},
		{"JPY with decimal quantities, discounts, an allowance and a charge", adjusted(issued("JPY",
			measured("Consulting", "7.5", "HUR", 3_333, percentOff("10", "Loyal customer"), tax(billingv1.TaxStandard, "10", "")),
			measured("Rice", "2.345", "KGM", 999, amountOff(100, "95"), tax(billingv1.TaxStandard, "8", ""))),
			[]billingv1.DocumentAllowance{allowance(0, "3", "Member discount", tax(billingv1.TaxStandard, "10", ""))},
			charge(500, "", "FC", tax(billingv1.TaxStandard, "8", "")))},
	}
}

// suppliedOn is inv with the date of supply day (BT-72).
func suppliedOn(day string, inv *billingv1.Invoice) *billingv1.Invoice {
	inv.Spec.SupplyDate = day
	return inv
}

// billedFor is inv billing the period from start to end (BG-14), as a
// schedule's invoice does.
func billedFor(start, end string, inv *billingv1.Invoice) *billingv1.Invoice {
	inv.Spec.InvoicingPeriod = &billingv1.InvoicingPeriod{Start: start, End: end}
	return inv
}

// stripped is a copy of inv without what only Peppol and XRechnung need,
// as bare makes it.
func stripped(inv *billingv1.Invoice) *billingv1.Invoice {
	c := inv.DeepCopy()
	c.Spec.BuyerReference, c.Spec.PurchaseOrder = "", ""
	c.Status.Issuer.LegalRegistrationID, c.Status.Issuer.Contact, c.Status.Issuer.ElectronicAddress = "", nil, nil
	c.Status.BillTo.ElectronicAddress, c.Status.PaymentAccount = nil, nil
	return c
}
