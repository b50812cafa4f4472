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
	"html"
	"os"
	"strings"
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// This file checks the documents in the customer's language: their words,
// amounts and dates in the eight translated languages, a region's formats,
// and the PDF's font for the scripts it prints.

// localised is what a document shows in a language: its title word, an
// amount and a date, as that language writes them.
type localised struct {
	tag                 string
	title, amount, date string
}

// expectIn checks that each of docs (by name, its text) shows the title,
// the amount and the date, in the PDF as its font prints them.
func (tc localised) expectIn(t *testing.T, docs map[string]string) {
	t.Helper()
	for name, text := range docs {
		for _, want := range []string{tc.title, tc.amount, tc.date} {
			if name == "PDF" {
				want = pdfForm(want)
			}
			if !strings.Contains(text, want) {
				t.Errorf("the %s does not contain %q", name, want)
			}
		}
	}
}

// pdfForm is s as the PDF prints it: the font has no narrow no-break
// space, which is printed as a no-break space.
func pdfForm(s string) string { return fontSafe(s) }

// renderings are a document's HTML and PDF text.
func renderings(t *testing.T, toHTML, toPDF func(Options) ([]byte, error), tag language.Tag) map[string]string {
	t.Helper()
	page, err := toHTML(Options{Locale: tag, Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := toPDF(Options{Locale: tag, Footer: footer})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HTML": string(page), "PDF": pdfText(t, doc)}
}

func TestTheInvoiceIsWrittenInEachTranslatedLanguage(t *testing.T) {
	// twoRates: a total of EUR 1,346.77, issued on 2026-11-23.
	for _, tc := range []localised{
		{"en", "Invoice", "€1,346.77", "Nov 23, 2026"},
		{"de", "Rechnung", "1.346,77\u00a0€", "23.11.2026"},
		{"fr", "Facture", "1\u202f346,77\u00a0€", "23 nov. 2026"},
		{"es", "Factura", "1346,77\u00a0€", "23 nov. 2026"},
		{"it", "Fattura", "1346,77\u00a0€", "23 nov 2026"},
		{"nl", "Factuur", "€\u00a01.346,77", "23 nov. 2026"},
		{"pl", "Faktura", "1346,77\u00a0€", "23 lis 2026"},
		{"pt", "Fatura", "€\u00a01.346,77", "23 de nov. de 2026"},
	} {
		t.Run("An invoice in "+tc.tag+" says "+tc.title, func(t *testing.T) {
			tag := language.MustParse(tc.tag)
			inv := twoRates()
			docs := renderings(t, func(o Options) ([]byte, error) { return HTML(inv, o) },
				func(o Options) ([]byte, error) { return PDF(inv, o) }, tag)
			tc.expectIn(t, docs)
			if want := `<html lang="` + tc.tag + `">`; !strings.Contains(docs["HTML"], want) {
				t.Errorf("the HTML does not say %s", want)
			}
		})
	}
}

func TestTheCreditNoteIsWrittenInEachTranslatedLanguage(t *testing.T) {
	// issuedCreditNote: a total of USD 200.00, issued on 2026-11-30.
	for _, tc := range []localised{
		{"en", "Credit note", "$200.00", "Nov 30, 2026"},
		{"de", "Rechnungskorrektur", "200,00\u00a0$", "30.11.2026"},
		{"fr", "Avoir", "200,00\u00a0$US", "30 nov. 2026"},
		{"es", "Factura rectificativa", "200,00\u00a0US$", "30 nov. 2026"},
		{"it", "Nota di credito", "200,00\u00a0$", "30 nov 2026"},
		{"nl", "Creditnota", "US$\u00a0200,00", "30 nov. 2026"},
		{"pl", "Faktura korygująca", "200,00\u00a0$", "30 lis 2026"},
		{"pt", "Nota de crédito", "US$\u00a0200,00", "30 de nov. de 2026"},
	} {
		t.Run("A credit note in "+tc.tag+" says "+tc.title, func(t *testing.T) {
			cn := issuedCreditNote()
			docs := renderings(t, func(o Options) ([]byte, error) { return CreditNoteHTML(cn, o) },
				func(o Options) ([]byte, error) { return CreditNotePDF(cn, o) }, language.MustParse(tc.tag))
			tc.expectIn(t, docs)
		})
	}
}

func TestASwissGermanInvoiceHasGermanWordsAndSwissNumbers(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "CHF"
		inv.Spec.Items = nil
		builder.WithTaxedItem("Lizenzen", 1500, 1000, builder.StandardTax("8.1"))(inv)
	}, freezeTax(nil))
	tag := language.MustParse("de-CH")
	docs := renderings(t, func(o Options) ([]byte, error) { return HTML(inv, o) },
		func(o Options) ([]byte, error) { return PDF(inv, o) }, tag)
	for name, text := range docs {
		// 1,500 × CHF 10.00 = CHF 15,000.00, 8.1% tax CHF 1,215.00. The
		// quantity is grouped with CLDR's ’ of de-CH numbers, the amounts
		// with the ' of its currency format.
		for _, want := range []string{
			"Rechnung", "Menge", "Gesamtbetrag", "Rechnungsempfänger", "23.11.2026",
			"1’500", "8.1%", "CHF\u00a015'000.00", "CHF\u00a01'215.00", "CHF\u00a016'215.00",
		} {
			// The HTML escapes the apostrophe; the PDF's headings are in
			// capitals.
			text = html.UnescapeString(text)
			if !strings.Contains(text, want) && !strings.Contains(text, strings.ToUpper(want)) {
				t.Errorf("the %s does not contain %q", name, want)
			}
		}
	}
	if !strings.Contains(docs["HTML"], `<html lang="de-CH">`) {
		t.Error("the HTML is not marked de-CH")
	}
}

func TestThePDFPrintsPolishGreekAndCyrillicNames(t *testing.T) {
	for _, name := range []string{"Łódź Zakład Świętokrzyski", "Ελληνική Εταιρεία", "ООО Ромашка"} {
		t.Run("A customer named "+name+" is found in the PDF's text", func(t *testing.T) {
			inv := issued(func(inv *billingv1.Invoice) { inv.Status.BillTo.Name = name })
			doc, err := PDF(inv, Options{Locale: language.Polish})
			if err != nil {
				t.Fatal(err)
			}
			text := pdfText(t, doc)
			if !strings.Contains(text, name) {
				t.Errorf("the PDF's text does not contain %q; it is:\n%s", name, text)
			}
			if strings.Contains(text, "?") {
				t.Errorf("a character was replaced by '?':\n%s", text)
			}
			if !bytes.Contains(doc, []byte("/FontFile2")) {
				t.Error("the font is not embedded")
			}
			if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
				writeOut(t, dir, "font-"+strings.Fields(name)[0]+".pdf", doc)
			}
		})
	}
}

func TestAPDFWritesACurrencySymbolItsFontLacksAsTheCode(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) { inv.Spec.Currency = "INR" })
	doc, err := PDF(inv, Options{Locale: language.MustParse("en-IN")})
	if err != nil {
		t.Fatal(err)
	}
	// The HTML has the rupee sign; the Go font has none.
	if text := pdfText(t, doc); !strings.Contains(text, "INR\u00a0680.50") || strings.Contains(text, "?") {
		t.Errorf("the PDF's text does not write INR 680.50:\n%s", text)
	}
	page, err := HTML(inv, Options{Locale: language.MustParse("en-IN")})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("₹680.50")) {
		t.Error("the HTML does not write ₹680.50")
	}
}

func TestTheStatementIsWrittenInTheCustomersLanguage(t *testing.T) {
	s := sampleStatement(t, 0)
	s.Locale = language.German
	page, err := StatementHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := StatementPDF(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"HTML": string(page), "PDF": pdfText(t, doc)} {
		for _, want := range []string{
			"Kontoauszug", "01.01.2026", "31.03.2026", "Konto in EUR", "Anfangssaldo", "1.190,00\u00a0€",
			"Rechnung DEMO-000002", "Zahlung zu DEMO-000001", "Guthaben von 50,00\u00a0€",
			"Endsaldo", "Nicht verrechnetes Guthaben", "41,00\u00a0€",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the %s does not contain %q", name, want)
			}
		}
	}
	if !bytes.Contains(page, []byte(`<html lang="de">`)) {
		t.Error("the HTML is not marked de")
	}
}

func TestTheMessagesAreWrittenInTheCustomersLanguage(t *testing.T) {
	due := issued().Status.DueAt.Time
	overdue := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: 18050}
	}
	for _, tc := range []struct {
		name  string
		write func() (string, string)
		want  []string
	}{
		{"a German invoice message", func() (string, string) { return InvoiceEmail(issued(), language.German) },
			[]string{"Rechnung DEMO-000001: 680,50\u00a0$ fällig am 07.12.2026", "Sehr geehrte Damen und Herren,",
				"vom 23.11.2026", "Mit freundlichen Grüßen"}},
		{"a French credit note message", func() (string, string) { return CreditNoteEmail(issuedCreditNote(), language.French) },
			[]string{"Avoir CN-000007 sur la facture DEMO-000001\u00a0: 200,00\u00a0$US", "Madame, Monsieur,", "Cordialement,"}},
		{"a Polish reminder a week late", func() (string, string) {
			return ReminderEmail(issued(overdue), due.AddDate(0, 0, 7), language.Polish)
		}, []string{"Przypomnienie: faktura DEMO-000001", "180,50\u00a0$", "7 dni temu", "7 gru 2026"}},
		{"a Spanish reminder a day late", func() (string, string) {
			return ReminderEmail(issued(overdue), due.AddDate(0, 0, 1), language.Spanish)
		}, []string{"Recordatorio: factura DEMO-000001", "hace 1 día", "7 dic. 2026"}},
		{"an Italian statement message", func() (string, string) {
			return StatementEmail(issued().Status.Issuer, "2026-09-01", "2026-11-30", language.Italian)
		}, []string{"Estratto conto dal 1 set 2026 al 30 nov 2026", "Gentili Signore e Signori,"}},
		{"a Swiss German message falls back to German texts", func() (string, string) {
			return InvoiceEmail(issued(), language.MustParse("de-CH"))
		}, []string{"Rechnung DEMO-000001: $\u00a0680.50 fällig am 07.12.2026"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			subject, text := tc.write()
			for _, w := range tc.want {
				if !strings.Contains(subject+"\n"+text, w) {
					t.Errorf("neither the subject %q nor the text %q says %q", subject, text, w)
				}
			}
		})
	}
}
