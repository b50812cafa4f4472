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
	"strconv"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/qrread"
)

// The EPC QR code is read back from what each document draws, by a
// standard QR decoder (ZXing's port), not from the code's own modules.

// epcInvoice is the sample in euros with its account and reference, with
// paid cents paid of it.
func epcInvoice(paid int64) *billingv1.Invoice {
	inv := twoRates()
	if paid > 0 {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: paid, AmountRemaining: *inv.Status.Total - paid,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	return inv
}

// wantEPC is the payload the code of inv must carry for owed cents.
func wantEPC(inv *billingv1.Invoice, owed string) string {
	a := inv.Status.PaymentAccount
	return strings.Join([]string{"BCD", "002", "1", "SCT", a.BIC, a.AccountName, a.IBAN, "EUR" + owed, "", inv.Status.PaymentReference}, "\n")
}

func TestTheHTMLShowsAnEPCQRCodeThatADecoderReadsBack(t *testing.T) {
	inv := epcInvoice(0)
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := htmlCode(t, html)
	if want := wantEPC(inv, money(*inv.Status.Total)); got != want {
		t.Errorf("the HTML's code reads\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(string(html), "Scan with your banking app to pay") {
		t.Error("the HTML's code has no caption")
	}
}

func TestThePDFShowsAnEPCQRCodeOfWhatRemainsThatADecoderReadsBack(t *testing.T) {
	inv := epcInvoice(10_00)
	doc, err := PDF(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, side := pdfCode(t, doc)
	if side < 20/25.4*72 {
		t.Errorf("the PDF's code is %.1f points wide, less than 2 cm", side)
	}
	if want := wantEPC(inv, money(*inv.Status.Total-10_00)); got != want {
		t.Errorf("the PDF's code reads\n%q\nwant\n%q", got, want)
	}
}

func TestAFacturXKeepsTheEPCQRCode(t *testing.T) {
	inv := epcInvoice(0)
	doc, err := FacturX(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := pdfCode(t, doc); got != wantEPC(inv, money(*inv.Status.Total)) {
		t.Errorf("the Factur-X's code reads\n%q\nwant\n%q", got, wantEPC(inv, money(*inv.Status.Total)))
	}
}

func TestNoEPCQRCodeIsShownWhereNoTransferIsAskedInEuros(t *testing.T) {
	cases := []struct {
		name   string
		change func(*billingv1.Invoice)
	}{
		{"nothing remains to pay", func(inv *billingv1.Invoice) {
			inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: *inv.Status.Total, PaymentStatus: billingv1.InvoicePaymentPaid}
		}},
		{"the invoice is in another currency", func(inv *billingv1.Invoice) { inv.Spec.Currency = "CHF" }},
		{"the profile named no account", func(inv *billingv1.Invoice) { inv.Status.PaymentAccount = nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := epcInvoice(0)
			c.change(inv)
			html, err := HTML(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := PDF(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(html), "epc-qr") {
				t.Error("the HTML shows a code")
			}
			if rects, err := qrread.Rects(doc); err != nil || len(rects) > 0 {
				t.Errorf("the PDF draws %d filled rectangles (%v)", len(rects), err)
			}
		})
	}
}

func TestWithoutAReferenceTheCodeCarriesTheInvoiceNumberAsText(t *testing.T) {
	inv := epcInvoice(0)
	inv.Status.PaymentReference = ""
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := inv.Status.PaymentAccount
	want := strings.Join([]string{"BCD", "002", "1", "SCT", a.BIC, a.AccountName, a.IBAN, "EUR" + money(*inv.Status.Total), "", "", inv.Status.Number}, "\n")
	if got := htmlCode(t, html); got != want {
		t.Errorf("the code reads\n%q\nwant\n%q", got, want)
	}
}

// money writes cents as the EPC amount does.
func money(cents int64) string {
	return strconv.FormatInt(cents/100, 10) + "." + strconv.FormatInt(cents%100/10, 10) + strconv.FormatInt(cents%10, 10)
}

// htmlCode is the text of the HTML's code.
func htmlCode(t *testing.T, html []byte) string {
	t.Helper()
	text, err := qrread.HTML(html)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// pdfCode is the text of the PDF's code, and its width in points.
func pdfCode(t *testing.T, doc []byte) (string, float64) {
	t.Helper()
	text, side, err := qrread.PDF(doc)
	if err != nil {
		t.Fatal(err)
	}
	return text, side
}
