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

package document

import (
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
)

func TestBothDocumentsShowTheFrozenBankAccountAndTheBuyersReferences(t *testing.T) {
	inv := twoRates()
	if inv.Status.PaymentReference == "" {
		t.Fatal("the sample has no payment reference")
	}
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := PDF(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, doc)
	for _, want := range []string{
		"Your reference", "04011000-12345-34", "Purchase order", "PO-2026-0042",
		"Account holder", "Example Invoicing GmbH", "IBAN", "DE89 3704 0044 0532 0130 00", "BIC", "COBADEFFXXX",
		"Reference", banktransfer.Group(inv.Status.PaymentReference),
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the HTML does not contain %q", want)
		}
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not contain %q", want)
		}
	}
	if !strings.Contains(string(html), "Payment by bank transfer") || !strings.Contains(text, "PAYMENT BY BANK TRANSFER") {
		t.Error("a document has no bank transfer heading")
	}
}

func TestAnInvoiceWithoutAnAccountHasNoBankTransferBlock(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) { inv.Status.PaymentAccount = nil })
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := PDF(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "Payment by bank transfer") || strings.Contains(pdfText(t, doc), "BANK TRANSFER") {
		t.Error("a document without an account shows a bank transfer block")
	}
}

func TestAnIBANIsPrintedInGroupsOfFour(t *testing.T) {
	for iban, want := range map[string]string{
		"DE89370400440532013000":      "DE89 3704 0044 0532 0130 00",
		"NL91ABNA0417164300":          "NL91 ABNA 0417 1643 00",
		"FR1420041010050500013M02606": "FR14 2004 1010 0505 0001 3M02 606",
	} {
		if got := banktransfer.Group(iban); got != want {
			t.Errorf("banktransfer.Group(%q) = %q, want %q", iban, got, want)
		}
	}
}
