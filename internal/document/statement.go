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

// statementView is what both renderings of a statement show, every amount
// and day formatted.
type statementView struct {
	Customer   string
	From, To   string
	TimeZone   string
	Issuer     *party
	For        party
	Currencies []statementCurrencyView
	Footer     string
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

// statementRowView is a row of a statement.
type statementRowView struct {
	Date, Description, Amount, Balance string
}

// agingHeads are the headings of the aging table's columns.
var agingHeads = [6]string{"Current", "1–30 days", "31–60 days", "61–90 days", "Over 90 days", "Total open"}

// StatementHTML renders s as a complete UTF-8 HTML page.
func StatementHTML(s *Statement) ([]byte, error) {
	v, err := newStatementView(s)
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
	v, err := newStatementView(s)
	if err != nil {
		return nil, err
	}
	return renderStatementPDF(v, s.Issuer)
}

// StatementFilename is the name a saved copy of the document gets:
// statement-<customer>-<from>-<to>.<ext>.
func StatementFilename(s *billing.Statement, loc *time.Location, ext string) string {
	if loc == nil {
		loc = time.UTC
	}
	name := unsafeFilename.ReplaceAllString(s.Customer, "_")
	return "statement-" + name + "-" + s.From.In(loc).Format(dateLayout) + "-" + s.To.In(loc).Format(dateLayout) + "." + ext
}

// newStatementView formats what s's document shows.
func newStatementView(s *Statement) (*statementView, error) {
	if s == nil || s.Statement == nil || s.Customer == nil {
		return nil, ErrNoStatement
	}
	loc := s.Location
	if loc == nil {
		loc = time.UTC
	}
	st, c := s.Statement, &s.Customer.Spec
	v := &statementView{Customer: c.Name, From: st.From.In(loc).Format(dateLayout), To: st.To.In(loc).Format(dateLayout),
		TimeZone: loc.String(), For: newParty(c.Name, c.Address, c.Email, c.TaxID), Footer: strings.TrimSpace(s.Footer)}
	if is := s.Issuer; is != nil {
		p := newParty(is.Name, is.Address, is.Email, is.TaxID)
		v.Issuer = &p
	}
	for _, cs := range st.Currencies {
		cur, err := billing.ParseCurrency(cs.Currency)
		if err != nil {
			cur = billing.Currency{Code: strings.ToUpper(cs.Currency), Digits: 2}
		}
		cv := statementCurrencyView{Currency: cur.Code, Opening: formatMoney(cur, cs.Opening),
			Closing: formatMoney(cur, cs.Closing)}
		for _, r := range cs.Rows {
			row := statementRowView{Date: r.At.In(loc).Format(dateLayout), Description: rowDescription(cur, r),
				Amount: formatMoney(cur, r.Amount), Balance: formatMoney(cur, r.Balance)}
			if r.Amount == 0 {
				row.Amount = "–"
			}
			cv.Rows = append(cv.Rows, row)
		}
		a := cs.Aging
		for i, n := range []int64{a.Current, a.Days1To30, a.Days31To60, a.Days61To90, a.Over90, a.Total} {
			cv.Aging[i] = formatMoney(cur, n)
		}
		if cs.UnappliedCredit != 0 {
			cv.Credit = formatMoney(cur, cs.UnappliedCredit)
		}
		v.Currencies = append(v.Currencies, cv)
	}
	return v, nil
}

// rowDescription says for people what row r is.
func rowDescription(cur billing.Currency, r billing.StatementRow) string {
	of := ""
	if r.InvoiceNumber != "" {
		of = " " + r.InvoiceNumber
	}
	switch r.Type {
	case billing.EntryInvoice:
		return "Invoice " + r.Number
	case billing.EntryCreditNote:
		return "Credit note " + r.Number + " for" + of
	case billing.EntryPayment:
		return "Payment for" + of
	case billing.EntryCreditApplication:
		return "Credit of " + formatMoney(cur, r.RecordAmount) + " applied to" + of
	case billing.EntryWriteOff:
		return "Written off:" + of
	case billing.EntryWriteOffReversal:
		return "Write-off reversed, settled later:" + of
	case billing.EntryRefund:
		return "Refund of credit"
	}
	return string(r.Type)
}
