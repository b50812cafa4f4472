/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package document

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestMinorUnitsFollowISO4217(t *testing.T) {
	cases := []struct {
		code   string
		amount int64
		want   string
	}{
		{"JPY", 0, "JPY 0"},
		{"JPY", 1500, "JPY 1,500"},
		{"JPY", 1234567, "JPY 1,234,567"},
		{"USD", 0, "USD 0.00"},
		{"USD", 5, "USD 0.05"},
		{"USD", 68050, "USD 680.50"},
		{"USD", 123456789, "USD 1,234,567.89"},
		{"usd", 100, "USD 1.00"},
		{"EUR", 100000, "EUR 1,000.00"},
		{"BHD", 1, "BHD 0.001"},
		{"BHD", 1234, "BHD 1.234"},
		{"BHD", 1234567, "BHD 1,234.567"},
		{"USD", 1<<53 - 1, "USD 90,071,992,547,409.91"},
	}
	for _, tc := range cases {
		t.Run(tc.code+" "+tc.want, func(t *testing.T) {
			c, err := billing.ParseCurrency(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatMoney(c, tc.amount); got != tc.want {
				t.Errorf("Format(%d) = %q, want %q", tc.amount, got, tc.want)
			}
		})
	}
}

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
				{Description: "Consulting, November", Quantity: 3, Amount: 15000},
				{Description: "Support plan", Quantity: 1, Amount: 23050},
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
	html, err := HTML(issued(), footer)
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	for _, want := range []string{
		"<!DOCTYPE html>", "@page", "<title>Invoice DEMO-000001</title>",
		"DEMO-000001", "2026-11-23", "2026-12-07",
		"Example Invoicing GmbH", "Friedrichstraße 1", "10117 Berlin", "DE123456789",
		"Acme Corporation", "billing@acme.example", "1 Main Street", "62701 Springfield", "US-12-3456789",
		"Description", "Quantity", "Unit amount", "Amount",
		"Consulting, November", "USD 150.00", "USD 450.00", "Support plan", "USD 230.50",
		"Total", "USD 680.50",
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
	}), "<img src=x onerror=alert(1)>")
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
	doc, err := PDF(issued(), footer)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(doc, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", doc[:min(len(doc), 16)])
	}
	text := pdfText(t, doc)
	for _, want := range []string{
		"DEMO-000001", "USD 680.50", "USD 450.00", "2026-11-23", "2026-12-07",
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
				Quantity:    1_000_000, Amount: 1_000_000,
			})
		}
		// A description of 1,000 characters, in the narrow column that
		// large amounts leave, is taller than a page.
		var words strings.Builder
		for i := 0; words.Len() < 990; i++ {
			fmt.Fprintf(&words, "w%03d ", i)
		}
		inv.Spec.Items = append(inv.Spec.Items, billingv1.LineItem{Description: words.String() + "LAST", Quantity: 1_000_000, Amount: 1_000_000_000_000})
		inv.Status.Total = ptr.To[int64](120*1_000_000*1_000_000 + 1_000_000*1_000_000_000_000)
		inv.Status.BillTo.Name = "Ελληνικά Кириллица 日本語"
	})
	doc, err := PDF(inv, strings.Repeat("A footer line.\n", 60))
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
	for _, want := range []string{"USD 10,001,200,000,000,000.00", "USD 10,000,000,000,000,000.00", "w000", "w100", "LAST", "Ελληνικά Кириллица ???"} {
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
		if _, err := HTML(inv, ""); !errors.Is(err, ErrNotIssued) {
			t.Errorf("HTML of a %q invoice: %v, want ErrNotIssued", phase, err)
		}
		if _, err := PDF(inv, ""); !errors.Is(err, ErrNotIssued) {
			t.Errorf("PDF of a %q invoice: %v, want ErrNotIssued", phase, err)
		}
	}
}

func TestAmountsUseTheInvoicesCurrency(t *testing.T) {
	cases := []struct {
		currency    string
		total, line string
	}{
		{"JPY", "JPY 68,050", "JPY 45,000"},
		{"BHD", "BHD 68.050", "BHD 45.000"},
		{"USD", "USD 680.50", "USD 450.00"},
	}
	for _, tc := range cases {
		t.Run(tc.currency, func(t *testing.T) {
			inv := issued(func(inv *billingv1.Invoice) { inv.Spec.Currency = tc.currency })
			html, err := HTML(inv, "")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := PDF(inv, "")
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

// pdfText is the text of every page of doc, each text run on its own line.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatalf("reading the PDF: %v", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		if err != nil {
			t.Fatalf("reading page %d: %v", i, err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				b.WriteString(w.S)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func writeOut(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}
