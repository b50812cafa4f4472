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
	"github.com/signintech/gopdf"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// The PDF of a statement: the invoice's page, fonts, margins, rules and
// type sizes (pdf.go), with a table of dated rows per currency and its
// aging under it.

// Widths of the statement's columns, in points.
const (
	statementDateW   = 70.0
	statementAmountW = 95.0
)

// renderStatementPDF lays v out with p on the paper of issuer's country.
func renderStatementPDF(v *statementView, p *locale.Printer, issuer *billingv1.Issuer) ([]byte, error) {
	r, err := newPDFWriter(p, issuer, v.Title)
	if err != nil {
		return nil, err
	}
	r.writeStatement(v)
	return r.finish()
}

// writeStatement writes the head of the statement, then each currency.
func (r *pdfWriter) writeStatement(v *statementView) {
	// The period under the title.
	period := [][2]string{{r.p.T("meta.from"), v.From}, {r.p.T("meta.to"), v.To}, {r.p.T("meta.timeZone"), v.TimeZone}}
	width := r.firstPage(v.Issuer, r.p.T("title.statement"), period, "party.statementFor", v.For)
	r.y += 8

	if len(v.Currencies) == 0 {
		r.y += 12
		r.font(fontRegular, fontSize)
		for _, s := range r.wrap(r.p.T("statement.empty"), width) {
			r.text(margin, width, s, gopdf.Left, lineHeight)
		}
	}
	for _, c := range v.Currencies {
		r.statementCurrency(c, width)
	}
	r.y += 8
	r.footer(v.Footer, width)
}

// statementCurrency writes the statement in one currency: a heading, the
// rows between the opening and the closing balance, and the aging.
func (r *pdfWriter) statementCurrency(c statementCurrencyView, width float64) {
	amountW := statementAmountW
	r.font(fontBold, fontSize)
	for _, s := range []string{c.Opening, c.Closing} {
		amountW = max(amountW, r.measure(s)+2*cellPad)
	}
	r.font(fontRegular, fontSize)
	for _, row := range c.Rows {
		amountW = max(amountW, r.measure(row.Amount)+2*cellPad, r.measure(row.Balance)+2*cellPad)
	}
	dateW := statementDateW
	for _, row := range c.Rows {
		dateW = max(dateW, r.measure(row.Date)+2*cellPad)
	}
	descW := width - dateW - 2*amountW
	cols := []pdfColumn{{r.head("column.date"), dateW}, {r.head(headDescription), descW}, {r.head(headAmount), amountW},
		{r.head("column.balance"), amountW}}

	if r.y+24+18+3*lineHeight > r.bottom() {
		r.newPage()
	}
	r.y += 16
	r.font(fontBold, 12)
	r.text(margin, width, r.p.T("statement.account", c.Currency), gopdf.Left, 20)
	r.statementHead(cols)
	r.statementRow(cols, statementRowView{Description: r.p.T("statement.opening"), Balance: c.Opening}, true)
	for _, row := range c.Rows {
		r.statementRow(cols, row, false)
	}
	r.statementRow(cols, statementRowView{Description: r.p.T("statement.closing"), Balance: c.Closing}, true)

	// The aging: six equal columns under the table, then the credit.
	need := 18 + 2*cellPad + 2*lineHeight + 20
	if r.y+need > r.bottom() {
		r.newPage()
	}
	r.y += 12
	r.font(fontBold, smallSize)
	r.grey()
	r.text(margin, width, r.upper.String(r.p.T("statement.aging")), gopdf.Left, 12)
	r.black()
	colW := width / 6
	r.font(fontBold, smallSize)
	r.grey()
	for i, h := range agingHeads {
		r.at(margin+float64(i)*colW, r.y+cellPad, colW-cellPad, r.head(h), gopdf.Right)
	}
	r.black()
	r.y += 18
	r.rule(1.5, 26)
	for i, s := range c.Aging {
		if i == len(c.Aging)-1 {
			r.font(fontBold, fontSize)
		} else {
			r.font(fontRegular, fontSize)
		}
		r.at(margin+float64(i)*colW, r.y+cellPad, colW-cellPad, s, gopdf.Right)
	}
	r.y += lineHeight + 2*cellPad
	r.rule(0.5, 204)
	if c.Credit != "" {
		r.y += 6
		r.font(fontRegular, fontSize)
		r.at(margin, r.y, width-colW-cellPad, r.p.T("statement.unappliedCredit"), gopdf.Right)
		r.at(margin+width-colW, r.y, colW-cellPad, c.Credit, gopdf.Right)
		r.y += lineHeight
	}
	r.y += 8
}

// statementHead writes the headings of the statement's table, the date
// and the description left-aligned.
func (r *pdfWriter) statementHead(cols []pdfColumn) {
	r.font(fontBold, smallSize)
	r.grey()
	x := margin
	for i, c := range cols {
		if i < 2 {
			r.at(x+cellPad, r.y+cellPad, c.w-2*cellPad, c.head, gopdf.Left)
		} else {
			r.at(x, r.y+cellPad, c.w-cellPad, c.head, gopdf.Right)
		}
		x += c.w
	}
	r.black()
	r.y += 18
	r.rule(1.5, 26)
	r.tableTop = r.y
}

// statementRow writes a row of the statement's table, in bold when it is
// a balance; on a new page, under the headings again, when it does not
// fit.
func (r *pdfWriter) statementRow(cols []pdfColumn, row statementRowView, bold bool) {
	r.font(fontRegular, fontSize)
	lines := r.wrap(row.Description, cols[1].w-2*cellPad)
	if len(lines) == 0 {
		lines = []string{""}
	}
	h := float64(len(lines))*lineHeight + 2*cellPad
	if r.y+h > r.bottom() {
		r.newPage()
		r.statementHead(cols)
	}
	family := fontRegular
	if bold {
		family = fontBold
	}
	y := r.y + cellPad
	r.font(family, fontSize)
	r.black()
	r.at(margin+cellPad, y, cols[0].w-2*cellPad, row.Date, gopdf.Left)
	for i, s := range lines {
		r.at(margin+cols[0].w+cellPad, y+float64(i)*lineHeight, cols[1].w-2*cellPad, s, gopdf.Left)
	}
	x := margin + cols[0].w + cols[1].w
	r.at(x, y, cols[2].w-cellPad, row.Amount, gopdf.Right)
	r.at(x+cols[2].w, y, cols[3].w-cellPad, row.Balance, gopdf.Right)
	r.y += h
	r.rule(0.5, 204)
}
