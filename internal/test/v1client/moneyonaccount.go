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

// CreditApplicationParams is the body of POST /v1/credit_applications.
type CreditApplicationParams struct {
	InvoiceID string `json:"invoice_id"`
	Amount    int64  `json:"amount"`
}

// CreditApplication is a credit application; StatusReason is set once it
// is rejected, AppliedAt once it is applied.
type CreditApplication struct {
	ID           string  `json:"id"`
	Object       string  `json:"object"`
	InvoiceID    string  `json:"invoice_id"`
	CustomerID   string  `json:"customer_id"`
	Amount       int64   `json:"amount"`
	Currency     string  `json:"currency"`
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	AppliedAt    *string `json:"applied_at"`
	CreatedAt    string  `json:"created_at"`
	Seal         *string `json:"seal"`
}

// RefundParams is the body of POST /v1/refunds; empty fields are left
// out.
type RefundParams struct {
	CustomerID string `json:"customer_id"`
	Amount     int64  `json:"amount"`
	Currency   string `json:"currency,omitempty"`
	RefundedAt string `json:"refunded_at,omitempty"`
	Method     string `json:"method,omitempty"`
	Reference  string `json:"reference,omitempty"`
}

// Refund is a refund; StatusReason is set once it is rejected, RecordedAt
// once it is recorded.
type Refund struct {
	ID           string  `json:"id"`
	Object       string  `json:"object"`
	CustomerID   string  `json:"customer_id"`
	Amount       int64   `json:"amount"`
	Currency     string  `json:"currency"`
	RefundedAt   string  `json:"refunded_at"`
	Method       string  `json:"method"`
	Reference    *string `json:"reference"`
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	RecordedAt   *string `json:"recorded_at"`
	CreatedAt    string  `json:"created_at"`
	Seal         *string `json:"seal"`
}

// WriteOffParams is the body of POST /v1/write_offs.
type WriteOffParams struct {
	InvoiceID string `json:"invoice_id"`
	Reason    string `json:"reason"`
}

// WriteOff is a write-off; Amount and RecordedAt are set once it is
// recorded, StatusReason once it is rejected.
type WriteOff struct {
	ID           string  `json:"id"`
	Object       string  `json:"object"`
	InvoiceID    string  `json:"invoice_id"`
	CustomerID   string  `json:"customer_id"`
	Amount       *int64  `json:"amount"`
	Currency     string  `json:"currency"`
	Reason       string  `json:"reason"`
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	RecordedAt   *string `json:"recorded_at"`
	CreatedAt    string  `json:"created_at"`
	Seal         *string `json:"seal"`
}

func (a CreditApplication) id() string { return a.ID }
func (r Refund) id() string            { return r.ID }
func (w WriteOff) id() string          { return w.ID }

// CreateCreditApplication sends POST /v1/credit_applications.
func (c *Client) CreateCreditApplication(ctx context.Context, p CreditApplicationParams, opts ...Option) (
	*CreditApplication, *Response, error) {
	return call[CreditApplication](ctx, c, http.MethodPost, "/v1/credit_applications", p, opts)
}

// GetCreditApplication sends GET /v1/credit_applications/{id}.
func (c *Client) GetCreditApplication(ctx context.Context, id string, opts ...Option) (
	*CreditApplication, *Response, error) {
	return call[CreditApplication](ctx, c, http.MethodGet, "/v1/credit_applications/"+url.PathEscape(id), nil, opts)
}

// ListCreditApplications sends GET /v1/credit_applications.
func (c *Client) ListCreditApplications(ctx context.Context, p ListParams, opts ...Option) (
	*List[CreditApplication], *Response, error) {
	return call[List[CreditApplication]](ctx, c, http.MethodGet, "/v1/credit_applications"+p.query(), nil, opts)
}

// CreateRefund sends POST /v1/refunds.
func (c *Client) CreateRefund(ctx context.Context, p RefundParams, opts ...Option) (*Refund, *Response, error) {
	return call[Refund](ctx, c, http.MethodPost, "/v1/refunds", p, opts)
}

// GetRefund sends GET /v1/refunds/{id}.
func (c *Client) GetRefund(ctx context.Context, id string, opts ...Option) (*Refund, *Response, error) {
	return call[Refund](ctx, c, http.MethodGet, "/v1/refunds/"+url.PathEscape(id), nil, opts)
}

// ListRefunds sends GET /v1/refunds.
func (c *Client) ListRefunds(ctx context.Context, p ListParams, opts ...Option) (*List[Refund], *Response, error) {
	return call[List[Refund]](ctx, c, http.MethodGet, "/v1/refunds"+p.query(), nil, opts)
}

// CreateWriteOff sends POST /v1/write_offs.
func (c *Client) CreateWriteOff(ctx context.Context, p WriteOffParams, opts ...Option) (*WriteOff, *Response, error) {
	return call[WriteOff](ctx, c, http.MethodPost, "/v1/write_offs", p, opts)
}

// GetWriteOff sends GET /v1/write_offs/{id}.
func (c *Client) GetWriteOff(ctx context.Context, id string, opts ...Option) (*WriteOff, *Response, error) {
	return call[WriteOff](ctx, c, http.MethodGet, "/v1/write_offs/"+url.PathEscape(id), nil, opts)
}

// ListWriteOffs sends GET /v1/write_offs.
func (c *Client) ListWriteOffs(ctx context.Context, p ListParams, opts ...Option) (*List[WriteOff], *Response, error) {
	return call[List[WriteOff]](ctx, c, http.MethodGet, "/v1/write_offs"+p.query(), nil, opts)
}
