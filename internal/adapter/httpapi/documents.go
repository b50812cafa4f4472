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
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// Media types of an invoice's document.
const (
	mediaHTML = "text/html"
	mediaPDF  = "application/pdf"
)

// getInvoiceDocument serves GET /v1/invoices/{invoice_id}/document: the
// issued invoice as a print-ready HTML page, or as a PDF when the Accept
// header prefers application/pdf, or as a Factur-X (a PDF/A-3 with its CII
// e-invoice inside) when it asks for application/pdf; profile=factur-x;
// format=html, pdf or facturx chooses without it,
// format=ubl an EN 16931 e-invoice under profile (package einvoice). With
// as_issued=true the HTML, PDF and Factur-X show the invoice as it was
// issued, without any payment, credit or write-off entered since (an
// e-invoice never shows them). It is authorized as a get of the invoice.
// An invoice that is not issued has no document yet: 409.
func (a *Adapter) getInvoiceDocument(w http.ResponseWriter, r *http.Request, c *call) *Error {
	inv, df, e := invoiceDocument.read(a, r, c)
	if e != nil {
		return e
	}
	asIssued, e := parseAsIssued(c.query)
	if e != nil {
		return e
	}
	return invoiceDocument.write(w, r, c, inv, df, func() (document.Options, *Error) {
		opts, err := a.documentOptions(r.Context(), c.ns, inv.Spec.CustomerRef.Name)
		if err != nil {
			return opts, apiError(r.Context(), err, "Unable to read the billing profile or the customer")
		}
		opts.AsIssued = asIssued
		if !asIssued { // as issued, the invoice has no credit note yet
			if opts.CreditNotes, err = a.ledgerCreditNotes(r.Context(), c.ns, inv); err != nil {
				return opts, apiError(r.Context(), err, "Unable to read the invoice's credit notes")
			}
		}
		return opts, nil
	})
}

// getCreditNoteDocument serves GET /v1/credit_notes/{credit_note_id}/document
// as getInvoiceDocument does an invoice's, its e-invoice a credit note of
// type 381 that refers to the credited invoice. It is authorized as a get of the
// credit note. One that is not issued (pending or rejected) has no document:
// 409 credit_note_not_issued.
func (a *Adapter) getCreditNoteDocument(w http.ResponseWriter, r *http.Request, c *call) *Error {
	cn, df, e := creditNoteDocument.read(a, r, c)
	if e != nil {
		return e
	}
	return creditNoteDocument.write(w, r, c, cn, df, func() (document.Options, *Error) {
		opts, err := a.documentOptions(r.Context(), c.ns, cn.Status.CustomerName)
		if err != nil {
			return opts, apiError(r.Context(), err, "Unable to read the billing profile or the customer")
		}
		return opts, nil
	})
}

// recordDocument is how a kind of record is written as a document: as its
// e-invoice, or rendered in HTML, PDF or Factur-X, in a file named by
// filename. record and param name the record the path names (pathRecord),
// what in a documentError; unissued refuses one that has no document yet
// (nil when it has one).
type recordDocument[T any, O apiObject[T]] struct {
	einvoice            func(obj O, format einvoice.Format, profile einvoice.Profile) ([]byte, error)
	html, pdf, facturX  func(obj O, opts document.Options) ([]byte, error)
	filename            func(obj O, ext string) string
	record, param, what string
	unissued            func(obj O) *Error
}

var (
	invoiceDocument = recordDocument[billingv1.Invoice, *billingv1.Invoice]{einvoice: einvoice.Invoice,
		html: document.HTML, pdf: document.PDF, facturX: document.FacturX, filename: document.Filename,
		record: "an invoice", param: "invoice_id", what: "Invoice",
		unissued: func(inv *billingv1.Invoice) *Error {
			if inv.Status.Phase == billingv1.InvoiceIssued {
				return nil
			}
			return errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
				"Invoice %q is %s; it has a document once it is issued.", inv.Name, apiobject.Status(inv.Status.Phase))
		}}
	creditNoteDocument = recordDocument[billingv1.CreditNote, *billingv1.CreditNote]{einvoice: einvoice.CreditNote,
		html: document.CreditNoteHTML, pdf: document.CreditNotePDF, facturX: document.CreditNoteFacturX,
		filename: document.CreditNoteFilename, record: "a credit note", param: "credit_note_id", what: "Credit note",
		unissued: func(cn *billingv1.CreditNote) *Error {
			if cn.Status.Phase == billingv1.CreditNoteIssued {
				return nil
			}
			return errorf(http.StatusConflict, CodeCreditNoteNotIssued, "credit_note_id",
				"Credit note %q is not issued; it has a document once it is.", cn.Name)
		}}
)

// read reads the record the path names (pathRecord), which must have a
// document (unissued), and the format the query asks for
// (parseDocumentFormat).
func (d recordDocument[T, O]) read(a *Adapter, r *http.Request, c *call) (O, documentFormat, *Error) {
	obj, e := pathRecord[T, O](a, r, c, d.record, d.param)
	if e == nil {
		e = d.unissued(obj)
	}
	if e != nil {
		return nil, documentFormat{}, e
	}
	df, e := parseDocumentFormat(c.query)
	if e != nil {
		return nil, documentFormat{}, e
	}
	return obj, df, nil
}

// write answers obj, the record the path names, in format df: its
// e-invoice, else the document the request's Accept header and df choose
// (chooseDocument), rendered with the options that options reads.
func (d recordDocument[T, O]) write(w http.ResponseWriter, r *http.Request, c *call, obj O, df documentFormat,
	options func() (document.Options, *Error)) *Error {
	if df.einvoice() {
		body, err := d.einvoice(obj, einvoice.Format(df.format), df.profile)
		if err != nil {
			return documentError(r.Context(), err, d.param, d.what, c.id)
		}
		writeDocument(w, r, mediaXML, d.filename(obj, "xml"), body)
		return nil
	}
	opts, e := options()
	if e != nil {
		return e
	}
	media, ext, render := mediaHTML+"; charset=utf-8", "html", d.html
	switch chooseDocument(df, r.Header.Values("Accept")) {
	case formatPDF:
		media, ext, render = mediaPDF, "pdf", d.pdf
	case formatFacturX:
		media, ext, render = mediaPDF, extFacturX, d.facturX
	}
	body, err := render(obj, opts)
	if err != nil {
		return documentError(r.Context(), err, d.param, d.what, c.id)
	}
	writeDocument(w, r, media, d.filename(obj, ext), body)
	return nil
}

// ledgerCreditNotes are the credit notes of inv, which its document names
// by their numbers; none are read while its ledger holds none. One that is
// gone (sealed, or deleted) is named by its name (billing.CreditNotesOf).
func (a *Adapter) ledgerCreditNotes(ctx context.Context, ns string, inv *billingv1.Invoice) ([]*billingv1.CreditNote,
	error) {
	if inv.Status.Ledger == nil || len(inv.Status.Ledger.CreditNotes) == 0 {
		return nil, nil
	}
	var notes []*billingv1.CreditNote
	err := readAll(ctx, a.store, store.Selection{Namespace: ns, InvoiceID: inv.Name}, &notes)
	return notes, err
}

// documentOptions are what the documents of workspace ns's customer
// customer are rendered with: the billing profile's footer, and the
// customer's preferred locale, else the profile's, else English
// (locale.Resolve). A customer that cannot be found (deleted since) is
// written for in the profile's locale.
func (a *Adapter) documentOptions(ctx context.Context, ns, customer string) (document.Options, error) {
	profile, err := a.store.Profile(ctx, ns)
	if err != nil {
		return document.Options{}, err
	}
	cus := &billingv1.Customer{}
	found, err := a.store.Get(ctx, ns, customer, cus)
	if err != nil {
		return document.Options{}, err
	}
	preferred := ""
	if found {
		preferred = cus.Spec.PreferredLocale
	}
	return document.Options{Footer: profile.Footer, Locale: locale.Resolve(preferred, profile.Locale)}, nil
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

// acceptedDocument is the rendering an Accept header prefers: facturx when
// "application/pdf; profile=factur-x" is listed with a quality above 0, at
// least that of a plain application/pdf and above that of text/html; pdf
// when application/pdf is listed above text/html; else html (also for
// */* alone or no header).
func acceptedDocument(accept []string) string {
	html := acceptQuality(accept, mediaHTML)
	pdf := acceptQualityIf(accept, mediaPDF, func(p map[string]string) bool { return p["profile"] == "" })
	facturx := acceptQualityIf(accept, mediaPDF, func(p map[string]string) bool {
		return strings.EqualFold(p["profile"], profileFacturX)
	})
	switch {
	case facturx > 0 && facturx >= pdf && facturx > html:
		return formatFacturX
	case pdf > 0 && pdf > html:
		return formatPDF
	default:
		return formatHTML
	}
}

// acceptQuality is the highest quality (q, default 1) with which an Accept
// header lists exactly the media type mediaType; 0 when it does not list it.
// Wildcards are not counted: a client asks for a PDF or a stream by name.
func acceptQuality(accept []string, mediaType string) float64 {
	return acceptQualityIf(accept, mediaType, func(map[string]string) bool { return true })
}

// acceptQualityIf is acceptQuality counting only the entries whose
// parameters match says yes to.
func acceptQualityIf(accept []string, mediaType string, match func(params map[string]string) bool) float64 {
	var best float64
	for _, value := range accept {
		for part := range strings.SplitSeq(value, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != mediaType || !match(params) {
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
