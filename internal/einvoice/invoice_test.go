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
	"errors"
	"slices"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

func TestEveryTaxCaseIsWrittenAsAUBLInvoiceWithItsOwnTotals(t *testing.T) {
	for _, c := range taxCases() {
		b, err := einvoice.Invoice(c.inv, einvoice.UBL, einvoice.EN16931)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		s := string(b)
		for _, want := range []string{
			`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"`,
			"<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>",
			"<cbc:ID>INV-000042</cbc:ID>", "<cbc:IssueDate>2026-03-01</cbc:IssueDate>",
			"<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %s in\n%s", c.name, want, s)
			}
		}
		if got := strings.Count(s, "<cac:InvoiceLine>"); got != len(c.inv.Spec.Items) {
			t.Errorf("%s: %d lines, want %d", c.name, got, len(c.inv.Spec.Items))
		}
	}
}

func TestTheTotalsAreTheInvoicesFrozenFigures(t *testing.T) {
	inv := issued("EUR", item("Consulting", 1, 10_000, tax(billingv1.TaxStandard, "19", "")))
	// Figures frozen at issue win over what the items would give today.
	sub, taxTotal, total := int64(10_000), int64(1_900), int64(11_900)
	r := "19"
	inv.Status.Subtotal, inv.Status.TaxTotal, inv.Status.Total = &sub, &taxTotal, &total
	inv.Status.TaxBreakdown = []billingv1.TaxBreakdownEntry{{Category: billingv1.TaxStandard, Rate: &r, TaxableAmount: 10_000, TaxAmount: 1_900}}
	b, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.EN16931)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>`,
		`<cbc:TaxInclusiveAmount currencyID="EUR">119.00</cbc:TaxInclusiveAmount>`,
		`<cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount>`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
}

func TestAnInvoiceThatLacksWhatEN16931NeedsIsUnavailableNamingEveryPiece(t *testing.T) {
	s19 := tax(billingv1.TaxStandard, "19", "")
	cases := []struct {
		name   string
		change func(*billingv1.Invoice)
		want   []string
	}{{
		name: "lines without tax",
		change: func(inv *billingv1.Invoice) {
			inv.Spec.Items = append(inv.Spec.Items, item("b", 1, 1, nil), item("c", 1, 1, nil))
		},
		want: []string{"a tax category on every line (line 2, 3 has none)"},
	}, {
		name:   "no issuer",
		change: func(inv *billingv1.Invoice) { inv.Status.Issuer = nil },
		want:   []string{"an issuer", "the issuer's country", "the issuer's tax id"},
	}, {
		name: "no addresses",
		change: func(inv *billingv1.Invoice) {
			inv.Status.Issuer.Address = nil
			inv.Status.BillTo.Address.Country = ""
		},
		want: []string{"the issuer's country", "the customer's country"},
	}, {
		name:   "a currency with 3 decimals",
		change: func(inv *billingv1.Invoice) { inv.Spec.Currency = "BHD" },
		want:   []string{"a currency with at most 2 decimals (BHD has 3"},
	}, {
		name: "KWD, of 3 decimals, with a decimal quantity, a discount, an allowance and a charge",
		change: func(inv *billingv1.Invoice) {
			inv.Spec.Currency = "KWD"
			inv.Spec.Items[0] = measured("a", "7.5", "HUR", 1_250, percentOff("10", "Loyal customer"), s19)
			inv.Spec.Allowances = []billingv1.DocumentAllowance{allowance(0, "5", "Member discount", s19)}
			inv.Spec.Charges = []billingv1.DocumentCharge{charge(1_000, "", "FC", s19)}
		},
		want: []string{"a currency with at most 2 decimals (KWD has 3"},
	}, {
		name: "reverse charge to a customer without a VAT id",
		change: func(inv *billingv1.Invoice) {
			inv.Spec.Items[0].Tax = tax(billingv1.TaxReverseCharge, "0", "Reverse charge")
			inv.Status.BillTo.TaxID = "12-3456789"
		},
		want: []string{"the customer's VAT id"},
	}, {
		name: "a reverse-charged charge to a customer without a VAT id",
		change: func(inv *billingv1.Invoice) {
			inv.Spec.Charges = []billingv1.DocumentCharge{charge(1_000, "", "FC", tax(billingv1.TaxReverseCharge, "0", "Reverse charge"))}
			inv.Status.BillTo.TaxID = "12-3456789"
		},
		want: []string{"the customer's VAT id"},
	}, {
		name: "an export by an issuer without a VAT id",
		change: func(inv *billingv1.Invoice) {
			inv.Spec.Items[0].Tax = tax(billingv1.TaxExport, "0", "Export")
			inv.Status.Issuer.TaxID = "US-12-3456789"
		},
		want: []string{"the issuer's VAT id"},
	}}
	for _, c := range cases {
		inv := issued("EUR", item("a", 1, 100, s19))
		c.change(inv)
		_, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.EN16931)
		var unavailable *einvoice.UnavailableError
		if !errors.As(err, &unavailable) {
			t.Errorf("%s: got %v, want an UnavailableError", c.name, err)
			continue
		}
		if len(unavailable.Missing) != len(c.want) {
			t.Errorf("%s: missing %q, want %d pieces", c.name, unavailable.Missing, len(c.want))
		}
		for _, w := range c.want {
			if !slices.ContainsFunc(unavailable.Missing, func(m string) bool { return strings.HasPrefix(m, w) }) {
				t.Errorf("%s: missing %q, want one starting %q", c.name, unavailable.Missing, w)
			}
		}
	}
}

func TestAnInvoiceThatIsNotIssuedHasNoEInvoice(t *testing.T) {
	inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	inv.Status.Phase = billingv1.InvoicePending
	if _, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.EN16931); !errors.Is(err, einvoice.ErrNotIssued) {
		t.Errorf("got %v, want ErrNotIssued", err)
	}
}

func TestAnIssuerTaxIDThatIsNotAVATNumberIdentifiesTheSellerAndIsItsTaxRegistration(t *testing.T) {
	inv := issued("USD", item("a", 1, 100, tax(billingv1.TaxStandard, "8.875", "")))
	inv.Status.Issuer.TaxID = "US-12-3456789"
	b, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.EN16931)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<cac:PartyIdentification>\n        <cbc:ID>US-12-3456789</cbc:ID>",
		"<cbc:CompanyID>US-12-3456789</cbc:CompanyID>\n        <cac:TaxScheme>\n          <cbc:ID>FC</cbc:ID>",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
}

func TestTheDateOfSupplyIsTheActualDeliveryDateInSchemaOrder(t *testing.T) {
	s19 := item("Consulting", 1, 10_000, tax(billingv1.TaxStandard, "19", ""))
	k := item("Machine parts", 1, 10_000, tax(billingv1.TaxIntraCommunity, "0", "Intra-community supply"))
	cases := []struct {
		name   string
		inv    *billingv1.Invoice
		format einvoice.Format
		want   []string // in document order
		absent []string
	}{
		{"a UBL invoice carries its date of supply before the payment means", suppliedOn("2026-02-27", issued("EUR", s19)),
			einvoice.UBL, []string{"</cac:AccountingCustomerParty>",
				"<cac:Delivery>\n    <cbc:ActualDeliveryDate>2026-02-27</cbc:ActualDeliveryDate>\n  </cac:Delivery>",
				"<cac:PaymentMeans>"}, []string{"<cac:DeliveryLocation>"}},
		{"a CII invoice carries its date of supply as the delivery event", suppliedOn("2026-02-27", issued("EUR", s19)),
			einvoice.CII, []string{"<ram:ApplicableHeaderTradeDelivery>", "<ram:ActualDeliverySupplyChainEvent>",
				"<ram:OccurrenceDateTime>",
				`<udt:DateTimeString format="102">20260227</udt:DateTimeString>`,
				"<ram:ApplicableHeaderTradeSettlement>"}, []string{"<ram:ShipToTradeParty>"}},
		{"a UBL invoice without a date of supply has no delivery", issued("EUR", s19),
			einvoice.UBL, nil, []string{"<cac:Delivery>"}},
		{"a CII invoice without a date of supply has no delivery event", issued("EUR", s19),
			einvoice.CII, nil, []string{"<ram:ActualDeliverySupplyChainEvent>"}},
		{"an intra-community supply is delivered on its date of supply, to the buyer", suppliedOn("2026-02-20", issued("EUR", k)),
			einvoice.UBL, []string{"<cbc:ActualDeliveryDate>2026-02-20</cbc:ActualDeliveryDate>", "<cac:DeliveryLocation>"}, nil},
		{"a UBL invoice carries its period after the buyer reference, before the order reference",
			billedFor("2026-01-31", "2026-02-27", issued("EUR", s19)),
			einvoice.UBL, []string{"<cbc:BuyerReference>",
				"<cac:InvoicePeriod>\n    <cbc:StartDate>2026-01-31</cbc:StartDate>\n    <cbc:EndDate>2026-02-27</cbc:EndDate>\n  </cac:InvoicePeriod>",
				"<cac:OrderReference>"}, nil},
		{"a CII invoice carries its period after the tax breakdown, before the payment terms",
			billedFor("2026-01-31", "2026-02-27", issued("EUR", s19)),
			einvoice.CII, []string{"<ram:ApplicableTradeTax>", "<ram:BillingSpecifiedPeriod>", "<ram:StartDateTime>",
				`<udt:DateTimeString format="102">20260131</udt:DateTimeString>`, "<ram:EndDateTime>",
				`<udt:DateTimeString format="102">20260227</udt:DateTimeString>`, "<ram:SpecifiedTradePaymentTerms>"}, nil},
		{"an invoice without a period has none", issued("EUR", s19),
			einvoice.UBL, nil, []string{"<cac:InvoicePeriod>"}},
		{"an intra-community supply without a date of supply is delivered on the issue date", issued("EUR", k),
			einvoice.CII, []string{"<ram:ShipToTradeParty>", `<udt:DateTimeString format="102">20260301</udt:DateTimeString>`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := einvoice.Invoice(tc.inv, tc.format, einvoice.EN16931)
			if err != nil {
				t.Fatal(err)
			}
			s, at := string(b), 0
			for _, want := range tc.want {
				i := strings.Index(s[at:], want)
				if i < 0 {
					t.Fatalf("no %s after offset %d in\n%s", want, at, s)
				}
				at += i + len(want)
			}
			for _, absent := range tc.absent {
				if strings.Contains(s, absent) {
					t.Errorf("%s in\n%s", absent, s)
				}
			}
		})
	}
}

func TestOnlyTheProfilesAndFormatsWrittenAreSupported(t *testing.T) {
	if !einvoice.EN16931.Supported() || !einvoice.UBL.Supported() {
		t.Error("en16931 in UBL is not supported")
	}
	if einvoice.Profile("zugferd").Supported() || einvoice.Format("pdf").Supported() {
		t.Error("an unknown profile or format is supported")
	}
	inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	if _, err := einvoice.Invoice(inv, "pdf", einvoice.EN16931); err == nil {
		t.Error("format pdf: got no error")
	}
}
