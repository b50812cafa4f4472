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
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// TestEveryTaxCaseAndCreditNoteIsAValidFacturXDocument renders each tax
// case (under EN 16931, as a Factur-X invoice carries it) and each credit
// note as a Factur-X PDF, then checks the batch: each PDF with `qpdf
// --check` and against the PDF/A-3b and Factur-X rules pdfcheck reads; the
// factur-x.xml extracted from each against Factur-X's XML Schema of the
// EN 16931 profile, CII D16B's and CEN's EN 16931 rules for CII. Each
// validator runs once for the whole batch.
func TestEveryTaxCaseAndCreditNoteIsAValidFacturXDocument(t *testing.T) {
	qpdf := pdfcheck.Require(t)
	validators := schematron.Require(t)
	dir := t.TempDir()
	var pdfs []pdfcheck.Document
	var xmls []schematron.Document
	add := func(name string, doc []byte) {
		n := len(pdfs)
		path := filepath.Join(dir, fmt.Sprintf("%d.pdf", n))
		if err := os.WriteFile(path, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		pdfs = append(pdfs, pdfcheck.Document{Name: name, Path: path})
		rep, err := pdfcheck.Inspect(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range pdfcheck.FacturXProblems(rep) {
			t.Errorf("%s: %s", name, p)
		}
		if len(rep.EmbeddedFiles) != 1 {
			return
		}
		xml := filepath.Join(dir, fmt.Sprintf("%d.xml", n))
		if err := os.WriteFile(xml, rep.EmbeddedFiles[0].Data, 0o600); err != nil {
			t.Fatal(err)
		}
		xmls = append(xmls, schematron.Document{Name: name + " (factur-x.xml)", Path: xml})
	}
	for _, c := range profileCases(einvoice.EN16931) {
		doc, err := document.FacturX(c.inv, document.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		add(c.name, doc)
	}
	for _, c := range creditNoteCases() {
		doc, err := document.CreditNoteFacturX(c.cn, document.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		add(c.name, doc)
	}
	if len(xmls) != len(pdfs) || len(pdfs) < 12 {
		t.Fatalf("%d PDFs, %d with factur-x.xml: want every tax case and credit note with its XML", len(pdfs), len(xmls))
	}
	qpdf.Check(t, pdfs)
	validators.CheckSchema(t, schematron.FacturXEN16931, xmls)
	validators.CheckSchema(t, schematron.CIIInvoice, xmls)
	validators.CheckRules(t, schematron.EN16931CII, xmls)
}
