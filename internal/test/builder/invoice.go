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

package builder

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// InvoiceOption changes an Invoice of Invoice.
type InvoiceOption func(*billingv1.Invoice)

// Invoice returns an Invoice named name in namespace ns. Without options
// it has no customer and no items (the API server refuses it); WithCustomer
// and WithItem fill them in. The currency is left to the CRD's default
// (USD) unless WithCurrency sets it.
func Invoice(ns, name string, opts ...InvoiceOption) *billingv1.Invoice {
	inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, opt := range opts {
		opt(inv)
	}
	return inv
}

// WithCustomer sets spec.customerRef.name.
func WithCustomer(name string) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.CustomerRef.Name = name }
}

// WithItem appends a line item of quantity times amount (minor units).
func WithItem(description string, quantity, amount int64) InvoiceOption {
	return func(inv *billingv1.Invoice) {
		inv.Spec.Items = append(inv.Spec.Items,
			billingv1.LineItem{Description: description, Quantity: billingv1.Units(quantity), Amount: amount})
	}
}

// WithItems sets the line items to items.
func WithItems(items ...billingv1.LineItem) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Items = items }
}

// WithNumberedItems appends n line items "Line 1" .. "Line n" of quantity
// times amount.
func WithNumberedItems(n int, quantity, amount int64) InvoiceOption {
	return func(inv *billingv1.Invoice) {
		for i := range n {
			WithItem(fmt.Sprintf("Line %d", i+1), quantity, amount)(inv)
		}
	}
}

// WithNoItems sets an empty, not a missing, list of items.
func WithNoItems() InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Items = []billingv1.LineItem{} }
}

// WithCurrency sets spec.currency.
func WithCurrency(currency string) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Currency = currency }
}

// WithTaxedItem appends a line item of quantity times amount with tax.
func WithTaxedItem(description string, quantity, amount int64, tax *billingv1.Tax) InvoiceOption {
	return func(inv *billingv1.Invoice) {
		inv.Spec.Items = append(inv.Spec.Items,
			billingv1.LineItem{Description: description, Quantity: billingv1.Units(quantity), Amount: amount, Tax: tax})
	}
}

// WithDefaultTaxFrom sets spec.defaultTaxFrom.
func WithDefaultTaxFrom(source billingv1.DefaultTaxSource) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.DefaultTaxFrom = source }
}

// WithLine appends item as it is: a decimal quantity, a unit, a discount.
func WithLine(item billingv1.LineItem) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Items = append(inv.Spec.Items, item) }
}

// WithAllowance appends a document allowance.
func WithAllowance(a billingv1.DocumentAllowance) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Allowances = append(inv.Spec.Allowances, a) }
}

// WithCharge appends a document charge.
func WithCharge(c billingv1.DocumentCharge) InvoiceOption {
	return func(inv *billingv1.Invoice) { inv.Spec.Charges = append(inv.Spec.Charges, c) }
}
