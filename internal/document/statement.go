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
	"bytes"
	_ "embed"
	"errors"
	"html/template"
	"strings"
	"time"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// A customer's statement as a document (docs/api.md#statements): the
// statement billing.ComputeStatement returns, rendered with the look of
// the invoice, as a print-ready HTML page and a PDF with the same content.
// Like the invoice's, the renderings are pure: they read only what they
// are given, so that the adapter answers a statement and the manager
// attaches the same one to an e-mail.

// Statement is what a statement's document shows.
type Statement struct {
	// Statement is the customer's statement (billing.ComputeStatement).
	Statement *billing.Statement
	// Customer is the customer: its name, address, e-mail and tax id are
	// printed as they are now.
	Customer *billingv1.Customer
	// Issuer is the workspace's BillingProfile issuer, nil for none.
	Issuer *billingv1.Issuer
	// Footer is the billing profile's footer, "" for none.
	Footer string
	// Locale is the language and region the statement is written for, as
	// Options.Locale is a document's.
	Locale language.Tag
	// Location is the workspace's time zone, in which the days are
	// written; nil is UTC.
	Location *time.Location
}

// ErrNoStatement is returned for a Statement without a statement or a
// customer.
var ErrNoStatement = errors.New("the document has no statement or no customer")

//go:embed statement.html.tmpl
var statementSource string

// statementTemplate escapes every value it prints, as htmlTemplate does.
var statementTemplate = template.Must(template.New("statement").Parse(statementSource))

// statementView is what both renderings of a statement show, every text
// translated and every amount and day formatted for its locale.
type statementView struct {
	// Lang is the statement's BCP 47 tag, the HTML's lang attribute.
	Lang string
	// T translates the texts of the page (locale.Printer.T).
	T func(key string, args ...any) string
	// Title is "Statement <customer>, <from> to <to>", translated.
	Title    string
	Customer string
	// From and To are the period's days as the locale writes them,
	// FromISO and ToISO in ISO 8601.
	From, To       string
	FromISO, ToISO string
	TimeZone       string
	Issuer         *party
	For            party
	Currencies     []statementCurrencyView
	Footer         string
}

// statementCurrencyView is the statement in one currency.
type statementCurrencyView struct {
	Currency string
	Opening  string
	Rows     []statementRowView
	Closing  string
	// Aging are the aging table's cells: current, 1-30, 31-60, 61-90,
	// over 90 days past due, and their total.
	Aging [6]string
	// Credit is the customer's unapplied credit, "" when there is none.
	Credit string
}

// statementRowView is a row of a statement: its day as the locale writes
// it and in ISO 8601, what it is and its amounts.
type statementRowView struct {
	Date, DateISO, Description, Amount, Balance string
}

// agingHeads are the keys of the headings of the aging table's columns.
var agingHeads = [6]string{"aging.current", "aging.days1to30", "aging.days31to60", "aging.days61to90", "aging.over90",
	"aging.total"}

// AgingHeads are the keys of the headings of the aging table's columns,
// for the template.
func (v *statementView) AgingHeads() [6]string { return agingHeads }

// StatementHTML renders s as a complete UTF-8 HTML page in the language
// and formats of s.Locale.
func StatementHTML(s *Statement) ([]byte, error) {
	if s == nil {
		return nil, ErrNoStatement
	}
	v, err := newStatementView(s, locale.New(s.Locale))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := statementTemplate.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// StatementPDF renders s as a PDF with the content of StatementHTML, on
// the paper of the issuer's country as an invoice is.
func StatementPDF(s *Statement) ([]byte, error) {
	if s == nil {
		return nil, ErrNoStatement
	}
	p := pdfPrinter(s.Locale)
	v, err := newStatementView(s, p)
	if err != nil {
		return nil, err
	}
	return renderStatementPDF(v, p, s.Issuer)
}

// StatementFilename is the name a saved copy of the document gets:
// statement-<customer>-<from>-<to>.<ext>.
func StatementFilename(s *billing.Statement, loc *time.Location, ext string) string {
	if loc == nil {
		loc = time.UTC
	}
	name := unsafeFilename.ReplaceAllString(s.Customer, "_")
	return "statement-" + name + "-" + s.From.In(loc).Format(isoDay) + "-" + s.To.In(loc).Format(isoDay) + "." + ext
}

// newStatementView formats what s's document shows with p.
func newStatementView(s *Statement, p *locale.Printer) (*statementView, error) {
	if s.Statement == nil || s.Customer == nil {
		return nil, ErrNoStatement
	}
	loc := s.Location
	if loc == nil {
		loc = time.UTC
	}
	st, c := s.Statement, &s.Customer.Spec
	from, to := st.From.In(loc), st.To.In(loc)
	v := &statementView{Lang: p.Tag().String(), T: p.T, Customer: c.Name, From: p.Date(from), To: p.Date(to),
		FromISO: from.Format(isoDay), ToISO: to.Format(isoDay), TimeZone: loc.String(),
		For: newParty(p, c.Name, c.Address, c.Email, c.TaxID), Footer: strings.TrimSpace(s.Footer)}
	v.Title = p.T("statement.title", c.Name, v.From, v.To)
	if is := s.Issuer; is != nil {
		pa := newParty(p, is.Name, is.Address, is.Email, is.TaxID)
		v.Issuer = &pa
	}
	for _, cs := range st.Currencies {
		code := cs.Currency
		cv := statementCurrencyView{Currency: currencyCode(code), Opening: p.Money(code, cs.Opening),
			Closing: p.Money(code, cs.Closing)}
		for _, r := range cs.Rows {
			at := r.At.In(loc)
			row := statementRowView{Date: p.Date(at), DateISO: at.Format(isoDay), Description: rowDescription(p, code, r),
				Amount: p.Money(code, r.Amount), Balance: p.Money(code, r.Balance)}
			if r.Amount == 0 {
				row.Amount = "–"
			}
			cv.Rows = append(cv.Rows, row)
		}
		a := cs.Aging
		for i, n := range []int64{a.Current, a.Days1To30, a.Days31To60, a.Days61To90, a.Over90, a.Total} {
			cv.Aging[i] = p.Money(code, n)
		}
		if cs.UnappliedCredit != 0 {
			cv.Credit = p.Money(code, cs.UnappliedCredit)
		}
		v.Currencies = append(v.Currencies, cv)
	}
	return v, nil
}

// rowDescription says for people, in p's language, what row r of the
// statement in currency code is.
func rowDescription(p *locale.Printer, code string, r billing.StatementRow) string {
	of := r.InvoiceNumber
	if of == "" {
		of = "–"
	}
	switch r.Type {
	case billing.EntryInvoice:
		return p.T("row.invoice", r.Number)
	case billing.EntryCreditNote:
		return p.T("row.creditNote", r.Number, of)
	case billing.EntryPayment:
		return p.T("row.payment", of)
	case billing.EntryCreditApplication:
		return p.T("row.creditApplication", p.Money(code, r.RecordAmount), of)
	case billing.EntryWriteOff:
		return p.T("row.writeOff", of)
	case billing.EntryWriteOffReversal:
		return p.T("row.writeOffReversal", of)
	case billing.EntryRefund:
		return p.T("row.refund")
	}
	return string(r.Type)
}
