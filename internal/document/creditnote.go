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
	"errors"
	"math"
	"regexp"
	"strings"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// ErrCreditNoteNotIssued is returned for a credit note that is not issued:
// it has no number, no date and no lines yet, so it has no document.
var ErrCreditNoteNotIssued = errors.New("the credit note is not issued")

// CreditNoteHTML renders an issued credit note as the invoice's document
// is rendered, titled "Credit note": its number and date, the credited
// invoice's number and issue date, the reason and memo, the credited lines,
// the breakdown and the total, as opts asks.
func CreditNoteHTML(cn *billingv1.CreditNote, opts Options) ([]byte, error) {
	v, err := newCreditNoteView(cn, locale.New(opts.Locale), opts.Footer)
	if err != nil {
		return nil, err
	}
	return renderHTML(v)
}

// CreditNotePDF renders an issued credit note as a PDF with the content of
// CreditNoteHTML.
func CreditNotePDF(cn *billingv1.CreditNote, opts Options) ([]byte, error) {
	p := pdfPrinter(opts.Locale)
	v, err := newCreditNoteView(cn, p, opts.Footer)
	if err != nil {
		return nil, err
	}
	return renderPDF(v, p, cn.Status.Issuer)
}

// CreditNoteFilename is the name a saved copy of the document gets: the
// credit note's number, as Filename does for an invoice.
func CreditNoteFilename(cn *billingv1.CreditNote, ext string) string {
	name := unsafeFilename.ReplaceAllString(cn.Status.Number, "_")
	if name == "" {
		name = "credit-note"
	}
	return name + "." + ext
}

// newCreditNoteView checks that cn is issued and formats what its document
// shows with p, the billing profile's footer under its memo.
func newCreditNoteView(cn *billingv1.CreditNote, p *locale.Printer, footer string) (*view, error) {
	st := &cn.Status
	if st.Phase != billingv1.CreditNoteIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil ||
		st.Subtotal == nil || st.TaxTotal == nil || st.Total == nil {
		return nil, ErrCreditNoteNotIssued
	}
	code := st.Currency
	v := headView(p, "title.creditNote", st.Number, st.IssuedAt.Time, code, st.BillTo, st.Issuer, footer)
	if st.InvoiceNumber != "" {
		v.Meta = append(v.Meta, [2]string{p.T("meta.creditsInvoice"), st.InvoiceNumber})
	}
	if st.InvoiceIssuedAt != nil {
		v.Meta = append(v.Meta, [2]string{p.T("meta.invoiceIssued"), p.Date(st.InvoiceIssuedAt.UTC())})
	}
	v.Meta = append(v.Meta, [2]string{p.T("meta.reason"), reasonLabel(p, string(cn.Spec.Reason))})
	if memo := strings.TrimSpace(cn.Spec.Memo); memo != "" {
		// The memo is the credit note's own text: printed above the footer.
		v.Footer = strings.TrimSpace(memo + "\n\n" + v.Footer)
	}
	for _, l := range st.Lines {
		ln := line{Description: l.Description, Tax: lineTaxLabel(p, l.Tax), Amount: p.Money(code, l.Amount)}
		if l.Quantity != nil {
			ln.Quantity = p.Quantity(*l.Quantity, l.UnitCode)
			// The unit amount when the credited amount divides exactly;
			// the bound keeps the product within int64.
			if s := l.Quantity.Scaled(); s > 0 && l.Amount <= math.MaxInt64/billingv1.QuantityScale &&
				(l.Amount*billingv1.QuantityScale)%s == 0 {
				ln.UnitAmount = p.Money(code, l.Amount*billingv1.QuantityScale/s)
			}
		}
		v.Lines = append(v.Lines, ln)
	}
	v.Taxed = len(st.TaxBreakdown) > 0
	v.adjust(p, code, st.Allowances, st.Charges, ptr.Deref(st.AllowanceTotal, 0), ptr.Deref(st.ChargeTotal, 0))
	v.Breakdown = taxRows(p, code, st.TaxBreakdown)
	v.Subtotal = p.Money(code, *st.Subtotal)
	v.TaxTotal = p.Money(code, *st.TaxTotal)
	v.Total = p.Money(code, *st.Total)
	return v, nil
}

var underscores = regexp.MustCompile(`_+`)

// reasonLabel writes a credit note's reason for people in p's language:
// "order_change" is "Order change"; a reason without a translation (the
// CRD's enum lists them all) is written from its code.
func reasonLabel(p *locale.Printer, reason string) string {
	key := "reason." + reason
	if s := p.T(key); s != key {
		return s
	}
	s := underscores.ReplaceAllString(reason, " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
