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

// This file is what another project's envtest suite does to work with
// customers and invoices: the package is imported from outside, as a
// downstream module imports it.
package crd_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

func TestCRDsHoldsEveryKindOfTheAPI(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range crds {
		kinds[c.Spec.Names.Kind] = true
	}
	api := reflect.TypeFor[billingv1.Invoice]().PkgPath()
	for kind, typ := range scheme.KnownTypes(billingv1.GroupVersion) {
		if typ.PkgPath() == api && !strings.HasSuffix(kind, "List") && !kinds[kind] {
			t.Errorf("CRDs() has no CRD for %s", kind)
		}
	}
	if len(kinds) == 0 {
		t.Error("CRDs() returned none")
	}
}

// A downstream envtest suite installs the CRDs with the CRDs field of
// envtest's Environment (here through internal/test/testenv, which sets it)
// and then creates customers and invoices with the typed client.
func TestADownstreamEnvtestSuiteCanCreateInvoices(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client

	ctx := context.Background()
	customer := builder.Customer("default", "acme",
		builder.WithDisplayName("Acme Corporation"), builder.WithEmail("billing@acme.example"))
	invoice := builder.Invoice("default", "acme-001",
		builder.WithCustomer("acme"), builder.WithItem("Consulting", 3, 15000))
	for _, obj := range []client.Object{customer, invoice} {
		if err := c.Create(ctx, obj); err != nil {
			t.Fatalf("creating %s: %v", obj.GetName(), err)
		}
	}
	got := &billingv1.Invoice{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(invoice), got); err != nil {
		t.Fatal(err)
	}
	// The API server applied the CRD's defaults: these are the real CRDs.
	if got.Spec.Currency != "USD" || got.Status.Phase != billingv1.InvoicePending {
		t.Errorf("invoice read back with currency %q and phase %q, want USD and Pending", got.Spec.Currency, got.Status.Phase)
	}
	// And its validation: an invoice's spec is immutable.
	got.Spec.Items[0].Quantity = billingv1.Units(4)
	if err := c.Update(ctx, got); err == nil {
		t.Error("the API server accepted a change of an invoice's spec")
	}
}
