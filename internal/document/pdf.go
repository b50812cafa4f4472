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
	"sync"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// The PDF's font is the Go font (golang.org/x/image/font/gofont), embedded
// as a subset with a ToUnicode map, so that its text can be selected,
// searched and extracted. It covers WGL4: Latin (Latin-1 and Latin
// Extended-A, so Polish and Czech), Greek and Cyrillic. A currency symbol
// it lacks ("₹") is written as the currency's code (pdfPrinter), the
// spaces CLDR puts in numbers that it lacks as no-break spaces (fontSafe),
// and any other character (CJK, Arabic, ...) as '?'. The HTML document has
// no such limit: the browser picks the fonts.
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
// otherwise, in the language and formats of opts.Locale, with
// opts.Footer. It returns ErrNotIssued for an invoice that is not issued.
// With opts.AsIssued it shows the invoice as it was issued. Its bytes
// depend only on what it shows: gopdf writes no creation date and an
// empty /ID.
func PDF(inv *billingv1.Invoice, opts Options) ([]byte, error) {
	p := pdfPrinter(opts.Locale)
	v, err := newView(subject(inv, opts), p, opts)
	if err != nil {
		return nil, err
	}
	return renderPDF(v, p, inv.Status.Issuer)
}

// pdfPrinter is the printer of a PDF in tag: it writes a currency symbol
// the font lacks as the currency's code.
func pdfPrinter(tag language.Tag) *locale.Printer {
	return locale.New(tag).Printable(inFont)
}

// fontGlyphs is the parsed regular font, to look its glyphs up.
var fontGlyphs = sync.OnceValue(func() *sfnt.Font {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		panic("the embedded Go font does not parse: " + err.Error())
	}
	return f
})

// inFont is whether the PDF's font has a glyph for r.
func inFont(r rune) bool {
	var b sfnt.Buffer
	i, err := fontGlyphs().GlyphIndex(&b, r)
	return err == nil && i != 0
}

// fontSafe replaces in s the characters CLDR's formats use that the font
// lacks: the narrow no-break space of French numbers and the thin space by
// a no-break space, and the invisible direction marks by nothing.
var fontSafe = strings.NewReplacer("\u202f", "\u00a0", "\u2009", "\u00a0", "\u2007", "\u00a0",
	"\u200e", "", "\u200f", "", "\u061c", "").Replace

// pagePaper is the paper of a document of issuer: US Letter in the United
// States and Canada, A4 elsewhere.
func pagePaper(issuer *billingv1.Issuer) *gopdf.Rect {
	if is := issuer; is != nil && is.Address != nil && (is.Address.Country == "US" || is.Address.Country == "CA") {
		return gopdf.PageSizeLetter
	}
	return gopdf.PageSizeA4
}

// renderPDF lays v out with p on the paper of issuer's country.
func renderPDF(v *view, p *locale.Printer, issuer *billingv1.Issuer) ([]byte, error) {
	r, err := newPDFWriter(p, issuer, p.T("document.name", v.Title, v.Number))
	if err != nil {
		return nil, err
	}
	r.write(v)
	return r.finish()
}

// newPDFWriter starts a document titled label (its Info title and the
// label of its pages' footers), written with p on the paper of issuer's
// country, with the Go fonts loaded.
func newPDFWriter(p *locale.Printer, issuer *billingv1.Issuer, label string) (*pdfWriter, error) {
	size := pagePaper(issuer)
	r := &pdfWriter{pageW: size.W, pageH: size.H, p: p, upper: cases.Upper(p.Tag()), label: label}
	r.pdf.Start(gopdf.Config{PageSize: *size, Unit: gopdf.UnitPT})
	r.pdf.SetInfo(gopdf.PdfInfo{Title: label, Creator: "invoicing"})
	substitute := gopdf.TtfOption{OnGlyphNotFoundSubstitute: func(rune) rune { return '?' }}
	if err := r.pdf.AddTTFFontDataWithOption(fontRegular, goregular.TTF, substitute); err != nil {
		return nil, fmt.Errorf("loading the font: %w", err)
	}
	if err := r.pdf.AddTTFFontDataWithOption(fontBold, gobold.TTF, substitute); err != nil {
		return nil, fmt.Errorf("loading the font: %w", err)
	}
	return r, nil
}

// finish returns the document laid out, or the first error of its layout.
func (r *pdfWriter) finish() ([]byte, error) {
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
	// p writes the texts and values; upper capitalises headings in its
	// language.
	p     *locale.Printer
	upper cases.Caser
	// label names the document at the foot of each page: "Invoice
	// <number>".
	label string
	// tableTop is where the rows of the current page start.
	tableTop float64
	// The widths of the tables' columns (columns).
	descW, qtyW, unitW, taxW, amountW float64
	err                               error
}

func (r *pdfWriter) write(v *view) {
	// The number and dates, then the currency, under the title.
	meta := [][2]string{{r.p.T("meta.number"), v.Number}, {r.p.T("meta.issued"), v.IssuedAt}}
	if v.DueAt != "" {
		meta = append(meta, [2]string{r.p.T("meta.due"), v.DueAt})
	}
	meta = append(meta, v.Meta...)
	meta = append(meta, [2]string{r.p.T("meta.currency"), v.Currency})
	width := r.firstPage(v.Issuer, v.Title, meta, "party.billTo", v.BillTo)
	r.y += 20

	r.columns(v, width)
	r.lineTable(v)
	if len(v.Adjustments) > 0 {
		r.y += 16
		r.adjustments(v)
	}
	if v.Taxed {
		r.y += 16
		r.breakdown(v)
	}
	r.totals(v)
	r.payment(v.Payment, v.PaymentQR, width)
	r.footer(v.Footer, width)
}

// meta writes label-value rows at the right margin, under the title: the
// labels left-aligned in a column as wide as the widest, the values
// right-aligned in one at least 110 points wide.
// firstPage starts the first page of a document: the issuer, when there is
// one, on the left; the title and the rows of meta on the right; below
// them the party the document is for under its heading (a message key).
// It returns the width of the page's text.
func (r *pdfWriter) firstPage(issuer *party, title string, meta [][2]string, heading string, to party) float64 {
	r.newPage()
	width := r.pageW - 2*margin
	top := r.y
	if issuer != nil {
		r.party(*issuer, margin, width/2)
	}
	left := r.y
	r.y = top
	r.font(fontBold, 20)
	r.text(margin, width, title, gopdf.Right, 26)
	r.meta(meta)
	r.y = max(r.y, left) + 24

	r.font(fontBold, smallSize)
	r.grey()
	r.text(margin, width, r.upper.String(r.p.T(heading)), gopdf.Left, 12)
	r.black()
	r.party(to, margin, width/2)
	return width
}

func (r *pdfWriter) meta(rows [][2]string) {
	r.font(fontRegular, fontSize)
	labelW, valueW := 90.0, 110.0
	for _, m := range rows {
		labelW = max(labelW, r.measure(m[0])+10)
		valueW = max(valueW, r.measure(m[1]))
	}
	valueX := r.pageW - margin - valueW
	for _, m := range rows {
		r.grey()
		r.text(valueX-labelW, labelW, m[0], gopdf.Left, 0)
		r.black()
		r.text(valueX, valueW, m[1], gopdf.Right, lineHeight)
	}
}

// payment writes the bank transfer block: a heading and label-value rows,
// and the EPC QR code with its caption at the right margin when there is
// one, its quiet zone kept clear of the rows.
func (r *pdfWriter) payment(rows [][2]string, qr *qrCode, width float64) {
	if len(rows) == 0 {
		return
	}
	rowsW, height := width, 12+float64(len(rows))*lineHeight
	var caption []string
	if qr != nil {
		r.font(fontRegular, smallSize)
		caption = r.wrap(r.p.T("payment.scan"), qrSide)
		rowsW -= qrSide + qrZone(qr)
		height = max(height, qrSide+qrZone(qr)+float64(len(caption))*noteHeight)
	}
	if r.y+4+height+16 > r.bottom() {
		r.newPage()
	}
	r.y += 4
	top := r.y
	r.font(fontBold, smallSize)
	r.grey()
	r.text(margin, rowsW, r.upper.String(r.p.T("payment.heading")), gopdf.Left, 12)
	r.font(fontRegular, fontSize)
	labelW := 100.0
	for _, row := range rows {
		labelW = max(labelW, r.measure(row[0])+10)
	}
	for _, row := range rows {
		r.font(fontRegular, fontSize)
		r.grey()
		r.text(margin, labelW, row[0], gopdf.Left, 0)
		r.black()
		r.text(margin+labelW, rowsW-labelW, row[1], gopdf.Left, lineHeight)
	}
	if qr != nil {
		x := margin + width - qrSide
		r.qrCode(qr, x, top)
		r.font(fontRegular, smallSize)
		r.grey()
		y := top + qrSide + qrZone(qr)
		for _, line := range caption {
			r.at(x, y, qrSide, line, gopdf.Left)
			y += noteHeight
		}
		r.y = max(r.y, y)
	}
	r.y += 16
}

// qrSide is the side of a QR code's modules in the PDF, in points: 28 mm,
// above the 2 cm that EPC069-12 asks for.
const qrSide = 28 * 72 / 25.4

// qrZone is the width of a code's quiet zone in the PDF, in points.
func qrZone(qr *qrCode) float64 {
	return qrQuietZone * qrSide / float64(len(qr.modules))
}

// qrCode draws qr's dark modules as filled black rectangles, its top left
// corner at (x, y), qrSide wide. Each rectangle reaches a hair into the
// next row, so that no light seam shows between rows on screen.
func (r *pdfWriter) qrCode(qr *qrCode, x, y float64) {
	m := qrSide / float64(len(qr.modules))
	r.pdf.SetFillColor(0, 0, 0)
	qr.runs(func(row, col, n int) {
		r.pdf.RectFromUpperLeftWithStyle(x+float64(col)*m, y+float64(row)*m, float64(n)*m, m+0.05, "F")
	})
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
	if p.TaxIDLine != "" {
		rest = append(rest, p.TaxIDLine)
	}
	for _, l := range rest {
		for _, s := range r.wrap(l, w) {
			r.text(x, w, s, gopdf.Left, lineHeight)
		}
	}
}

// measure is the width of s in the current font.
func (r *pdfWriter) measure(s string) float64 {
	w, err := r.pdf.MeasureTextWidth(fontSafe(s))
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
	r.at(margin, r.pageH-margin+10, r.pageW-2*margin, r.p.T("document.page", r.label, r.page), gopdf.Right)
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
	r.err = r.pdf.CellWithOption(&gopdf.Rect{W: w, H: lineHeight}, fontSafe(s), gopdf.CellOption{Align: align | gopdf.Top})
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
		lines, err := r.pdf.SplitTextWithWordWrap(fontSafe(para), w)
		if err != nil {
			lines, err = r.pdf.SplitText(fontSafe(para), w)
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
