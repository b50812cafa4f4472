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

// Package document renders an issued Invoice as the document its customer
// receives: a print-ready HTML page and a PDF with the same content (the
// issuer, the bill-to snapshot, the number, the issue and due dates, the
// line items with their tax, the tax breakdown, the subtotal, tax and
// total, and the billing profile's footer), in the customer's language
// with the formats of their locale (package locale). Its amounts are those
// the API shows (billing.TotalsOf), formatted here only. It is pure: it
// reads only the Invoice and the Options it is given.
package document

import (
	"errors"
	"regexp"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// ErrNotIssued is returned for an invoice that is not issued: it has no
// number, no dates and no bill-to yet, so it has no document.
var ErrNotIssued = errors.New("the invoice is not issued")

// Options are what a document is rendered with besides its record.
type Options struct {
	// Footer is the billing profile's footer, "" for none.
	Footer string
	// Locale is the language and region the document is written for: the
	// customer's preferred locale, else the billing profile's (package
	// locale resolves it). The zero Tag is English.
	Locale language.Tag
	// CreditNotes are the invoice's credit notes, which name the credit
	// notes of its ledger by their numbers (billing.CreditNotesOf); one
	// they lack is named by its metadata.name. Unused for a credit note.
	CreditNotes []*billingv1.CreditNote
	// AsIssued renders an invoice as it was issued (billing.AsIssued):
	// without any payment, credit note, credit application or write-off
	// entered since, so that it gives the same bytes at any later time.
	AsIssued bool
}

// subject is what inv's document shows with opts: inv, or inv as it was
// issued when opts asks for that.
func subject(inv *billingv1.Invoice, opts Options) *billingv1.Invoice {
	if opts.AsIssued {
		return billing.AsIssued(inv)
	}
	return inv
}

// isoDay is how a day is written for machines: ISO 8601, in the
// filenames and the HTML's datetime attributes. People read the day in
// their locale's format (locale.Printer.Date).
const isoDay = "2006-01-02"

// view is what both renderings show, every text translated and every
// amount and date formatted for the document's locale. Its strings are the
// user's text, unescaped.
type view struct {
	// Lang is the document's BCP 47 tag, the HTML's lang attribute.
	Lang string
	// T translates the texts of the page (locale.Printer.T).
	T func(key string, args ...any) string
	// Title is "Invoice" or "Credit note", translated.
	Title  string
	Number string
	// Meta are rows shown under the dates: an invoice's date of supply and
	// the buyer's references, what a credit note credits.
	Meta [][2]string
	// IssuedAt and DueAt are days as the locale writes them, IssuedISO
	// and DueISO the same days in ISO 8601.
	IssuedAt, IssuedISO string
	DueAt, DueISO       string
	Currency            string
	Issuer              *party
	BillTo              party
	Lines               []line
	// Taxed is whether the invoice has a tax breakdown: only then do the
	// documents show the lines' tax, the breakdown and the tax. An invoice
	// without tax, or issued before tax existed, shows its total alone, as
	// it always has, unless it has allowances or charges (Summed).
	Taxed bool
	// Adjustments are the document's allowances and charges, a row each
	// above the tax breakdown; AllowanceTotal and ChargeTotal their sums,
	// "" when it has none.
	Adjustments                 []adjustmentRow
	AllowanceTotal, ChargeTotal string
	// Summed is whether the documents show the totals under the lines and
	// the breakdown (the subtotal, the allowances, the charges and the tax
	// when there are any, then the total): for an invoice with tax or with
	// allowances or charges. Otherwise the total closes the line table.
	Summed    bool
	Breakdown []taxRow
	Subtotal  string
	TaxTotal  string
	Total     string
	// Settlement are the rows under the total once something the customer
	// is told of settled part of the invoice (status.balance): each credit
	// note by its number, the amount paid and the credit applied, each when
	// there is any, then what remains as the customer owes it; empty
	// before. A write-off is internal and never shown
	// (billing.OwedByCustomer).
	Settlement []settlementRow
	// Payment are the rows of the bank transfer block (the account frozen
	// at issue, status.paymentAccount): label and value; empty without an
	// account, once nothing remains to pay, and on a credit note.
	Payment [][2]string
	// PaymentQR is the EPC QR code of the transfer beside the bank
	// details (epcCode): nil without them, and for what no code carries.
	PaymentQR *qrCode
	Footer    string
}

type party struct {
	Name  string
	Lines []string // the address, one line each
	Email string
	TaxID string
	// TaxIDLine is the label and the tax id, "VAT ID: DE123456789"
	// (taxIDLabel).
	TaxIDLine string
}

type line struct {
	Description string
	// Quantity is the quantity with its unit: "7.5 hours", "3".
	Quantity   string
	UnitAmount string
	// Discount is the line's discount under its description
	// (discountLabel), "" for none.
	Discount string
	// Tax is the line's tax rate (lineTaxLabel); shown when Taxed.
	Tax string
	// Amount is the line's net amount: quantity times unit amount, less
	// its discount.
	Amount string
}

// headView is what an invoice's and a credit note's documents show alike,
// formatted with p: the language, the title (a catalog key), the number and
// issue date, the currency, the bill-to snapshot, the issuer (none for nil)
// and the footer.
func headView(p *locale.Printer, title, number string, issuedAt time.Time, code string,
	billTo *billingv1.BillTo, issuer *billingv1.Issuer, footer string) *view {
	v := &view{
		Lang:      p.Tag().String(),
		T:         p.T,
		Title:     p.T(title),
		Number:    number,
		IssuedAt:  p.Date(issuedAt.UTC()),
		IssuedISO: issuedAt.UTC().Format(isoDay),
		Currency:  currencyCode(code),
		BillTo:    newParty(p, billTo.Name, billTo.Address, billTo.Email, billTo.TaxID),
		Footer:    strings.TrimSpace(footer),
	}
	if issuer != nil {
		pa := newParty(p, issuer.Name, issuer.Address, issuer.Email, issuer.TaxID)
		v.Issuer = &pa
	}
	return v
}

// newView checks that inv is issued and formats what its document shows
// with p and opts: the billing profile's footer under it, its credit notes
// by their numbers.
func newView(inv *billingv1.Invoice, p *locale.Printer, opts Options) (*view, error) {
	st := &inv.Status
	if st.Phase != billingv1.InvoiceIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil {
		return nil, ErrNotIssued
	}
	code := billing.InvoiceCurrency(inv)
	v := headView(p, "title.invoice", st.Number, st.IssuedAt.Time, code, st.BillTo, st.Issuer, opts.Footer)
	if st.DueAt != nil {
		v.DueAt, v.DueISO = p.Date(st.DueAt.UTC()), st.DueAt.UTC().Format(isoDay)
	}
	v.Meta = append([][2]string{supplyRow(p, &inv.Spec)}, referenceRows(p, &inv.Spec)...)
	if st.Balance == nil || billing.OwedByCustomer(st.Balance) > 0 {
		v.Payment = paymentRows(p, st.PaymentAccount, st.Number, st.PaymentReference)
	}
	taxes := billing.DocumentTaxesOf(inv)
	// The amounts the API shows: those frozen at issue, the total alone
	// for an invoice issued before tax existed.
	a, ok := billing.TotalsOf(inv, taxes)
	if !ok {
		return nil, errors.New("the invoice's amounts cannot be computed")
	}
	for i, it := range inv.Spec.Items {
		v.Lines = append(v.Lines, line{
			Description: it.Description,
			Quantity:    p.Quantity(it.Quantity, it.UnitCode),
			UnitAmount:  p.Money(code, it.Amount),
			Discount:    discountLabel(p, code, it.Discount, a.Lines[i].Discount),
			Tax:         lineTaxLabel(p, taxes.Items[i]),
			Amount:      p.Money(code, a.Lines[i].Net),
		})
	}
	v.Taxed = len(a.TaxBreakdown) > 0
	v.adjust(p, code, a.Allowances, a.Charges, a.AllowanceTotal, a.ChargeTotal)
	v.Breakdown = taxRows(p, code, a.TaxBreakdown)
	v.Subtotal = p.Money(code, a.Subtotal)
	v.TaxTotal = p.Money(code, a.TaxTotal)
	v.Total = p.Money(code, a.Total)
	v.Settlement = settlementRows(p, code, st.Balance, billing.CreditNotesOf(inv, opts.CreditNotes))
	if len(v.Payment) > 0 {
		v.PaymentQR = epcCode(st, currencyCode(code), billing.AskedToPay(st.Balance, a.Total))
	}
	return v, nil
}

// currencyCode is the ISO 4217 code of code as the documents name it:
// upper case, also for three letters ISO 4217 does not know, which the CRD
// lets kubectl users write.
func currencyCode(code string) string {
	if cur, err := billing.ParseCurrency(code); err == nil {
		return cur.Code
	}
	return strings.ToUpper(code)
}

// settlementRow is one row under an invoice's total: a label, the amount,
// and the class the HTML gives its cell.
type settlementRow struct {
	Label, Amount, Class string
}

// settlementRows are the rows under the total of an invoice of currency
// code with balance b and credit notes notes: each credit note by its
// number, what was paid and what was applied from the customer's credit,
// each when there is any, then what remains as the customer owes it; none
// while nothing the customer is told of settled any of it. What a
// write-off wrote off is not shown: it still remains, to the customer.
func settlementRows(p *locale.Printer, code string, b *billingv1.InvoiceBalance,
	notes []billing.CreditedBy) []settlementRow {
	if !billing.SettledForCustomer(b) {
		return nil
	}
	rows := make([]settlementRow, 0, len(notes)+3)
	for _, n := range notes {
		rows = append(rows, settlementRow{p.T("settlement.creditNote", n.Number), p.Money(code, n.Amount), "credited"})
	}
	for _, r := range []struct {
		label, class string
		amount       int64
	}{
		{"settlement.paid", "paid", b.AmountPaid},
		{"settlement.applied", "applied", b.AmountApplied},
	} {
		if r.amount > 0 {
			rows = append(rows, settlementRow{p.T(r.label), p.Money(code, r.amount), r.class})
		}
	}
	return append(rows, settlementRow{p.T("settlement.remaining"), p.Money(code, billing.OwedByCustomer(b)),
		"remaining"})
}

// supplyRow is the date of supply an invoice states (EU VAT Directive art.
// 226(7)): its invoicing period (BG-14) when it bills one, from its first
// to its last day as the locale writes days; else its supplyDate; else
// that it is the invoice date.
func supplyRow(p *locale.Printer, spec *billingv1.InvoiceSpec) [2]string {
	if period := spec.InvoicingPeriod; period != nil {
		start, errStart := billing.ParseDay(period.Start, time.UTC)
		end, errEnd := billing.ParseDay(period.End, time.UTC)
		if errStart == nil && errEnd == nil {
			return [2]string{p.T("meta.period"), p.Date(start) + " – " + p.Date(end)}
		}
	}
	if day, err := billing.ParseDay(spec.SupplyDate, time.UTC); err == nil {
		return [2]string{p.T("meta.supplyDate"), p.Date(day)}
	}
	return [2]string{p.T("meta.supplyDate"), p.T("meta.supplyDate.invoiceDate")}
}

// referenceRows are the buyer's references an invoice quotes, shown under
// its dates: its buyer reference and purchase order, when it has them.
func referenceRows(p *locale.Printer, spec *billingv1.InvoiceSpec) [][2]string {
	var rows [][2]string
	if r := spec.BuyerReference; r != "" {
		rows = append(rows, [2]string{p.T("meta.yourReference"), r})
	}
	if po := spec.PurchaseOrder; po != "" {
		rows = append(rows, [2]string{p.T("meta.purchaseOrder"), po})
	}
	return rows
}

// paymentRows are the rows of the bank transfer block of an account, the
// transfer's reference its ISO 11649 reference in printed groups, else the
// invoice number; none without an account.
func paymentRows(p *locale.Printer, a *billingv1.PaymentAccount, number, reference string) [][2]string {
	if a == nil {
		return nil
	}
	var rows [][2]string
	if a.AccountName != "" {
		rows = append(rows, [2]string{p.T("payment.accountHolder"), a.AccountName})
	}
	rows = append(rows, [2]string{p.T("payment.iban"), banktransfer.Group(a.IBAN)})
	if a.BIC != "" {
		rows = append(rows, [2]string{p.T("payment.bic"), a.BIC})
	}
	if reference != "" {
		return append(rows, [2]string{p.T("payment.reference"), banktransfer.Group(reference)})
	}
	return append(rows, [2]string{p.T("payment.reference"), number})
}

// newParty formats the issuer or the customer with p: the address in the
// order of its country.
func newParty(p *locale.Printer, name string, address *billingv1.Address, email, taxID string) party {
	pa := party{Name: name, Lines: p.Address(address), Email: email, TaxID: taxID}
	if taxID != "" {
		pa.TaxIDLine = p.T("label.value", taxIDLabel(p, taxID), taxID)
	}
	return pa
}

// Filename is the name a saved copy of the document gets: the invoice
// number, with anything but letters, digits, '.', '-' and '_' replaced.
func Filename(inv *billingv1.Invoice, ext string) string {
	name := unsafeFilename.ReplaceAllString(inv.Status.Number, "_")
	if name == "" {
		name = "invoice"
	}
	return name + "." + ext
}

var unsafeFilename = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// printable replaces control characters, which neither a PDF text object
// nor a printed page can show, by spaces; line breaks are kept.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
