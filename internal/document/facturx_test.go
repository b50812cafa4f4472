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
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
)

// exempt is an invoice of a German business for a service exempt from VAT
// (category E) with the reason.
func exempt() *billingv1.Invoice {
	e := builder.Tax(billingv1.TaxExempt, "0", "Exempt under Article 132(1)(c) of Directive 2006/112/EC")
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "EUR"
		inv.Spec.Items = nil
		builder.WithTaxedItem("Medical care", 1, 80000, e)(inv)
		inv.Status.Number = "DEMO-000004"
	}, freezeTax(nil), sampleAccount)
}

// manyLines is an invoice of 500 lines at 19% and 7%.
func manyLines() *billingv1.Invoice {
	return issued(func(inv *billingv1.Invoice) {
		inv.Spec.Currency = "EUR"
		inv.Spec.Items = nil
		for i := range 500 {
			tax := builder.StandardTax("19")
			if i%2 == 1 {
				tax = builder.StandardTax("7")
			}
			builder.WithTaxedItem(fmt.Sprintf("Line %03d", i), int64(i%5+1), int64(100*(i+1)), tax)(inv)
		}
		inv.Status.Number = "DEMO-000005"
	}, freezeTax(nil))
}

// taxedCreditNote is an issued credit note of twoRates(): one unit of its
// first line (19%) and 20.00 of its second (7%), with its amounts per tax
// group as the controller computes them.
func taxedCreditNote() *billingv1.CreditNote {
	inv := twoRates()
	at := metav1.NewTime(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC))
	lines := []billingv1.CreditNoteLineStatus{
		{InvoiceLine: 0, Description: inv.Spec.Items[0].Description, Quantity: ptr.To(billingv1.Units(1)), Amount: inv.Spec.Items[0].Amount,
			Tax: inv.Spec.Items[0].Tax},
		{InvoiceLine: 1, Description: inv.Spec.Items[1].Description, Amount: 2000, Tax: inv.Spec.Items[1].Tax},
	}
	net := billingv1.Invoice{Status: billingv1.InvoiceStatus{Phase: billingv1.InvoicePending}}
	for _, l := range lines {
		net.Spec.Items = append(net.Spec.Items, billingv1.LineItem{Description: l.Description, Quantity: billingv1.Units(1), Amount: l.Amount, Tax: l.Tax})
	}
	a, ok := billing.TotalsOf(&net, billing.DocumentTaxesOf(&net))
	if !ok {
		panic("the credit note's amounts cannot be computed")
	}
	return &billingv1.CreditNote{
		ObjectMeta: metav1.ObjectMeta{Name: "cn-2", Namespace: "demo"},
		Spec:       billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Reason: "order_change"},
		Status: billingv1.CreditNoteStatus{
			Phase: billingv1.CreditNoteIssued, Number: "CN-000008", IssuedAt: &at, Currency: "EUR",
			InvoiceNumber: inv.Status.Number, InvoiceIssuedAt: inv.Status.IssuedAt, Lines: lines,
			Subtotal: &a.Subtotal, TaxTotal: &a.TaxTotal, Total: &a.Total, TaxBreakdown: a.TaxBreakdown,
			BillTo: inv.Status.BillTo, Issuer: inv.Status.Issuer, PaymentAccount: inv.Status.PaymentAccount,
		},
	}
}

// facturXCase is a Factur-X document of a test: its PDF and the CII
// e-invoice it must embed.
type facturXCase struct {
	name     string
	pdf, xml []byte
	// number is the document's number, which its text shows.
	number string
}

// facturXCases are the Factur-X documents of the invoices with tax and of
// a credit note.
func facturXCases(t *testing.T) []facturXCase {
	t.Helper()
	var cases []facturXCase
	for _, c := range []struct {
		name string
		inv  *billingv1.Invoice
	}{
		{"S 19% and 7%", twoRates()}, {"AE reverse charge", reverseCharge()}, {"E exempt", exempt()}, {"500 lines", manyLines()},
	} {
		doc, err := FacturX(c.inv, Options{Footer: sampleFooter})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		xml, err := einvoice.Invoice(c.inv, einvoice.CII, einvoice.EN16931)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cases = append(cases, facturXCase{c.name, doc, xml, c.inv.Status.Number})
	}
	cn := taxedCreditNote()
	doc, err := CreditNoteFacturX(cn, Options{Footer: sampleFooter})
	if err != nil {
		t.Fatalf("credit note: %v", err)
	}
	xml, err := einvoice.CreditNote(cn, einvoice.CII, einvoice.EN16931)
	if err != nil {
		t.Fatalf("credit note: %v", err)
	}
	return append(cases, facturXCase{"credit note", doc, xml, cn.Status.Number})
}

func TestAFacturXDocumentIsAPDFA3bWithItsCIIEmbeddedAsFacturXXML(t *testing.T) {
	for _, c := range facturXCases(t) {
		t.Run(c.name, func(t *testing.T) {
			rep, err := pdfcheck.Inspect(c.pdf)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pdfcheck.FacturXProblems(rep) {
				t.Error(p)
			}
			if len(rep.EmbeddedFiles) == 1 && !bytes.Equal(rep.EmbeddedFiles[0].Data, c.xml) {
				t.Error("factur-x.xml is not the document's CII e-invoice of the EN 16931 profile")
			}
			if f := rep.EmbeddedFiles; len(f) == 1 && f[0].AFRelationship != "Data" {
				t.Errorf("factur-x.xml's AFRelationship is %s, want Data", f[0].AFRelationship)
			}
			for _, f := range rep.Fonts {
				if f.Subtype != "Type0" || f.Descendant != "CIDFontType2" || f.Embedded != "FontFile2" || f.CIDToGIDMap != "Identity" {
					t.Errorf("font %+v: want a Type0 CIDFontType2 with FontFile2 and CIDToGIDMap Identity", f)
				}
				if !subsetTag.MatchString(f.Name) {
					t.Errorf("font %s: want the name of a subset, with its tag", f.Name)
				}
			}
			if text := pdfText(t, c.pdf); !strings.Contains(text, c.number) {
				t.Errorf("the PDF's text does not show the number %s", c.number)
			}
		})
	}
}

func TestAFacturXDocumentDependsOnlyOnItsInvoiceItsIDOnItsContent(t *testing.T) {
	one, err := FacturX(twoRates(), Options{Footer: sampleFooter})
	if err != nil {
		t.Fatal(err)
	}
	again, err := FacturX(twoRates(), Options{Footer: sampleFooter})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one, again) {
		t.Error("two renderings of the same invoice differ")
	}
	other, err := FacturX(twoRates(), Options{Footer: "Another footer"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := pdfcheck.Inspect(one)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pdfcheck.Inspect(other)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.ID, b.ID) {
		t.Errorf("documents of different content have the same /ID %v", a.ID)
	}
	want := "D:20261123093000+00'00'"
	if a.Info["CreationDate"] != want || a.Info["ModDate"] != want {
		t.Errorf("Info dates %q and %q, want the issue time %s", a.Info["CreationDate"], a.Info["ModDate"], want)
	}
}

func TestADocumentWithoutItsEInvoiceGetsTheEInvoiceErrorUnchanged(t *testing.T) {
	// issued() has no tax category on its lines: EN 16931 needs one.
	inv := issued()
	_, want := einvoice.Invoice(inv, einvoice.CII, einvoice.EN16931)
	var unavailable *einvoice.UnavailableError
	if !errors.As(want, &unavailable) {
		t.Fatalf("the invoice is writable as CII (%v): the test needs one that is not", want)
	}
	cn := issuedCreditNote()
	_, wantCN := einvoice.CreditNote(cn, einvoice.CII, einvoice.EN16931)
	pending := issued(func(inv *billingv1.Invoice) { inv.Status.Phase = billingv1.InvoicePending })
	pendingCN := issuedCreditNote()
	pendingCN.Status.Phase = ""
	for _, c := range []struct {
		name   string
		render func() ([]byte, error)
		want   error
	}{
		{"an invoice without tax categories", func() ([]byte, error) { return FacturX(inv, Options{}) }, want},
		{"a credit note without tax categories", func() ([]byte, error) { return CreditNoteFacturX(cn, Options{}) }, wantCN},
		{"an invoice not issued", func() ([]byte, error) { return FacturX(pending, Options{}) }, ErrNotIssued},
		{"a credit note not issued", func() ([]byte, error) { return CreditNoteFacturX(pendingCN, Options{}) }, ErrCreditNoteNotIssued},
	} {
		doc, err := c.render()
		if doc != nil || !reflect.DeepEqual(err, c.want) {
			t.Errorf("%s: got %d bytes and %v, want the error %v", c.name, len(doc), err, c.want)
		}
	}
	if _, err := FacturX(inv, Options{}); !errors.As(err, &unavailable) || len(unavailable.Missing) == 0 {
		t.Errorf("got %v, want an *einvoice.UnavailableError naming what the invoice lacks", err)
	}
}

// TestWriteAFacturXSample writes the Factur-X document of twoRates() to
// the directory DOCUMENT_SAMPLES_DIR names (skipped without it), to look
// at.
func TestWriteAFacturXSample(t *testing.T) {
	dir := os.Getenv("DOCUMENT_SAMPLES_DIR")
	if dir == "" {
		t.Skip("DOCUMENT_SAMPLES_DIR is not set")
	}
	doc, err := FacturX(twoRates(), Options{Footer: sampleFooter})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "invoice-factur-x.pdf"), doc, 0o600); err != nil {
		t.Fatal(err)
	}
}
