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

// Package v1client is the one client of the /v1 HTTP API that this
// repository's tests and benchmark use: typed creates, gets and lists of
// customers and invoices, the bearer token, workspace and Idempotency-Key,
// and the whole answer of every call (status, headers, body, the error
// object). Do sends any request, for tests of hostile input. It states the
// contract (openapi.json) independently of the server's code. It is a test
// helper, not an SDK.
package v1client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// Headers of the API.
const (
	WorkspaceHeader          = "Invoicing-Workspace"
	IdempotencyKeyHeader     = "Idempotency-Key"
	IdempotentReplayedHeader = "Idempotent-Replayed"
	RequestIDHeader          = "Request-Id"
)

// Client calls one adapter.
type Client struct {
	base string
	http *http.Client
	opts []Option
}

// New returns a client of the adapter at base (such as
// "http://127.0.0.1:8443") that sends its requests with hc
// (http.DefaultClient when nil), each with opts first.
func New(base string, hc *http.Client, opts ...Option) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{base: base, http: hc, opts: opts}
}

// With returns a client that sends opts too, after the client's own.
func (c *Client) With(opts ...Option) *Client {
	return &Client{base: c.base, http: c.http, opts: append(append([]Option(nil), c.opts...), opts...)}
}

// Option sets something on a request.
type Option func(*http.Request)

// Token sends the bearer token t; "" sends no Authorization header.
func Token(t string) Option {
	return func(r *http.Request) {
		if t == "" {
			r.Header.Del("Authorization")
			return
		}
		r.Header.Set("Authorization", "Bearer "+t)
	}
}

// Workspace names the workspace (namespace) of the request.
func Workspace(ns string) Option { return func(r *http.Request) { r.Header.Set(WorkspaceHeader, ns) } }

// IdempotencyKey sends an Idempotency-Key.
func IdempotencyKey(k string) Option {
	return func(r *http.Request) { r.Header.Set(IdempotencyKeyHeader, k) }
}

// Header adds a header value (a repeated Header sends the header repeated).
func Header(k, v string) Option { return func(r *http.Request) { r.Header.Add(k, v) } }

// ContentType replaces the Content-Type (application/json for a body).
func ContentType(ct string) Option { return func(r *http.Request) { r.Header.Set("Content-Type", ct) } }

// Response is an answer of the adapter.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// RetryAfter is the answer's Retry-After in seconds, 0 when it has none.
func (r *Response) RetryAfter() int {
	n, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	return n
}

// Replayed reports whether the answer is a replay of an earlier request
// with the same Idempotency-Key.
func (r *Response) Replayed() bool { return r.Header.Get(IdempotentReplayedHeader) == "true" }

// Decode decodes the body into v.
func (r *Response) Decode(v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("decoding the %d answer %q: %w", r.Status, r.Body, err)
	}
	return nil
}

// Err is the answer's error object as an *Error, nil for a 2xx answer.
func (r *Response) Err() *Error {
	if r.Status/100 == 2 {
		return nil
	}
	var body struct {
		Error Error `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &body) // a body that is no error object leaves its fields empty
	body.Error.Status = r.Status
	return &body.Error
}

// Error is the error object of a non-2xx answer, and its status.
type Error struct {
	Status    int    `json:"-"`
	Type      string `json:"type"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	Param     string `json:"param,omitempty"`
	RequestID string `json:"request_id"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d %s %s (%s): %s", e.Status, e.Type, e.Code, e.Param, e.Message)
}

// Do sends method path (with its query) with body, nil for none; a body is
// sent as application/json unless an Option says otherwise. It fails only
// when no answer came; any answer, 4xx and 5xx included, is returned.
func (c *Client) Do(ctx context.Context, method, path string, body []byte, opts ...Option) (*Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range c.opts {
		o(req)
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the answer to %s %s: %w", method, path, err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// raw sends GET path and returns the answer, whose Body is what it
// answered (a document, a payload); a non-2xx answer is returned with its
// *Error.
func (c *Client) raw(ctx context.Context, path string, opts []Option) (*Response, error) {
	resp, err := c.Do(ctx, http.MethodGet, path, nil, opts...)
	if err != nil {
		return nil, err
	}
	if e := resp.Err(); e != nil {
		return resp, e
	}
	return resp, nil
}

// call sends a request with v (when not nil) as its JSON body and decodes a
// 2xx answer into a new T. The error is the transport's, or the answer's
// *Error; the answer is returned whenever there is one.
func call[T any](ctx context.Context, c *Client, method, path string, v any, opts []Option) (*T, *Response, error) {
	var body []byte
	if v != nil {
		var err error
		if body, err = json.Marshal(v); err != nil {
			return nil, nil, err
		}
	}
	resp, err := c.Do(ctx, method, path, body, opts...)
	if err != nil {
		return nil, nil, err
	}
	if e := resp.Err(); e != nil {
		return nil, resp, e
	}
	out := new(T)
	if err := resp.Decode(out); err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// CreateCustomer sends POST /v1/customers.
func (c *Client) CreateCustomer(ctx context.Context, p CustomerParams, opts ...Option) (*Customer, *Response, error) {
	return call[Customer](ctx, c, http.MethodPost, "/v1/customers", p, opts)
}

// GetCustomer sends GET /v1/customers/{id}.
func (c *Client) GetCustomer(ctx context.Context, id string, opts ...Option) (*Customer, *Response, error) {
	return call[Customer](ctx, c, http.MethodGet, "/v1/customers/"+url.PathEscape(id), nil, opts)
}

// ListCustomers sends GET /v1/customers.
func (c *Client) ListCustomers(ctx context.Context, p ListParams, opts ...Option) (*List[Customer], *Response, error) {
	return call[List[Customer]](ctx, c, http.MethodGet, "/v1/customers"+p.query(), nil, opts)
}

// CreateInvoice sends POST /v1/invoices.
func (c *Client) CreateInvoice(ctx context.Context, p InvoiceParams, opts ...Option) (*Invoice, *Response, error) {
	return call[Invoice](ctx, c, http.MethodPost, "/v1/invoices", p, opts)
}

// GetInvoice sends GET /v1/invoices/{id}.
func (c *Client) GetInvoice(ctx context.Context, id string, opts ...Option) (*Invoice, *Response, error) {
	return call[Invoice](ctx, c, http.MethodGet, "/v1/invoices/"+url.PathEscape(id), nil, opts)
}

// InvoiceDocument sends GET /v1/invoices/{id}/document with the Accept
// header accept ("" sends none: the adapter answers HTML). The answer's
// Body is the document and its Content-Type says which; a non-2xx answer is
// returned with its *Error.
func (c *Client) InvoiceDocument(ctx context.Context, id, accept string, opts ...Option) (*Response, error) {
	if accept != "" {
		opts = append([]Option{Header("Accept", accept)}, opts...)
	}
	return c.raw(ctx, "/v1/invoices/"+url.PathEscape(id)+"/document", opts)
}

// InvoiceDocumentAsIssued sends GET
// /v1/invoices/{id}/document?as_issued=asIssued, as InvoiceDocument does.
func (c *Client) InvoiceDocumentAsIssued(ctx context.Context, id, asIssued, accept string, opts ...Option) (*Response, error) {
	if accept != "" {
		opts = append([]Option{Header("Accept", accept)}, opts...)
	}
	q := url.Values{"as_issued": {asIssued}}
	return c.raw(ctx, "/v1/invoices/"+url.PathEscape(id)+"/document?"+q.Encode(), opts)
}

// ListInvoices sends GET /v1/invoices.
func (c *Client) ListInvoices(ctx context.Context, p ListParams, opts ...Option) (*List[Invoice], *Response, error) {
	return call[List[Invoice]](ctx, c, http.MethodGet, "/v1/invoices"+p.query(), nil, opts)
}

// ListInvoiceIDs sends GET /v1/invoices and decodes only the ids of the
// page and its next cursor ("" on the last page): a client that reads the
// whole page but keeps what a walk needs, for measuring the server.
func (c *Client) ListInvoiceIDs(ctx context.Context, p ListParams, opts ...Option) ([]string, string, error) {
	resp, err := c.Do(ctx, http.MethodGet, "/v1/invoices"+p.query(), nil, opts...)
	if err != nil {
		return nil, "", err
	}
	if e := resp.Err(); e != nil {
		return nil, "", e
	}
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		NextCursor *string `json:"next_cursor"`
	}
	if err := resp.Decode(&page); err != nil {
		return nil, "", err
	}
	ids := make([]string, len(page.Data))
	for i, d := range page.Data {
		ids[i] = d.ID
	}
	next := ""
	if page.NextCursor != nil {
		next = *page.NextCursor
	}
	return ids, next, nil
}
