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
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

// The figures of lines and of allowances and charges, as each syntax
// writes them; the validator batch (validate_test.go) checks the same
// invoices against the official rules.
func TestLinesAllowancesAndChargesAreWrittenWithTheirFiguresInBothSyntaxes(t *testing.T) {
	byName := map[string]taxCase{}
	for _, c := range adjustmentCases() {
		byName[c.name] = c
	}
	for _, c := range []struct {
		name string
		want map[einvoice.Format][]string
	}{{
		name: "decimal quantities in hours, days and kilograms",
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				`<cbc:InvoicedQuantity unitCode="HUR">7.5</cbc:InvoicedQuantity>` + "\n" +
					`    <cbc:LineExtensionAmount currencyID="EUR">900.00</cbc:LineExtensionAmount>`,
				`<cbc:InvoicedQuantity unitCode="DAY">0.25</cbc:InvoicedQuantity>`,
				`<cbc:InvoicedQuantity unitCode="KGM">1234.5678</cbc:InvoicedQuantity>` + "\n" +
					`    <cbc:LineExtensionAmount currencyID="EUR">2901.23</cbc:LineExtensionAmount>`,
				`<cbc:InvoicedQuantity unitCode="C62">3</cbc:InvoicedQuantity>`,
				`<cbc:PriceAmount currencyID="EUR">2.35</cbc:PriceAmount>` + "\n    </cac:Price>",
			},
			einvoice.CII: {
				`<ram:BilledQuantity unitCode="HUR">7.5</ram:BilledQuantity>`,
				`<ram:BilledQuantity unitCode="KGM">1234.5678</ram:BilledQuantity>`,
				`<ram:BilledQuantity unitCode="C62">3</ram:BilledQuantity>`,
			},
		},
	}, {
		name: "line discounts of a percent and of an amount",
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				`<cbc:LineExtensionAmount currencyID="EUR">641.25</cbc:LineExtensionAmount>
    <cac:AllowanceCharge>
      <cbc:ChargeIndicator>false</cbc:ChargeIndicator>
      <cbc:AllowanceChargeReason>Loyal customer</cbc:AllowanceChargeReason>
      <cbc:MultiplierFactorNumeric>10</cbc:MultiplierFactorNumeric>
      <cbc:Amount currencyID="EUR">71.25</cbc:Amount>
      <cbc:BaseAmount currencyID="EUR">712.50</cbc:BaseAmount>
    </cac:AllowanceCharge>`,
				`<cbc:LineExtensionAmount currencyID="EUR">1300.00</cbc:LineExtensionAmount>
    <cac:AllowanceCharge>
      <cbc:ChargeIndicator>false</cbc:ChargeIndicator>
      <cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode>
      <cbc:Amount currencyID="EUR">50.00</cbc:Amount>
    </cac:AllowanceCharge>`,
				`<cbc:MultiplierFactorNumeric>12.5</cbc:MultiplierFactorNumeric>`,
			},
			einvoice.CII: {
				`<ram:SpecifiedTradeAllowanceCharge>
          <ram:ChargeIndicator>
            <udt:Indicator>false</udt:Indicator>
          </ram:ChargeIndicator>
          <ram:CalculationPercent>10</ram:CalculationPercent>
          <ram:BasisAmount>712.50</ram:BasisAmount>
          <ram:ActualAmount>71.25</ram:ActualAmount>
          <ram:Reason>Loyal customer</ram:Reason>
        </ram:SpecifiedTradeAllowanceCharge>
        <ram:SpecifiedTradeSettlementLineMonetarySummation>
          <ram:LineTotalAmount>641.25</ram:LineTotalAmount>`,
			},
		},
	}, {
		name: "the reference case: 3 x 45.00 at 21% less 60.00",
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				`<cbc:TaxableAmount currencyID="EUR">75.00</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="EUR">15.75</cbc:TaxAmount>`,
				`<cbc:LineExtensionAmount currencyID="EUR">135.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">75.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">90.75</cbc:TaxInclusiveAmount>
    <cbc:AllowanceTotalAmount currencyID="EUR">60.00</cbc:AllowanceTotalAmount>
    <cbc:PayableAmount currencyID="EUR">90.75</cbc:PayableAmount>`,
			},
			einvoice.CII: {
				`<ram:SpecifiedTradeAllowanceCharge>
        <ram:ChargeIndicator>
          <udt:Indicator>false</udt:Indicator>
        </ram:ChargeIndicator>
        <ram:ActualAmount>60.00</ram:ActualAmount>
        <ram:Reason>Discount</ram:Reason>
        <ram:CategoryTradeTax>
          <ram:TypeCode>VAT</ram:TypeCode>
          <ram:CategoryCode>S</ram:CategoryCode>
          <ram:RateApplicablePercent>21</ram:RateApplicablePercent>
        </ram:CategoryTradeTax>
      </ram:SpecifiedTradeAllowanceCharge>`,
				`<ram:LineTotalAmount>135.00</ram:LineTotalAmount>
        <ram:AllowanceTotalAmount>60.00</ram:AllowanceTotalAmount>
        <ram:TaxBasisTotalAmount>75.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">15.75</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>90.75</ram:GrandTotalAmount>`,
			},
		},
	}, {
		name: "document allowances and charges in several tax groups",
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				`<cbc:AllowanceChargeReasonCode>ABL</cbc:AllowanceChargeReasonCode>
    <cbc:MultiplierFactorNumeric>2.5</cbc:MultiplierFactorNumeric>
    <cbc:Amount currencyID="EUR">20.25</cbc:Amount>
    <cbc:BaseAmount currencyID="EUR">810.00</cbc:BaseAmount>`,
				`<cbc:TaxableAmount currencyID="EUR">15.00</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="EUR">0.00</cbc:TaxAmount>
      <cac:TaxCategory>
        <cbc:ID>Z</cbc:ID>`,
				`<cbc:TaxExclusiveAmount currencyID="EUR">873.71</cbc:TaxExclusiveAmount>`,
				`<cbc:AllowanceTotalAmount currencyID="EUR">64.00</cbc:AllowanceTotalAmount>
    <cbc:ChargeTotalAmount currencyID="EUR">47.75</cbc:ChargeTotalAmount>`,
			},
			einvoice.CII: {
				`<ram:LineTotalAmount>889.96</ram:LineTotalAmount>
        <ram:ChargeTotalAmount>47.75</ram:ChargeTotalAmount>
        <ram:AllowanceTotalAmount>64.00</ram:AllowanceTotalAmount>
        <ram:TaxBasisTotalAmount>873.71</ram:TaxBasisTotalAmount>`,
			},
		},
	}, {
		// 7.5 × 3333 is 24997.5, rounded to 24998: at 3333 a unit the
		// line would be 0.5 off, beyond Peppol's 0.02; a percent of 24998
		// is as far off its rounding, so it is written by its amount.
		name: "JPY with decimal quantities, discounts, an allowance and a charge",
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				`<cbc:PriceAmount currencyID="JPY">24998</cbc:PriceAmount>
      <cbc:BaseQuantity unitCode="HUR">7.5</cbc:BaseQuantity>`,
				`<cbc:AllowanceChargeReason>Loyal customer</cbc:AllowanceChargeReason>
      <cbc:Amount currencyID="JPY">2500</cbc:Amount>
    </cac:AllowanceCharge>`,
				`<cbc:AllowanceChargeReason>Member discount</cbc:AllowanceChargeReason>
    <cbc:Amount currencyID="JPY">675</cbc:Amount>
    <cac:TaxCategory>`,
			},
			einvoice.CII: {
				`<ram:ChargeAmount>24998</ram:ChargeAmount>
          <ram:BasisQuantity unitCode="HUR">7.5</ram:BasisQuantity>`,
			},
		},
	}} {
		inv := byName[c.name].inv
		if inv == nil {
			t.Fatalf("no case %q", c.name)
		}
		for format, wants := range c.want {
			b, err := einvoice.Invoice(inv, format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.name, format, err)
			}
			for _, want := range wants {
				if !strings.Contains(string(b), want) {
					t.Errorf("%s (%s): no\n%s\nin\n%s", c.name, format, want, b)
				}
			}
			if strings.Contains(string(b), "MultiplierFactorNumeric") != strings.Contains(string(b), "BaseAmount") {
				t.Errorf("%s (%s): a percent without its base or a base without its percent (PEPPOL-EN16931-R041, R042)", c.name, format)
			}
		}
	}
}
