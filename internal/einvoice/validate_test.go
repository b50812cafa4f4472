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

package einvoice_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// TestEveryTaxCaseAndCreditNoteIsAValidEN16931Document writes each tax
// case and each credit note in each format and checks each batch against the syntax's schema and CEN's EN
// 16931 rules. The adapter's envtest suite checks the same documents as
// served over HTTP.
func TestEveryTaxCaseAndCreditNoteIsAValidEN16931Document(t *testing.T) {
	tools := schematron.Require(t)
	dir := t.TempDir()
	for _, f := range []struct {
		format     einvoice.Format
		schema     schematron.Schema
		creditNote schematron.Schema
		stylesheet string
	}{
		{einvoice.UBL, schematron.UBLInvoice, schematron.UBLCreditNote, schematron.EN16931UBL},
		{einvoice.CII, schematron.CIIInvoice, schematron.CIIInvoice, schematron.EN16931CII},
	} {
		var docs []schematron.Document
		for i, c := range taxCases() {
			b, err := einvoice.Invoice(c.inv, f.format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.xml", f.format, i))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, schematron.Document{Name: fmt.Sprintf("%s (%s)", c.name, f.format), Path: path})
		}
		tools.Check(t, f.schema, f.stylesheet, docs)

		docs = nil
		for i, c := range creditNoteCases() {
			b, err := einvoice.CreditNote(c.cn, f.format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-cn-%d.xml", f.format, i))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, schematron.Document{Name: fmt.Sprintf("%s (%s)", c.name, f.format), Path: path})
		}
		tools.Check(t, f.creditNote, f.stylesheet, docs)
	}
}
