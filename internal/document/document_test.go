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
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// issued is an issued invoice as the controller leaves it.
func issued(mutate ...func(*billingv1.Invoice)) *billingv1.Invoice {
	at := metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	due := metav1.NewTime(at.AddDate(0, 0, 14))
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "acme-2026-001", Namespace: "demo"},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "acme"},
			Currency:    "USD",
			Items: []billingv1.LineItem{
				{Description: "Consulting, November", Quantity: billingv1.Units(3), Amount: 15000},
				{Description: "Support plan", Quantity: billingv1.Units(1), Amount: 23050},
			},
		},
		Status: billingv1.InvoiceStatus{
			Phase:    billingv1.InvoiceIssued,
			Total:    ptr.To[int64](68050),
			Number:   "DEMO-000001",
			Sequence: ptr.To[int64](1),
			IssuedAt: &at,
			DueAt:    &due,
			BillTo: &billingv1.BillTo{
				Name: "Acme Corporation", Email: "billing@acme.example", TaxID: "US-12-3456789",
				Address: &billingv1.Address{Line1: "1 Main Street", City: "Springfield", PostalCode: "62701", State: "IL", Country: "US"},
			},
			Issuer: &billingv1.Issuer{
				Name: "Example Invoicing GmbH", Email: "billing@example.com", TaxID: "DE123456789",
				Address: &billingv1.Address{Line1: "Friedrichstraße 1", City: "Berlin", PostalCode: "10117", Country: "DE"},
			},
		},
	}
	for _, m := range mutate {
		m(inv)
	}
	return inv
}

const footer = "Bank: Example Bank, IBAN DE89 3704 0044 0532 0130 00\nThank you for your business."

func TestTheHTMLDocumentShowsEverythingAnInvoiceNeeds(t *testing.T) {
	html, err := HTML(issued(), Options{Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	for _, want := range []string{
		"<!DOCTYPE html>", "@page", "<title>Invoice DEMO-000001</title>",
		"DEMO-000001", "Nov 23, 2026", "Dec 7, 2026",
		"Example Invoicing GmbH", "Friedrichstraße 1", "10117 Berlin", "DE123456789",
		"Acme Corporation", "billing@acme.example", "1 Main Street", "SPRINGFIELD, IL 62701", "US-12-3456789",
		"Description", "Quantity", "Unit amount", "Amount",
		"Consulting, November", "$150.00", "$450.00", "Support plan", "$230.50",
		"Total", "$680.50",
		"IBAN DE89 3704 0044 0532 0130 00", "Thank you for your business.",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the HTML does not contain %q", want)
		}
	}
	if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
		writeOut(t, dir, "invoice.html", html)
	}
}

func TestTheHTMLDocumentPrintsUserTextAsText(t *testing.T) {
	evil := `<script>alert("x")</script>`
	html, err := HTML(issued(func(inv *billingv1.Invoice) {
		inv.Spec.Items[0].Description = evil
		inv.Status.BillTo.Name = `<b onmouseover="x">Bold</b>`
		inv.Status.Issuer.Name = "Tom & Jerry"
	}), Options{Footer: "<img src=x onerror=alert(1)>"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	for _, bad := range []string{"<script>", "<b onmouseover", "<img"} {
		if strings.Contains(s, bad) {
			t.Errorf("the HTML contains the unescaped %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "&lt;b onmouseover=", "Tom &amp; Jerry", "&lt;img src=x"} {
		if !strings.Contains(s, want) {
			t.Errorf("the HTML does not contain the escaped %q", want)
		}
	}
}

func TestThePDFsTextCanBeExtracted(t *testing.T) {
	doc, err := PDF(issued(), Options{Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(doc, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", doc[:min(len(doc), 16)])
	}
	text := pdfText(t, doc)
	for _, want := range []string{
		"DEMO-000001", "$680.50", "$450.00", "Nov 23, 2026", "Dec 7, 2026",
		"Example Invoicing GmbH", "Friedrichstraße 1", "Acme Corporation", "Consulting, November", "Total",
		"Thank you for your business.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text does not contain %q; it is:\n%s", want, text)
		}
	}
	if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
		writeOut(t, dir, "invoice.pdf", doc)
	}
}

func TestAPDFOfManyLongLinesRunsOverSeveralPages(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) {
		inv.Spec.Items = nil
		for range 120 {
			inv.Spec.Items = append(inv.Spec.Items, billingv1.LineItem{
				Description: strings.Repeat("A long description of work done. ", 6) + "Unbrokenwordthatislongerthanthecolumnitisprintedin" + strings.Repeat("x", 80),
				Quantity:    billingv1.Units(1_000_000), Amount: 100_000,
			})
		}
		// A description of 1,000 characters, in the narrow column that
		// large amounts leave, is taller than a page. Its line is the
		// largest an invoice can have: the widest quantity and nearly
		// billing.MaxTotal.
		var words strings.Builder
		for i := 0; words.Len() < 990; i++ {
			fmt.Fprintf(&words, "w%03d ", i)
		}
		inv.Spec.Items = append(inv.Spec.Items, billingv1.LineItem{Description: words.String() + "LAST",
			Quantity: billingv1.QuantityOfScaled(9_999_999_999), Amount: 8_900_000_000})
		inv.Status.Total = ptr.To[int64](120*1_000_000*100_000 + 8_899_999_999_110_000)
		inv.Status.BillTo.Name = "Ελληνικά Кириллица 日本語"
	})
	doc, err := PDF(inv, Options{Footer: strings.Repeat("A footer line.\n", 60)})
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
		writeOut(t, dir, "long.pdf", doc)
	}
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatal(err)
	}
	if n := r.NumPage(); n < 3 {
		t.Errorf("the PDF has %d pages, want several", n)
	}
	text := pdfText(t, doc)
	for _, want := range []string{"$89,119,999,991,100.00", "$88,999,999,991,100.00", "999,999.9999", "w000", "w100", "LAST", "Ελληνικά Кириллица ???"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text does not contain %q", want)
		}
	}
}

func TestAnInvoiceThatIsNotIssuedHasNoDocument(t *testing.T) {
	for _, phase := range []billingv1.InvoicePhase{"", billingv1.InvoicePending, billingv1.InvoiceInvalid} {
		inv := issued(func(inv *billingv1.Invoice) {
			inv.Status = billingv1.InvoiceStatus{Phase: phase}
		})
		if _, err := HTML(inv, Options{}); !errors.Is(err, ErrNotIssued) {
			t.Errorf("HTML of a %q invoice: %v, want ErrNotIssued", phase, err)
		}
		if _, err := PDF(inv, Options{}); !errors.Is(err, ErrNotIssued) {
			t.Errorf("PDF of a %q invoice: %v, want ErrNotIssued", phase, err)
		}
	}
}

func TestAmountsUseTheInvoicesCurrency(t *testing.T) {
	cases := []struct {
		currency    string
		total, line string
	}{
		{"JPY", "¥68,050", "¥45,000"},
		{"BHD", "BHD\u00a068.050", "BHD\u00a045.000"},
		{"USD", "$680.50", "$450.00"},
	}
	for _, tc := range cases {
		t.Run(tc.currency, func(t *testing.T) {
			inv := issued(func(inv *billingv1.Invoice) { inv.Spec.Currency = tc.currency })
			html, err := HTML(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := PDF(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, text := range map[string]string{"HTML": string(html), "PDF": pdfText(t, doc)} {
				for _, want := range []string{tc.total, tc.line} {
					if !strings.Contains(text, want) {
						t.Errorf("the %s does not contain %q", name, want)
					}
				}
			}
		})
	}
}

func TestTheFilenameIsTheNumber(t *testing.T) {
	if got := Filename(issued(), "pdf"); got != "DEMO-000001.pdf" {
		t.Errorf("got %q", got)
	}
	if got := Filename(issued(func(inv *billingv1.Invoice) { inv.Status.Number = `A/B "1"` }), "pdf"); got != "A_B_1_.pdf" {
		t.Errorf("got %q", got)
	}
}

func TestTheDocumentsShowAnInvoicesTax(t *testing.T) {
	long := strings.Repeat("An exemption reason of many words. ", 13) + "LASTWORD"
	cases := []struct {
		name string
		inv  *billingv1.Invoice
		// want is in the HTML and in the PDF's text; totals too, in its
		// order; wantNot in neither, whatever its case.
		want, totals, wantNot []string
	}{{
		name: "An invoice at 19% and 7% names both groups by their rates, the tax of each and its subtotal, tax and total",
		inv:  twoRates(),
		want: []string{
			"€120.00", "€960.00", "€45.50", "€136.50", "19%", "7%",
			"VAT 19%", "€1,009.00", "€191.71", "VAT 7%", "€9.56",
			"VAT ID: DE123456789", "VAT ID: DE987654321",
		},
		totals:  []string{"Subtotal", "€1,145.50", "Tax", "€201.27", "Total", "€1,346.77"},
		wantNot: []string{"Reverse charge", "Standard rate", "S – "},
	}, {
		name: "A reverse-charge invoice says reverse charge, gives the reason and shows both parties' VAT ids",
		inv:  reverseCharge(),
		want: []string{
			"0%", "Reverse charge", "Reverse charge: the recipient is liable for the VAT",
			"VAT ID: DE123456789", "VAT ID: FR40303265045",
		},
		totals:  []string{"Subtotal", "€12,600.00", "Tax", "€0.00", "Total", "€12,600.00"},
		wantNot: []string{"AE – ", "0% AE", "VAT 0%"},
	}, {
		name:    "An invoice issued before tax existed shows its total as it always has",
		inv:     issued(),
		want:    []string{"$450.00", "$230.50", "Tax ID: US-12-3456789", "VAT ID: DE123456789"},
		totals:  []string{"Total", "$680.50"},
		wantNot: []string{"Subtotal", "Net amount", "Tax category", "Standard rate"},
	}, {
		name:    "An invoice without tax shows its total alone",
		inv:     plain(),
		totals:  []string{"Total", "$680.50"},
		wantNot: []string{"Subtotal", "Net amount", "Tax category"},
	}, {
		name: "Lines without a tax of their own show the billing profile's default tax, frozen at issue",
		inv: issued(func(inv *billingv1.Invoice) { inv.Spec.Currency = "EUR" },
			freezeTax(builder.StandardTax("19.00"))),
		want:   []string{"19%", "VAT 19%", "€680.50", "€129.30"},
		totals: []string{"Subtotal", "€680.50", "Tax", "€129.30", "Total", "€809.80"},
	}, {
		name: "A line without tax on an invoice with tax says it has none",
		inv: issued(func(inv *billingv1.Invoice) {
			inv.Spec.Items[0].Tax = builder.StandardTax("5.5")
		}, freezeTax(nil)),
		want:   []string{"5.5%", "none", "$450.00", "$24.75"},
		totals: []string{"Subtotal", "$680.50", "Tax", "$24.75", "Total", "$705.25"},
	}, {
		name: "An invoice not subject to tax shows no rate and its reason",
		inv: issued(func(inv *billingv1.Invoice) {
			for i := range inv.Spec.Items {
				inv.Spec.Items[i].Tax = builder.Tax(billingv1.TaxNotSubject, "", "Not subject to VAT: place of supply outside the EU")
			}
		}, freezeTax(nil)),
		want:    []string{"Not subject to tax", "—", "Not subject to VAT: place of supply outside the EU"},
		totals:  []string{"Subtotal", "$680.50", "Tax", "$0.00", "Total", "$680.50"},
		wantNot: []string{"O – "},
	}, {
		name: "An exemption reason of 500 characters is printed whole",
		inv: issued(func(inv *billingv1.Invoice) {
			for i := range inv.Spec.Items {
				inv.Spec.Items[i].Tax = builder.Tax(billingv1.TaxExempt, "0", long)
			}
		}, freezeTax(nil)),
		want:    []string{"0%", "Exempt", "An exemption reason of many words.", "LASTWORD"},
		totals:  []string{"Subtotal", "$680.50", "Tax", "$0.00", "Total", "$680.50"},
		wantNot: []string{"E – ", "0% E"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			html, err := HTML(tc.inv, Options{Footer: footer})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := PDF(tc.inv, Options{Footer: footer})
			if err != nil {
				t.Fatal(err)
			}
			for name, text := range map[string]string{"HTML": string(html), "PDF": pdfText(t, doc)} {
				for _, want := range tc.want {
					if !strings.Contains(text, want) {
						t.Errorf("the %s does not contain %q", name, want)
					}
				}
				rest := text
				for _, want := range tc.totals {
					i := strings.Index(rest, want)
					if i < 0 {
						t.Errorf("the %s does not contain %q after %v", name, want, tc.totals)
						break
					}
					rest = rest[i+len(want):]
				}
				for _, bad := range tc.wantNot {
					if strings.Contains(strings.ToLower(text), strings.ToLower(bad)) {
						t.Errorf("the %s contains %q", name, bad)
					}
				}
			}
		})
	}
}

func TestAPDFOf500TaxedLinesEndsWithItsBreakdownAndTotals(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) {
		inv.Spec.Items = nil
		for i := range 500 {
			tax := builder.StandardTax("19")
			if i%2 == 1 {
				tax = builder.StandardTax("7")
			}
			builder.WithTaxedItem(fmt.Sprintf("Line %03d, %s", i, strings.Repeat("words ", i%40)), 1, 1000, tax)(inv)
		}
	}, freezeTax(nil))
	doc, err := PDF(inv, Options{Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, doc)
	// 250 lines of USD 10.00 at each rate: USD 475.00 and USD 175.00 tax.
	last := strings.LastIndex(text, "Line 499")
	if last < 0 {
		t.Fatal("the PDF does not contain the last line")
	}
	rest := text[last:]
	for _, want := range []string{"VAT 19%", "$2,500.00", "$475.00", "VAT 7%", "$2,500.00", "$175.00", "Subtotal", "$5,000.00", "Total", "$5,650.00"} {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("the PDF does not contain %q in order after the last line", want)
		}
		rest = rest[i+len(want):]
	}
}
