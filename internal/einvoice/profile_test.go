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

// lacks writes inv under profile in both formats and checks that each
// answers an *UnavailableError naming exactly the pieces of want, each by
// its beginning.
func lacks(t *testing.T, name string, inv *billingv1.Invoice, profile einvoice.Profile, want ...string) {
	t.Helper()
	for _, f := range einvoice.Formats {
		_, err := einvoice.Invoice(inv, f, profile)
		var unavailable *einvoice.UnavailableError
		if !errors.As(err, &unavailable) {
			t.Errorf("%s (%s, %s): got %v, want an UnavailableError", name, f, profile, err)
			continue
		}
		if unavailable.Profile != profile || len(unavailable.Missing) != len(want) {
			t.Errorf("%s (%s, %s): missing %q under %s, want %d pieces", name, f, profile,
				unavailable.Missing, unavailable.Profile, len(want))
		}
		for _, w := range want {
			if !slices.ContainsFunc(unavailable.Missing, func(m string) bool { return strings.HasPrefix(m, w) }) {
				t.Errorf("%s (%s, %s): missing %q, want one starting %q", name, f, profile, unavailable.Missing, w)
			}
		}
	}
}

func TestAnInvoiceWithoutTheXRechnungDataIsUnavailableUnderXRechnungNamingEveryPiece(t *testing.T) {
	inv := bare("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	lacks(t, "a bare invoice", inv, einvoice.XRechnung,
		"the issuer's electronic address (BT-34",
		"the customer's electronic address (BT-49",
		"a buyer reference (BT-10",
		"the issuer's contact name (BT-41",
		"the issuer's contact phone (BT-42",
		// BT-43 falls back on the issuer's e-mail, which bare has.
		"the account to pay to (BG-16",
	)
	inv.Status.Issuer.Email, inv.Status.BillTo.Address.City, inv.Status.Issuer.Address.PostalCode = "", "", ""
	lacks(t, "a bare invoice without e-mail, city or post code", inv, einvoice.XRechnung,
		"the issuer's electronic address", "the customer's electronic address", "a buyer reference",
		"the issuer's contact name", "the issuer's contact phone", "the issuer's contact email (BT-43",
		"the account to pay to", "the issuer's post code", "the customer's city",
	)
}

func TestAnInvoiceWithoutElectronicAddressesOrAReferenceIsUnavailableUnderPeppol(t *testing.T) {
	inv := bare("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	lacks(t, "a bare invoice", inv, einvoice.Peppol,
		"the issuer's electronic address (BT-34",
		"the customer's electronic address (BT-49",
		"a buyer reference or a purchase order (BT-10 or BT-13",
	)
	inv.Spec.PurchaseOrder = "PO-1"
	lacks(t, "a bare invoice with a purchase order", inv, einvoice.Peppol,
		"the issuer's electronic address", "the customer's electronic address")
}

func TestPeppolAppliesTheGermanRulesBetweenGermanParties(t *testing.T) {
	inv := bare("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	inv.Spec.PurchaseOrder = "PO-1"
	inv.Status.Issuer.ElectronicAddress = &billingv1.ElectronicAddress{Scheme: "9930", Value: "DE123456789"}
	inv.Status.BillTo.ElectronicAddress = &billingv1.ElectronicAddress{Scheme: "9930", Value: "DE811128135"}
	inv.Status.BillTo.TaxID, inv.Status.BillTo.Address.Country = "DE811128135", "DE"
	lacks(t, "a German invoice to a German buyer", inv, einvoice.Peppol,
		"a buyer reference (BT-10", "the issuer's contact name", "the issuer's contact phone", "the account to pay to")
	inv.Status.BillTo.TaxID, inv.Status.BillTo.Address.Country = "FR40303265045", "FR"
	if _, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.Peppol); err != nil {
		t.Errorf("to a French buyer: %v", err)
	}
}

func TestElectronicAddressesOutsideTheEASListOrWithWrongCheckDigitsAreRefused(t *testing.T) {
	for _, c := range []struct {
		name     string
		address  billingv1.ElectronicAddress
		profiles []einvoice.Profile
		want     string
	}{
		{"a scheme outside the EAS list", billingv1.ElectronicAddress{Scheme: "1234", Value: "x"},
			[]einvoice.Profile{einvoice.Peppol, einvoice.XRechnung}, "(1234 is not one)"},
		{"a GLN with a wrong check digit", billingv1.ElectronicAddress{Scheme: "0088", Value: "4035811991022"},
			[]einvoice.Profile{einvoice.Peppol}, `("4035811991022" is not)`},
		{"a Norwegian organisation number with a wrong check digit", billingv1.ElectronicAddress{Scheme: "0192", Value: "987654320"},
			[]einvoice.Profile{einvoice.Peppol}, `("987654320" is not)`},
		{"a Belgian enterprise number with wrong check digits", billingv1.ElectronicAddress{Scheme: "0208", Value: "0403019262"},
			[]einvoice.Profile{einvoice.Peppol}, `("0403019262" is not)`},
	} {
		for _, profile := range c.profiles {
			inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
			inv.Status.Issuer.ElectronicAddress = &c.address
			_, err := einvoice.Invoice(inv, einvoice.UBL, profile)
			var unavailable *einvoice.UnavailableError
			if !errors.As(err, &unavailable) || len(unavailable.Missing) != 1 ||
				!strings.HasSuffix(unavailable.Missing[0], c.want) {
				t.Errorf("%s under %s: got %v, want one piece ending %s", c.name, profile, err, c.want)
			}
		}
	}
	for _, good := range []billingv1.ElectronicAddress{
		{Scheme: "0088", Value: "4035811991021"}, {Scheme: "0192", Value: "987654325"},
		{Scheme: "0208", Value: "0403019261"}, {Scheme: "0007", Value: "5560360793"},
		{Scheme: "0151", Value: "51824753556"}, {Scheme: "0184", Value: "DK12345678"},
	} {
		inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
		inv.Status.Issuer.ElectronicAddress = &good
		if _, err := einvoice.Invoice(inv, einvoice.UBL, einvoice.Peppol); err != nil {
			t.Errorf("%s %s: %v", good.Scheme, good.Value, err)
		}
	}
}

func TestAPaymentAccountWithAWrongIBANIsRefusedUnderEveryProfile(t *testing.T) {
	for _, profile := range einvoice.Profiles {
		inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
		inv.Status.PaymentAccount.IBAN = "DE02120300000000202052"
		lacks(t, "a wrong IBAN", inv, profile, "a valid IBAN")
	}
}

func TestThePaymentAccountAndReferencesAreWrittenInBothSyntaxes(t *testing.T) {
	inv := issued("EUR", item("a", 1, 100, tax(billingv1.TaxStandard, "19", "")))
	if !strings.HasPrefix(inv.Status.PaymentReference, "RF") {
		t.Fatalf("the case has no payment reference: %q", inv.Status.PaymentReference)
	}
	for _, c := range []struct {
		format einvoice.Format
		want   []string
	}{
		{einvoice.UBL, []string{
			"<cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>",
			"<cac:OrderReference>\n    <cbc:ID>PO-2026-0042</cbc:ID>",
			`<cbc:EndpointID schemeID="0088">4035811991021</cbc:EndpointID>`,
			"<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>\n    <cbc:PaymentID>" + inv.Status.PaymentReference + "</cbc:PaymentID>\n    <cac:PayeeFinancialAccount>\n      <cbc:ID>DE02120300000000202051</cbc:ID>\n      <cbc:Name>Example Invoicing GmbH</cbc:Name>\n      <cac:FinancialInstitutionBranch>\n        <cbc:ID>BYLADEM1001</cbc:ID>",
			"<cbc:CompanyID>HRB 12345 B</cbc:CompanyID>",
			"<cbc:Telephone>+49 30 1234567</cbc:Telephone>",
		}},
		{einvoice.CII, []string{
			"<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>",
			"<ram:BuyerOrderReferencedDocument>", "<ram:IssuerAssignedID>PO-2026-0042</ram:IssuerAssignedID>",
			`<ram:URIID schemeID="9957">FR40303265045</ram:URIID>`,
			"<ram:PaymentReference>" + inv.Status.PaymentReference + "</ram:PaymentReference>\n      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>",
			"<ram:IBANID>DE02120300000000202051</ram:IBANID>",
			"<ram:BICID>BYLADEM1001</ram:BICID>",
			"<ram:SpecifiedLegalOrganization>", "<ram:ID>HRB 12345 B</ram:ID>",
			"<ram:CompleteNumber>+49 30 1234567</ram:CompleteNumber>",
		}},
	} {
		b, err := einvoice.Invoice(inv, c.format, einvoice.XRechnung)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: no %s in\n%s", c.format, w, b)
			}
		}
	}
}
