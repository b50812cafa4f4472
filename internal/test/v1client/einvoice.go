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
	"net/url"
)

// InvoiceDocumentIn sends GET /v1/invoices/{id}/document?format=format,
// with profile when it is not "", as InvoiceDocument does.
func (c *Client) InvoiceDocumentIn(ctx context.Context, id, format, profile string, opts ...Option) (*Response, error) {
	return c.documentIn(ctx, "/v1/invoices/"+url.PathEscape(id)+"/document", format, profile, opts)
}

func (c *Client) documentIn(ctx context.Context, path, format, profile string, opts []Option) (*Response, error) {
	q := url.Values{}
	if format != "" {
		q.Set("format", format)
	}
	if profile != "" {
		q.Set("profile", profile)
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return c.raw(ctx, path, opts)
}

// CreditNoteDocumentIn sends GET /v1/credit_notes/{id}/document with
// format and profile, as InvoiceDocumentIn does.
func (c *Client) CreditNoteDocumentIn(ctx context.Context, id, format, profile string, opts ...Option) (*Response, error) {
	return c.documentIn(ctx, "/v1/credit_notes/"+url.PathEscape(id)+"/document", format, profile, opts)
}
