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

package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

// Query parameters of a document.
const (
	queryFormat  = "format"
	queryProfile = "profile"
	// queryAsIssued asks for an invoice's document as it was issued.
	queryAsIssued = "as_issued"
)

// documentQuery are the query parameters of a document's route.
var documentQuery = []string{queryFormat, queryProfile}

// invoiceDocumentQuery are those of an invoice's document: as_issued too.
var invoiceDocumentQuery = []string{queryFormat, queryProfile, queryAsIssued}

// parseAsIssued reads as_issued: true or false, false when absent; any
// other value is 422 parameter_invalid.
func parseAsIssued(q url.Values) (bool, *Error) {
	if !q.Has(queryAsIssued) {
		return false, nil
	}
	switch q.Get(queryAsIssued) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, queryAsIssued,
		"as_issued must be true or false.")
}

// mediaXML is the media type of an e-invoice.
const mediaXML = "application/xml"

// Formats of a document besides the e-invoice formats of package einvoice:
// facturx is the PDF/A-3 with the CII e-invoice inside (Factur-X, ZUGFeRD).
const (
	formatHTML    = "html"
	formatPDF     = "pdf"
	formatFacturX = "facturx"
)

// profileFacturX is the Accept header's profile parameter of application/pdf
// that asks for a Factur-X: "application/pdf; profile=factur-x".
const profileFacturX = "factur-x"

// extFacturX ends the name of a saved Factur-X, so that it is told from
// the plain PDF: DEMO-000001.facturx.pdf.
const extFacturX = "facturx.pdf"

// documentFormat is what a document's query asks for: format "" (the
// Accept header decides between HTML and PDF), html, pdf or an e-invoice
// format, and for an e-invoice its profile.
type documentFormat struct {
	format  string
	profile einvoice.Profile
}

// einvoice reports whether the format is an e-invoice's.
func (f documentFormat) einvoice() bool {
	return f.format != "" && f.format != formatHTML && f.format != formatPDF && f.format != formatFacturX
}

// parseDocumentFormat reads format and profile. profile applies to an
// e-invoice only, and defaults to en16931.
func parseDocumentFormat(q url.Values) (documentFormat, *Error) {
	f := documentFormat{format: q.Get(queryFormat)}
	formats := make([]string, 0, 3+len(einvoice.Formats))
	formats = append(formats, formatHTML, formatPDF, formatFacturX)
	for _, ef := range einvoice.Formats {
		formats = append(formats, string(ef))
	}
	known := f.format == ""
	for _, name := range formats {
		known = known || f.format == name
	}
	if !known {
		return f, errorf(http.StatusBadRequest, CodeParameterInvalid, queryFormat,
			"format must be one of %s.", strings.Join(formats, ", "))
	}
	profile, given := q.Get(queryProfile), q.Has(queryProfile)
	if !f.einvoice() {
		if given {
			return f, errorf(http.StatusBadRequest, CodeParameterInvalid, queryProfile,
				"profile applies to an e-invoice only: send it with format %s.", strings.Join(formats[3:], " or "))
		}
		return f, nil
	}
	f.profile = einvoice.EN16931
	if given {
		f.profile = einvoice.Profile(profile)
	}
	if !f.profile.Supported() {
		names := make([]string, 0, len(einvoice.Profiles))
		for _, p := range einvoice.Profiles {
			names = append(names, string(p))
		}
		return f, errorf(http.StatusBadRequest, CodeParameterInvalid, queryProfile,
			"profile must be one of %s.", strings.Join(names, ", "))
	}
	return f, nil
}

// chooseDocument is the rendering a document's request asks for, when it
// is not an e-invoice: the format parameter's, else what the Accept header
// prefers (acceptedDocument).
func chooseDocument(f documentFormat, accept []string) string {
	if f.format != "" {
		return f.format
	}
	return acceptedDocument(accept)
}
