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
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// TestEveryTaxCaseAndCreditNoteIsAValidDocumentOfEachProfile writes each
// tax case and each credit note in each format under each profile and
// checks each batch against the syntax's schema, CEN's EN 16931 rules and
// the profile's own. Under en16931 the invoices carry only what EN 16931
// needs; under peppol and xrechnung, what those need too. The adapter's envtest suite checks documents as served over
// HTTP.
func TestEveryTaxCaseAndCreditNoteIsAValidDocumentOfEachProfile(t *testing.T) {
	tools := schematron.Require(t)
	docs := newBatch(t)
	add := func(schema schematron.Schema, profile einvoice.Profile, format einvoice.Format, name string, b []byte) {
		docs.add(t, schema, profile, format, name, b)
	}
	for _, profile := range einvoice.Profiles {
		for _, f := range []struct {
			format     einvoice.Format
			schema     schematron.Schema
			creditNote schematron.Schema
		}{
			{einvoice.UBL, schematron.UBLInvoice, schematron.UBLCreditNote},
			{einvoice.CII, schematron.CIIInvoice, schematron.CIIInvoice},
		} {
			name := func(c string) string { return fmt.Sprintf("%s (%s, %s)", c, f.format, profile) }
			for _, c := range profileCases(profile) {
				b, err := einvoice.Invoice(c.inv, f.format, profile)
				if err != nil {
					t.Fatalf("%s: %v", name(c.name), err)
				}
				add(f.schema, profile, f.format, name(c.name), b)
			}
			for _, c := range creditNoteCases() {
				b, err := einvoice.CreditNote(c.cn, f.format, profile)
				if err != nil {
					t.Fatalf("%s: %v", name(c.name), err)
				}
				add(f.creditNote, profile, f.format, name(c.name), b)
			}
		}
	}
	docs.check(t, tools)
}

// batch gathers documents for one validator run per schema and per
// stylesheet, over the documents of every profile that it applies to.
type batch struct {
	dir          string
	n            int
	bySchema     map[schematron.Schema][]schematron.Document
	byStylesheet map[string][]schematron.Document
	stylesheets  []string
}

func newBatch(t *testing.T) *batch {
	return &batch{dir: t.TempDir(), bySchema: map[schematron.Schema][]schematron.Document{},
		byStylesheet: map[string][]schematron.Document{}}
}

// add writes document b, named name, to be checked against schema and the
// stylesheets of profile in format.
func (d *batch) add(t *testing.T, schema schematron.Schema, profile einvoice.Profile, format einvoice.Format,
	name string, b []byte) {
	t.Helper()
	d.n++
	path := filepath.Join(d.dir, fmt.Sprintf("%d.xml", d.n))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	doc := schematron.Document{Name: name, Path: path}
	d.bySchema[schema] = append(d.bySchema[schema], doc)
	for _, s := range schematron.Stylesheets(string(profile), string(format)) {
		if d.byStylesheet[s] == nil {
			d.stylesheets = append(d.stylesheets, s)
		}
		d.byStylesheet[s] = append(d.byStylesheet[s], doc)
	}
}

// check runs the validators over every document added.
func (d *batch) check(t *testing.T, tools *schematron.Tools) {
	t.Helper()
	for schema, docs := range d.bySchema {
		tools.CheckSchema(t, schema, docs)
	}
	for _, s := range d.stylesheets {
		tools.CheckRules(t, s, d.byStylesheet[s])
	}
}

// profileCases are the tax cases and CEN's examples rebuilt as profile
// sees them: under en16931 without what only Peppol and XRechnung need;
// under peppol also two invoices to a German buyer, to which Peppol
// applies XRechnung's rules (DE-R-*).
func profileCases(profile einvoice.Profile) []taxCase {
	cases := taxCases()
	cases = append(cases, cenExampleCases()...)
	switch profile {
	case einvoice.EN16931:
		for i := range cases {
			cases[i].inv = stripped(cases[i].inv)
		}
	case einvoice.Peppol:
		for _, c := range []taxCase{cases[0], cases[6]} {
			inv := c.inv.DeepCopy()
			inv.Status.BillTo = &billingv1.BillTo{
				Name: "Beispiel AG", Email: "rechnung@beispiel.example", TaxID: "DE811128135",
				Address:           &billingv1.Address{Line1: "Hauptstraße 5", PostalCode: "80331", City: "München", Country: "DE"},
				ElectronicAddress: &billingv1.ElectronicAddress{Scheme: "9930", Value: "DE811128135"},
			}
			cases = append(cases, taxCase{c.name + " to a German buyer", inv})
		}
	}
	return cases
}

// TestOurPeppolCIIPassesPeppolsCIIRulesAndABrokenCopyFails is the
// positive and negative control of Peppol's rules for CII, for which
// OpenPEPPOL publishes no example: our document passes them, and a copy
// without the seller's electronic address fails PEPPOL-EN16931-R020.
func TestOurPeppolCIIPassesPeppolsCIIRulesAndABrokenCopyFails(t *testing.T) {
	tools := schematron.Require(t)
	dir := t.TempDir()
	b, err := einvoice.Invoice(taxCases()[0].inv, einvoice.CII, einvoice.Peppol)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := regexp.MustCompile(`(?s)<ram:URIUniversalCommunication>\s*<ram:URIID schemeID="0088">4035811991021</ram:URIID>\s*</ram:URIUniversalCommunication>`)
	broken := endpoint.ReplaceAll(b, nil)
	if len(broken) == len(b) {
		t.Fatal("the document has no seller electronic address to remove")
	}
	good, bad := filepath.Join(dir, "good.xml"), filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(good, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	failures, err := tools.Schematron(context.Background(), schematron.PeppolCII, []string{good, bad})
	if err != nil {
		t.Fatal(err)
	}
	if len(failures[0]) != 0 {
		t.Errorf("our Peppol CII fails %s: %v", schematron.PeppolCII, failures[0])
	}
	if !slices.ContainsFunc(failures[1], func(f schematron.Failure) bool { return f.ID == "PEPPOL-EN16931-R020" }) {
		t.Errorf("the copy without the seller's electronic address: got %v, want PEPPOL-EN16931-R020 among them", failures[1])
	}
}
