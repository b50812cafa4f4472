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
	"fmt"
	"strings"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The PDF's font is the Go font (golang.org/x/image/font/gofont), embedded
// as a subset with a ToUnicode map, so that its text can be selected,
// searched and extracted. It covers Latin (Latin-1 and Latin Extended-A),
// Greek and Cyrillic; any other character (CJK, Arabic, ...) is printed as
// '?'. The HTML document has no such limit: the browser picks the fonts.
const (
	fontRegular = "go"
	fontBold    = "go-bold"
)

// Layout, in points.
const (
	margin     = 50.0
	fontSize   = 10.0
	smallSize  = 8.0
	noteSize   = 9.0
	lineHeight = 14.0
	noteHeight = 12.0
	minQtyW    = 50.0
	minTaxW    = 55.0
	minAmountW = 95.0
	cellPad    = 4.0
)

// PDF renders an issued invoice as a PDF with the content of HTML: on US
// Letter paper when the issuer is in the United States or Canada, on A4
// otherwise, as opts asks. It
// returns ErrNotIssued for an invoice that is not issued.
func PDF(inv *billingv1.Invoice, opts Options) ([]byte, error) {
	v, err := newView(inv, opts)
	if err != nil {
		return nil, err
	}
	return renderPDF(v, inv.Status.Issuer)
}

// renderPDF lays v out on the paper of issuer's country.
func renderPDF(v *view, issuer *billingv1.Issuer) ([]byte, error) {
	size := gopdf.PageSizeA4
	if is := issuer; is != nil && is.Address != nil && (is.Address.Country == "US" || is.Address.Country == "CA") {
		size = gopdf.PageSizeLetter
	}
	r := &pdfWriter{pageW: size.W, pageH: size.H, number: v.Number}
	r.pdf.Start(gopdf.Config{PageSize: *size, Unit: gopdf.UnitPT})
	r.pdf.SetInfo(gopdf.PdfInfo{Title: v.Title + " " + v.Number, Creator: "invoicing"})
	substitute := gopdf.TtfOption{OnGlyphNotFoundSubstitute: func(rune) rune { return '?' }}
	if err := r.pdf.AddTTFFontDataWithOption(fontRegular, goregular.TTF, substitute); err != nil {
		return nil, fmt.Errorf("loading the font: %w", err)
	}
	if err := r.pdf.AddTTFFontDataWithOption(fontBold, gobold.TTF, substitute); err != nil {
		return nil, fmt.Errorf("loading the font: %w", err)
	}
	r.write(v)
	if r.err != nil {
		return nil, r.err
	}
	return r.pdf.GetBytesPdfReturnErr()
}

// pdfWriter lays the document out top to bottom, starting a new page when
// the next block does not fit. Its first error stops it.
type pdfWriter struct {
	pdf          gopdf.GoPdf
	pageW, pageH float64
	y            float64
	page         int
	number       string
	// label names the document at the foot of each page; "" is
	// "Invoice <number>".
	label string
	// tableTop is where the rows of the current page start.
	tableTop float64
	// The widths of the tables' columns (columns).
	descW, qtyW, unitW, taxW, amountW float64
	err                               error
}

func (r *pdfWriter) write(v *view) {
	r.newPage()
	width := r.pageW - 2*margin

	// The issuer, left; the title, number and dates, right.
	top := r.y
	if v.Issuer != nil {
		r.party(*v.Issuer, margin, width/2)
	}
	left := r.y
	r.y = top
	r.font(fontBold, 20)
	r.text(margin, width, v.Title, gopdf.Right, 26)
	meta := [][2]string{{"Number", v.Number}, {"Issued", v.IssuedAt}}
	if v.DueAt != "" {
		meta = append(meta, [2]string{"Due", v.DueAt})
	}
	meta = append(meta, v.Meta...)
	meta = append(meta, [2]string{"Currency", v.Currency})
	for _, m := range meta {
		r.font(fontRegular, fontSize)
		r.grey()
		r.text(r.pageW-margin-200, 90, m[0], gopdf.Left, 0)
		r.black()
		r.text(r.pageW-margin-110, 110, m[1], gopdf.Right, lineHeight)
	}
	r.y = max(r.y, left) + 24

	// Bill to.
	r.font(fontBold, smallSize)
	r.grey()
	r.text(margin, width, "BILL TO", gopdf.Left, 12)
	r.black()
	r.party(v.BillTo, margin, width/2)
	r.y += 20

	r.columns(v, width)
	r.lineTable(v)
	if v.Taxed {
		r.y += 16
		r.breakdown(v)
	}
	r.totals(v)
	r.payment(v.Payment, width)
	r.footer(v.Footer, width)
}

// payment writes the bank transfer block: a heading and label-value rows.
func (r *pdfWriter) payment(rows [][2]string, width float64) {
	if len(rows) == 0 {
		return
	}
	if r.y+12+float64(len(rows))*lineHeight+16 > r.bottom() {
		r.newPage()
	}
	r.y += 4
	r.font(fontBold, smallSize)
	r.grey()
	r.text(margin, width, "PAYMENT BY BANK TRANSFER", gopdf.Left, 12)
	for _, row := range rows {
		r.font(fontRegular, fontSize)
		r.grey()
		r.text(margin, 100, row[0], gopdf.Left, 0)
		r.black()
		r.text(margin+100, width-100, row[1], gopdf.Left, lineHeight)
	}
	r.y += 16
}

// footer writes the billing profile's footer, in grey under a rule.
func (r *pdfWriter) footer(footer string, width float64) {
	if footer == "" {
		return
	}
	r.font(fontRegular, 9)
	lines := r.wrap(footer, width)
	if r.y+float64(len(lines))*12+10 > r.bottom() {
		r.newPage()
	}
	r.rule(0.5, 204)
	r.y += 8
	r.grey()
	for _, s := range lines {
		if r.y+12 > r.bottom() {
			r.newPage()
			r.font(fontRegular, 9)
			r.grey()
		}
		r.text(margin, width, s, gopdf.Left, 12)
	}
	r.black()
}

// party writes a name in bold and the lines under it.
func (r *pdfWriter) party(p party, x, w float64) { //nolint:unparam // every document prints its parties in the left column today
	r.font(fontBold, fontSize)
	for _, s := range r.wrap(p.Name, w) {
		r.text(x, w, s, gopdf.Left, lineHeight)
	}
	r.font(fontRegular, fontSize)
	rest := append([]string(nil), p.Lines...)
	if p.Email != "" {
		rest = append(rest, p.Email)
	}
	if p.TaxID != "" {
		rest = append(rest, p.TaxIDLabel+": "+p.TaxID)
	}
	for _, l := range rest {
		for _, s := range r.wrap(l, w) {
			r.text(x, w, s, gopdf.Left, lineHeight)
		}
	}
}

func (r *pdfWriter) measure(s string) float64 {
	w, err := r.pdf.MeasureTextWidth(s)
	r.fail(err)
	return w
}

// bottom is the lowest y the content may reach, above the page number.
func (r *pdfWriter) bottom() float64 {
	return r.pageH - margin - 20
}

func (r *pdfWriter) newPage() {
	r.pdf.AddPage()
	r.page++
	r.y = margin
	r.font(fontRegular, smallSize)
	r.grey()
	label := r.label
	if label == "" {
		label = "Invoice " + r.number
	}
	r.at(margin, r.pageH-margin+10, r.pageW-2*margin, fmt.Sprintf("%s · page %d", label, r.page), gopdf.Right)
	r.black()
}

// text writes s at x on the current line, aligned in a box of width w, and
// moves down by advance.
func (r *pdfWriter) text(x, w float64, s string, align int, advance float64) {
	r.at(x, r.y, w, s, align)
	r.y += advance
}

func (r *pdfWriter) at(x, y, w float64, s string, align int) {
	if r.err != nil || s == "" {
		return
	}
	r.pdf.SetXY(x, y)
	r.err = r.pdf.CellWithOption(&gopdf.Rect{W: w, H: lineHeight}, s, gopdf.CellOption{Align: align | gopdf.Top})
}

// wrap splits s into lines at most w wide, at its line breaks and between
// words (or inside a word longer than w).
func (r *pdfWriter) wrap(s string, w float64) []string {
	var out []string
	for _, para := range strings.Split(printable(s), "\n") {
		if strings.TrimSpace(para) == "" {
			out = append(out, "")
			continue
		}
		lines, err := r.pdf.SplitTextWithWordWrap(para, w)
		if err != nil {
			lines, err = r.pdf.SplitText(para, w)
		}
		if err != nil {
			r.fail(err)
			return nil
		}
		out = append(out, lines...)
	}
	return out
}

func (r *pdfWriter) font(family string, size float64) {
	if r.err == nil {
		r.fail(r.pdf.SetFont(family, "", size))
	}
}

// rule draws a horizontal line across the page at the current y.
func (r *pdfWriter) rule(width float64, grey uint8) {
	r.ruleFrom(margin, width, grey)
}

// ruleFrom draws a horizontal line from x to the right margin.
func (r *pdfWriter) ruleFrom(x, width float64, grey uint8) {
	r.pdf.SetLineWidth(width)
	r.pdf.SetStrokeColor(grey, grey, grey)
	r.pdf.Line(x, r.y, r.pageW-margin, r.y)
}

func (r *pdfWriter) grey()  { r.pdf.SetTextColor(102, 102, 102) }
func (r *pdfWriter) black() { r.pdf.SetTextColor(26, 26, 26) }

func (r *pdfWriter) fail(err error) {
	if err != nil && r.err == nil {
		r.err = err
	}
}
