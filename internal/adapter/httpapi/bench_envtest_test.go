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
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/cluster"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// BenchmarkListInvoices compares a page of GET /v1/invoices read through the
// name index and the informer cache, as the adapter does, with a page read
// from the API server: run with -bench ListInvoices and compare the two
// sub-benchmarks.
func BenchmarkListInvoices(b *testing.B) {
	env := testenv.StartTest(b, testenv.WithScheme(testScheme()))
	cfg, admin := env.Config, env.Client
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)

	a, err := newConnected(cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := a.conn.Start(ctx); err != nil {
		b.Fatal(err)
	}
	const ns, count = "bench", 500
	if err := admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		b.Fatal(err)
	}
	for i := range count {
		if err := admin.Create(ctx, builder.Invoice(ns, fmt.Sprintf("inv-%04d", i), inEUR("acme")...)); err != nil {
			b.Fatal(err)
		}
	}
	err = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		if !a.conn.Store.Synced() {
			return false, nil
		}
		page, _, err := pages[*billingv1.Invoice](a.conn.Store)(ctx, store.Selection{Namespace: ns}, "", count+1)
		return len(page) == count, err
	})
	if err != nil {
		b.Fatal(err)
	}

	b.Run("cache", func(b *testing.B) {
		for b.Loop() {
			page, more, err := pages[*billingv1.Invoice](a.conn.Store)(ctx, store.Selection{Namespace: ns}, "inv-0100", 20)
			if err != nil || len(page) != 20 || !more {
				b.Fatalf("got %d invoices, more %v, error %v", len(page), more, err)
			}
			for _, inv := range page {
				_ = apiobject.InvoiceOf(inv)
			}
		}
	})
	b.Run("api-server", func(b *testing.B) {
		for b.Loop() {
			var list billingv1.InvoiceList
			if err := admin.List(ctx, &list, client.InNamespace(ns), client.Limit(20)); err != nil {
				b.Fatal(err)
			}
			if len(list.Items) != 20 {
				b.Fatalf("got %d invoices", len(list.Items))
			}
			for i := range list.Items {
				_ = apiobject.InvoiceOf(&list.Items[i])
			}
		}
	})
}

// BenchmarkDecodeInvoice decodes and validates a create request's body.
func BenchmarkDecodeInvoice(b *testing.B) {
	body := []byte(`{"customer_id": "cus-01kaw7y9d2xq3m4n5p6r7s8t9v", "currency": "eur", "items": [
		{"description": "Consulting", "quantity": 3, "amount": 15000},
		{"description": "Travel", "quantity": 1, "amount": 42000},
		{"description": "Licences", "quantity": 25, "amount": 1999}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, e := DecodeInvoice(body); e != nil {
			b.Fatal(e)
		}
	}
}

// BenchmarkCursor encodes a next_cursor and decodes it back.
func BenchmarkCursor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		after, e := decodeCursor(encodeCursor(testScope, "inv-01kaw8c0ffee0123456789abcd"), testScope)
		if e != nil || after != "inv-01kaw8c0ffee0123456789abcd" {
			b.Fatal(after, e)
		}
	}
}

// BenchmarkAuthorizeCached authorizes gets of ever new ids by a caller
// allowed the whole resource: after the first SubjectAccessReview every
// answer comes from the cache. reviews/op counts the reviews actually sent
// (to a stub API server that allows everything).
func BenchmarkAuthorizeCached(b *testing.B) {
	var reviews atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reviews.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview",`+
			`"status":{"allowed":true}}`)
	}))
	b.Cleanup(srv.Close)
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	authz, err := cluster.NewAuthorizer(cs, time.Minute, time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	a := &Adapter{authz: authz}
	u := &user.DefaultInfo{Name: "system:serviceaccount:bench:client", UID: "42", Groups: []string{"system:serviceaccounts"}}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if e := a.authorize(ctx, u, "get", resourceInvoices, "bench", fmt.Sprintf("inv-%d", i)); e != nil {
			b.Fatal(e)
		}
		i++
	}
	b.ReportMetric(float64(reviews.Load())/float64(b.N), "reviews/op")
}

// BenchmarkWriteInvoicePage measures answering a page of 100 issued
// invoices with their JSON kept from an earlier page (encoded.go) and
// without: run with -bench WriteInvoicePage and compare the two.
func BenchmarkWriteInvoicePage(b *testing.B) {
	page := make([]*billingv1.Invoice, 100)
	for i := range page {
		inv := issuedFakeInvoice(&billingv1.InvoiceBalance{AmountRemaining: 3570, PaymentStatus: "open"}, 0)
		inv.Name, inv.UID, inv.ResourceVersion = fmt.Sprintf("inv-%04d", i), types.UID(fmt.Sprintf("uid-%d", i)), "42"
		page[i] = inv
	}
	req := httptest.NewRequest(http.MethodGet, "/v1/invoices", nil)
	scope := listScope{workspace: "acme", resource: resourceInvoices}
	for _, bc := range []struct {
		name  string
		cache *encodedCache
	}{{"encoded-cache", newEncodedCache(64 << 20)}, {"no-cache", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				writePage(httptest.NewRecorder(), req, scope, page, true, apiobject.InvoiceOf, bc.cache)
			}
		})
	}
}
