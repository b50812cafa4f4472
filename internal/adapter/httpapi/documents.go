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
	"mime"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

// Media types of an invoice's document.
const (
	mediaHTML = "text/html"
	mediaPDF  = "application/pdf"
)

// getInvoiceDocument serves GET /v1/invoices/{invoice_id}/document: the
// issued invoice as a print-ready HTML page, or as a PDF when the Accept
// header prefers application/pdf; format=html or pdf chooses without it,
// format=ubl an EN 16931 e-invoice under profile (package einvoice). It is
// authorized as a get of the invoice.
// An invoice that is not issued has no document yet: 409.
func (a *Adapter) getInvoiceDocument(w http.ResponseWriter, r *http.Request, c *call) *Error {
	inv, e := a.pathInvoice(r, c)
	if e != nil {
		return e
	}
	if inv.Status.Phase != billingv1.InvoiceIssued {
		return errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
			"Invoice %q is %s; it has a document once it is issued.", c.id, apiobject.Status(inv.Status.Phase))
	}
	df, e := parseDocumentFormat(c.query)
	if e != nil {
		return e
	}
	if df.einvoice() {
		body, err := einvoice.Invoice(inv, einvoice.Format(df.format), df.profile)
		if err != nil {
			return einvoiceError(r.Context(), err, "invoice_id", "Invoice", c.id)
		}
		writeDocument(w, r, mediaXML, document.Filename(inv, "xml"), body)
		return nil
	}
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the billing profile")
	}
	media, ext, render := mediaHTML+"; charset=utf-8", "html", document.HTML
	if df.format == formatPDF || (df.format == "" && prefersPDF(r.Header.Values("Accept"))) {
		media, ext, render = mediaPDF, "pdf", document.PDF
	}
	body, err := render(inv, document.Options{Footer: profile.Footer, Locale: language.English})
	if err != nil {
		logFrom(r.Context()).Error(err, "Unable to render an invoice", "invoice", c.id)
		return internalError()
	}
	writeDocument(w, r, media, document.Filename(inv, ext), body)
	return nil
}

// getCreditNoteDocument serves GET /v1/credit_notes/{credit_note_id}/document
// as getInvoiceDocument does an invoice's, its e-invoice a credit note of
// type 381 that refers to the credited invoice. It is authorized as a get of the
// credit note. One that is not issued (pending or rejected) has no document:
// 409 credit_note_not_issued.
func (a *Adapter) getCreditNoteDocument(w http.ResponseWriter, r *http.Request, c *call) *Error {
	cn, e := a.pathCreditNote(r, c)
	if e != nil {
		return e
	}
	if cn.Status.Phase != billingv1.CreditNoteIssued {
		return errorf(http.StatusConflict, CodeCreditNoteNotIssued, "credit_note_id",
			"Credit note %q is not issued; it has a document once it is.", c.id)
	}
	df, e := parseDocumentFormat(c.query)
	if e != nil {
		return e
	}
	if df.einvoice() {
		body, err := einvoice.CreditNote(cn, einvoice.Format(df.format), df.profile)
		if err != nil {
			return einvoiceError(r.Context(), err, "credit_note_id", "Credit note", c.id)
		}
		writeDocument(w, r, mediaXML, document.CreditNoteFilename(cn, "xml"), body)
		return nil
	}
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the billing profile")
	}
	media, ext, render := mediaHTML+"; charset=utf-8", "html", document.CreditNoteHTML
	if df.format == formatPDF || (df.format == "" && prefersPDF(r.Header.Values("Accept"))) {
		media, ext, render = mediaPDF, "pdf", document.CreditNotePDF
	}
	body, err := render(cn, document.Options{Footer: profile.Footer, Locale: language.English})
	if err != nil {
		logFrom(r.Context()).Error(err, "Unable to render a credit note", "credit_note", c.id)
		return internalError()
	}
	writeDocument(w, r, media, document.CreditNoteFilename(cn, ext), body)
	return nil
}

// writeDocument answers a document of media type media, saved as filename.
func writeDocument(w http.ResponseWriter, r *http.Request, media, filename string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", media)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": filename}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// The page needs nothing but its own style sheet.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Add("Vary", "Accept")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body) //nolint:gosec // the API's own rendering, served with nosniff and a CSP
	}
}

// prefersPDF reports whether an Accept header asks for application/pdf
// rather than HTML: application/pdf is listed with a quality above that of
// text/html (0 when text/html is not listed). Without it, or with */* only,
// the answer is HTML.
func prefersPDF(accept []string) bool {
	pdf := acceptQuality(accept, mediaPDF)
	return pdf > 0 && pdf > acceptQuality(accept, mediaHTML)
}

// acceptQuality is the highest quality (q, default 1) with which an Accept
// header lists exactly the media type mediaType; 0 when it does not list it.
// Wildcards are not counted: a client asks for a PDF or a stream by name.
func acceptQuality(accept []string, mediaType string) float64 {
	var best float64
	for _, value := range accept {
		for part := range strings.SplitSeq(value, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != mediaType {
				continue
			}
			q := 1.0
			if s, ok := params["q"]; ok {
				if q, err = strconv.ParseFloat(s, 64); err != nil || q < 0 || q > 1 {
					continue
				}
			}
			best = max(best, q)
		}
	}
	return best
}
