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

package apiobject_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// amountsJSON is the part of an invoice's /v1 JSON that holds its amounts
// and its items' taxes.
type amountsJSON struct {
	Items []struct {
		Tax *apiobject.Tax `json:"tax"`
	} `json:"items"`
	Subtotal     *int64                        `json:"subtotal"`
	TaxBreakdown []apiobject.TaxBreakdownEntry `json:"tax_breakdown"`
	TaxTotal     *int64                        `json:"tax_total"`
	Total        *int64                        `json:"total"`
}

func amountsOf(t *testing.T, inv *billingv1.Invoice) amountsJSON {
	t.Helper()
	data, err := json.Marshal(apiobject.InvoiceOf(inv))
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out amountsJSON
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

func TestTheAmountsOfAnInvoice(t *testing.T) {
	nineteen := "19"
	tooLarge := builder.WithNumberedItems(2, billing.MaxQuantity, billing.MaxAmount)
	for _, tc := range []struct {
		name    string
		invoice *billingv1.Invoice
		want    amountsJSON
		taxes   []*apiobject.Tax
	}{
		{
			name: "a new invoice's amounts are computed from its items, rates in their shortest form",
			invoice: builder.Invoice("ns", "inv", builder.WithTaxedItem("A", 1, 10_000, builder.StandardTax("19.00")),
				builder.WithItem("B", 1, 500)),
			want: amountsJSON{
				Subtotal: ptr.To[int64](10_500), TaxTotal: ptr.To[int64](1_900), Total: ptr.To[int64](12_400),
				TaxBreakdown: []apiobject.TaxBreakdownEntry{{Category: "S", Rate: &nineteen, TaxableAmount: 10_000, TaxAmount: 1_900}},
			},
			taxes: []*apiobject.Tax{{Category: "S", Rate: &nineteen}, nil},
		},
		{
			name: "an issued invoice shows the amounts and taxes frozen in its status, not its items' own",
			invoice: func() *billingv1.Invoice {
				inv := builder.Invoice("ns", "inv", builder.WithItem("A", 1, 10_000))
				inv.Status = billingv1.InvoiceStatus{
					Phase: billingv1.InvoiceIssued, Subtotal: ptr.To[int64](10_000), TaxTotal: ptr.To[int64](1_900),
					Total:        ptr.To[int64](11_900),
					TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: "S", Rate: &nineteen, TaxableAmount: 10_000, TaxAmount: 1_900}},
					Items:        []billingv1.InvoiceItemStatus{{Tax: builder.StandardTax("19")}},
				}
				return inv
			}(),
			want: amountsJSON{
				Subtotal: ptr.To[int64](10_000), TaxTotal: ptr.To[int64](1_900), Total: ptr.To[int64](11_900),
				TaxBreakdown: []apiobject.TaxBreakdownEntry{{Category: "S", Rate: &nineteen, TaxableAmount: 10_000, TaxAmount: 1_900}},
			},
			taxes: []*apiobject.Tax{{Category: "S", Rate: &nineteen}},
		},
		{
			name: "an invoice issued before tax existed shows its total as subtotal, and no tax",
			invoice: func() *billingv1.Invoice {
				inv := builder.Invoice("ns", "inv", builder.WithItem("A", 2, 500))
				inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Total: ptr.To[int64](1_000)}
				return inv
			}(),
			want: amountsJSON{
				Subtotal: ptr.To[int64](1_000), TaxTotal: ptr.To[int64](0), Total: ptr.To[int64](1_000),
				TaxBreakdown: []apiobject.TaxBreakdownEntry{},
			},
			taxes: []*apiobject.Tax{nil},
		},
		{
			name:    "an invoice whose total is too large has null amounts and an empty breakdown",
			invoice: builder.Invoice("ns", "inv", tooLarge),
			want:    amountsJSON{TaxBreakdown: []apiobject.TaxBreakdownEntry{}},
			taxes:   []*apiobject.Tax{nil, nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := amountsOf(t, tc.invoice)
			taxes := make([]*apiobject.Tax, len(got.Items))
			for i, it := range got.Items {
				taxes[i] = it.Tax
			}
			got.Items = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("amounts = %+v, want %+v", got, tc.want)
			}
			if !reflect.DeepEqual(taxes, tc.taxes) {
				t.Errorf("item taxes = %+v, want %+v", taxes, tc.taxes)
			}
		})
	}
}

func TestAnInvoiceWithoutTaxAnswersAnEmptyBreakdownNotNull(t *testing.T) {
	data, err := json.Marshal(apiobject.InvoiceOf(builder.Invoice("ns", "inv", builder.WithItem("A", 1, 100))))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw["tax_breakdown"]) != "[]" || string(raw["tax_total"]) != "0" || string(raw["subtotal"]) != "100" {
		t.Errorf("tax_breakdown %s, tax_total %s, subtotal %s; want [], 0 and 100",
			raw["tax_breakdown"], raw["tax_total"], raw["subtotal"])
	}
}
