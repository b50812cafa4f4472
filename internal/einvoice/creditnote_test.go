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
	"k8s.io/utils/ptr"

	"errors"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

func TestACreditNoteIsOfType381AndRefersToTheCreditedInvoice(t *testing.T) {
	cn := creditNoteCases()[0].cn
	for format, wants := range map[einvoice.Format][]string{
		einvoice.UBL: {
			`<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"`,
			"<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>",
			"<cac:BillingReference>\n    <cac:InvoiceDocumentReference>\n      <cbc:ID>INV-000042</cbc:ID>\n      <cbc:IssueDate>2026-03-01</cbc:IssueDate>",
			`<cbc:CreditedQuantity unitCode="C62">1</cbc:CreditedQuantity>`,
			`<cbc:PriceAmount currencyID="EUR">123.45</cbc:PriceAmount>`,
			`<cbc:PriceAmount currencyID="EUR">10.00</cbc:PriceAmount>`,
		},
		einvoice.CII: {
			"<ram:TypeCode>381</ram:TypeCode>",
			"<ram:InvoiceReferencedDocument>\n        <ram:IssuerAssignedID>INV-000042</ram:IssuerAssignedID>",
			`<qdt:DateTimeString format="102">20260301</qdt:DateTimeString>`,
		},
	} {
		b, err := einvoice.CreditNote(cn, format, einvoice.EN16931)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: no %s in\n%s", format, want, b)
			}
		}
		if strings.Contains(string(b), "InvoicedQuantity") || strings.Contains(string(b), "DueDate") {
			t.Errorf("%s: a credit note with an invoiced quantity or a due date:\n%s", format, b)
		}
	}
}

// A credited quantity is carried as it is, in the invoice line's unit
// (BT-129, BT-130): at the unit price its amount is when the quantity
// divides it exactly, else at its amount for the whole quantity (BT-149),
// so that quantity times price is the line's net (Peppol's R120).
func TestACreditedQuantityIsCarriedInItsUnitAtAPriceThatGivesItsNet(t *testing.T) {
	cn := creditNoteCases()[0].cn
	cn.Status.Lines[0].Quantity, cn.Status.Lines[0].Amount = ptr.To(billingv1.Units(3)), 1000
	decimals := creditNoteCases()[3].cn
	for _, c := range []struct {
		name string
		cn   *billingv1.CreditNote
		want map[einvoice.Format][]string
	}{{
		name: "3 units for 10.00, which 3 does not divide",
		cn:   cn,
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				"<cbc:CreditedQuantity unitCode=\"C62\">3</cbc:CreditedQuantity>\n    <cbc:LineExtensionAmount currencyID=\"EUR\">10.00</cbc:LineExtensionAmount>",
				"<cbc:PriceAmount currencyID=\"EUR\">10.00</cbc:PriceAmount>\n      <cbc:BaseQuantity unitCode=\"C62\">3</cbc:BaseQuantity>",
			},
			einvoice.CII: {
				"<ram:ChargeAmount>10.00</ram:ChargeAmount>\n          <ram:BasisQuantity unitCode=\"C62\">3</ram:BasisQuantity>",
				"<ram:BilledQuantity unitCode=\"C62\">3</ram:BilledQuantity>",
			},
		},
	}, {
		name: "2.5 hours at 120.00 and 34.5678 kilograms",
		cn:   decimals,
		want: map[einvoice.Format][]string{
			einvoice.UBL: {
				"<cbc:CreditedQuantity unitCode=\"HUR\">2.5</cbc:CreditedQuantity>\n    <cbc:LineExtensionAmount currencyID=\"EUR\">300.00</cbc:LineExtensionAmount>",
				"<cbc:CreditedQuantity unitCode=\"KGM\">34.5678</cbc:CreditedQuantity>",
				"<cbc:PriceAmount currencyID=\"EUR\">120.00</cbc:PriceAmount>\n    </cac:Price>",
				"<cbc:CreditedQuantity unitCode=\"C62\">1</cbc:CreditedQuantity>\n    <cbc:LineExtensionAmount currencyID=\"EUR\">50.00</cbc:LineExtensionAmount>",
			},
			einvoice.CII: {
				"<ram:BilledQuantity unitCode=\"HUR\">2.5</ram:BilledQuantity>",
				"<ram:BilledQuantity unitCode=\"KGM\">34.5678</ram:BilledQuantity>",
			},
		},
	}} {
		for format, wants := range c.want {
			b, err := einvoice.CreditNote(c.cn, format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.name, format, err)
			}
			for _, want := range wants {
				if !strings.Contains(string(b), want) {
					t.Errorf("%s (%s): no %s in\n%s", c.name, format, want, b)
				}
			}
		}
	}
}

func TestACreditNoteThatIsNotIssuedOrLacksTaxHasNoEInvoice(t *testing.T) {
	cn := creditNoteCases()[0].cn
	cn.Status.Phase = billingv1.CreditNotePending
	if _, err := einvoice.CreditNote(cn, einvoice.UBL, einvoice.EN16931); !errors.Is(err, einvoice.ErrNotIssued) {
		t.Errorf("pending: got %v, want ErrNotIssued", err)
	}
	cn = creditNoteCases()[0].cn
	cn.Status.Lines[1].Tax = nil
	cn.Status.InvoiceNumber = ""
	_, err := einvoice.CreditNote(cn, einvoice.CII, einvoice.EN16931)
	var unavailable *einvoice.UnavailableError
	if !errors.As(err, &unavailable) || len(unavailable.Missing) != 2 ||
		!strings.Contains(err.Error(), "line 2 has none") || !strings.Contains(err.Error(), "the credited invoice's number") {
		t.Errorf("got %v, want the untaxed line 2 and the invoice number", err)
	}
}

func TestACreditNoteWithoutLinesHasNoEInvoiceAndSaysWhy(t *testing.T) {
	cn := creditNoteCases()[0].cn
	cn.Status.Lines = nil
	for _, format := range []einvoice.Format{einvoice.UBL, einvoice.CII} {
		_, err := einvoice.CreditNote(cn, format, einvoice.EN16931)
		var unavailable *einvoice.UnavailableError
		if !errors.As(err, &unavailable) || !strings.Contains(err.Error(), "BR-16") {
			t.Errorf("%s: got %v, want it unavailable for want of a line (BR-16)", format, err)
		}
	}
}
