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

package einvoice

import (
	"fmt"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// This file gathers what an e-invoice says, in either syntax, from an
// issued invoice, and what it lacks for its profile.

// dateLayout is the calendar date of UBL (xs:date without a zone).
const dateLayout = "2006-01-02"

// Type codes of the document (BT-3, UNTDID 1001).
const (
	typeInvoice    = "380"
	typeCreditNote = "381"
)

// paymentMeansSEPA is the payment means (BT-81, UNTDID 4461) of a
// transfer to an account: 58, SEPA credit transfer.
const paymentMeansSEPA = "58"

// taxSchemeVAT is the tax scheme of every tax: VAT.
const taxSchemeVAT = "VAT"

// document is an e-invoice, independent of its syntax. Amounts are in
// minor units of Currency.
type document struct {
	Profile   Profile
	TypeCode  string
	Number    string
	IssueDate string
	DueDate   string
	Currency  billing.Currency
	Seller    party
	Buyer     party
	// BuyerReference (BT-10) and PurchaseOrder (BT-13) are the invoice's,
	// or the credited invoice's.
	BuyerReference string
	PurchaseOrder  string
	// Payment is the account to pay to by SEPA credit transfer (BG-16
	// with payment means code 58, BG-17); nil without one.
	Payment *billingv1.PaymentAccount
	// PaymentReference is the invoice's ISO 11649 reference (BT-83, the
	// remittance information a transfer quotes); empty without one.
	PaymentReference string
	// Delivery is the actual delivery date (BT-72) and the deliver-to
	// address (BG-15): the invoice's date of supply when it has one; for
	// an intra-community supply (category K), which needs both (BR-IC-11,
	// BR-IC-12), that date or else the issue date, and the buyer's
	// address.
	Delivery *delivery
	// Period is the invoicing period (BG-14), nil without one.
	Period *billingv1.InvoicingPeriod
	// Preceding is the invoice a credit note credits (BG-3).
	Preceding *reference
	Lines     []line
	// Allowances and Charges are the document's (BG-20, BG-21), each
	// with its tax category and rate.
	Allowances []adjustment
	Charges    []adjustment
	Breakdown  []group
	// Subtotal is the sum of the lines' net amounts (BT-106),
	// AllowanceTotal and ChargeTotal the sums of Allowances and Charges
	// (BT-107, BT-108), TaxExclusive the total without tax (BT-109).
	Subtotal       int64
	AllowanceTotal int64
	ChargeTotal    int64
	TaxExclusive   int64
	TaxTotal       int64
	Total          int64
}

type party struct {
	Name    string
	Address billingv1.Address
	// Contact is the seller contact (BG-6) or the buyer's e-mail: a name,
	// a phone and an e-mail, each optional.
	Contact billingv1.Contact
	// Endpoint is the electronic address (BT-34, BT-49), nil without one.
	Endpoint *billingv1.ElectronicAddress
	// LegalID is the seller's legal registration identifier (BT-30).
	LegalID string
	// VATID is the VAT identifier (BT-31, BT-48): the party's tax id when
	// it is written as a VAT number and the invoice has no line outside
	// the scope of VAT (category O forbids it, BR-O-02).
	VATID string
	// ID is the seller identifier (BT-29), and TaxRegistrationID the
	// seller's tax registration identifier (BT-32): the issuer's tax id
	// when it is not used as its VAT identifier, so that the seller is
	// identified (BR-CO-26) and, for a tax other than VAT, registered
	// (BR-S-02 and the like).
	ID                string
	TaxRegistrationID string
}

// delivery is the date of delivery and, when the document names one, the
// deliver-to address (nil otherwise).
type delivery struct {
	Date    string
	Address *billingv1.Address
}

type reference struct {
	Number    string
	IssueDate string
}

type line struct {
	ID   string
	Name string
	// Quantity is the quantity billed (BT-129) in its shortest form, Unit
	// its unit (BT-130).
	Quantity string
	Unit     string
	// Price is the item's net price (BT-146) for BaseQuantity (BT-149, ""
	// for one) of Unit.
	Price        int64
	BaseQuantity string
	// Net is the line's net amount (BT-131): Quantity times Price, less
	// Allowances (BG-27).
	Net        int64
	Allowances []adjustment
	Category   string
	// Rate is the percentage in its shortest form; "" for category O.
	Rate string
}

// adjustment is an allowance or a charge: of a line (BG-27, without tax)
// or of the document (BG-20, BG-21, with the tax of the group whose base
// it lowers or raises).
type adjustment struct {
	Charge bool
	Amount int64
	// Percent is the percent (BT-94, BT-101, BT-138) of Base (BT-93,
	// BT-100, BT-137) the amount is; "" for an amount given as such.
	Percent    string
	Base       int64
	Reason     string
	ReasonCode string
	Category   string
	Rate       string
}

type group struct {
	Category string
	Rate     string
	Taxable  int64
	Tax      int64
	Reason   string
}

// missing collects what a document lacks.
type missing []string

func (m *missing) add(format string, args ...any) { *m = append(*m, fmt.Sprintf(format, args...)) }

// fromInvoice gathers the e-invoice of an issued invoice under profile.
func fromInvoice(inv *billingv1.Invoice, profile Profile) (*document, error) {
	st := &inv.Status
	if st.Phase != billingv1.InvoiceIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil {
		return nil, ErrNotIssued
	}
	var lack missing
	code := billing.InvoiceCurrency(inv)
	d := &document{
		Profile:   profile,
		TypeCode:  typeInvoice,
		Number:    st.Number,
		IssueDate: st.IssuedAt.UTC().Format(dateLayout),
		Currency:  currencyOf(code, &lack),
	}
	if st.DueAt != nil {
		d.DueDate = st.DueAt.UTC().Format(dateLayout)
	}
	taxes := billing.DocumentTaxesOf(inv)
	a, ok := billing.TotalsOf(inv, taxes)
	if !ok || len(a.Lines) != len(inv.Spec.Items) {
		return nil, fmt.Errorf("the amounts of invoice %s cannot be computed", inv.Name)
	}
	for i := range inv.Spec.Items {
		d.Lines = append(d.Lines, invoiceLine(i, &inv.Spec.Items[i], a.Lines[i], taxes.Items[i], d.Currency))
	}
	d.Allowances = adjustments(a.Allowances, false, d.Currency)
	d.Charges = adjustments(a.Charges, true, d.Currency)
	d.Subtotal, d.AllowanceTotal, d.ChargeTotal = a.Subtotal, a.AllowanceTotal, a.ChargeTotal
	d.TaxExclusive = taxExclusive(a.Subtotal, a.AllowanceTotal, a.ChargeTotal)
	d.TaxTotal, d.Total = a.TaxTotal, a.Total
	d.Breakdown = groups(a.TaxBreakdown)
	d.BuyerReference, d.PurchaseOrder = inv.Spec.BuyerReference, inv.Spec.PurchaseOrder
	if day := inv.Spec.SupplyDate; day != "" {
		d.Delivery = &delivery{Date: day}
	}
	d.Period = inv.Spec.InvoicingPeriod
	d.Payment, d.PaymentReference = st.PaymentAccount, st.PaymentReference
	return finish(d, st.Issuer, st.BillTo, lack)
}

// fromCreditNote gathers the e-invoice of an issued credit note under
// profile: a document of type 381 that refers to the credited invoice.
func fromCreditNote(cn *billingv1.CreditNote, profile Profile) (*document, error) {
	st := &cn.Status
	if st.Phase != billingv1.CreditNoteIssued || st.Number == "" || st.BillTo == nil || st.IssuedAt == nil ||
		st.Subtotal == nil || st.TaxTotal == nil || st.Total == nil {
		return nil, ErrNotIssued
	}
	var lack missing
	d := &document{
		Profile:   profile,
		TypeCode:  typeCreditNote,
		Number:    st.Number,
		IssueDate: st.IssuedAt.UTC().Format(dateLayout),
		Currency:  currencyOf(st.Currency, &lack),
		Subtotal:  *st.Subtotal,
		TaxTotal:  *st.TaxTotal,
		Total:     *st.Total,
	}
	if st.InvoiceNumber == "" {
		lack.add("the credited invoice's number (status.invoiceNumber)")
	} else {
		d.Preceding = &reference{Number: st.InvoiceNumber}
		if st.InvoiceIssuedAt != nil {
			d.Preceding.IssueDate = st.InvoiceIssuedAt.UTC().Format(dateLayout)
		}
	}
	for i := range st.Lines {
		d.Lines = append(d.Lines, creditedLine(i, &st.Lines[i]))
	}
	if len(st.Lines) == 0 {
		// A full credit of an invoice whose lines earlier notes credited
		// whole credits the rest of its charges alone.
		lack.add("a line: EN 16931 requires one (BR-16), and this credit note credits document charges or allowances alone")
	}
	d.Allowances = adjustments(st.Allowances, false, d.Currency)
	d.Charges = adjustments(st.Charges, true, d.Currency)
	if st.AllowanceTotal != nil {
		d.AllowanceTotal = *st.AllowanceTotal
	}
	if st.ChargeTotal != nil {
		d.ChargeTotal = *st.ChargeTotal
	}
	d.TaxExclusive = taxExclusive(d.Subtotal, d.AllowanceTotal, d.ChargeTotal)
	d.Breakdown = groups(st.TaxBreakdown)
	d.BuyerReference, d.Payment = st.BuyerReference, st.PaymentAccount
	return finish(d, st.Issuer, st.BillTo, lack)
}

// groups are the groups of a tax breakdown, as an invoice's or a credit
// note's status holds it; nil for none.
func groups(breakdown []billingv1.TaxBreakdownEntry) []group {
	if len(breakdown) == 0 {
		return nil
	}
	out := make([]group, 0, len(breakdown))
	for _, e := range breakdown {
		out = append(out, group{
			Category: string(e.Category), Rate: shortRate(e.Rate), Taxable: e.TaxableAmount, Tax: e.TaxAmount,
			Reason: e.ExemptionReason,
		})
	}
	return out
}

// currencyOf is the currency of code, adding to lack what it lacks.
func currencyOf(code string, lack *missing) billing.Currency {
	cur, err := billing.ParseCurrency(code)
	switch {
	case err != nil:
		lack.add("an ISO 4217 currency (%q is not one)", code)
	case cur.Digits > 2:
		lack.add("a currency with at most 2 decimals (%s has %d; EN 16931 amounts have at most 2)", cur.Code, cur.Digits)
	}
	return cur
}

// newLine is the i-th line (from 0) of quantity in unit (C62 for none),
// with its net amount and tax.
func newLine(i int, name string, quantity billingv1.DecimalQuantity, unit billingv1.UnitCode, net int64,
	tax *billingv1.Tax) line {
	if unit == "" {
		unit = billingv1.UnitOne
	}
	l := line{ID: strconv.Itoa(i + 1), Name: name, Quantity: quantity.String(), Unit: string(unit), Net: net}
	if tax != nil {
		l.Category = string(tax.Category)
		l.Rate = shortRate(tax.Rate)
	}
	return l
}

// finish adds the parties to d and checks what it lacks: a tax category on
// each line, and what the parties lack for the categories of the lines,
// allowances and charges.
func finish(d *document, issuer *billingv1.Issuer, billTo *billingv1.BillTo, lack missing) (*document, error) {
	var untaxed []string
	categories := map[billingv1.TaxCategory]bool{}
	for _, l := range d.Lines {
		if l.Category == "" {
			untaxed = append(untaxed, l.ID)
			continue
		}
		categories[billingv1.TaxCategory(l.Category)] = true
	}
	if len(untaxed) > 0 {
		lack.add("a tax category on every line (line %s has none)", strings.Join(untaxed, ", "))
	}
	// A document allowance or charge needs what a line of its category
	// does (BR-AE-3, BR-IC-3, BR-G-3 and the like).
	for _, a := range append(append([]adjustment{}, d.Allowances...), d.Charges...) {
		if a.Category != "" {
			categories[billingv1.TaxCategory(a.Category)] = true
		}
	}
	d.Seller, d.Buyer = parties(issuer, billTo, categories, &lack)
	if categories[billingv1.TaxIntraCommunity] {
		if d.Delivery == nil {
			d.Delivery = &delivery{Date: d.IssueDate}
		}
		d.Delivery.Address = &d.Buyer.Address
	}
	if d.Payment != nil && !billing.ValidIBAN(d.Payment.IBAN) {
		lack.add("a valid IBAN in the billing profile's spec.payment.iban when the invoice was issued (%q fails its check digits)",
			d.Payment.IBAN)
	}
	lack = append(lack, profileLacks(d)...)
	if len(lack) > 0 {
		return nil, &UnavailableError{Profile: d.Profile, Missing: lack}
	}
	return d, nil
}

// parties are the seller (the issuer frozen on the document) and the buyer
// (its bill-to), with what they lack for the document's tax categories.
func parties(is *billingv1.Issuer, bt *billingv1.BillTo, categories map[billingv1.TaxCategory]bool,
	lack *missing) (seller, buyer party) {
	outOfScope := categories[billingv1.TaxNotSubject]
	if is != nil {
		seller = party{Name: is.Name, Contact: sellerContact(is), LegalID: is.LegalRegistrationID,
			Endpoint: is.ElectronicAddress}
		if is.Address != nil {
			seller.Address = *is.Address
		}
		switch {
		case is.TaxID == "":
		case vatIDOf(is.TaxID) != "" && !outOfScope:
			seller.VATID = vatIDOf(is.TaxID)
		default:
			seller.ID = is.TaxID
			if !outOfScope {
				seller.TaxRegistrationID = is.TaxID
			}
		}
	} else {
		lack.add("an issuer (the billing profile's spec.issuer when the invoice was issued)")
	}
	if seller.Address.Country == "" {
		lack.add("the issuer's country (spec.issuer.address.country of the billing profile when the invoice was issued)")
	}
	if seller.VATID == "" && seller.ID == "" {
		lack.add("the issuer's tax id (spec.issuer.taxId), which identifies the seller (BR-CO-26)")
	}
	for _, c := range []billingv1.TaxCategory{billingv1.TaxIntraCommunity, billingv1.TaxExport} {
		if categories[c] && seller.VATID == "" {
			lack.add("the issuer's VAT id (spec.issuer.taxId with its country prefix), which tax category %s needs", c)
		}
	}
	buyer = party{Name: bt.Name, Contact: billingv1.Contact{Email: bt.Email}, Endpoint: bt.ElectronicAddress}
	if bt.Address != nil {
		buyer.Address = *bt.Address
	}
	if buyer.Address.Country == "" {
		lack.add("the customer's country (address.country when the invoice was issued)")
	}
	if !outOfScope {
		buyer.VATID = vatIDOf(bt.TaxID)
	}
	for _, c := range []billingv1.TaxCategory{billingv1.TaxReverseCharge, billingv1.TaxIntraCommunity} {
		if categories[c] && buyer.VATID == "" {
			lack.add("the customer's VAT id (tax_id with its country prefix), which tax category %s needs", c)
		}
	}
	return seller, buyer
}

// sellerContact is the seller contact (BG-6) of an issuer: its contact,
// with the issuer's e-mail when the contact has none.
func sellerContact(is *billingv1.Issuer) billingv1.Contact {
	c := billingv1.Contact{Email: is.Email}
	if ic := is.Contact; ic != nil {
		c.Name, c.Phone = ic.Name, ic.Phone
		if ic.Email != "" {
			c.Email = ic.Email
		}
	}
	return c
}

// shortRate writes a rate in its shortest form, "" for none.
func shortRate(rate *string) string {
	if rate == nil {
		return ""
	}
	return billing.ShortRate(*rate)
}
