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

// Package apiobject is the /v1 JSON representation of customers and
// invoices: what the adapter answers and what the manager's webhook
// events carry, so both say the same thing in the same words. It only
// renders: an invoice's amounts, taxes, balance and what a credit note
// would credit come from internal/billing, which the controller, the
// documents and the e-invoices read too. Only those two writers of /v1
// JSON import it (a depguard rule in .golangci.yml).
package apiobject

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Customer is the /v1 representation of a Customer. Address and TaxID are
// null when absent.
type Customer struct {
	ID        string   `json:"id"`
	Object    string   `json:"object"`
	Workspace string   `json:"workspace"`
	Name      string   `json:"name"`
	Email     string   `json:"email"`
	Address   *Address `json:"address"`
	TaxID     *string  `json:"tax_id"`
	// ElectronicAddress is where the customer receives e-invoices; null
	// when it has none.
	ElectronicAddress *ElectronicAddress `json:"electronic_address"`
	// PreferredLocale is the BCP 47 tag the customer's documents and
	// e-mails are written in; null when it has none.
	PreferredLocale *string `json:"preferred_locale"`
	// CreditBalance is the customer's credit (money on account) per
	// currency with credit, in currency order; empty, not null, when it
	// has none (billing.CreditBalance).
	CreditBalance []CurrencyAmount `json:"credit_balance"`
	// Deliveries are the messages sent to the customer that are about it
	// (statements), newest last; empty, not null, when there is none.
	Deliveries []Delivery `json:"deliveries"`
	CreatedAt  string     `json:"created_at"`
}

// CurrencyAmount is an amount in minor units of a currency.
type CurrencyAmount struct {
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// ElectronicAddress is a Peppol participant identifier: an EAS scheme
// code and the identifier within it.
type ElectronicAddress struct {
	Scheme string `json:"scheme"`
	Value  string `json:"value"`
}

// Contact is the issuer's contact for an invoice; a field that is absent
// is null.
type Contact struct {
	Name  *string `json:"name"`
	Phone *string `json:"phone"`
	Email *string `json:"email"`
}

// PaymentAccount is the bank account an issued invoice is paid to.
type PaymentAccount struct {
	IBAN        string  `json:"iban"`
	BIC         *string `json:"bic"`
	AccountName *string `json:"account_name"`
}

// Address is the /v1 representation of a postal address; a field that is
// absent is null.
type Address struct {
	Line1      *string `json:"line1"`
	Line2      *string `json:"line2"`
	City       *string `json:"city"`
	PostalCode *string `json:"postal_code"`
	State      *string `json:"state"`
	Country    *string `json:"country"`
}

// BillTo is who an issued invoice bills, as the customer was at issue time.
type BillTo struct {
	Name              string             `json:"name"`
	Email             string             `json:"email"`
	Address           *Address           `json:"address"`
	TaxID             *string            `json:"tax_id"`
	ElectronicAddress *ElectronicAddress `json:"electronic_address"`
}

// Issuer is who issued an invoice, as the workspace's billing profile said
// at issue time.
type Issuer struct {
	Name                string             `json:"name"`
	Email               *string            `json:"email"`
	Address             *Address           `json:"address"`
	TaxID               *string            `json:"tax_id"`
	LegalRegistrationID *string            `json:"legal_registration_id"`
	Contact             *Contact           `json:"contact"`
	ElectronicAddress   *ElectronicAddress `json:"electronic_address"`
}

// Item is a line item. Tax is its effective tax, null when it has none.
// Quantity is a number in its shortest form (3, 7.5); UnitCode is C62
// (one) for a line that names none; Discount is null when it has none;
// NetAmount is quantity times amount less the discount (billing), null
// when the invoice's amounts cannot be computed.
type Item struct {
	Description string                    `json:"description"`
	Quantity    billingv1.DecimalQuantity `json:"quantity"`
	UnitCode    string                    `json:"unit_code"`
	Amount      int64                     `json:"amount"`
	Discount    *Discount                 `json:"discount"`
	NetAmount   *int64                    `json:"net_amount"`
	Tax         *Tax                      `json:"tax"`
}

// Tax is a line item's tax. Rate is null for category O; ExemptionReason
// is null for S and Z.
type Tax struct {
	Category        string  `json:"category"`
	Rate            *string `json:"rate"`
	ExemptionReason *string `json:"exemption_reason"`
}

// TaxBreakdownEntry is the tax of one (category, rate) group of an
// invoice's lines.
type TaxBreakdownEntry struct {
	Category        string  `json:"category"`
	Rate            *string `json:"rate"`
	TaxableAmount   int64   `json:"taxable_amount"`
	TaxAmount       int64   `json:"tax_amount"`
	ExemptionReason *string `json:"exemption_reason"`
}

// Invoice is the /v1 representation of an Invoice.
type Invoice struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	Workspace  string `json:"workspace"`
	CustomerID string `json:"customer_id"`
	Currency   string `json:"currency"`
	Items      []Item `json:"items"`
	// BuyerReference (BT-10) and PurchaseOrder (BT-13) are null when the
	// invoice was created without them.
	BuyerReference *string `json:"buyer_reference"`
	PurchaseOrder  *string `json:"purchase_order"`
	// SupplyDate is the date of supply (BT-72), YYYY-MM-DD; null when the
	// invoice was created without one (its date of supply is its date).
	SupplyDate *string `json:"supply_date"`
	// ScheduleID is the InvoiceSchedule that issued the invoice, null for
	// one created otherwise; InvoicingPeriod the period it bills (BG-14),
	// null when it names none.
	ScheduleID      *string `json:"schedule_id"`
	InvoicingPeriod *Period `json:"invoicing_period"`
	// The amounts are null only for an invoice made outside the API
	// (kubectl) whose amounts exceed 2^53-1 or whose taxes break a rule;
	// the controller marks it invalid.
	DocumentAmounts
	Status string `json:"status"`
	// StatusReason says why an invalid invoice is invalid; null otherwise.
	StatusReason *string `json:"status_reason"`
	// Number, IssuedAt, DueAt, BillTo and Issuer are null until the
	// invoice is issued; Issuer stays null when the workspace had no
	// billing profile with an issuer then.
	Number *string `json:"number"`
	// Sequence is the number's position in the workspace's gapless
	// sequence (1, 2, ...): where the feed (order=sequence) resumes.
	Sequence *int64  `json:"sequence"`
	IssuedAt *string `json:"issued_at"`
	DueAt    *string `json:"due_at"`
	BillTo   *BillTo `json:"bill_to"`
	Issuer   *Issuer `json:"issuer"`
	// PaymentAccount is the billing profile's payment account at issue
	// time; null until then, and when the profile named none.
	PaymentAccount *PaymentAccount `json:"payment_account"`
	// PaymentReference is the ISO 11649 reference a transfer quotes, given
	// at issue; null until then and when the profile asks for none.
	PaymentReference *string `json:"payment_reference"`
	// The balance (billing.BalanceOf) is null until the invoice is issued.
	AmountCredited *int64 `json:"amount_credited"`
	AmountPaid     *int64 `json:"amount_paid"`
	// AmountApplied is the customer's credit applied to the invoice;
	// AmountWrittenOff what was written off and no payment has recovered.
	AmountApplied    *int64  `json:"amount_applied"`
	AmountWrittenOff *int64  `json:"amount_written_off"`
	AmountRemaining  *int64  `json:"amount_remaining"`
	AmountOverpaid   *int64  `json:"amount_overpaid"`
	PaymentStatus    *string `json:"payment_status"`
	Overdue          *bool   `json:"overdue"`
	CreatedAt        string  `json:"created_at"`
	// Seal is the name of the LedgerSeal that holds the invoice (the
	// billingv1.LabelSealedIn label the store sets on what it serves of a
	// seal); null while it is live.
	Seal *string `json:"seal"`
	// Deliveries are the messages sent about the invoice (the invoice
	// itself, reminders), as the controller keeps them; empty, not null,
	// when there is none.
	Deliveries []Delivery `json:"deliveries"`
}

// Values of an invoice's status_reason, from the Ready condition's reason.
var statusReasons = map[string]string{
	billingv1.ReasonCustomerNotFound: "customer_not_found",
	billingv1.ReasonTotalTooLarge:    "total_too_large",
	billingv1.ReasonTaxIDRequired:    "tax_id_required",
	billingv1.ReasonInvalidTax:       "invalid_tax",
	billingv1.ReasonAlreadySealed:    "already_sealed",
}

// List is a page of a list.
type List[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// optionalTimestamp is the timestamp of t, or nil.
func optionalTimestamp(t *metav1.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(t.Time)
	return &s
}

// SealOfRecord is the "seal" field of an invoice, credit note or payment:
// the name of the seal that holds it (its billingv1.LabelSealedIn label),
// nil while it is live.
func SealOfRecord(obj metav1.Object) *string {
	return optional(obj.GetLabels()[billingv1.LabelSealedIn])
}

// optional is s, or nil when s is empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func addressJSON(a *billingv1.Address) *Address {
	if a == nil {
		return nil
	}
	return &Address{
		Line1: optional(a.Line1), Line2: optional(a.Line2), City: optional(a.City),
		PostalCode: optional(a.PostalCode), State: optional(a.State), Country: optional(a.Country),
	}
}

// CustomerOf is the /v1 representation of c.
func CustomerOf(c *billingv1.Customer) Customer {
	return Customer{
		ID:        c.Name,
		Object:    "customer",
		Workspace: c.Namespace,
		Name:      c.Spec.Name,
		Email:     c.Spec.Email,
		Address:   addressJSON(c.Spec.Address),
		TaxID:     optional(c.Spec.TaxID),

		ElectronicAddress: electronicAddressJSON(c.Spec.ElectronicAddress),
		PreferredLocale:   optional(c.Spec.PreferredLocale),
		CreditBalance:     creditBalanceJSON(c.Status.Credit),
		Deliveries:        DeliveriesOf(c.Status.Deliveries),
		CreatedAt:         timestamp(c.CreationTimestamp.Time),
	}
}

// creditBalanceJSON is the /v1 representation of a customer's credit
// balance, derived afresh from its ledger (billing.CreditBalance); empty,
// not nil, when there is none.
func creditBalanceJSON(credit *billingv1.CustomerCredit) []CurrencyAmount {
	balance := billing.CreditBalance(credit)
	out := make([]CurrencyAmount, len(balance))
	for i, b := range balance {
		out[i] = CurrencyAmount{Currency: b.Currency, Amount: b.Amount}
	}
	return out
}

// BillToOf is the /v1 representation of a bill-to snapshot; nil for nil.
func BillToOf(b *billingv1.BillTo) *BillTo {
	if b == nil {
		return nil
	}
	return &BillTo{Name: b.Name, Email: b.Email, Address: addressJSON(b.Address), TaxID: optional(b.TaxID),
		ElectronicAddress: electronicAddressJSON(b.ElectronicAddress)}
}

// IssuerOf is the /v1 representation of an issuer snapshot; nil for nil.
func IssuerOf(i *billingv1.Issuer) *Issuer {
	if i == nil {
		return nil
	}
	out := &Issuer{Name: i.Name, Email: optional(i.Email), Address: addressJSON(i.Address), TaxID: optional(i.TaxID),
		LegalRegistrationID: optional(i.LegalRegistrationID),
		ElectronicAddress:   electronicAddressJSON(i.ElectronicAddress)}
	if c := i.Contact; c != nil {
		out.Contact = &Contact{Name: optional(c.Name), Phone: optional(c.Phone), Email: optional(c.Email)}
	}
	return out
}

// PaymentAccountOf is the /v1 representation of a payment account; nil
// for nil.
func PaymentAccountOf(p *billingv1.PaymentAccount) *PaymentAccount {
	if p == nil {
		return nil
	}
	return &PaymentAccount{IBAN: p.IBAN, BIC: optional(p.BIC), AccountName: optional(p.AccountName)}
}

func electronicAddressJSON(e *billingv1.ElectronicAddress) *ElectronicAddress {
	if e == nil {
		return nil
	}
	return &ElectronicAddress{Scheme: e.Scheme, Value: e.Value}
}

// InvoiceOf is the /v1 representation of inv.
func InvoiceOf(inv *billingv1.Invoice) Invoice {
	taxes := billing.DocumentTaxesOf(inv)
	amounts := invoiceAmounts(inv, taxes)
	items := make([]Item, len(inv.Spec.Items))
	for i := range inv.Spec.Items {
		it := &inv.Spec.Items[i]
		items[i] = Item{Description: it.Description, Quantity: it.Quantity, UnitCode: string(billing.UnitCodeOf(it)),
			Amount: it.Amount, Tax: taxJSON(taxes.Items[i])}
		var line *billing.LineAmounts
		if i < len(amounts.Lines) {
			line = &amounts.Lines[i]
			items[i].NetAmount = copyInt(&line.Net)
		}
		items[i].Discount = discountJSON(it.Discount, line)
	}
	currency := billing.InvoiceCurrency(inv)
	phase := inv.EffectivePhase()
	out := Invoice{
		ID:              inv.Name,
		Object:          "invoice",
		Workspace:       inv.Namespace,
		CustomerID:      inv.Spec.CustomerRef.Name,
		Currency:        currency,
		Items:           items,
		BuyerReference:  optional(inv.Spec.BuyerReference),
		PurchaseOrder:   optional(inv.Spec.PurchaseOrder),
		SupplyDate:      optional(inv.Spec.SupplyDate),
		ScheduleID:      optional(inv.Labels[billingv1.LabelSchedule]),
		InvoicingPeriod: periodJSON(inv.Spec.InvoicingPeriod),
		DocumentAmounts: amounts.DocumentAmounts,
		Status:          Status(phase),
		Number:          optional(inv.Status.Number),
		Sequence:        inv.Status.Sequence,
		IssuedAt:        optionalTimestamp(inv.Status.IssuedAt),
		DueAt:           optionalTimestamp(inv.Status.DueAt),
		CreatedAt:       timestamp(inv.CreationTimestamp.Time),
		Seal:            SealOfRecord(inv),
		Deliveries:      DeliveriesOf(inv.Status.Deliveries),
	}
	if b := billing.BalanceOf(inv, amounts.Total); b != nil {
		status := string(b.PaymentStatus)
		out.AmountCredited, out.AmountPaid = copyInt(&b.AmountCredited), copyInt(&b.AmountPaid)
		out.AmountApplied, out.AmountWrittenOff = copyInt(&b.AmountApplied), copyInt(&b.AmountWrittenOff)
		out.AmountRemaining, out.AmountOverpaid = copyInt(&b.AmountRemaining), copyInt(&b.AmountOverpaid)
		out.PaymentStatus, out.Overdue = &status, ptr.To(b.Overdue)
	}
	if phase == billingv1.InvoiceInvalid {
		if ready := meta.FindStatusCondition(inv.Status.Conditions, billingv1.ConditionReady); ready != nil {
			if reason, ok := statusReasons[ready.Reason]; ok {
				out.StatusReason = &reason
			}
		}
	}
	out.BillTo, out.Issuer = BillToOf(inv.Status.BillTo), IssuerOf(inv.Status.Issuer)
	out.PaymentAccount = PaymentAccountOf(inv.Status.PaymentAccount)
	out.PaymentReference = optional(inv.Status.PaymentReference)
	return out
}

// Status is the phase in lower case, as the status filter and the status
// field spell it.
func Status(p billingv1.InvoicePhase) string { return strings.ToLower(string(p)) }

// Period is a period of days, both inclusive, YYYY-MM-DD.
type Period struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// periodJSON is the /v1 representation of p, nil for nil.
func periodJSON(p *billingv1.InvoicingPeriod) *Period {
	if p == nil {
		return nil
	}
	return &Period{Start: p.Start, End: p.End}
}
