/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1client

import (
	"net/url"
	"strconv"
)

// The bodies and objects of the API, as openapi.json describes them.

// CustomerParams is the body of POST /v1/customers.
type CustomerParams struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// InvoiceParams is the body of POST /v1/invoices; an empty Currency is
// left out (USD).
type InvoiceParams struct {
	CustomerID string `json:"customer_id"`
	Currency   string `json:"currency,omitempty"`
	Items      []Item `json:"items"`
}

// Item is a line item.
type Item struct {
	Description string `json:"description"`
	Quantity    int64  `json:"quantity"`
	Amount      int64  `json:"amount"`
}

// ListParams are the query of a list; zero values are left out.
type ListParams struct {
	Limit  int
	Cursor string
	// CustomerID narrows a list of invoices to one customer's.
	CustomerID string
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
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Customer is a customer.
type Customer struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	Workspace string `json:"workspace"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
}

// Invoice is an invoice. Total is nil only for an invoice made outside the
// API whose total exceeds 2^53-1.
type Invoice struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	Workspace  string `json:"workspace"`
	CustomerID string `json:"customer_id"`
	Currency   string `json:"currency"`
	Items      []Item `json:"items"`
	Total      *int64 `json:"total"`
	Status     string `json:"status"`
	CreatedAt  string `json:"created_at"`
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
