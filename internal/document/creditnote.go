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
	"regexp"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// ErrCreditNoteNotIssued is returned for a credit note that is not issued:
// it has no number, no date and no lines yet, so it has no document.
var ErrCreditNoteNotIssued = errors.New("the credit note is not issued")

// CreditNoteHTML renders an issued credit note as the invoice's document
// is rendered, titled "Credit note": its number and date, the credited
// invoice's number and issue date, the reason and memo, the credited lines,
// the breakdown and the total, as opts asks.
func CreditNoteHTML(cn *billingv1.CreditNote, opts Options) ([]byte, error) {
	v, err := newCreditNoteView(cn, opts)
	if err != nil {
		return nil, err
	}
	return renderHTML(v)
}

// CreditNotePDF renders an issued credit note as a PDF with the content of
// CreditNoteHTML.
func CreditNotePDF(cn *billingv1.CreditNote, opts Options) ([]byte, error) {
	v, err := newCreditNoteView(cn, opts)
	if err != nil {
		return nil, err
	}
	return renderPDF(v, cn.Status.Issuer)
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
// shows.
func newCreditNoteView(cn *billingv1.CreditNote, opts Options) (*view, error) {
	st := &cn.Status
	if st.Phase != billingv1.CreditNoteIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil ||
		st.Subtotal == nil || st.TaxTotal == nil || st.Total == nil {
		return nil, ErrCreditNoteNotIssued
	}
	cur, err := billing.ParseCurrency(st.Currency)
	if err != nil {
		cur = billing.Currency{Code: strings.ToUpper(st.Currency), Digits: 2}
	}
	v := &view{
		Title:    "Credit note",
		Number:   st.Number,
		IssuedAt: st.IssuedAt.UTC().Format(dateLayout),
		Currency: cur.Code,
		BillTo:   newParty(st.BillTo.Name, st.BillTo.Address, st.BillTo.Email, st.BillTo.TaxID),
		Footer:   strings.TrimSpace(opts.Footer),
	}
	if st.InvoiceNumber != "" {
		v.Meta = append(v.Meta, [2]string{"Credits invoice", st.InvoiceNumber})
	}
	if st.InvoiceIssuedAt != nil {
		v.Meta = append(v.Meta, [2]string{"Invoice issued", st.InvoiceIssuedAt.UTC().Format(dateLayout)})
	}
	v.Meta = append(v.Meta, [2]string{"Reason", reasonLabel(string(cn.Spec.Reason))})
	if memo := strings.TrimSpace(cn.Spec.Memo); memo != "" {
		// The memo is the credit note's own text: printed above the footer.
		v.Footer = strings.TrimSpace(memo + "\n\n" + v.Footer)
	}
	if is := st.Issuer; is != nil {
		p := newParty(is.Name, is.Address, is.Email, is.TaxID)
		v.Issuer = &p
	}
	for _, l := range st.Lines {
		ln := line{Description: l.Description, Tax: lineTaxLabel(l.Tax), Amount: formatMoney(cur, l.Amount)}
		if l.Quantity != nil {
			ln.Quantity = groupDigits(*l.Quantity)
			if *l.Quantity > 0 && l.Amount%*l.Quantity == 0 {
				ln.UnitAmount = formatMoney(cur, l.Amount / *l.Quantity)
			}
		}
		v.Lines = append(v.Lines, ln)
	}
	v.Taxed = len(st.TaxBreakdown) > 0
	v.Breakdown = taxRows(cur, st.TaxBreakdown)
	v.Subtotal = formatMoney(cur, *st.Subtotal)
	v.TaxTotal = formatMoney(cur, *st.TaxTotal)
	v.Total = formatMoney(cur, *st.Total)
	return v, nil
}

var underscores = regexp.MustCompile(`_+`)

// reasonLabel writes a credit note's reason for people: "order_change" is
// "Order change".
func reasonLabel(reason string) string {
	s := underscores.ReplaceAllString(reason, " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
