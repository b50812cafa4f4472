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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestTaxFaultOf(t *testing.T) {
	s19 := apiTax("S", "19", "")
	o := apiTax("O", "", "Not subject")
	tests := []struct {
		name       string
		items      []billingv1.LineItem
		defaultTax *billingv1.Tax
		wantLine   int
		wantOwn    bool
		wantAt     int
	}{
		{"Without a default the items' own taxes are at fault",
			[]billingv1.LineItem{item(1, 100, o), item(1, 100, apiTax("S", "19", ""))}, nil, 1, true, -1},
		{"A default that breaks a rule on the item that took it is at fault for both answers",
			[]billingv1.LineItem{item(1, 100, apiTax("E", "0", "a")), item(1, 100, nil)}, apiTax("E", "0", "b"), 1, false, 1},
		{"An item of category O before one that took another default is the controller's fault of the own taxes, the 422's of the default",
			[]billingv1.LineItem{item(1, 100, o), item(1, 100, nil)}, s19, 1, true, 1},
		{"Own taxes that keep the rules put the fault on the first item that took the default",
			[]billingv1.LineItem{item(1, 100, nil), item(1, 100, apiTax("E", "0", "Exempt")),
				item(1, 100, apiTax("E", "0", "Exempt"))}, apiTax("O", "", "Not subject"), 1, false, 0},
		{"Own taxes that break a rule among themselves are at fault for both answers",
			[]billingv1.LineItem{item(1, 100, nil), item(1, 100, apiTax("E", "0", "a")),
				item(1, 100, apiTax("E", "0", "b"))}, s19, 2, true, -1},
		{"An item without tax next to one of category O is the controller's fault of the own taxes, the 422's of the default",
			[]billingv1.LineItem{item(1, 100, nil), item(1, 100, o)}, s19, 1, true, 0},
		{"An item at fault that took the default is the 422's default even when the own taxes break a rule",
			[]billingv1.LineItem{item(1, 100, o), item(1, 100, nil), item(1, 100, apiTax("E", "0", "a")),
				item(1, 100, apiTax("E", "0", "b"))}, s19, 1, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &billingv1.InvoiceSpec{Items: tt.items}
			_, err := billing.InvoiceAmounts(spec, billing.EffectiveDocumentTaxes(spec, tt.defaultTax))
			if err == nil {
				t.Fatal("the effective taxes keep the rules; the case needs one they break")
			}
			fault := billing.TaxFaultOf(spec, tt.defaultTax, err)
			if fault.Err == nil || fault.Err.Index != tt.wantLine {
				t.Errorf("Err = %v, want a rule broken at item %d", fault.Err, tt.wantLine)
			}
			if (fault.Own != nil) != tt.wantOwn {
				t.Errorf("Own = %v, want an error: %v", fault.Own, tt.wantOwn)
			}
			if fault.DefaultAt != tt.wantAt {
				t.Errorf("DefaultAt = %d, want %d", fault.DefaultAt, tt.wantAt)
			}
		})
	}
}

func TestSetAmounts(t *testing.T) {
	untaxed := []billingv1.LineItem{item(2, 100, nil)}
	taxed := []billingv1.LineItem{item(2, 100, apiTax("S", "19.00", ""))}
	tests := []struct {
		name      string
		items     []billingv1.LineItem
		wantItems bool
	}{
		{"Items without tax leave the breakdown and the items' taxes out", untaxed, false},
		{"Items with tax write the breakdown and each item's tax in its shortest form", taxed, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &billingv1.InvoiceSpec{Items: tt.items}
			taxes := billing.EffectiveDocumentTaxes(spec, nil)
			a, err := billing.InvoiceAmounts(spec, taxes)
			if err != nil {
				t.Fatal(err)
			}
			var st billingv1.InvoiceStatus
			st.Items = []billingv1.InvoiceItemStatus{{}}
			billing.SetAmounts(&st, spec, a, taxes)
			if *st.Subtotal != a.Subtotal || *st.TaxTotal != a.TaxTotal || *st.Total != a.Total {
				t.Errorf("amounts = %d/%d/%d, want %+v", *st.Subtotal, *st.TaxTotal, *st.Total, a)
			}
			if (st.Items != nil) != tt.wantItems || (st.TaxBreakdown != nil) != tt.wantItems {
				t.Fatalf("items %+v, breakdown %+v; want them written: %v", st.Items, st.TaxBreakdown, tt.wantItems)
			}
			if tt.wantItems && *st.Items[0].Tax.Rate != "19" {
				t.Errorf("item tax rate = %s, want 19", *st.Items[0].Tax.Rate)
			}
			inv := &billingv1.Invoice{Spec: billingv1.InvoiceSpec{Items: tt.items}, Status: st}
			got, ok := billing.TotalsOf(inv, taxes)
			computed, ok2 := billing.TotalsOf(&billingv1.Invoice{Spec: inv.Spec}, taxes)
			if !ok || !ok2 || !reflect.DeepEqual(got, computed) {
				t.Errorf("TotalsOf of the written status = %+v, computed = %+v; want them equal", got, computed)
			}
			billing.ClearAmounts(&st)
			if st.Subtotal != nil || st.TaxTotal != nil || st.Total != nil || st.Items != nil || st.TaxBreakdown != nil {
				t.Errorf("ClearAmounts left %+v", st)
			}
		})
	}
}
