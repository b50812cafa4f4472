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
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file writes a document in UN/CEFACT Cross Industry Invoice D16B, as
// EN 16931's CII binding (CEN/TS 16931-3-3) uses it. The elements of each
// type are in the order of the D16B schema.

// Namespaces of CII D16B.
const (
	ciiRSMNS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
	ciiRAMNS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
	ciiUDTNS = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
	ciiQDTNS = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
)

// ciiDateFormat is the format code of a date, 102: CCYYMMDD.
const ciiDateFormat = "102"

type ciiInvoice struct {
	XMLName     xml.Name       `xml:"rsm:CrossIndustryInvoice"`
	RSM         string         `xml:"xmlns:rsm,attr"`
	RAM         string         `xml:"xmlns:ram,attr"`
	UDT         string         `xml:"xmlns:udt,attr"`
	QDT         string         `xml:"xmlns:qdt,attr"`
	Context     ciiContext     `xml:"rsm:ExchangedDocumentContext"`
	Document    ciiDocument    `xml:"rsm:ExchangedDocument"`
	Transaction ciiTransaction `xml:"rsm:SupplyChainTradeTransaction"`
}

type ciiContext struct {
	BusinessProcess *ciiID `xml:"ram:BusinessProcessSpecifiedDocumentContextParameter,omitempty"`
	Guideline       ciiID  `xml:"ram:GuidelineSpecifiedDocumentContextParameter"`
}

type ciiID struct {
	ID string `xml:"ram:ID"`
}

type ciiDocument struct {
	ID        string      `xml:"ram:ID"`
	TypeCode  string      `xml:"ram:TypeCode"`
	IssueDate ciiDateTime `xml:"ram:IssueDateTime"`
}

type ciiDateTime struct {
	DateTimeString ciiDateString `xml:"udt:DateTimeString"`
}

type ciiQualifiedDateTime struct {
	DateTimeString ciiDateString `xml:"qdt:DateTimeString"`
}

type ciiDateString struct {
	Format string `xml:"format,attr"`
	Value  string `xml:",chardata"`
}

type ciiTransaction struct {
	Lines      []ciiLine           `xml:"ram:IncludedSupplyChainTradeLineItem"`
	Agreement  ciiHeaderAgreement  `xml:"ram:ApplicableHeaderTradeAgreement"`
	Delivery   ciiHeaderDelivery   `xml:"ram:ApplicableHeaderTradeDelivery"`
	Settlement ciiHeaderSettlement `xml:"ram:ApplicableHeaderTradeSettlement"`
}

type ciiLine struct {
	Document   ciiLineDocument   `xml:"ram:AssociatedDocumentLineDocument"`
	Product    ciiProduct        `xml:"ram:SpecifiedTradeProduct"`
	Agreement  ciiLineAgreement  `xml:"ram:SpecifiedLineTradeAgreement"`
	Delivery   ciiLineDelivery   `xml:"ram:SpecifiedLineTradeDelivery"`
	Settlement ciiLineSettlement `xml:"ram:SpecifiedLineTradeSettlement"`
}

type ciiLineDocument struct {
	LineID string `xml:"ram:LineID"`
}

type ciiProduct struct {
	Name string `xml:"ram:Name"`
}

type ciiLineAgreement struct {
	NetPrice ciiPrice `xml:"ram:NetPriceProductTradePrice"`
}

type ciiPrice struct {
	ChargeAmount  string       `xml:"ram:ChargeAmount"`
	BasisQuantity *ciiQuantity `xml:"ram:BasisQuantity,omitempty"`
}

type ciiLineDelivery struct {
	BilledQuantity ciiQuantity `xml:"ram:BilledQuantity"`
}

type ciiQuantity struct {
	UnitCode string `xml:"unitCode,attr"`
	Value    string `xml:",chardata"`
}

type ciiLineSettlement struct {
	Tax              ciiTax               `xml:"ram:ApplicableTradeTax"`
	AllowanceCharges []ciiAllowanceCharge `xml:"ram:SpecifiedTradeAllowanceCharge"`
	Summation        ciiLineSummation     `xml:"ram:SpecifiedTradeSettlementLineMonetarySummation"`
}

// ciiAllowanceCharge is an allowance or a charge: of the document, with
// its tax category, or of a line, without.
type ciiAllowanceCharge struct {
	ChargeIndicator    ciiIndicator `xml:"ram:ChargeIndicator"`
	CalculationPercent string       `xml:"ram:CalculationPercent,omitempty"`
	BasisAmount        string       `xml:"ram:BasisAmount,omitempty"`
	ActualAmount       string       `xml:"ram:ActualAmount"`
	ReasonCode         string       `xml:"ram:ReasonCode,omitempty"`
	Reason             string       `xml:"ram:Reason,omitempty"`
	CategoryTradeTax   *ciiTax      `xml:"ram:CategoryTradeTax,omitempty"`
}

type ciiIndicator struct {
	Indicator bool `xml:"udt:Indicator"`
}

type ciiLineSummation struct {
	LineTotalAmount string `xml:"ram:LineTotalAmount"`
}

// ciiTax is a TradeTax: a line's tax or a group of the breakdown.
type ciiTax struct {
	CalculatedAmount string `xml:"ram:CalculatedAmount,omitempty"`
	TypeCode         string `xml:"ram:TypeCode"`
	ExemptionReason  string `xml:"ram:ExemptionReason,omitempty"`
	BasisAmount      string `xml:"ram:BasisAmount,omitempty"`
	CategoryCode     string `xml:"ram:CategoryCode"`
	Rate             string `xml:"ram:RateApplicablePercent,omitempty"`
}

type ciiHeaderAgreement struct {
	BuyerReference string             `xml:"ram:BuyerReference,omitempty"`
	Seller         ciiParty           `xml:"ram:SellerTradeParty"`
	Buyer          ciiParty           `xml:"ram:BuyerTradeParty"`
	BuyerOrder     *ciiOrderReference `xml:"ram:BuyerOrderReferencedDocument,omitempty"`
}

type ciiParty struct {
	ID            string            `xml:"ram:ID,omitempty"`
	Name          string            `xml:"ram:Name"`
	Legal         *ciiID            `xml:"ram:SpecifiedLegalOrganization,omitempty"`
	Contact       *ciiContact       `xml:"ram:DefinedTradeContact,omitempty"`
	Address       ciiAddress        `xml:"ram:PostalTradeAddress"`
	Endpoint      *ciiEndpoint      `xml:"ram:URIUniversalCommunication,omitempty"`
	Registrations []ciiRegistration `xml:"ram:SpecifiedTaxRegistration"`
}

type ciiContact struct {
	PersonName string        `xml:"ram:PersonName,omitempty"`
	Telephone  *ciiTelephone `xml:"ram:TelephoneUniversalCommunication,omitempty"`
	Email      *ciiURI       `xml:"ram:EmailURIUniversalCommunication,omitempty"`
}

type ciiTelephone struct {
	CompleteNumber string `xml:"ram:CompleteNumber"`
}

type ciiEndpoint struct {
	URIID ciiSchemeID `xml:"ram:URIID"`
}

type ciiPaymentMeans struct {
	TypeCode    string             `xml:"ram:TypeCode"`
	Account     ciiCreditorAccount `xml:"ram:PayeePartyCreditorFinancialAccount"`
	Institution *ciiInstitution    `xml:"ram:PayeeSpecifiedCreditorFinancialInstitution,omitempty"`
}

type ciiCreditorAccount struct {
	IBANID      string `xml:"ram:IBANID"`
	AccountName string `xml:"ram:AccountName,omitempty"`
}

type ciiInstitution struct {
	BICID string `xml:"ram:BICID"`
}

type ciiOrderReference struct {
	IssuerAssignedID string `xml:"ram:IssuerAssignedID"`
}

type ciiURI struct {
	URIID string `xml:"ram:URIID"`
}

type ciiAddress struct {
	PostcodeCode           string `xml:"ram:PostcodeCode,omitempty"`
	LineOne                string `xml:"ram:LineOne,omitempty"`
	LineTwo                string `xml:"ram:LineTwo,omitempty"`
	CityName               string `xml:"ram:CityName,omitempty"`
	CountryID              string `xml:"ram:CountryID"`
	CountrySubDivisionName string `xml:"ram:CountrySubDivisionName,omitempty"`
}

type ciiRegistration struct {
	ID ciiSchemeID `xml:"ram:ID"`
}

type ciiSchemeID struct {
	SchemeID string `xml:"schemeID,attr"`
	Value    string `xml:",chardata"`
}

type ciiHeaderDelivery struct {
	ShipTo *ciiShipTo `xml:"ram:ShipToTradeParty,omitempty"`
	Event  *ciiEvent  `xml:"ram:ActualDeliverySupplyChainEvent,omitempty"`
}

type ciiShipTo struct {
	Address ciiAddress `xml:"ram:PostalTradeAddress"`
}

type ciiEvent struct {
	Occurrence ciiDateTime `xml:"ram:OccurrenceDateTime"`
}

type ciiHeaderSettlement struct {
	PaymentReference string                `xml:"ram:PaymentReference,omitempty"`
	Currency         string                `xml:"ram:InvoiceCurrencyCode"`
	Payment          *ciiPaymentMeans      `xml:"ram:SpecifiedTradeSettlementPaymentMeans,omitempty"`
	Taxes            []ciiTax              `xml:"ram:ApplicableTradeTax"`
	Period           *ciiPeriod            `xml:"ram:BillingSpecifiedPeriod,omitempty"`
	AllowanceCharges []ciiAllowanceCharge  `xml:"ram:SpecifiedTradeAllowanceCharge"`
	Terms            *ciiTerms             `xml:"ram:SpecifiedTradePaymentTerms,omitempty"`
	Summation        ciiHeaderSummation    `xml:"ram:SpecifiedTradeSettlementHeaderMonetarySummation"`
	Referenced       *ciiReferencedInvoice `xml:"ram:InvoiceReferencedDocument,omitempty"`
}

// ciiPeriod is an invoicing period (BG-14): BT-73 and BT-74.
type ciiPeriod struct {
	Start ciiDateTime `xml:"ram:StartDateTime"`
	End   ciiDateTime `xml:"ram:EndDateTime"`
}

type ciiTerms struct {
	DueDate ciiDateTime `xml:"ram:DueDateDateTime"`
}

type ciiHeaderSummation struct {
	LineTotalAmount      string    `xml:"ram:LineTotalAmount"`
	ChargeTotalAmount    string    `xml:"ram:ChargeTotalAmount,omitempty"`
	AllowanceTotalAmount string    `xml:"ram:AllowanceTotalAmount,omitempty"`
	TaxBasisTotalAmount  string    `xml:"ram:TaxBasisTotalAmount"`
	TaxTotalAmount       ciiAmount `xml:"ram:TaxTotalAmount"`
	GrandTotalAmount     string    `xml:"ram:GrandTotalAmount"`
	DuePayableAmount     string    `xml:"ram:DuePayableAmount"`
}

type ciiAmount struct {
	Currency string `xml:"currencyID,attr"`
	Value    string `xml:",chardata"`
}

type ciiReferencedInvoice struct {
	IssuerAssignedID string                `xml:"ram:IssuerAssignedID"`
	IssueDate        *ciiQualifiedDateTime `xml:"ram:FormattedIssueDateTime,omitempty"`
}

// ciiDate writes a day of dateLayout as format 102.
func ciiDate(day string) ciiDateTime {
	return ciiDateTime{DateTimeString: ciiDateString{Format: ciiDateFormat, Value: strings.ReplaceAll(day, "-", "")}}
}

// cii writes d as a CrossIndustryInvoice.
func cii(d *document) ([]byte, error) {
	money := func(minor int64) string { return amount(d.Currency, minor) }
	doc := ciiInvoice{
		RSM: ciiRSMNS, RAM: ciiRAMNS, UDT: ciiUDTNS, QDT: ciiQDTNS,
		Context:  ciiContext{Guideline: ciiID{ID: customizationIDs[d.Profile]}},
		Document: ciiDocument{ID: d.Number, TypeCode: d.TypeCode, IssueDate: ciiDate(d.IssueDate)},
	}
	if d.Profile == Peppol {
		doc.Context.BusinessProcess = &ciiID{ID: peppolProfileID}
	}
	tr := &doc.Transaction
	for _, l := range d.Lines {
		c := ciiLine{
			Document:  ciiLineDocument{LineID: l.ID},
			Product:   ciiProduct{Name: l.Name},
			Agreement: ciiLineAgreement{NetPrice: ciiPrice{ChargeAmount: money(l.Price)}},
			Delivery:  ciiLineDelivery{BilledQuantity: ciiQuantity{UnitCode: l.Unit, Value: l.Quantity}},
			Settlement: ciiLineSettlement{
				Tax:       ciiTax{TypeCode: taxSchemeVAT, CategoryCode: l.Category, Rate: taxPercent(l.Category, l.Rate)},
				Summation: ciiLineSummation{LineTotalAmount: money(l.Net)},
			},
		}
		if l.BaseQuantity != "" {
			c.Agreement.NetPrice.BasisQuantity = &ciiQuantity{UnitCode: l.Unit, Value: l.BaseQuantity}
		}
		for _, a := range l.Allowances {
			c.Settlement.AllowanceCharges = append(c.Settlement.AllowanceCharges, ciiAllowanceChargeOf(d, a))
		}
		tr.Lines = append(tr.Lines, c)
	}
	tr.Agreement = ciiHeaderAgreement{
		BuyerReference: d.BuyerReference, Seller: ciiPartyOf(&d.Seller), Buyer: ciiPartyOf(&d.Buyer),
	}
	if d.PurchaseOrder != "" {
		tr.Agreement.BuyerOrder = &ciiOrderReference{IssuerAssignedID: d.PurchaseOrder}
	}
	if d.Delivery != nil {
		if a := d.Delivery.Address; a != nil {
			tr.Delivery.ShipTo = &ciiShipTo{Address: ciiAddressOf(a)}
		}
		tr.Delivery.Event = &ciiEvent{Occurrence: ciiDate(d.Delivery.Date)}
	}
	st := &tr.Settlement
	st.Currency = d.Currency.Code
	if a := d.Payment; a != nil {
		st.PaymentReference = d.PaymentReference
		st.Payment = &ciiPaymentMeans{TypeCode: paymentMeansSEPA, Account: ciiCreditorAccount{IBANID: a.IBAN, AccountName: a.AccountName}}
		if a.BIC != "" {
			st.Payment.Institution = &ciiInstitution{BICID: a.BIC}
		}
	}
	for _, g := range d.Breakdown {
		st.Taxes = append(st.Taxes, ciiTax{
			CalculatedAmount: money(g.Tax), TypeCode: taxSchemeVAT, ExemptionReason: g.Reason,
			BasisAmount: money(g.Taxable), CategoryCode: g.Category, Rate: groupPercent(d, g),
		})
	}
	if p := d.Period; p != nil {
		st.Period = &ciiPeriod{Start: ciiDate(p.Start), End: ciiDate(p.End)}
	}
	for _, a := range append(append([]adjustment{}, d.Allowances...), d.Charges...) {
		st.AllowanceCharges = append(st.AllowanceCharges, ciiAllowanceChargeOf(d, a))
	}
	if d.DueDate != "" {
		st.Terms = &ciiTerms{DueDate: ciiDate(d.DueDate)}
	}
	st.Summation = ciiHeaderSummation{
		LineTotalAmount: money(d.Subtotal), TaxBasisTotalAmount: money(d.TaxExclusive),
		TaxTotalAmount:   ciiAmount{Currency: d.Currency.Code, Value: money(d.TaxTotal)},
		GrandTotalAmount: money(d.Total), DuePayableAmount: money(d.Total),
	}
	if len(d.Charges) > 0 {
		st.Summation.ChargeTotalAmount = money(d.ChargeTotal)
	}
	if len(d.Allowances) > 0 {
		st.Summation.AllowanceTotalAmount = money(d.AllowanceTotal)
	}
	if p := d.Preceding; p != nil {
		st.Referenced = &ciiReferencedInvoice{IssuerAssignedID: p.Number}
		if p.IssueDate != "" {
			st.Referenced.IssueDate = &ciiQualifiedDateTime{
				DateTimeString: ciiDateString{Format: ciiDateFormat, Value: strings.ReplaceAll(p.IssueDate, "-", "")},
			}
		}
	}
	return marshal(doc)
}

// ciiAllowanceChargeOf is a of d: with its tax category when it is the
// document's (it has one).
func ciiAllowanceChargeOf(d *document, a adjustment) ciiAllowanceCharge {
	c := ciiAllowanceCharge{
		ChargeIndicator: ciiIndicator{Indicator: a.Charge}, CalculationPercent: a.Percent,
		ActualAmount: amount(d.Currency, a.Amount), ReasonCode: a.ReasonCode, Reason: a.Reason,
	}
	if a.Percent != "" {
		c.BasisAmount = amount(d.Currency, a.Base)
	}
	if a.Category != "" {
		c.CategoryTradeTax = &ciiTax{TypeCode: taxSchemeVAT, CategoryCode: a.Category, Rate: taxPercent(a.Category, a.Rate)}
	}
	return c
}

func ciiAddressOf(a *billingv1.Address) ciiAddress {
	return ciiAddress{
		PostcodeCode: a.PostalCode, LineOne: a.Line1, LineTwo: a.Line2, CityName: a.City,
		CountryID: a.Country, CountrySubDivisionName: a.State,
	}
}

func ciiPartyOf(p *party) ciiParty {
	c := ciiParty{ID: p.ID, Name: p.Name, Address: ciiAddressOf(&p.Address)}
	if p.LegalID != "" {
		c.Legal = &ciiID{ID: p.LegalID}
	}
	if e := p.Endpoint; e != nil {
		c.Endpoint = &ciiEndpoint{URIID: ciiSchemeID{SchemeID: e.Scheme, Value: e.Value}}
	}
	if ct := p.Contact; ct != (billingv1.Contact{}) {
		c.Contact = &ciiContact{PersonName: ct.Name}
		if ct.Phone != "" {
			c.Contact.Telephone = &ciiTelephone{CompleteNumber: ct.Phone}
		}
		if ct.Email != "" {
			c.Contact.Email = &ciiURI{URIID: ct.Email}
		}
	}
	if p.VATID != "" {
		c.Registrations = append(c.Registrations, ciiRegistration{ID: ciiSchemeID{SchemeID: "VA", Value: p.VATID}})
	}
	if p.TaxRegistrationID != "" {
		c.Registrations = append(c.Registrations, ciiRegistration{ID: ciiSchemeID{SchemeID: "FC", Value: p.TaxRegistrationID}})
	}
	return c
}

// groupPercent is the rate of a group of d's breakdown: that of its
// category, except that XRechnung's rules want a rate on every group
// (BR-DE-14, DE-R-014), and EN 16931 forbids one on a line of category O
// (BR-O-05) but not on its group, which is 0.
func groupPercent(d *document, g group) string {
	if g.Category == string(billingv1.TaxNotSubject) && germanRules(d) {
		return "0"
	}
	return taxPercent(g.Category, g.Rate)
}

// taxPercent is the rate of a tax category in either syntax: none for O
// (BR-O-05).
func taxPercent(category, rate string) string {
	if category == string(billingv1.TaxNotSubject) {
		return ""
	}
	return rate
}
