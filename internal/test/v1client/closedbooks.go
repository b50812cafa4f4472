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

// PeriodCloseParams is the body of POST /v1/period_closes.
type PeriodCloseParams struct {
	Through string `json:"through"`
}

// PeriodClose is a period close. ClosedThrough is its own resolved moment
// (nil until resolved); WorkspaceClosedThrough the workspace's when it
// was answered (nil while not closed).
type PeriodClose struct {
	ID                     string  `json:"id"`
	Object                 string  `json:"object"`
	Workspace              string  `json:"workspace"`
	Through                string  `json:"through"`
	ClosedThrough          *string `json:"closed_through"`
	WorkspaceClosedThrough *string `json:"workspace_closed_through"`
	Status                 string  `json:"status"`
	StatusReason           *string `json:"status_reason"`
	CreatedAt              string  `json:"created_at"`
}

// PeriodCloseList is a page of period closes with the workspace's
// closed_through.
type PeriodCloseList struct {
	Object        string        `json:"object"`
	Data          []PeriodClose `json:"data"`
	HasMore       bool          `json:"has_more"`
	NextCursor    *string       `json:"next_cursor"`
	ClosedThrough *string       `json:"closed_through"`
}

// Seal is a seal's metadata and hashes.
type Seal struct {
	ID                 string     `json:"id"`
	Object             string     `json:"object"`
	Workspace          string     `json:"workspace"`
	Sequence           int64      `json:"sequence"`
	Hash               string     `json:"hash"`
	PreviousHash       string     `json:"previous_hash"`
	PayloadSHA256      string     `json:"payload_sha256"`
	Counts             SealCounts `json:"counts"`
	ClosedThrough      string     `json:"closed_through"`
	FirstInvoiceNumber string     `json:"first_invoice_number"`
	LastInvoiceNumber  string     `json:"last_invoice_number"`
	CreatedAt          string     `json:"created_at"`
}

// SealCounts is how many records of each kind a seal holds.
type SealCounts struct {
	Invoices           int32 `json:"invoices"`
	CreditNotes        int32 `json:"credit_notes"`
	Payments           int32 `json:"payments"`
	CreditApplications int32 `json:"credit_applications"`
	WriteOffs          int32 `json:"write_offs"`
	Refunds            int32 `json:"refunds"`
	Emails             int32 `json:"emails"`
}

// SealVerification is the answer of GET /v1/seals/verify.
type SealVerification struct {
	Verified bool        `json:"verified"`
	Seals    int         `json:"seals"`
	Head     *string     `json:"head,omitempty"`
	Broken   *BrokenLink `json:"broken,omitempty"`
}

// BrokenLink names the seal whose check failed, and why.
type BrokenLink struct {
	Seal     string `json:"seal"`
	Sequence int64  `json:"sequence"`
	Reason   string `json:"reason"`
}

func (p PeriodClose) id() string { return p.ID }
func (s Seal) id() string        { return s.ID }

// CreatePeriodClose sends POST /v1/period_closes.
func (c *Client) CreatePeriodClose(ctx context.Context, p PeriodCloseParams, opts ...Option) (
	*PeriodClose, *Response, error) {
	return call[PeriodClose](ctx, c, http.MethodPost, "/v1/period_closes", p, opts)
}

// GetPeriodClose sends GET /v1/period_closes/{id}.
func (c *Client) GetPeriodClose(ctx context.Context, id string, opts ...Option) (*PeriodClose, *Response, error) {
	return call[PeriodClose](ctx, c, http.MethodGet, "/v1/period_closes/"+url.PathEscape(id), nil, opts)
}

// ListPeriodCloses sends GET /v1/period_closes.
func (c *Client) ListPeriodCloses(ctx context.Context, p ListParams, opts ...Option) (
	*PeriodCloseList, *Response, error) {
	return call[PeriodCloseList](ctx, c, http.MethodGet, "/v1/period_closes"+p.query(), nil, opts)
}

// ListSeals sends GET /v1/seals.
func (c *Client) ListSeals(ctx context.Context, p ListParams, opts ...Option) (*List[Seal], *Response, error) {
	return call[List[Seal]](ctx, c, http.MethodGet, "/v1/seals"+p.query(), nil, opts)
}

// GetSeal sends GET /v1/seals/{name}.
func (c *Client) GetSeal(ctx context.Context, name string, opts ...Option) (*Seal, *Response, error) {
	return call[Seal](ctx, c, http.MethodGet, "/v1/seals/"+url.PathEscape(name), nil, opts)
}

// SealPayload sends GET /v1/seals/{name}/payload; the answer's body is the
// gzip as stored.
func (c *Client) SealPayload(ctx context.Context, name string, opts ...Option) (*Response, error) {
	return c.raw(ctx, "/v1/seals/"+url.PathEscape(name)+"/payload", opts)
}

// VerifySeals sends GET /v1/seals/verify.
func (c *Client) VerifySeals(ctx context.Context, opts ...Option) (*SealVerification, *Response, error) {
	return call[SealVerification](ctx, c, http.MethodGet, "/v1/seals/verify", nil, opts)
}
