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

package builder_test

import (
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestAnInvoiceWithoutOptionsHasOnlyItsNamespaceAndName(t *testing.T) {
	inv := builder.Invoice("ws", "inv-1")
	if inv.Namespace != "ws" || inv.Name != "inv-1" {
		t.Errorf("got %s/%s, want ws/inv-1", inv.Namespace, inv.Name)
	}
	if !reflect.DeepEqual(inv.Spec, billingv1.InvoiceSpec{}) {
		t.Errorf("got spec %+v, want an empty one", inv.Spec)
	}
}

func TestInvoiceOptionsApplyInOrder(t *testing.T) {
	inv := builder.Invoice("ws", "inv-1",
		builder.WithCustomer("acme"),
		builder.WithCurrency("EUR"),
		builder.WithItem("Consulting", 3, 15000),
		builder.WithNumberedItems(2, 1, 100))
	want := billingv1.InvoiceSpec{
		CustomerRef: billingv1.CustomerReference{Name: "acme"},
		Currency:    "EUR",
		Items: []billingv1.LineItem{
			{Description: "Consulting", Quantity: 3, Amount: 15000},
			{Description: "Line 1", Quantity: 1, Amount: 100},
			{Description: "Line 2", Quantity: 1, Amount: 100},
		},
	}
	if !reflect.DeepEqual(inv.Spec, want) {
		t.Errorf("got %+v, want %+v", inv.Spec, want)
	}
	if got := builder.Invoice("ws", "inv-2", builder.WithItem("x", 1, 1), builder.WithNoItems()).Spec.Items; got == nil || len(got) != 0 {
		t.Errorf("WithNoItems gave %#v, want an empty, not a missing, list", got)
	}
}

func TestACustomerIsValidWithoutOptions(t *testing.T) {
	c := builder.Customer("ws", "acme")
	if c.Spec.Name != "Customer acme" || c.Spec.Email != "billing@acme.example" {
		t.Errorf("got name %q and email %q", c.Spec.Name, c.Spec.Email)
	}
	c = builder.Customer("ws", "acme", builder.WithDisplayName("Acme"), builder.WithEmail("a@acme.example"), builder.WithTaxID("DE1"))
	if c.Spec.Name != "Acme" || c.Spec.Email != "a@acme.example" || c.Spec.TaxID != "DE1" {
		t.Errorf("options not applied: %+v", c.Spec)
	}
}

func TestAWebhookEndpointDeliversIssuedInvoicesByDefault(t *testing.T) {
	e := builder.WebhookEndpoint("ws", "erp", "https://erp.example/hooks", "signing", "secret",
		builder.WithPaused(true), builder.WithStartAfterSequence(7))
	want := billingv1.WebhookEndpointSpec{
		URL:                "https://erp.example/hooks",
		SecretRef:          billingv1.SecretKeyRef{Name: "signing", Key: "secret"},
		Events:             []string{billingv1.EventInvoiceIssued},
		Paused:             true,
		StartAfterSequence: 7,
	}
	if !reflect.DeepEqual(e.Spec, want) {
		t.Errorf("got %+v, want %+v", e.Spec, want)
	}
}
