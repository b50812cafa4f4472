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
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// BenchmarkListInvoices compares a page of GET /v1/invoices read from the
// informer cache, as the adapter does, with the same page read from the API
// server: run with -bench ListInvoices and compare the two sub-benchmarks.
func BenchmarkListInvoices(b *testing.B) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		b.Fatal("KUBEBUILDER_ASSETS must name the envtest binaries (see the Makefile's bench target)")
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = env.Stop() })
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)

	a, err := New(cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := a.startCache(ctx); err != nil {
		b.Fatal(err)
	}
	admin, err := client.New(cfg, client.Options{Scheme: Scheme()})
	if err != nil {
		b.Fatal(err)
	}
	const ns, count = "bench", 500
	if err := admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		b.Fatal(err)
	}
	for i := range count {
		if err := admin.Create(ctx, newInvoice(ns, fmt.Sprintf("inv-%04d", i), "acme")); err != nil {
			b.Fatal(err)
		}
	}
	err = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		var list billingv1.InvoiceList
		if !a.synced.Load() {
			return false, nil
		}
		err := a.cache.List(ctx, &list, client.InNamespace(ns))
		return len(list.Items) == count, err
	})
	if err != nil {
		b.Fatal(err)
	}

	for _, src := range []struct {
		name   string
		reader client.Reader
		opts   []client.ListOption
	}{
		{"cache", a.cache, []client.ListOption{client.InNamespace(ns), client.UnsafeDisableDeepCopy}},
		{"api-server", a.live, []client.ListOption{client.InNamespace(ns)}},
	} {
		b.Run(src.name, func(b *testing.B) {
			for b.Loop() {
				var list billingv1.InvoiceList
				if err := src.reader.List(ctx, &list, src.opts...); err != nil {
					b.Fatal(err)
				}
				page, _ := pageOf(list.Items, func(i *billingv1.Invoice) string { return i.Name }, "inv-0100", 20)
				if len(page) != 20 {
					b.Fatalf("got %d invoices", len(page))
				}
				for _, inv := range page {
					_ = invoiceJSON(inv)
				}
			}
		})
	}
}
