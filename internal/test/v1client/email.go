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

// SendParams is the body of a send; To is left out when empty (the
// customer's e-mail).
type SendParams struct {
	To []string `json:"to,omitempty"`
}

// Delivery is a message sent about an invoice, credit note or customer;
// MessageID is nil until fixed, SentAt until sent, LastError while no
// attempt failed.
type Delivery struct {
	Purpose   string   `json:"purpose"`
	To        []string `json:"to"`
	MessageID *string  `json:"message_id"`
	SentAt    *string  `json:"sent_at"`
	Attempts  int32    `json:"attempts"`
	LastError *string  `json:"last_error"`
}

// QueuedDelivery is the answer to a send: the Email queued.
type QueuedDelivery struct {
	ID        string   `json:"id"`
	Object    string   `json:"object"`
	Purpose   string   `json:"purpose"`
	To        []string `json:"to"`
	MessageID string   `json:"message_id"`
	SentAt    *string  `json:"sent_at"`
	Attempts  int32    `json:"attempts"`
	LastError *string  `json:"last_error"`
}

// SendInvoice sends POST /v1/invoices/{id}/send with p as its body.
func (c *Client) SendInvoice(ctx context.Context, id string, p SendParams, opts ...Option) (
	*QueuedDelivery, *Response, error) {
	return call[QueuedDelivery](ctx, c, http.MethodPost, "/v1/invoices/"+url.PathEscape(id)+"/send", p, opts)
}

// SendCreditNote sends POST /v1/credit_notes/{id}/send with p as its body.
func (c *Client) SendCreditNote(ctx context.Context, id string, p SendParams, opts ...Option) (
	*QueuedDelivery, *Response, error) {
	return call[QueuedDelivery](ctx, c, http.MethodPost, "/v1/credit_notes/"+url.PathEscape(id)+"/send", p, opts)
}

// SendStatement sends POST /v1/customers/{id}/statement/send with p as its
// body, and from and to in the query when not "".
func (c *Client) SendStatement(ctx context.Context, id, from, to string, p SendParams, opts ...Option) (
	*QueuedDelivery, *Response, error) {
	q := url.Values{}
	if from != "" {
		q.Set("from", from)
	}
	if to != "" {
		q.Set("to", to)
	}
	path := "/v1/customers/" + url.PathEscape(id) + "/statement/send"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return call[QueuedDelivery](ctx, c, http.MethodPost, path, p, opts)
}
