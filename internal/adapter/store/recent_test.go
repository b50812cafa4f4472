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

package store

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Reading other replicas' writes on the last page of a list, behind the
// read barrier (recent.go, barrier.go).

// apiServer makes f.live answer lists as the API server does for the
// store: a metadata-only list (the barrier) with the current resource
// version (rv), and typed lists from a continue token the store built,
// with a limit.
type apiServer struct {
	rv          atomic.Value // string
	barriers    atomic.Int64 // metadata lists: barrier fetches
	objectLists atomic.Int64 // typed lists: pages read from the API server
}

func (f *fixture) apiServer(t *testing.T, rv string) *apiServer {
	t.Helper()
	api := &apiServer{}
	api.rv.Store(rv)
	f.list = func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		if l, ok := list.(*metav1.PartialObjectMetadataList); ok {
			api.barriers.Add(1)
			l.ResourceVersion = api.rv.Load().(string)
			return nil
		}
		api.objectLists.Add(1)
		o := (&client.ListOptions{}).ApplyOptions(opts)
		if err := c.List(ctx, list, client.InNamespace(o.Namespace)); err != nil {
			return err
		}
		start := ""
		if o.Continue != "" {
			key, _, err := storage.DecodeContinue(o.Continue, "/")
			if err != nil {
				return err
			}
			start = strings.TrimPrefix(key, "/")
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return err
		}
		var kept []runtime.Object
		for _, item := range items {
			if name := item.(client.Object).GetName(); name >= start {
				kept = append(kept, item)
			}
		}
		if o.Limit > 0 && int64(len(kept)) > o.Limit {
			kept = kept[:o.Limit]
			last := kept[len(kept)-1].(client.Object).GetName()
			token, err := storage.EncodeContinue("/"+last+"\x00", "/", 1)
			if err != nil {
				return err
			}
			list.SetContinue(token)
		}
		return meta.SetList(list, kept)
	}
	return api
}

// createdLive creates obj in the API server only, as another replica would.
func (f *fixture) createdLive(t *testing.T, obj client.Object) {
	t.Helper()
	if err := f.live.Create(t.Context(), obj.DeepCopyObject().(client.Object)); err != nil {
		t.Fatal(err)
	}
}

// cachedAt has the informer deliver obj at resource version rv.
func (f *fixture) cachedAt(t *testing.T, obj client.Object, rv string) {
	t.Helper()
	if err := f.cache.objects.Create(t.Context(), obj.DeepCopyObject().(client.Object)); err != nil {
		t.Fatal(err)
	}
	obj = obj.DeepCopyObject().(client.Object)
	obj.SetResourceVersion(rv)
	f.informer(t, obj).Add(obj)
}

func TestTheLastPageWaitsForTheInformerToDeliverWhatAnotherReplicaWrote(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	api := f.apiServer(t, "20")
	f.start(t)
	f.cachedAt(t, invoice("inv-01", "acme"), "10")
	f.cachedAt(t, invoice("inv-02", "acme"), "11")
	for _, b := range f.store.kinds {
		b.barrier.timeout = 5 * time.Second
	}

	type result struct {
		page string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		page, _, err := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
		done <- result{names(page), err}
	}()
	select {
	case r := <-done:
		t.Fatalf("the last page = %s, %v before the informer delivered the barrier", r.page, r.err)
	case <-time.After(100 * time.Millisecond):
	}
	// Created through another replica at resource version 20, and
	// delivered now.
	f.cachedAt(t, invoice("inv-03", "acme"), "20")
	r := <-done
	if r.err != nil || r.page != "inv-01,inv-02,inv-03" {
		t.Fatalf("the last page = %s, %v; want inv-01,inv-02,inv-03", r.page, r.err)
	}
	if n := api.objectLists.Load(); n != 0 {
		t.Errorf("%d pages read from the API server; want none: the cache has it all", n)
	}
	if n := api.barriers.Load(); n != 1 {
		t.Errorf("%d barriers; want 1", n)
	}
}

func TestAnEventOfAnotherWorkspaceReachesTheBarrierToo(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	api := f.apiServer(t, "20")
	f.start(t)
	f.cachedAt(t, invoice("inv-01", "acme"), "10")
	for _, b := range f.store.kinds {
		b.barrier.timeout = 5 * time.Second
	}
	done := make(chan string, 1)
	go func() {
		page, _, _ := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
		done <- names(page)
	}()
	time.Sleep(50 * time.Millisecond)
	elsewhere := invoice("inv-99", "globex")
	elsewhere.Namespace = "other"
	f.cachedAt(t, elsewhere, "21")
	if page := <-done; page != "inv-01" || api.objectLists.Load() != 0 {
		t.Fatalf("the last page = %s, with %d API reads; want inv-01 from the cache", page, api.objectLists.Load())
	}
}

func TestAnIdleInformerHasTheLastPageReadFromTheAPIServer(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	api := f.apiServer(t, "100")
	f.start(t)
	for i, name := range []string{"inv-01", "inv-02", "inv-03"} {
		f.cachedAt(t, invoice(name, "acme"), []string{"1", "2", "3"}[i])
		f.createdLive(t, invoice(name, "acme"))
	}
	// Created through another replica: in the API server, not yet in this
	// replica's cache, whose informer has delivered nothing since.
	f.createdLive(t, invoice("inv-05", "acme"))
	f.createdLive(t, invoice("inv-04", "globex"))
	for _, b := range f.store.kinds {
		b.barrier.timeout = 20 * time.Millisecond
	}
	time.Sleep(50 * time.Millisecond)

	page, more, err := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 2)
	if err != nil || names(page) != "inv-01,inv-02" || !more {
		t.Fatalf("first page = %s, %v, %v; want inv-01,inv-02 from the cache alone", names(page), more, err)
	}
	if api.barriers.Load() != 0 {
		t.Fatal("a page that is not the last took the barrier")
	}
	page, more, err = Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-02", 2)
	if err != nil || names(page) != "inv-03,inv-04" || !more {
		t.Fatalf("page after inv-02 = %s, %v, %v; want inv-03,inv-04 and more", names(page), more, err)
	}
	page, more, err = Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-04", 2)
	if err != nil || names(page) != "inv-05" || more {
		t.Fatalf("last page = %s, %v, %v; want inv-05", names(page), more, err)
	}
	page, _, err = Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws", CustomerID: "acme"}, "", 10)
	if err != nil || names(page) != "inv-01,inv-02,inv-03,inv-05" {
		t.Fatalf("acme's = %s, %v; want inv-01,inv-02,inv-03,inv-05", names(page), err)
	}
	if got := testutilCount(t, f.store.metrics, barrierIdle); got != 3 {
		t.Errorf("idle fallbacks = %v; want 3", got)
	}
}

func TestWithoutReadingOthersWritesTheLastPageIsTheCachesAlone(t *testing.T) {
	f := newFixture(t)
	api := f.apiServer(t, "100")
	f.start(t)
	f.cachedAt(t, invoice("inv-01", "acme"), "1")
	f.createdLive(t, invoice("inv-01", "acme"))
	f.createdLive(t, invoice("inv-02", "acme"))
	page, _, err := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
	if err != nil || names(page) != "inv-01" {
		t.Fatalf("page = %s, %v; want inv-01", names(page), err)
	}
	if api.barriers.Load() != 0 || api.objectLists.Load() != 0 {
		t.Error("the page asked the API server")
	}
}

// testutilCount is the number of last pages m counted as read from the API
// server after outcome.
func testutilCount(t *testing.T, m *metrics, outcome barrierOutcome) float64 {
	t.Helper()
	return testutil.ToFloat64(m.fallbacks.WithLabelValues(string(outcome)))
}
