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

package v1client

import (
	"encoding/json"
	"net/url"
	"strconv"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The bodies and objects of the API, as openapi.json describes them.

// CustomerParams is the body of POST /v1/customers; a nil Address and an
// empty TaxID are left out.
type CustomerParams struct {
	Name    string         `json:"name"`
	Email   string         `json:"email"`
	Address *AddressParams `json:"address,omitempty"`
	TaxID   string         `json:"tax_id,omitempty"`
	// ElectronicAddress is left out when nil.
	ElectronicAddress *ElectronicAddress `json:"electronic_address,omitempty"`
	// PreferredLocale is left out when empty.
	PreferredLocale string `json:"preferred_locale,omitempty"`
}

// ElectronicAddress is a Peppol participant identifier, in a body and in
// a response.
type ElectronicAddress struct {
	Scheme string `json:"scheme"`
	Value  string `json:"value"`
}

// AddressParams is an address in a body; empty fields are left out.
type AddressParams struct {
	Line1      string `json:"line1,omitempty"`
	Line2      string `json:"line2,omitempty"`
	City       string `json:"city,omitempty"`
	PostalCode string `json:"postal_code,omitempty"`
	State      string `json:"state,omitempty"`
	Country    string `json:"country,omitempty"`
}

// InvoiceParams is the body of POST /v1/invoices; an empty Currency is
// left out (USD).
type InvoiceParams struct {
	CustomerID string `json:"customer_id"`
	Currency   string `json:"currency,omitempty"`
	Items      []Item `json:"items"`
	// BuyerReference, PurchaseOrder and SupplyDate are left out when empty.
	BuyerReference string `json:"buyer_reference,omitempty"`
	PurchaseOrder  string `json:"purchase_order,omitempty"`
	SupplyDate     string `json:"supply_date,omitempty"`
	// Allowances and Charges are left out when empty.
	Allowances []AllowanceCharge `json:"allowances,omitempty"`
	Charges    []AllowanceCharge `json:"charges,omitempty"`
}

// Item is a line item. Tax is its effective tax in a response, nil when it
// has none; in a request, its own tax, nil (sent as null) to take the
// workspace's default tax.
// A request leaves out UnitCode when empty and NetAmount, which only a
// response has (MarshalJSON).
type Item struct {
	Description string                    `json:"description"`
	Quantity    billingv1.DecimalQuantity `json:"quantity"`
	UnitCode    string                    `json:"unit_code"`
	Amount      int64                     `json:"amount"`
	Discount    *Discount                 `json:"discount"`
	NetAmount   *int64                    `json:"net_amount"`
	Tax         *Tax                      `json:"tax"`
}

// itemRequest is an Item as a request writes it.
type itemRequest struct {
	Description string                    `json:"description"`
	Quantity    billingv1.DecimalQuantity `json:"quantity"`
	UnitCode    string                    `json:"unit_code,omitempty"`
	Amount      int64                     `json:"amount"`
	Discount    *Discount                 `json:"discount,omitempty"`
	Tax         *Tax                      `json:"tax"`
}

// MarshalJSON writes it as a request: without NetAmount, and without
// UnitCode when empty.
func (it Item) MarshalJSON() ([]byte, error) {
	return json.Marshal(itemRequest{Description: it.Description, Quantity: it.Quantity, UnitCode: it.UnitCode,
		Amount: it.Amount, Discount: it.Discount, Tax: it.Tax})
}

// Discount is a line's discount: a Percent or an Amount, and a Reason or
// a ReasonCode. A response's Amount is what it takes off the line.
type Discount struct {
	Percent    *string `json:"percent"`
	Amount     *int64  `json:"amount"`
	Reason     *string `json:"reason"`
	ReasonCode *string `json:"reason_code"`
}

// AllowanceCharge is a document allowance or charge: a Percent or an
// Amount, a Reason or a ReasonCode, and its Tax. A response's Amount is
// the amount applied and Base, for a percent, what it was taken of; a
// request leaves Base out (MarshalJSON).
type AllowanceCharge struct {
	Percent    *string `json:"percent"`
	Amount     *int64  `json:"amount"`
	Base       *int64  `json:"base"`
	Reason     *string `json:"reason"`
	ReasonCode *string `json:"reason_code"`
	Tax        *Tax    `json:"tax"`
}

// MarshalJSON writes it as a request: without Base.
func (a AllowanceCharge) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Percent    *string `json:"percent"`
		Amount     *int64  `json:"amount"`
		Reason     *string `json:"reason"`
		ReasonCode *string `json:"reason_code"`
		Tax        *Tax    `json:"tax"`
	}{a.Percent, a.Amount, a.Reason, a.ReasonCode, a.Tax})
}

// Tax is a line item's tax. Rate is nil for category O, ExemptionReason
// for S and Z; a response writes the rate in its shortest form ("19").
type Tax struct {
	Category        string  `json:"category"`
	Rate            *string `json:"rate"`
	ExemptionReason *string `json:"exemption_reason"`
}

// TaxBreakdownEntry is the tax of one (category, rate) group of an
// invoice's items.
type TaxBreakdownEntry struct {
	Category        string  `json:"category"`
	Rate            *string `json:"rate"`
	TaxableAmount   int64   `json:"taxable_amount"`
	TaxAmount       int64   `json:"tax_amount"`
	ExemptionReason *string `json:"exemption_reason"`
}

// ListParams are the query of a list; zero values are left out.
type ListParams struct {
	Limit  int
	Cursor string
	// CustomerID narrows a list of invoices to one customer's.
	CustomerID string
	// Status narrows a list of invoices to those in one status: pending,
	// issued or invalid.
	Status string
	// Email narrows a list of customers to those with exactly this e-mail.
	Email string
	// Order "sequence", with Status "issued", lists the feed.
	Order string
	// AfterSequence, when not nil, starts the feed after this sequence.
	AfterSequence *int64
	// InvoiceID narrows a list of credit notes, payments, credit
	// applications or write-offs to one invoice's.
	InvoiceID string
	// PaymentStatus narrows a list of invoices to those in one payment
	// status: void, uncollectible, paid, partially_paid or open.
	PaymentStatus string
	// Overdue lists the overdue invoices only.
	Overdue bool
}

func (p ListParams) query() string {
	q := url.Values{}
	if p.Limit != 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	if p.CustomerID != "" {
		q.Set("customer_id", p.CustomerID)
	}
	if p.Status != "" {
		q.Set("status", p.Status)
	}
	if p.Email != "" {
		q.Set("email", p.Email)
	}
	if p.Order != "" {
		q.Set("order", p.Order)
	}
	if p.InvoiceID != "" {
		q.Set("invoice_id", p.InvoiceID)
	}
	if p.PaymentStatus != "" {
		q.Set("payment_status", p.PaymentStatus)
	}
	if p.Overdue {
		q.Set("overdue", "true")
	}
	if p.AfterSequence != nil {
		q.Set("after_sequence", strconv.FormatInt(*p.AfterSequence, 10))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Customer is a customer; Address and TaxID are nil when absent.
type Customer struct {
	ID        string   `json:"id"`
	Object    string   `json:"object"`
	Workspace string   `json:"workspace"`
	Name      string   `json:"name"`
	Email     string   `json:"email"`
	Address   *Address `json:"address"`
	TaxID     *string  `json:"tax_id"`
	// ElectronicAddress is nil when absent.
	ElectronicAddress *ElectronicAddress `json:"electronic_address"`
	// PreferredLocale is nil when absent.
	PreferredLocale *string `json:"preferred_locale"`
	// CreditBalance is the customer's credit per currency; empty when none.
	CreditBalance []CurrencyAmount `json:"credit_balance"`
	// Deliveries are the messages sent about it; empty when none.
	Deliveries []Delivery `json:"deliveries"`
	CreatedAt  string     `json:"created_at"`
}

// CurrencyAmount is an amount in minor units of a currency.
type CurrencyAmount struct {
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// Address is a postal address in a response; absent fields are nil.
type Address struct {
	Line1      *string `json:"line1"`
	Line2      *string `json:"line2"`
	City       *string `json:"city"`
	PostalCode *string `json:"postal_code"`
	State      *string `json:"state"`
	Country    *string `json:"country"`
}

// BillTo is who an issued invoice bills, as the customer was then.
type BillTo struct {
	Name              string             `json:"name"`
	Email             string             `json:"email"`
	Address           *Address           `json:"address"`
	TaxID             *string            `json:"tax_id"`
	ElectronicAddress *ElectronicAddress `json:"electronic_address"`
}

// Issuer is who issued an invoice, as the workspace's billing profile said.
type Issuer struct {
	Name                string             `json:"name"`
	Email               *string            `json:"email"`
	Address             *Address           `json:"address"`
	TaxID               *string            `json:"tax_id"`
	LegalRegistrationID *string            `json:"legal_registration_id"`
	Contact             *Contact           `json:"contact"`
	ElectronicAddress   *ElectronicAddress `json:"electronic_address"`
}

// Contact is the issuer's contact; absent fields are nil.
type Contact struct {
	Name  *string `json:"name"`
	Phone *string `json:"phone"`
	Email *string `json:"email"`
}

// PaymentAccount is the account an issued invoice is paid to.
type PaymentAccount struct {
	IBAN        string  `json:"iban"`
	BIC         *string `json:"bic"`
	AccountName *string `json:"account_name"`
}

// Invoice is an invoice. Subtotal, TaxTotal and Total are nil only for an
// invoice made outside the API whose amounts exceed 2^53-1 or whose taxes
// break a rule; TaxBreakdown is then empty. StatusReason is set only when the status
// is invalid; Number, IssuedAt, DueAt, BillTo and Issuer only once issued
// (Issuer not even then when the workspace had no issuer).
type Invoice struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	Workspace  string `json:"workspace"`
	CustomerID string `json:"customer_id"`
	Currency   string `json:"currency"`
	Items      []Item `json:"items"`
	// BuyerReference, PurchaseOrder and SupplyDate are nil when absent.
	BuyerReference *string `json:"buyer_reference"`
	PurchaseOrder  *string `json:"purchase_order"`
	SupplyDate     *string `json:"supply_date"`
	// ScheduleID and InvoicingPeriod are nil for an invoice no schedule
	// issued.
	ScheduleID      *string             `json:"schedule_id"`
	InvoicingPeriod *Period             `json:"invoicing_period"`
	Subtotal        *int64              `json:"subtotal"`
	Allowances      []AllowanceCharge   `json:"allowances"`
	Charges         []AllowanceCharge   `json:"charges"`
	AllowanceTotal  *int64              `json:"allowance_total"`
	ChargeTotal     *int64              `json:"charge_total"`
	TaxBreakdown    []TaxBreakdownEntry `json:"tax_breakdown"`
	TaxTotal        *int64              `json:"tax_total"`
	Total           *int64              `json:"total"`
	Status          string              `json:"status"`
	StatusReason    *string             `json:"status_reason"`
	Number          *string             `json:"number"`
	Sequence        *int64              `json:"sequence"`
	IssuedAt        *string             `json:"issued_at"`
	DueAt           *string             `json:"due_at"`
	BillTo          *BillTo             `json:"bill_to"`
	Issuer          *Issuer             `json:"issuer"`
	// PaymentAccount is nil until issued, and without one.
	PaymentAccount *PaymentAccount `json:"payment_account"`
	// PaymentReference is nil until issued, and without one.
	PaymentReference *string `json:"payment_reference"`
	// The balance is nil until the invoice is issued.
	AmountCredited   *int64  `json:"amount_credited"`
	AmountPaid       *int64  `json:"amount_paid"`
	AmountApplied    *int64  `json:"amount_applied"`
	AmountWrittenOff *int64  `json:"amount_written_off"`
	AmountRemaining  *int64  `json:"amount_remaining"`
	AmountOverpaid   *int64  `json:"amount_overpaid"`
	PaymentStatus    *string `json:"payment_status"`
	Overdue          *bool   `json:"overdue"`
	CreatedAt        string  `json:"created_at"`
	// Seal is the name of the seal that holds it; nil while it is live.
	Seal *string `json:"seal"`
	// Deliveries are the messages sent about it; empty when none.
	Deliveries []Delivery `json:"deliveries"`
}

// List is a page of a list.
type List[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// IDs are the ids of the page's objects.
func IDs[T interface{ id() string }](l *List[T]) []string {
	out := make([]string, len(l.Data))
	for i, o := range l.Data {
		out[i] = o.id()
	}
	return out
}

func (c Customer) id() string { return c.ID }
func (i Invoice) id() string  { return i.ID }

// Period is a period of days, both inclusive, YYYY-MM-DD.
type Period struct {
	Start string `json:"start"`
	End   string `json:"end"`
}
