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

package billing_test

import (
	"reflect"
	"testing"

	kptr "k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestTheTaxesAndAmountsAnInvoiceShows(t *testing.T) {
	tooLarge := builder.WithNumberedItems(2, billing.MaxQuantity, billing.MaxAmount)
	nineteen := builder.StandardTax("19")
	for _, tc := range []struct {
		name    string
		invoice *billingv1.Invoice
		want    billing.InvoiceTotals
		ok      bool
		taxes   []*billingv1.Tax
	}{{
		name: "a new invoice's amounts are computed from its items, its breakdown's rates in their shortest form",
		invoice: builder.Invoice("ns", "inv", builder.WithTaxedItem("A", 1, 10_000, builder.StandardTax("19.00")),
			builder.WithItem("B", 1, 500)),
		want: billing.InvoiceTotals{Subtotal: 10_500, TaxTotal: 1_900, Total: 12_400,
			TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: "S", Rate: kptr.To("19"), TaxableAmount: 10_000, TaxAmount: 1_900}}},
		ok:    true,
		taxes: []*billingv1.Tax{builder.StandardTax("19.00"), nil},
	}, {
		name: "an issued invoice shows the amounts and taxes frozen in its status, not its items' own",
		invoice: func() *billingv1.Invoice {
			inv := builder.Invoice("ns", "inv", builder.WithItem("A", 1, 10_000))
			inv.Status = billingv1.InvoiceStatus{
				Phase: billingv1.InvoiceIssued, Subtotal: kptr.To[int64](10_000), TaxTotal: kptr.To[int64](1_900),
				Total: kptr.To[int64](11_900),
				TaxBreakdown: []billingv1.TaxBreakdownEntry{
					{Category: "S", Rate: kptr.To("19"), TaxableAmount: 10_000, TaxAmount: 1_900}},
				Items: []billingv1.InvoiceItemStatus{{Tax: nineteen}},
			}
			return inv
		}(),
		want: billing.InvoiceTotals{Subtotal: 10_000, TaxTotal: 1_900, Total: 11_900,
			TaxBreakdown: []billingv1.TaxBreakdownEntry{{Category: "S", Rate: kptr.To("19"), TaxableAmount: 10_000, TaxAmount: 1_900}}},
		ok:    true,
		taxes: []*billingv1.Tax{nineteen},
	}, {
		name: "an invoice issued before tax existed shows its total as subtotal, and no tax",
		invoice: func() *billingv1.Invoice {
			inv := builder.Invoice("ns", "inv", builder.WithItem("A", 2, 500))
			inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Total: kptr.To[int64](1_000)}
			return inv
		}(),
		want:  billing.InvoiceTotals{Subtotal: 1_000, Total: 1_000, TaxBreakdown: []billingv1.TaxBreakdownEntry{}},
		ok:    true,
		taxes: []*billingv1.Tax{nil},
	}, {
		name:    "an invoice whose total is too large has no amounts",
		invoice: builder.Invoice("ns", "inv", tooLarge),
		taxes:   []*billingv1.Tax{nil, nil},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			taxes := billing.DocumentTaxesOf(tc.invoice).Items
			if !reflect.DeepEqual(taxes, tc.taxes) {
				t.Errorf("DocumentTaxesOf().Items = %+v, want %+v", taxes, tc.taxes)
			}
			got, ok := billing.TotalsOf(tc.invoice, billing.DocumentTaxesOf(tc.invoice))
			got.Lines = nil // each line's amounts: lineamount_test.go pins them
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("TotalsOf() = %+v, %v, want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestAnInvoiceWithoutTaxHasAnEmptyBreakdownNotNil(t *testing.T) {
	inv := builder.Invoice("ns", "inv", builder.WithItem("A", 1, 100))
	got, ok := billing.TotalsOf(inv, billing.DocumentTaxesOf(inv))
	if !ok || got.TaxBreakdown == nil || len(got.TaxBreakdown) != 0 || got.Subtotal != 100 || got.TaxTotal != 0 {
		t.Errorf("TotalsOf() = %+v, %v; want subtotal 100, tax 0 and an empty breakdown", got, ok)
	}
}
