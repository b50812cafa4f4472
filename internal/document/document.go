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
// total, and the billing profile's footer). Its amounts are those the API
// shows (billing.TotalsOf). It is pure: it reads only the Invoice
// and the footer it is given.
package document

import (
	"errors"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
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
}

// dateLayout is how dates are printed: ISO 8601, in UTC, which reads the
// same in every country.
const dateLayout = "2006-01-02"

// view is what both renderings show, every amount and date already
// formatted. Its strings are the user's text, unescaped.
type view struct {
	// Title is "Invoice" or "Credit note".
	Title  string
	Number string
	// Meta are rows shown under the dates: what a credit note credits.
	Meta     [][2]string
	IssuedAt string
	DueAt    string
	Currency string
	Issuer   *party
	BillTo   party
	Lines    []line
	// Taxed is whether the invoice has a tax breakdown: only then do the
	// documents show the lines' tax, the breakdown, the subtotal and the
	// tax. An invoice without tax, or issued before tax existed, shows its
	// total alone, as it always has.
	Taxed     bool
	Breakdown []taxRow
	Subtotal  string
	TaxTotal  string
	Total     string
	// Settlement are the rows under the total once something settled part
	// of the invoice (status.balance): the amount paid, the credit applied
	// and the amount written off, each when there is any, then what
	// remains; empty before.
	Settlement []settlementRow
	// Payment are the rows of the bank transfer block (the account frozen
	// at issue, status.paymentAccount): label and value; empty without an
	// account, and on a credit note.
	Payment [][2]string
	Footer  string
}

type party struct {
	Name  string
	Lines []string // the address, one line each
	Email string
	TaxID string
	// TaxIDLabel names TaxID: "VAT ID" or "Tax ID" (taxIDLabel).
	TaxIDLabel string
}

type line struct {
	Description string
	Quantity    string
	UnitAmount  string
	// Tax is the line's tax rate (lineTaxLabel); shown when Taxed.
	Tax string
	// Amount is the line's net amount: quantity times unit amount.
	Amount string
}

// newView checks that inv is issued and formats what its document shows.
func newView(inv *billingv1.Invoice, opts Options) (*view, error) {
	st := &inv.Status
	if st.Phase != billingv1.InvoiceIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil {
		return nil, ErrNotIssued
	}
	code := billing.InvoiceCurrency(inv)
	cur, err := billing.ParseCurrency(code)
	if err != nil {
		// The CRD lets kubectl users write any three letters; such an
		// invoice is shown with two decimals, under its own code.
		cur = billing.Currency{Code: strings.ToUpper(code), Digits: 2}
	}
	v := &view{
		Title:    "Invoice",
		Number:   st.Number,
		IssuedAt: st.IssuedAt.UTC().Format(dateLayout),
		Currency: cur.Code,
		BillTo:   newParty(st.BillTo.Name, st.BillTo.Address, st.BillTo.Email, st.BillTo.TaxID),
		Footer:   strings.TrimSpace(opts.Footer),
	}
	if st.DueAt != nil {
		v.DueAt = st.DueAt.UTC().Format(dateLayout)
	}
	v.Meta = referenceRows(&inv.Spec)
	if is := st.Issuer; is != nil {
		p := newParty(is.Name, is.Address, is.Email, is.TaxID)
		v.Issuer = &p
	}
	v.Payment = paymentRows(st.PaymentAccount, st.Number)
	taxes := billing.ItemTaxes(inv)
	for i, it := range inv.Spec.Items {
		// The CRD's bounds keep quantity × amount below 2^63.
		if it.Quantity < 0 || it.Quantity > billing.MaxQuantity || it.Amount < 0 || it.Amount > billing.MaxAmount {
			return nil, errors.New("a line item is out of the CRD's bounds")
		}
		v.Lines = append(v.Lines, line{
			Description: it.Description,
			Quantity:    groupDigits(it.Quantity),
			UnitAmount:  formatMoney(cur, it.Amount),
			Tax:         lineTaxLabel(taxes[i]),
			Amount:      formatMoney(cur, it.Quantity*it.Amount),
		})
	}
	// The amounts the API shows: those frozen at issue, the total alone
	// for an invoice issued before tax existed.
	a, ok := billing.TotalsOf(inv, taxes)
	if !ok {
		return nil, errors.New("the invoice's amounts cannot be computed")
	}
	v.Taxed = len(a.TaxBreakdown) > 0
	v.Breakdown = taxRows(cur, a.TaxBreakdown)
	v.Subtotal = formatMoney(cur, a.Subtotal)
	v.TaxTotal = formatMoney(cur, a.TaxTotal)
	v.Total = formatMoney(cur, a.Total)
	v.Settlement = settlementRows(cur, st.Balance)
	return v, nil
}

// settlementRow is one row under an invoice's total: a label, the amount,
// and the class the HTML gives its cell.
type settlementRow struct {
	Label, Amount, Class string
}

// settlementRows are the rows under the total of an invoice with balance
// b: what was paid, applied from the customer's credit and written off,
// each when there is any, then what remains; none when nothing is.
func settlementRows(cur billing.Currency, b *billingv1.InvoiceBalance) []settlementRow {
	if b == nil || b.AmountPaid+b.AmountApplied+b.AmountWrittenOff == 0 {
		return nil
	}
	var rows []settlementRow
	for _, r := range []struct {
		label, class string
		amount       int64
	}{
		{"Amount paid", "paid", b.AmountPaid},
		{"Credit applied", "applied", b.AmountApplied},
		{"Written off", "written-off", b.AmountWrittenOff},
	} {
		if r.amount > 0 {
			rows = append(rows, settlementRow{r.label, formatMoney(cur, r.amount), r.class})
		}
	}
	return append(rows, settlementRow{"Amount remaining", formatMoney(cur, b.AmountRemaining), "remaining"})
}

// referenceRows are the buyer's references an invoice quotes, shown under
// its dates: its buyer reference and purchase order, when it has them.
func referenceRows(spec *billingv1.InvoiceSpec) [][2]string {
	var rows [][2]string
	if r := spec.BuyerReference; r != "" {
		rows = append(rows, [2]string{"Your reference", r})
	}
	if po := spec.PurchaseOrder; po != "" {
		rows = append(rows, [2]string{"Purchase order", po})
	}
	return rows
}

// paymentRows are the rows of the bank transfer block of an account, the
// invoice number as the transfer's reference; none without an account.
func paymentRows(a *billingv1.PaymentAccount, number string) [][2]string {
	if a == nil {
		return nil
	}
	var rows [][2]string
	if a.AccountName != "" {
		rows = append(rows, [2]string{"Account holder", a.AccountName})
	}
	rows = append(rows, [2]string{"IBAN", groupIBAN(a.IBAN)})
	if a.BIC != "" {
		rows = append(rows, [2]string{"BIC", a.BIC})
	}
	return append(rows, [2]string{"Reference", number})
}

// groupIBAN writes an IBAN in groups of four characters, as it is printed
// on paper (ISO 13616).
func groupIBAN(iban string) string {
	var b strings.Builder
	for i, r := range iban {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newParty formats the issuer or the customer.
func newParty(name string, address *billingv1.Address, email, taxID string) party {
	p := party{Name: name, Lines: addressLines(address), Email: email, TaxID: taxID}
	if taxID != "" {
		p.TaxIDLabel = taxIDLabel(taxID)
	}
	return p
}

// addressLines are the lines of an address as an envelope shows them.
func addressLines(a *billingv1.Address) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, l := range []string{a.Line1, a.Line2, strings.TrimSpace(a.PostalCode + " " + a.City), a.State, a.Country} {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// groupDigits writes n with its thousands grouped by commas.
func groupDigits(n int64) string {
	return strings.TrimPrefix(formatMoney(billing.Currency{}, n), " ")
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
