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

package httpapi

import (
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Customer is the /v1 representation of a Customer.
type Customer struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	Workspace string `json:"workspace"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
}

// Invoice is the /v1 representation of an Invoice.
type Invoice struct {
	ID         string       `json:"id"`
	Object     string       `json:"object"`
	Workspace  string       `json:"workspace"`
	CustomerID string       `json:"customer_id"`
	Currency   string       `json:"currency"`
	Items      []ItemParams `json:"items"`
	// Total is null only for an invoice made outside the API (kubectl)
	// whose total exceeds 2^53-1; the controller marks it invalid.
	Total     *int64 `json:"total"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
}

// List is a page of a list.
type List[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func customerJSON(c *billingv1.Customer) Customer {
	return Customer{
		ID:        c.Name,
		Object:    "customer",
		Workspace: c.Namespace,
		Name:      c.Spec.Name,
		Email:     c.Spec.Email,
		CreatedAt: timestamp(c.CreationTimestamp.Time),
	}
}

func invoiceJSON(inv *billingv1.Invoice) Invoice {
	items := make([]ItemParams, len(inv.Spec.Items))
	for i, it := range inv.Spec.Items {
		items[i] = ItemParams{Description: it.Description, Quantity: it.Quantity, Amount: it.Amount}
	}
	var total *int64
	if t, err := billing.InvoiceTotal(inv.Spec.Items); err == nil {
		total = &t
	}
	currency := inv.Spec.Currency
	if currency == "" {
		currency = billing.DefaultCurrency
	}
	return Invoice{
		ID:         inv.Name,
		Object:     "invoice",
		Workspace:  inv.Namespace,
		CustomerID: inv.Spec.CustomerRef.Name,
		Currency:   currency,
		Items:      items,
		Total:      total,
		Status:     invoiceStatus(inv.Status.Phase),
		CreatedAt:  timestamp(inv.CreationTimestamp.Time),
	}
}

// invoiceStatus is the lower-cased phase; pending until the controller has
// set one.
func invoiceStatus(p billingv1.InvoicePhase) string {
	switch p {
	case billingv1.InvoiceIssued, billingv1.InvoiceInvalid:
		return strings.ToLower(string(p))
	default:
		return "pending"
	}
}
