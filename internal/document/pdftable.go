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
)

// This file lays out the PDF's tables: the line items, the tax breakdown
// and the totals under them.

// The tables' headings: keys of the messages, printed in capitals
// (pdfWriter.head).
const (
	headDescription = "column.description"
	headQuantity    = "column.quantity"
	headUnitAmount  = "column.unitAmount"
	headTax         = "column.tax"
	headAmount      = "column.amount"
	headNetAmount   = "column.netAmount"
	headCategory    = "column.taxCategory"
	headTaxable     = "column.taxableAmount"
	headTaxAmount   = "column.taxAmount"
	headAdjustment  = "column.adjustment"
)

// head is the heading of a column: the message key translated, in
// capitals.
func (r *pdfWriter) head(key string) string {
	return r.upper.String(r.p.T(key))
}

// pdfColumn is a column of a table: its heading (printed as it is) and its
// width. The first
// column is left-aligned and its text wraps; the others are right-aligned.
type pdfColumn struct {
	head string
	w    float64
}

// pdfRow is a row of a table: the lines of its first cell, wrapped to the
// column's width, and the text of its other cells.
type pdfRow struct {
	lines []pdfLine
	cells []string
}

// pdfLine is a line of a row's first cell: text, or a note (an exemption
// reason) in smaller grey type under it.
type pdfLine struct {
	s    string
	note bool
}

func (l pdfLine) height() float64 {
	if l.note {
		return noteHeight
	}
	return lineHeight
}

// height is the height of the row, its padding included.
func (row pdfRow) height() float64 {
	h := 2 * cellPad
	for _, l := range row.lines {
		h += l.height()
	}
	return h
}

// columns sizes the tables' columns to their headings and values: at least
// the minimum widths, wider for large amounts, and the description the rest
// of width.
// The breakdown and the totals share the width of the line table's last
// column, so that their amounts line up under its net amounts; the unit
// amounts, smaller, have their own.
func (r *pdfWriter) columns(v *view, width float64) {
	r.font(fontBold, smallSize)
	head := func(key string) float64 { return r.measure(r.head(key)) + 2*cellPad }
	r.qtyW = max(minQtyW, head(headQuantity))
	r.unitW = max(minAmountW, head(headUnitAmount))
	r.taxW = max(minTaxW, head(headTax))
	r.amountW = max(minAmountW, head(headAmount), head(headNetAmount), head(headTaxable), head(headTaxAmount))
	r.font(fontRegular, fontSize)
	for _, l := range v.Lines {
		r.qtyW = max(r.qtyW, r.measure(l.Quantity)+2*cellPad)
		r.unitW = max(r.unitW, r.measure(l.UnitAmount)+2*cellPad)
		r.amountW = max(r.amountW, r.measure(l.Amount)+2*cellPad)
		if v.Taxed {
			r.taxW = max(r.taxW, r.measure(l.Tax)+2*cellPad)
		}
	}
	for _, t := range v.Breakdown {
		r.amountW = max(r.amountW, r.measure(t.Taxable)+2*cellPad, r.measure(t.Tax)+2*cellPad)
	}
	for _, a := range v.Adjustments {
		r.amountW = max(r.amountW, r.measure(a.Amount)+2*cellPad)
		if v.Taxed {
			r.taxW = max(r.taxW, r.measure(a.Tax)+2*cellPad)
		}
	}
	r.amountW = max(r.amountW, r.measure(v.Subtotal)+2*cellPad, r.measure(v.TaxTotal)+2*cellPad,
		r.measure(v.AllowanceTotal)+2*cellPad, r.measure(v.ChargeTotal)+2*cellPad)
	for _, row := range v.Settlement {
		r.amountW = max(r.amountW, r.measure(row.Amount)+2*cellPad)
	}
	r.font(fontBold, 12)
	r.amountW = max(r.amountW, r.measure(v.Total)+2*cellPad)
	r.descW = width - r.qtyW - r.unitW - r.amountW
	if v.Taxed {
		r.descW -= r.taxW
	}
}

// lineTable writes the line items: description, quantity, unit amount,
// the tax rate when the invoice has tax, and the net amount.
func (r *pdfWriter) lineTable(v *view) {
	cols := []pdfColumn{{r.head(headDescription), r.descW}, {r.head(headQuantity), r.qtyW}, {r.head(headUnitAmount), r.unitW}}
	if v.Taxed {
		cols = append(cols, pdfColumn{r.head(headTax), r.taxW}, pdfColumn{r.head(headNetAmount), r.amountW})
	} else {
		cols = append(cols, pdfColumn{r.head(headAmount), r.amountW})
	}
	rows := make([]pdfRow, 0, len(v.Lines))
	for _, l := range v.Lines {
		row := pdfRow{lines: r.firstCell(l.Description, l.Discount, r.descW), cells: []string{l.Quantity, l.UnitAmount}}
		if v.Taxed {
			row.cells = append(row.cells, l.Tax)
		}
		row.cells = append(row.cells, l.Amount)
		rows = append(rows, row)
	}
	r.table(cols, rows)
}

// adjustments writes the document's allowances and charges, one row each:
// what it is and why, with how a percent was taken under it, the tax rate
// when the document has tax, and the amount.
func (r *pdfWriter) adjustments(v *view) {
	width := r.pageW - 2*margin
	first := width - r.amountW
	if v.Taxed {
		first -= r.taxW
	}
	cols := []pdfColumn{{r.head(headAdjustment), first}}
	if v.Taxed {
		cols = append(cols, pdfColumn{r.head(headTax), r.taxW})
	}
	cols = append(cols, pdfColumn{r.head(headAmount), r.amountW})
	rows := make([]pdfRow, 0, len(v.Adjustments))
	for _, a := range v.Adjustments {
		row := pdfRow{lines: r.firstCell(a.Label, a.Detail, first)}
		if v.Taxed {
			row.cells = append(row.cells, a.Tax)
		}
		row.cells = append(row.cells, a.Amount)
		rows = append(rows, row)
	}
	r.table(cols, rows)
}

// firstCell is the lines of a row's first cell, of width w: text, then
// note (a discount, how a percent was taken, an exemption reason) in
// smaller grey type under it, each wrapped.
func (r *pdfWriter) firstCell(text, note string, w float64) []pdfLine {
	var lines []pdfLine
	r.font(fontRegular, fontSize)
	for _, s := range r.wrap(text, w-2*cellPad) {
		lines = append(lines, pdfLine{s: s})
	}
	if note != "" {
		r.font(fontRegular, noteSize)
		for _, s := range r.wrap(note, w-2*cellPad) {
			lines = append(lines, pdfLine{s: s, note: true})
		}
	}
	return lines
}

// breakdown writes the tax breakdown: one row per category and rate, named
// by groupLabel, with its exemption reason under the name.
func (r *pdfWriter) breakdown(v *view) {
	first := r.pageW - 2*margin - 2*r.amountW
	cols := []pdfColumn{{r.head(headCategory), first}, {r.head(headTaxable), r.amountW}, {r.head(headTaxAmount), r.amountW}}
	rows := make([]pdfRow, 0, len(v.Breakdown))
	for _, t := range v.Breakdown {
		rows = append(rows, pdfRow{lines: r.firstCell(t.Label, t.Reason, first), cells: []string{t.Taxable, t.Tax}})
	}
	r.table(cols, rows)
}

// totals writes the total under the last amount column; when the view is
// summed, the subtotal, the allowances, the charges and the tax, each when
// there is any, above it.
func (r *pdfWriter) totals(v *view) {
	width := r.pageW - 2*margin
	valueX := margin + width - r.amountW
	// The labels end a cell's padding left of the values' column.
	labelX := margin
	labelW := valueX - cellPad - margin
	var sums [][2]string
	if v.Summed {
		sums = append(sums, [2]string{r.p.T("total.subtotal"), v.Subtotal})
		if v.AllowanceTotal != "" {
			sums = append(sums, [2]string{r.p.T("total.allowances"), v.AllowanceTotal})
		}
		if v.ChargeTotal != "" {
			sums = append(sums, [2]string{r.p.T("total.charges"), v.ChargeTotal})
		}
		if v.Taxed {
			sums = append(sums, [2]string{r.p.T("total.tax"), v.TaxTotal})
		}
	}
	h := 30.0
	if len(sums) > 0 {
		h += float64(len(sums))*(lineHeight+2) + 8
	}
	h += float64(len(v.Settlement)) * (lineHeight + 2)
	if r.y+h > r.bottom() {
		r.newPage()
	}
	r.y += 8
	if len(sums) > 0 {
		r.font(fontRegular, fontSize)
		for _, t := range sums {
			r.at(labelX, r.y, labelW, t[0], gopdf.Right)
			r.at(valueX, r.y, r.amountW-cellPad, t[1], gopdf.Right)
			r.y += lineHeight + 2
		}
		r.y += 2
		r.ruleFrom(valueX-cellPad-60, 1.5, 26)
		r.y += 6
	}
	r.font(fontBold, 12)
	r.at(labelX, r.y, labelW, r.p.T("total.total"), gopdf.Right)
	r.at(valueX, r.y, r.amountW-cellPad, v.Total, gopdf.Right)
	r.y += 30
	if len(v.Settlement) > 0 {
		r.font(fontRegular, fontSize)
		for _, row := range v.Settlement {
			r.at(labelX, r.y, labelW, row.Label, gopdf.Right)
			r.at(valueX, r.y, r.amountW-cellPad, row.Amount, gopdf.Right)
			r.y += lineHeight + 2
		}
		r.y += 8
	}
}

// table writes a table: its headings, then its rows. It starts on a new
// page when the headings and the first row do not fit on this one (and
// would on a new page), so that the headings are never left alone at the
// bottom of a page.
func (r *pdfWriter) table(cols []pdfColumn, rows []pdfRow) {
	need := 18 + 2*cellPad + lineHeight
	if len(rows) > 0 {
		need = 18 + rows[0].height()
	}
	if r.y+need > r.bottom() && margin+need <= r.bottom() {
		r.newPage()
	}
	r.tableHead(cols)
	for _, row := range rows {
		r.tableRow(cols, row)
	}
}

// tableHead writes the headings of cols and a rule under them, and marks
// where the rows of this page start.
func (r *pdfWriter) tableHead(cols []pdfColumn) {
	r.font(fontBold, smallSize)
	r.grey()
	y := r.y + cellPad
	x := margin
	for i, c := range cols {
		if i == 0 {
			r.at(x+cellPad, y, c.w-2*cellPad, c.head, gopdf.Left)
		} else {
			r.at(x, y, c.w-cellPad, c.head, gopdf.Right)
		}
		x += c.w
	}
	r.black()
	r.y += 18
	r.rule(1.5, 26)
	r.tableTop = r.y
}

// tableRow writes a row of a table with columns cols. A row that fits on
// a page is not split; a longer one (a long description in a narrow
// column) continues on the next page, under the headings again.
func (r *pdfWriter) tableRow(cols []pdfColumn, row pdfRow) {
	if r.y+row.height() > r.bottom() && r.y > r.tableTop {
		r.newPage()
		r.tableHead(cols)
	}
	y := r.y + cellPad
	for i, l := range row.lines {
		if y+l.height() > r.bottom() {
			r.newPage()
			r.tableHead(cols)
			y = r.y + cellPad
		}
		if l.note {
			r.font(fontRegular, noteSize)
			r.grey()
		} else {
			r.font(fontRegular, fontSize)
			r.black()
		}
		r.at(margin+cellPad, y, cols[0].w-2*cellPad, l.s, gopdf.Left)
		if i == 0 {
			// The other cells after the first line, so that the text
			// reads (and is extracted) row by row, left to right.
			r.cells(cols, row.cells, y)
		}
		y += l.height()
	}
	if len(row.lines) == 0 {
		r.cells(cols, row.cells, y)
		y += lineHeight
	}
	r.black()
	r.y = y + cellPad
	r.rule(0.5, 204)
}

// cells writes the cells of a row after its first, right-aligned, at y.
func (r *pdfWriter) cells(cols []pdfColumn, cells []string, y float64) {
	r.font(fontRegular, fontSize)
	r.black()
	x := margin + cols[0].w
	for i, s := range cells {
		w := cols[i+1].w
		r.at(x, y, w-cellPad, s, gopdf.Right)
		x += w
	}
}
