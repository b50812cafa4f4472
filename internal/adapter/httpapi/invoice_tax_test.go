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

package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// The effective taxes of a create's items (invoiceItems): each item's own,
// or the workspace's default; the rules across items; and whose fault a
// broken rule is.

// taxItems are items of 100 with the taxes given (nil: none of its own).
func taxItems(taxes ...*TaxParams) *InvoiceParams {
	p := &InvoiceParams{CustomerID: "c", Currency: "EUR", Items: make([]ItemParams, len(taxes))}
	for i, tax := range taxes {
		p.Items[i] = ItemParams{Description: "x", Quantity: billingv1.Units(1), Amount: 100, Tax: tax}
	}
	return p
}

// taxParams is the TaxParams of a builder's tax.
func taxParams(t *billingv1.Tax) *TaxParams {
	return &TaxParams{Category: string(t.Category), Rate: t.Rate, ExemptionReason: t.ExemptionReason}
}

func TestInvoiceItemsTakeTheirOwnTaxOrTheWorkspacesDefault(t *testing.T) {
	s19, z := builder.StandardTax("19"), builder.Tax(billingv1.TaxZeroRated, "0", "")
	notSubject := builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope of VAT")
	cases := []struct {
		name       string
		params     *InvoiceParams
		defaultTax *billingv1.Tax
		want       []*billingv1.Tax
	}{
		{"items without tax take the default", taxItems(nil, nil), s19, []*billingv1.Tax{s19, s19}},
		{"an item's own tax wins over the default", taxItems(taxParams(z), nil), s19, []*billingv1.Tax{z, s19}},
		{"the default's rate is written in its shortest form", taxItems(nil), builder.StandardTax("19.00"),
			[]*billingv1.Tax{s19}},
		{"without a default an item without tax has none", taxItems(nil, taxParams(s19)), nil, []*billingv1.Tax{nil, s19}},
		{"an item not subject to tax beside one that takes the same default is fine",
			taxItems(taxParams(notSubject), nil), notSubject, []*billingv1.Tax{notSubject, notSubject}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			items, _, e := invoiceItems(tc.params, tc.defaultTax)
			if e != nil {
				t.Fatal(e)
			}
			got := make([]*billingv1.Tax, len(items))
			for i := range items {
				got[i] = items[i].Tax
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestInvoiceItemsRefuseWhatBreaksARuleOnTheItemAtFault(t *testing.T) {
	s19 := builder.StandardTax("19")
	exempt := func(reason string) *billingv1.Tax { return builder.Tax(billingv1.TaxExempt, "0", reason) }
	notSubject := builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope of VAT")
	big := func(p *InvoiceParams) *InvoiceParams {
		p.Items[0].Quantity, p.Items[0].Amount = billingv1.Units(9000), 1_000_000_000_000
		return p
	}
	cases := []struct {
		name       string
		params     *InvoiceParams
		defaultTax *billingv1.Tax
		param      string
		byDefault  bool // the message blames the workspace's default tax
	}{
		{"an item not subject to tax beside a standard-rated one", taxItems(taxParams(s19), taxParams(notSubject)), nil,
			"items[1].tax.category", false},
		{"an item not subject to tax beside one without tax and no default", taxItems(taxParams(notSubject), nil), nil,
			"items[1].tax.category", false},
		{"two exemption reasons in one group", taxItems(taxParams(exempt("A")), taxParams(exempt("B"))), nil,
			"items[1].tax.exemption_reason", false},
		{"a default not subject to tax beside a standard-rated item", taxItems(taxParams(s19), nil), notSubject,
			"items[1].tax", true},
		{"an item not subject to tax after one that takes a standard default", taxItems(nil, taxParams(notSubject)), s19,
			"items[0].tax", true},
		{"a default whose exemption reason differs from the item's of its group", taxItems(taxParams(exempt("A")), nil),
			exempt("B"), "items[1].tax", true},
		{"a default first in a group whose item's exemption reason differs", taxItems(nil, nil, taxParams(exempt("A"))),
			exempt("B"), "items[0].tax", true},
		{"a default that breaks a rule of its own category", taxItems(nil), builder.Tax(billingv1.TaxStandard, "0", ""),
			"items[0].tax", true},
		{"the items' own taxes break a rule whatever the default", taxItems(taxParams(s19), nil, taxParams(notSubject)), s19,
			"items[2].tax.category", false},
		{"a total above 2^53-1 once taxed", big(taxItems(taxParams(s19))), nil, "items", false},
		{"a total above 2^53-1 once the default is applied", big(taxItems(nil)), s19, "items", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			items, _, e := invoiceItems(tc.params, tc.defaultTax)
			if e == nil {
				t.Fatalf("accepted %+v", items)
			}
			if e.Status != http.StatusUnprocessableEntity || e.Code != CodeParameterInvalid || e.Param != tc.param {
				t.Errorf("got %v, want 422 parameter_invalid on %s", e, tc.param)
			}
			if blames := strings.Contains(e.Message, "default tax"); blames != tc.byDefault {
				t.Errorf("the message %q blames the default tax: %v, want %v", e.Message, blames, tc.byDefault)
			}
		})
	}
}

// The example: tax is rounded once per group (EN 16931 BR-CO-17),
// not per line: 20% of 6833, 6833, 5750 and 8500 is 5583, not 5584.
func TestTaxIsRoundedOncePerGroup(t *testing.T) {
	rate := "20"
	p := &InvoiceParams{CustomerID: "c", Currency: "EUR"}
	for _, amount := range []int64{6833, 6833, 5750, 8500} {
		p.Items = append(p.Items, ItemParams{Description: "x", Quantity: billingv1.Units(1), Amount: amount,
			Tax: &TaxParams{Category: "S", Rate: &rate}})
	}
	items, _, e := invoiceItems(p, nil)
	if e != nil {
		t.Fatal(e)
	}
	inv := apiobject.InvoiceOf(&billingv1.Invoice{Spec: billingv1.InvoiceSpec{Items: items}})
	want := []apiobject.TaxBreakdownEntry{{Category: "S", Rate: &rate, TaxableAmount: 27916, TaxAmount: 5583}}
	if !reflect.DeepEqual(inv.TaxBreakdown, want) || *inv.Subtotal != 27916 || *inv.TaxTotal != 5583 || *inv.Total != 33499 {
		t.Errorf("got subtotal %d, breakdown %+v, tax %d, total %d", *inv.Subtotal, inv.TaxBreakdown, *inv.TaxTotal, *inv.Total)
	}
}

func TestCreateInvoiceWithTax(t *testing.T) {
	t.Run("the items without tax take the workspace's default, and the invoice is made not to take it again", func(t *testing.T) {
		s, c := newFakeStore(acmeCustomer()), &fakeClaims{}
		s.profile = store.Profile{DefaultTax: builder.StandardTax("19")}
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices", `{"customer_id":"cus-acme","items":[`+
			`{"description":"Support","quantity":2,"amount":1500},`+
			`{"description":"Books","quantity":1,"amount":1000,"tax":{"category":"S","rate":7}}]}`)
		got := decodeAs[apiobject.Invoice](t, w, http.StatusCreated)
		if *got.Subtotal != 4000 || *got.TaxTotal != 640 || *got.Total != 4640 || len(got.TaxBreakdown) != 2 ||
			*got.Items[0].Tax.Rate != "19" || *got.Items[1].Tax.Rate != "7" {
			t.Errorf("unexpected invoice %s", w.Body)
		}
		inv := &billingv1.Invoice{}
		if found, _ := s.Get(t.Context(), fakeWorkspace, got.ID, inv); !found {
			t.Fatal("the invoice was not created")
		}
		if inv.Spec.DefaultTaxFrom != billingv1.DefaultTaxNone || !reflect.DeepEqual(inv.Spec.Items[0].Tax, builder.StandardTax("19")) {
			t.Errorf("the invoice's spec is %+v", inv.Spec)
		}
	})
	t.Run("a create whose items all have a tax does not read the profile", func(t *testing.T) {
		s := newFakeStore(acmeCustomer())
		s.profile = store.Profile{DefaultTax: builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope")}
		w := serve(fakeAdapter(t, s, &fakeClaims{}), http.MethodPost, "/v1/invoices",
			`{"customer_id":"cus-acme","items":[{"description":"Support","quantity":1,"amount":100,"tax":{"category":"Z","rate":"0"}}]}`)
		if got := decodeAs[apiobject.Invoice](t, w, http.StatusCreated); *got.Total != 100 || got.Items[0].Tax.Category != "Z" {
			t.Errorf("unexpected invoice %s", w.Body)
		}
		if s.profileReads != 0 {
			t.Errorf("the profile was read %d times", s.profileReads)
		}
	})
	t.Run("a default that breaks a rule answers 422 on the item that took it and creates nothing", func(t *testing.T) {
		s, c := newFakeStore(acmeCustomer()), &fakeClaims{}
		s.profile = store.Profile{DefaultTax: builder.Tax(billingv1.TaxNotSubject, "", "Outside the scope")}
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices", `{"customer_id":"cus-acme","items":[`+
			`{"description":"Books","quantity":1,"amount":1000,"tax":{"category":"S","rate":"7"}},`+
			`{"description":"Support","quantity":2,"amount":1500}]}`)
		wantError(t, w, http.StatusUnprocessableEntity, CodeParameterInvalid, "items[1].tax")
		if len(c.requests) != 0 {
			t.Error("an invoice was created")
		}
	})
	t.Run("a create when the profile cannot be read answers 503 api_unavailable and creates nothing", func(t *testing.T) {
		s, c := newFakeStore(acmeCustomer()), &fakeClaims{}
		s.profileErr = context.DeadlineExceeded
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/invoices",
			`{"customer_id":"cus-acme","items":[{"description":"Support","quantity":1,"amount":100}]}`)
		wantError(t, w, http.StatusServiceUnavailable, CodeAPIUnavailable, "")
		if len(c.requests) != 0 {
			t.Error("an invoice was created")
		}
	})
}
