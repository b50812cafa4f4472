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

// This file is what another project's envtest suite does to work with
// customers and invoices: the package is imported from outside, as a
// downstream module imports it.
package crd_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/envtestbins"
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

// A downstream envtest suite installs the CRDs with envtest.Environment's
// CRDs field and then creates customers and invoices with the typed client.
func TestADownstreamEnvtestSuiteCanCreateInvoices(t *testing.T) {
	envtestbins.Require(t)
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	testEnv := &envtest.Environment{CRDs: crds, Scheme: scheme}
	cfg, err := testEnv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := testEnv.Stop(); err != nil {
			t.Error(err)
		}
	})
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	customer := &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: "default"},
		Spec:       billingv1.CustomerSpec{Name: "Acme Corporation", Email: "billing@acme.example"},
	}
	invoice := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "acme-001", Namespace: "default"},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "acme"},
			Items:       []billingv1.LineItem{{Description: "Consulting", Quantity: 3, Amount: 15000}},
		},
	}
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
	got.Spec.Items[0].Quantity = 4
	if err := c.Update(ctx, got); err == nil {
		t.Error("the API server accepted a change of an invoice's spec")
	}
}
