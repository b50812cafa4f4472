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
	"encoding/xml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file writes a document in UBL 2.1. The elements of each type are
// in the order of the UBL schema, which fixes it; the names are those of
// EN 16931's UBL binding (CEN/TS 16931-3-2).

// Namespaces of UBL 2.1.
const (
	ublInvoiceNS    = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
	ublCACNS        = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
	ublCBCNS        = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
	ublCreditNoteNS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" //nolint:gosec // a namespace, not a credential
)

// vatScheme is the tax scheme of every tax category: VAT.
var vatScheme = &ublTaxScheme{ID: taxSchemeVAT}

// ublDocument is a UBL Invoice or CreditNote: the two schemas order their
// parts alike, and differ only in the names of the root, the type code
// and the lines, and in that a credit note has no due date. XMLName is
// Invoice or CreditNote; of each pair of fields below, only the one of
// that root is set.
type ublDocument struct {
	XMLName            xml.Name
	NS                 string               `xml:"xmlns,attr"`
	CAC                string               `xml:"xmlns:cac,attr"`
	CBC                string               `xml:"xmlns:cbc,attr"`
	CustomizationID    string               `xml:"cbc:CustomizationID"`
	ProfileID          string               `xml:"cbc:ProfileID,omitempty"`
	ID                 string               `xml:"cbc:ID"`
	IssueDate          string               `xml:"cbc:IssueDate"`
	DueDate            string               `xml:"cbc:DueDate,omitempty"`
	InvoiceTypeCode    string               `xml:"cbc:InvoiceTypeCode,omitempty"`
	CreditNoteTypeCode string               `xml:"cbc:CreditNoteTypeCode,omitempty"`
	DocumentCurrency   string               `xml:"cbc:DocumentCurrencyCode"`
	BuyerReference     string               `xml:"cbc:BuyerReference,omitempty"`
	InvoicePeriod      *ublPeriod           `xml:"cac:InvoicePeriod,omitempty"`
	OrderReference     *ublID               `xml:"cac:OrderReference,omitempty"`
	BillingReference   *ublBillingRef       `xml:"cac:BillingReference,omitempty"`
	Supplier           ublPartyRole         `xml:"cac:AccountingSupplierParty"`
	Customer           ublPartyRole         `xml:"cac:AccountingCustomerParty"`
	Delivery           *ublDelivery         `xml:"cac:Delivery,omitempty"`
	PaymentMeans       *ublPaymentMeans     `xml:"cac:PaymentMeans,omitempty"`
	AllowanceCharges   []ublAllowanceCharge `xml:"cac:AllowanceCharge"`
	TaxTotal           ublTaxTotal          `xml:"cac:TaxTotal"`
	MonetaryTotal      ublMonetaryTotal     `xml:"cac:LegalMonetaryTotal"`
	InvoiceLines       []ublInvoiceLine     `xml:"cac:InvoiceLine"`
	CreditNoteLines    []ublInvoiceLine     `xml:"cac:CreditNoteLine"`
}

// ublPeriod is an invoicing period (BG-14): BT-73 and BT-74.
type ublPeriod struct {
	StartDate string `xml:"cbc:StartDate"`
	EndDate   string `xml:"cbc:EndDate"`
}

type ublBillingRef struct {
	InvoiceDocumentReference ublDocumentRef `xml:"cac:InvoiceDocumentReference"`
}

type ublDocumentRef struct {
	ID        string `xml:"cbc:ID"`
	IssueDate string `xml:"cbc:IssueDate,omitempty"`
}

type ublPartyRole struct {
	Party ublParty `xml:"cac:Party"`
}

type ublParty struct {
	Endpoint       *ublSchemeID   `xml:"cbc:EndpointID,omitempty"`
	Identification *ublID         `xml:"cac:PartyIdentification,omitempty"`
	Name           *ublName       `xml:"cac:PartyName,omitempty"`
	Address        ublAddress     `xml:"cac:PostalAddress"`
	TaxSchemes     []ublPartyTax  `xml:"cac:PartyTaxScheme"`
	LegalEntity    ublLegalEntity `xml:"cac:PartyLegalEntity"`
	Contact        *ublContact    `xml:"cac:Contact,omitempty"`
}

type ublID struct {
	ID string `xml:"cbc:ID"`
}

type ublSchemeID struct {
	SchemeID string `xml:"schemeID,attr"`
	Value    string `xml:",chardata"`
}

type ublName struct {
	Name string `xml:"cbc:Name"`
}

type ublAddress struct {
	StreetName           string     `xml:"cbc:StreetName,omitempty"`
	AdditionalStreetName string     `xml:"cbc:AdditionalStreetName,omitempty"`
	CityName             string     `xml:"cbc:CityName,omitempty"`
	PostalZone           string     `xml:"cbc:PostalZone,omitempty"`
	CountrySubentity     string     `xml:"cbc:CountrySubentity,omitempty"`
	Country              ublCountry `xml:"cac:Country"`
}

type ublCountry struct {
	IdentificationCode string `xml:"cbc:IdentificationCode"`
}

type ublPartyTax struct {
	CompanyID string        `xml:"cbc:CompanyID"`
	TaxScheme *ublTaxScheme `xml:"cac:TaxScheme"`
}

type ublTaxScheme struct {
	ID string `xml:"cbc:ID"`
}

type ublLegalEntity struct {
	RegistrationName string `xml:"cbc:RegistrationName"`
	CompanyID        string `xml:"cbc:CompanyID,omitempty"`
}

type ublContact struct {
	Name           string `xml:"cbc:Name,omitempty"`
	Telephone      string `xml:"cbc:Telephone,omitempty"`
	ElectronicMail string `xml:"cbc:ElectronicMail,omitempty"`
}

// ublPaymentMeans is a SEPA credit transfer (code 58) to an account.
type ublPaymentMeans struct {
	Code      string              `xml:"cbc:PaymentMeansCode"`
	PaymentID string              `xml:"cbc:PaymentID,omitempty"`
	Account   ublFinancialAccount `xml:"cac:PayeeFinancialAccount"`
}

type ublFinancialAccount struct {
	ID     string `xml:"cbc:ID"`
	Name   string `xml:"cbc:Name,omitempty"`
	Branch *ublID `xml:"cac:FinancialInstitutionBranch,omitempty"`
}

type ublDelivery struct {
	ActualDeliveryDate string               `xml:"cbc:ActualDeliveryDate"`
	Location           *ublDeliveryLocation `xml:"cac:DeliveryLocation,omitempty"`
}

type ublDeliveryLocation struct {
	Address ublAddress `xml:"cac:Address"`
}

type ublAmount struct {
	Currency string `xml:"currencyID,attr"`
	Value    string `xml:",chardata"`
}

type ublTaxTotal struct {
	TaxAmount ublAmount        `xml:"cbc:TaxAmount"`
	Subtotals []ublTaxSubtotal `xml:"cac:TaxSubtotal"`
}

type ublTaxSubtotal struct {
	TaxableAmount ublAmount      `xml:"cbc:TaxableAmount"`
	TaxAmount     ublAmount      `xml:"cbc:TaxAmount"`
	Category      ublTaxCategory `xml:"cac:TaxCategory"`
}

type ublTaxCategory struct {
	ID              string        `xml:"cbc:ID"`
	Percent         string        `xml:"cbc:Percent,omitempty"`
	ExemptionReason string        `xml:"cbc:TaxExemptionReason,omitempty"`
	TaxScheme       *ublTaxScheme `xml:"cac:TaxScheme"`
}

type ublMonetaryTotal struct {
	LineExtension  ublAmount  `xml:"cbc:LineExtensionAmount"`
	TaxExclusive   ublAmount  `xml:"cbc:TaxExclusiveAmount"`
	TaxInclusive   ublAmount  `xml:"cbc:TaxInclusiveAmount"`
	AllowanceTotal *ublAmount `xml:"cbc:AllowanceTotalAmount,omitempty"`
	ChargeTotal    *ublAmount `xml:"cbc:ChargeTotalAmount,omitempty"`
	Payable        ublAmount  `xml:"cbc:PayableAmount"`
}

type ublQuantity struct {
	UnitCode string `xml:"unitCode,attr"`
	Value    string `xml:",chardata"`
}

// ublAllowanceCharge is an allowance or a charge: of the document, with
// its tax category, or of a line, without.
type ublAllowanceCharge struct {
	ChargeIndicator bool            `xml:"cbc:ChargeIndicator"`
	ReasonCode      string          `xml:"cbc:AllowanceChargeReasonCode,omitempty"`
	Reason          string          `xml:"cbc:AllowanceChargeReason,omitempty"`
	Percent         string          `xml:"cbc:MultiplierFactorNumeric,omitempty"`
	Amount          ublAmount       `xml:"cbc:Amount"`
	BaseAmount      *ublAmount      `xml:"cbc:BaseAmount,omitempty"`
	TaxCategory     *ublTaxCategory `xml:"cac:TaxCategory,omitempty"`
}

type ublInvoiceLine struct {
	ID                  string               `xml:"cbc:ID"`
	InvoicedQuantity    *ublQuantity         `xml:"cbc:InvoicedQuantity,omitempty"`
	CreditedQuantity    *ublQuantity         `xml:"cbc:CreditedQuantity,omitempty"`
	LineExtensionAmount ublAmount            `xml:"cbc:LineExtensionAmount"`
	AllowanceCharges    []ublAllowanceCharge `xml:"cac:AllowanceCharge"`
	Item                ublItem              `xml:"cac:Item"`
	Price               ublPrice             `xml:"cac:Price"`
}

type ublItem struct {
	Name        string         `xml:"cbc:Name"`
	TaxCategory ublTaxCategory `xml:"cac:ClassifiedTaxCategory"`
}

type ublPrice struct {
	PriceAmount  ublAmount    `xml:"cbc:PriceAmount"`
	BaseQuantity *ublQuantity `xml:"cbc:BaseQuantity,omitempty"`
}

// ubl writes d as a UBL Invoice.
func ubl(d *document) ([]byte, error) {
	return marshal(ublInvoiceOf(d))
}

// ublCredit writes d as a UBL CreditNote: its invoice, renamed, without a
// due date, each line's quantity credited rather than invoiced.
func ublCredit(d *document) ([]byte, error) {
	doc := ublInvoiceOf(d)
	doc.XMLName.Local, doc.NS, doc.DueDate = "CreditNote", ublCreditNoteNS, ""
	doc.CreditNoteTypeCode, doc.InvoiceTypeCode = doc.InvoiceTypeCode, ""
	for i := range doc.InvoiceLines {
		l := &doc.InvoiceLines[i]
		l.CreditedQuantity, l.InvoicedQuantity = l.InvoicedQuantity, nil
	}
	doc.CreditNoteLines, doc.InvoiceLines = doc.InvoiceLines, nil
	return marshal(doc)
}

// ublInvoiceOf is d as a UBL Invoice.
func ublInvoiceOf(d *document) *ublDocument {
	money := func(minor int64) ublAmount {
		return ublAmount{Currency: d.Currency.Code, Value: amount(d.Currency, minor)}
	}
	doc := &ublDocument{
		XMLName: xml.Name{Local: "Invoice"}, NS: ublInvoiceNS, CAC: ublCACNS, CBC: ublCBCNS,
		CustomizationID:  customizationIDs[d.Profile],
		ID:               d.Number,
		IssueDate:        d.IssueDate,
		DueDate:          d.DueDate,
		InvoiceTypeCode:  d.TypeCode,
		DocumentCurrency: d.Currency.Code,
		BuyerReference:   d.BuyerReference,
		Supplier:         ublPartyRole{Party: ublPartyOf(&d.Seller)},
		Customer:         ublPartyRole{Party: ublPartyOf(&d.Buyer)},
		TaxTotal:         ublTaxTotal{TaxAmount: money(d.TaxTotal)},
		MonetaryTotal: ublMonetaryTotal{
			LineExtension: money(d.Subtotal), TaxExclusive: money(d.TaxExclusive),
			TaxInclusive: money(d.Total), Payable: money(d.Total),
		},
	}
	if len(d.Allowances) > 0 {
		total := money(d.AllowanceTotal)
		doc.MonetaryTotal.AllowanceTotal = &total
	}
	if len(d.Charges) > 0 {
		total := money(d.ChargeTotal)
		doc.MonetaryTotal.ChargeTotal = &total
	}
	for _, a := range append(append([]adjustment{}, d.Allowances...), d.Charges...) {
		doc.AllowanceCharges = append(doc.AllowanceCharges, ublAllowanceChargeOf(d, a))
	}
	if d.Profile == Peppol {
		doc.ProfileID = peppolProfileID
	}
	if d.PurchaseOrder != "" {
		doc.OrderReference = &ublID{ID: d.PurchaseOrder}
	}
	if p := d.Period; p != nil {
		doc.InvoicePeriod = &ublPeriod{StartDate: p.Start, EndDate: p.End}
	}
	if a := d.Payment; a != nil {
		doc.PaymentMeans = &ublPaymentMeans{Code: paymentMeansSEPA, PaymentID: d.PaymentReference,
			Account: ublFinancialAccount{ID: a.IBAN, Name: a.AccountName}}
		if a.BIC != "" {
			doc.PaymentMeans.Account.Branch = &ublID{ID: a.BIC}
		}
	}
	if p := d.Preceding; p != nil {
		doc.BillingReference = &ublBillingRef{InvoiceDocumentReference: ublDocumentRef{ID: p.Number, IssueDate: p.IssueDate}}
	}
	if d.Delivery != nil {
		doc.Delivery = &ublDelivery{ActualDeliveryDate: d.Delivery.Date}
		if a := d.Delivery.Address; a != nil {
			doc.Delivery.Location = &ublDeliveryLocation{Address: ublAddressOf(a)}
		}
	}
	for _, g := range d.Breakdown {
		doc.TaxTotal.Subtotals = append(doc.TaxTotal.Subtotals, ublTaxSubtotal{
			TaxableAmount: money(g.Taxable), TaxAmount: money(g.Tax),
			Category: ublTaxCategory{ID: g.Category, Percent: groupPercent(d, g), ExemptionReason: g.Reason, TaxScheme: vatScheme},
		})
	}
	for _, l := range d.Lines {
		u := ublInvoiceLine{
			ID: l.ID, InvoicedQuantity: &ublQuantity{UnitCode: l.Unit, Value: l.Quantity}, LineExtensionAmount: money(l.Net),
			Item: ublItem{
				Name:        l.Name,
				TaxCategory: ublTaxCategory{ID: l.Category, Percent: taxPercent(l.Category, l.Rate), TaxScheme: vatScheme},
			},
			Price: ublPrice{PriceAmount: money(l.Price)},
		}
		if l.BaseQuantity != "" {
			u.Price.BaseQuantity = &ublQuantity{UnitCode: l.Unit, Value: l.BaseQuantity}
		}
		for _, a := range l.Allowances {
			u.AllowanceCharges = append(u.AllowanceCharges, ublAllowanceChargeOf(d, a))
		}
		doc.InvoiceLines = append(doc.InvoiceLines, u)
	}
	return doc
}

// ublAllowanceChargeOf is a of d: with its tax category when it is the
// document's (it has one).
func ublAllowanceChargeOf(d *document, a adjustment) ublAllowanceCharge {
	u := ublAllowanceCharge{
		ChargeIndicator: a.Charge, ReasonCode: a.ReasonCode, Reason: a.Reason, Percent: a.Percent,
		Amount: ublAmount{Currency: d.Currency.Code, Value: amount(d.Currency, a.Amount)},
	}
	if a.Percent != "" {
		u.BaseAmount = &ublAmount{Currency: d.Currency.Code, Value: amount(d.Currency, a.Base)}
	}
	if a.Category != "" {
		u.TaxCategory = &ublTaxCategory{ID: a.Category, Percent: taxPercent(a.Category, a.Rate), TaxScheme: vatScheme}
	}
	return u
}

func ublPartyOf(p *party) ublParty {
	u := ublParty{
		Address:     ublAddressOf(&p.Address),
		LegalEntity: ublLegalEntity{RegistrationName: p.Name, CompanyID: p.LegalID},
	}
	if e := p.Endpoint; e != nil {
		u.Endpoint = &ublSchemeID{SchemeID: e.Scheme, Value: e.Value}
	}
	if p.ID != "" {
		u.Identification = &ublID{ID: p.ID}
	}
	if p.VATID != "" {
		u.TaxSchemes = append(u.TaxSchemes, ublPartyTax{CompanyID: p.VATID, TaxScheme: vatScheme})
	}
	if p.TaxRegistrationID != "" {
		// BT-32: a tax registration whose scheme is not VAT.
		u.TaxSchemes = append(u.TaxSchemes, ublPartyTax{CompanyID: p.TaxRegistrationID, TaxScheme: &ublTaxScheme{ID: "FC"}})
	}
	if c := p.Contact; c != (billingv1.Contact{}) {
		u.Contact = &ublContact{Name: c.Name, Telephone: c.Phone, ElectronicMail: c.Email}
	}
	return u
}

func ublAddressOf(a *billingv1.Address) ublAddress {
	return ublAddress{
		StreetName: a.Line1, AdditionalStreetName: a.Line2, CityName: a.City, PostalZone: a.PostalCode,
		CountrySubentity: a.State, Country: ublCountry{IdentificationCode: a.Country},
	}
}

// marshal writes v as an indented XML document with its declaration.
func marshal(v any) ([]byte, error) {
	body, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), body...), '\n'), nil
}
