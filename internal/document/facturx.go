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
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

// Factur-X (ZUGFeRD in Germany) is a hybrid invoice: a PDF/A-3 a person
// reads, with the invoice's CII XML inside that a machine reads
// (Factur-X 1.0, the profile EN 16931).

// FacturXFilename is the name of the embedded XML, fixed by Factur-X.
const FacturXFilename = "factur-x.xml"

// facturXSchema is Factur-X's XMP extension schema and its values for the
// EN 16931 profile. A credit note is a Factur-X document of type INVOICE
// too: its XML's type code (381) says it is a credit note.
var facturXSchema = xmpSchema{
	Name:      "Factur-X PDFA Extension Schema",
	Namespace: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
	Prefix:    "fx",
	Properties: []xmpProperty{
		{"DocumentFileName", "The name of the embedded XML document", FacturXFilename},
		{"DocumentType", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER", "INVOICE"},
		{"Version", "The actual version of the standard applying to the embedded XML document", "1.0"},
		{"ConformanceLevel", "The conformance level of the embedded XML document", "EN 16931"},
	},
}

// FacturX renders an issued invoice as a Factur-X PDF: the document of
// PDF, as a PDF/A-3b, with the CII e-invoice of the EN 16931 profile
// embedded as factur-x.xml. It returns ErrNotIssued for an invoice that is
// not issued, and the error of einvoice.Invoice, unchanged, when the
// invoice cannot be written as that e-invoice (an *einvoice.UnavailableError
// names what it lacks). The output depends only on inv and opts: its dates
// are the invoice's issue time.
func FacturX(inv *billingv1.Invoice, opts Options) ([]byte, error) {
	pdf, err := PDF(inv, opts)
	if err != nil {
		return nil, err
	}
	xml, err := einvoice.Invoice(inv, einvoice.CII, einvoice.EN16931)
	if err != nil {
		return nil, err
	}
	return facturX(pdf, xml, inv.Status.IssuedAt.Time, "Factur-X invoice (EN 16931, CII)")
}

// CreditNoteFacturX renders an issued credit note as FacturX renders an
// invoice, with its CII credit note (type code 381) embedded. It returns
// ErrCreditNoteNotIssued for a credit note that is not issued, and the
// error of einvoice.CreditNote unchanged.
func CreditNoteFacturX(cn *billingv1.CreditNote, opts Options) ([]byte, error) {
	pdf, err := CreditNotePDF(cn, opts)
	if err != nil {
		return nil, err
	}
	xml, err := einvoice.CreditNote(cn, einvoice.CII, einvoice.EN16931)
	if err != nil {
		return nil, err
	}
	return facturX(pdf, xml, cn.Status.IssuedAt.Time, "Factur-X credit note (EN 16931, CII)")
}

// facturX makes pdf a Factur-X PDF/A-3b with xml attached, dated issued.
func facturX(pdf, xml []byte, issued time.Time, description string) ([]byte, error) {
	return pdfA3(pdf, pdfA{
		Date: issued,
		Attachments: []attachment{{
			Name: FacturXFilename, Description: description, MIME: "text/xml",
			Relationship: "Data", Data: xml,
		}},
		Schemas: []xmpSchema{facturXSchema},
	})
}
