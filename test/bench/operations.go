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

package main

// The operations each side of a pair performs: create and page through
// invoices through the adapter's /v1 API or directly with the Kubernetes
// API.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// invoiceParams is the invoice every create makes: each line carries a tax,
// at two rates, so that issuing computes a breakdown of two groups.
var invoiceParams = v1client.InvoiceParams{CustomerID: customer, Items: []v1client.Item{
	{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 15000, Tax: &v1client.Tax{Category: "S", Rate: ptr.To("19")}},
	{Description: "Travel", Quantity: billingv1.Units(1), Amount: 42000, Tax: &v1client.Tax{Category: "S", Rate: ptr.To("7")}},
}}

// newInvoice is invoiceParams as the Kubernetes object a direct create
// makes: the same lines and taxes, and, as the adapter writes, no default
// tax from the profile.
func newInvoice(ns string) *billingv1.Invoice {
	opts := make([]builder.InvoiceOption, 0, 2+len(invoiceParams.Items))
	opts = append(opts, builder.WithCustomer(customer), builder.WithDefaultTaxFrom(billingv1.DefaultTaxNone))
	for _, it := range invoiceParams.Items {
		opts = append(opts, builder.WithTaxedItem(it.Description, it.Quantity.Scaled()/billingv1.QuantityScale, it.Amount,
			builder.Tax(billingv1.TaxCategory(it.Tax.Category), *it.Tax.Rate, "")))
	}
	return builder.Invoice(ns, billing.NewID(recordkind.Invoice.IDPrefix), opts...)
}

// defaultTaxParams is invoiceParams with its first line without a tax of
// its own: it takes the default tax of defaultTaxWorkspace's
// BillingProfile, the rate invoiceParams gives it, so that the adapter
// reads the profile and stores the very invoice that newInvoice makes.
var defaultTaxParams = v1client.InvoiceParams{CustomerID: customer, Items: []v1client.Item{
	{Description: invoiceParams.Items[0].Description, Quantity: invoiceParams.Items[0].Quantity,
		Amount: invoiceParams.Items[0].Amount},
	invoiceParams.Items[1],
}}

// defaultTaxWorkspace is the workspace whose BillingProfile has a default
// tax (provision), where measurement 1 creates defaultTaxParams.
const defaultTaxWorkspace = "bench-9"

// defaultTax is defaultTaxWorkspace's default tax: invoiceParams' first
// line's.
func defaultTax() *billingv1.Tax {
	t := invoiceParams.Items[0].Tax
	return builder.Tax(billingv1.TaxCategory(t.Category), *t.Rate, "")
}

func (b *bench) createHTTP(ctx context.Context, ns string) (string, error) {
	return b.postInvoice(ctx, ns, invoiceParams)
}

// postInvoice creates an invoice of p in ns through the adapter.
func (b *bench) postInvoice(ctx context.Context, ns string, p v1client.InvoiceParams) (string, error) {
	inv, _, err := b.api.CreateInvoice(ctx, p, v1client.Workspace(ns))
	if err != nil {
		return "", err
	}
	return inv.ID, nil
}

func (b *bench) createDirect(ctx context.Context, ns string) (string, error) {
	inv := newInvoice(ns)
	return inv.Name, b.direct.Create(ctx, inv)
}

// page is one page of a walk: the ids and the token of the next page.
type page struct {
	ids  []string
	next string
}

func (b *bench) pageHTTP(ctx context.Context, ns, cursor string) (page, error) {
	list, _, err := b.api.ListInvoices(ctx, v1client.ListParams{Limit: 100, Cursor: cursor}, v1client.Workspace(ns))
	if err != nil {
		return page{}, err
	}
	p := page{ids: v1client.IDs(list)}
	if list.NextCursor != nil {
		p.next = *list.NextCursor
	}
	return p, nil
}

// pageHTTPIDs is pageHTTP decoding only the ids and the cursor.
func (b *bench) pageHTTPIDs(ctx context.Context, ns, cursor string) (page, error) {
	ids, next, err := b.api.ListInvoiceIDs(ctx, v1client.ListParams{Limit: 100, Cursor: cursor}, v1client.Workspace(ns))
	return page{ids: ids, next: next}, err
}

// pageDirectNames is pageDirect decoding only the names and the continue
// token: the same full list of the Kubernetes API, read as lightly as
// pageHTTPIDs reads the adapter's.
func (b *bench) pageDirectNames(ctx context.Context, ns, cont string) (page, error) {
	q := url.Values{"limit": {"100"}}
	if cont != "" {
		q.Set("continue", cont)
	}
	u := strings.TrimSuffix(b.directHost, "/") + "/apis/" + billingv1.GroupVersion.String() + "/namespaces/" +
		url.PathEscape(ns) + "/invoices?" + q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return page{}, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := b.directHTTP.Do(req)
	if err != nil {
		return page{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return page{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return page{}, fmt.Errorf("listing invoices: %s: %.200s", resp.Status, body)
	}
	var list struct {
		Metadata struct {
			Continue string `json:"continue"`
		} `json:"metadata"`
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return page{}, fmt.Errorf("decoding a list of invoices: %w", err)
	}
	p := page{next: list.Metadata.Continue, ids: make([]string, len(list.Items))}
	for i, it := range list.Items {
		p.ids[i] = it.Metadata.Name
	}
	return p, nil
}

func (b *bench) pageDirect(ctx context.Context, ns, cont string) (page, error) {
	var list billingv1.InvoiceList
	if err := b.direct.List(ctx, &list, client.InNamespace(ns), client.Limit(100), client.Continue(cont)); err != nil {
		return page{}, err
	}
	p := page{next: list.Continue}
	for _, inv := range list.Items {
		p.ids = append(p.ids, inv.Name)
	}
	return p, nil
}
