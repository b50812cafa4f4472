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
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"context"
	"net/http"
	"net/url"
)

// CreditNoteParams is the body of POST /v1/credit_notes: Lines, or
// FullCredit true. Empty fields are left out.
type CreditNoteParams struct {
	InvoiceID  string                 `json:"invoice_id"`
	Reason     string                 `json:"reason"`
	Memo       string                 `json:"memo,omitempty"`
	Lines      []CreditNoteLineParams `json:"lines,omitempty"`
	FullCredit bool                   `json:"full_credit,omitempty"`
	// Allowances and Charges are left out when empty.
	Allowances []AllowanceCharge `json:"allowances,omitempty"`
	Charges    []AllowanceCharge `json:"charges,omitempty"`
}

// CreditNoteLineParams is a line of a credit note's body: a Quantity (a
// number, such as 2.5) or an Amount of an invoice line; nil is left out.
type CreditNoteLineParams struct {
	InvoiceLine int                        `json:"invoice_line"`
	Quantity    *billingv1.DecimalQuantity `json:"quantity,omitempty"`
	Amount      *int64                     `json:"amount,omitempty"`
}

// CreditNote is a credit note. Number, Sequence, IssuedAt, BillTo and
// Issuer are nil until it is issued; StatusReason is set once it is
// rejected.
type CreditNote struct {
	ID            string           `json:"id"`
	Object        string           `json:"object"`
	InvoiceID     string           `json:"invoice_id"`
	CustomerID    string           `json:"customer_id"`
	Currency      *string          `json:"currency"`
	Status        string           `json:"status"`
	StatusReason  *string          `json:"status_reason"`
	Number        *string          `json:"number"`
	Sequence      *int64           `json:"sequence"`
	InvoiceNumber *string          `json:"invoice_number"`
	Reason        string           `json:"reason"`
	Memo          *string          `json:"memo"`
	Lines         []CreditNoteLine `json:"lines"`
	Subtotal      *int64           `json:"subtotal"`
	// Allowances and Charges are the credit note's, as applied;
	// AllowanceTotal and ChargeTotal their sums.
	Allowances     []AllowanceCharge   `json:"allowances"`
	Charges        []AllowanceCharge   `json:"charges"`
	AllowanceTotal *int64              `json:"allowance_total"`
	ChargeTotal    *int64              `json:"charge_total"`
	TaxBreakdown   []TaxBreakdownEntry `json:"tax_breakdown"`
	TaxTotal       *int64              `json:"tax_total"`
	Total          *int64              `json:"total"`
	IssuedAt       *string             `json:"issued_at"`
	BillTo         *BillTo             `json:"bill_to"`
	Issuer         *Issuer             `json:"issuer"`
	CreatedAt      string              `json:"created_at"`
	Seal           *string             `json:"seal"`
	Deliveries     []Delivery          `json:"deliveries"`
}

// CreditNoteLine is a line of a credit note; Quantity is nil for a line
// that credits an amount; UnitCode is the invoice line's.
type CreditNoteLine struct {
	InvoiceLine int32                      `json:"invoice_line"`
	Description string                     `json:"description"`
	Quantity    *billingv1.DecimalQuantity `json:"quantity"`
	UnitCode    string                     `json:"unit_code"`
	Amount      int64                      `json:"amount"`
	Tax         *Tax                       `json:"tax"`
}

// PaymentParams is the body of POST /v1/payments; empty fields are left
// out.
type PaymentParams struct {
	InvoiceID string `json:"invoice_id"`
	Amount    int64  `json:"amount"`
	Currency  string `json:"currency,omitempty"`
	PaidAt    string `json:"paid_at,omitempty"`
	Method    string `json:"method,omitempty"`
	Reference string `json:"reference,omitempty"`
}

// Payment is a payment; AppliedAmount and OverpaidAmount are nil until it
// is recorded.
type Payment struct {
	ID             string  `json:"id"`
	Object         string  `json:"object"`
	InvoiceID      string  `json:"invoice_id"`
	CustomerID     string  `json:"customer_id"`
	Amount         int64   `json:"amount"`
	Currency       string  `json:"currency"`
	PaidAt         string  `json:"paid_at"`
	Method         string  `json:"method"`
	Reference      *string `json:"reference"`
	Status         string  `json:"status"`
	AppliedAmount  *int64  `json:"applied_amount"`
	OverpaidAmount *int64  `json:"overpaid_amount"`
	CreatedAt      string  `json:"created_at"`
	Seal           *string `json:"seal"`
}

func (n CreditNote) id() string { return n.ID }
func (p Payment) id() string    { return p.ID }

// CreateCreditNote sends POST /v1/credit_notes.
func (c *Client) CreateCreditNote(ctx context.Context, p CreditNoteParams, opts ...Option) (
	*CreditNote, *Response, error) {
	return call[CreditNote](ctx, c, http.MethodPost, "/v1/credit_notes", p, opts)
}

// GetCreditNote sends GET /v1/credit_notes/{id}.
func (c *Client) GetCreditNote(ctx context.Context, id string, opts ...Option) (*CreditNote, *Response, error) {
	return call[CreditNote](ctx, c, http.MethodGet, "/v1/credit_notes/"+url.PathEscape(id), nil, opts)
}

// ListCreditNotes sends GET /v1/credit_notes.
func (c *Client) ListCreditNotes(ctx context.Context, p ListParams, opts ...Option) (
	*List[CreditNote], *Response, error) {
	return call[List[CreditNote]](ctx, c, http.MethodGet, "/v1/credit_notes"+p.query(), nil, opts)
}

// CreditNoteDocument sends GET /v1/credit_notes/{id}/document with the
// Accept header accept, as InvoiceDocument does.
func (c *Client) CreditNoteDocument(ctx context.Context, id, accept string, opts ...Option) (*Response, error) {
	if accept != "" {
		opts = append([]Option{Header("Accept", accept)}, opts...)
	}
	return c.raw(ctx, "/v1/credit_notes/"+url.PathEscape(id)+"/document", opts)
}

// CreatePayment sends POST /v1/payments.
func (c *Client) CreatePayment(ctx context.Context, p PaymentParams, opts ...Option) (*Payment, *Response, error) {
	return call[Payment](ctx, c, http.MethodPost, "/v1/payments", p, opts)
}

// GetPayment sends GET /v1/payments/{id}.
func (c *Client) GetPayment(ctx context.Context, id string, opts ...Option) (*Payment, *Response, error) {
	return call[Payment](ctx, c, http.MethodGet, "/v1/payments/"+url.PathEscape(id), nil, opts)
}

// ListPayments sends GET /v1/payments.
func (c *Client) ListPayments(ctx context.Context, p ListParams, opts ...Option) (*List[Payment], *Response, error) {
	return call[List[Payment]](ctx, c, http.MethodGet, "/v1/payments"+p.query(), nil, opts)
}
