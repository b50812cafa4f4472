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
	"context"
	"net/http"
	"net/url"
)

// BankStatement is the answer to an imported bank statement.
type BankStatement struct {
	Object       string `json:"object"`
	Account      string `json:"account"`
	SHA256       string `json:"sha256"`
	Transactions int    `json:"transactions"`
	New          int    `json:"new"`
	Matched      int    `json:"matched"`
	Unmatched    int    `json:"unmatched"`
	Ignored      int    `json:"ignored"`
	Pending      int    `json:"pending"`
}

// BankTransaction is one booked line of an imported statement.
type BankTransaction struct {
	ID                   string   `json:"id"`
	Object               string   `json:"object"`
	Workspace            string   `json:"workspace"`
	Account              string   `json:"account"`
	BookingDate          string   `json:"booking_date"`
	ValueDate            *string  `json:"value_date"`
	Amount               int64    `json:"amount"`
	Currency             string   `json:"currency"`
	CreditDebit          string   `json:"credit_debit"`
	Reversal             bool     `json:"reversal"`
	BankReference        *string  `json:"bank_reference"`
	EntryReference       *string  `json:"entry_reference"`
	EndToEndID           *string  `json:"end_to_end_id"`
	StructuredReferences []string `json:"structured_references"`
	RemittanceText       *string  `json:"remittance_text"`
	DebtorName           *string  `json:"debtor_name"`
	DebtorAccount        *string  `json:"debtor_account"`
	StatementSHA256      string   `json:"statement_sha256"`
	Status               string   `json:"status"`
	StatusReason         *string  `json:"status_reason"`
	MatchedBy            *string  `json:"matched_by"`
	InvoiceID            *string  `json:"invoice_id"`
	PaymentID            *string  `json:"payment_id"`
	CreatedAt            string   `json:"created_at"`
}

func (t BankTransaction) id() string { return t.ID }

// ImportBankStatement sends POST /v1/bank_statements with a camt.053
// document as application/xml.
func (c *Client) ImportBankStatement(ctx context.Context, doc []byte, opts ...Option) (
	*BankStatement, *Response, error) {
	resp, err := c.Do(ctx, http.MethodPost, "/v1/bank_statements", doc,
		append([]Option{ContentType("application/xml")}, opts...)...)
	if err != nil {
		return nil, nil, err
	}
	if e := resp.Err(); e != nil {
		return nil, resp, e
	}
	out := &BankStatement{}
	if err := resp.Decode(out); err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// GetBankTransaction sends GET /v1/bank_transactions/{id}.
func (c *Client) GetBankTransaction(ctx context.Context, id string, opts ...Option) (
	*BankTransaction, *Response, error) {
	return call[BankTransaction](ctx, c, http.MethodGet, "/v1/bank_transactions/"+url.PathEscape(id), nil, opts)
}

// ListBankTransactions sends GET /v1/bank_transactions (Status: pending,
// matched, unmatched or ignored).
func (c *Client) ListBankTransactions(ctx context.Context, p ListParams, opts ...Option) (
	*List[BankTransaction], *Response, error) {
	return call[List[BankTransaction]](ctx, c, http.MethodGet, "/v1/bank_transactions"+p.query(), nil, opts)
}

// MatchBankTransaction sends POST /v1/bank_transactions/{id}/match.
func (c *Client) MatchBankTransaction(ctx context.Context, id, invoiceID string, opts ...Option) (
	*BankTransaction, *Response, error) {
	return call[BankTransaction](ctx, c, http.MethodPost, "/v1/bank_transactions/"+url.PathEscape(id)+"/match",
		map[string]string{"invoice_id": invoiceID}, opts)
}
