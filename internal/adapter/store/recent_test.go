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
// store: a metadata-only list selected by name (the barrier) with the
// current resource version (rv), and metadata-only and typed lists from a
// continue token the store built, with a limit.
type apiServer struct {
	rv            atomic.Value // string
	barriers      atomic.Int64 // metadata lists by name: barrier fetches
	metadataLists atomic.Int64 // other metadata lists: pages confirmed
	objectLists   atomic.Int64 // typed lists: pages read from the API server
}

func (f *fixture) apiServer(t *testing.T, rv string) *apiServer {
	t.Helper()
	api := &apiServer{}
	api.rv.Store(rv)
	f.list = func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		o := (&client.ListOptions{}).ApplyOptions(opts)
		l, metadataOnly := list.(*metav1.PartialObjectMetadataList)
		if metadataOnly && o.FieldSelector != nil && !o.FieldSelector.Empty() {
			api.barriers.Add(1)
			l.ResourceVersion = api.rv.Load().(string)
			return nil
		}
		if !metadataOnly {
			api.objectLists.Add(1)
			return livePageOf(ctx, c, list, o)
		}
		api.metadataLists.Add(1)
		gvk := l.GroupVersionKind()
		full, err := c.Scheme().New(gvk)
		if err != nil {
			return err
		}
		if err := livePageOf(ctx, c, full.(client.ObjectList), o); err != nil {
			return err
		}
		items, err := meta.ExtractList(full)
		if err != nil {
			return err
		}
		for _, item := range items {
			obj := item.(client.Object)
			l.Items = append(l.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
				Namespace: obj.GetNamespace(), Name: obj.GetName(), ResourceVersion: obj.GetResourceVersion()}})
		}
		l.Continue = full.(client.ObjectList).GetContinue()
		return nil
	}
	return api
}

// livePageOf lists the namespace of o into list from o's continue token,
// at most o's limit, as the API server pages a list.
func livePageOf(ctx context.Context, c client.WithWatch, list client.ObjectList, o *client.ListOptions) error {
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
		page, _, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
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
		page, _, _ := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
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

	page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 2)
	if err != nil || names(page) != "inv-01,inv-02" || !more {
		t.Fatalf("first page = %s, %v, %v; want inv-01,inv-02 from the cache alone", names(page), more, err)
	}
	if api.barriers.Load() != 0 {
		t.Fatal("a page that is not the last took the barrier")
	}
	page, more, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-02", 2)
	if err != nil || names(page) != "inv-03,inv-04" || !more {
		t.Fatalf("page after inv-02 = %s, %v, %v; want inv-03,inv-04 and more", names(page), more, err)
	}
	page, more, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-04", 2)
	if err != nil || names(page) != "inv-05" || more {
		t.Fatalf("last page = %s, %v, %v; want inv-05", names(page), more, err)
	}
	page, _, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws", CustomerID: "acme"}, "", 10)
	if err != nil || names(page) != "inv-01,inv-02,inv-03,inv-05" {
		t.Fatalf("acme's = %s, %v; want inv-01,inv-02,inv-03,inv-05", names(page), err)
	}
	if got := testutilCount(t, f.store.metrics, barrierIdle); got != 3 {
		t.Errorf("idle fallbacks = %v; want 3", got)
	}
}

func TestAnIdleInformerWhosePageTheAPIServerConfirmsServesItFromTheCache(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	api := f.apiServer(t, "100")
	f.start(t)
	for i, name := range []string{"inv-01", "inv-02", "inv-03"} {
		f.cachedAt(t, invoice(name, "acme"), []string{"1", "2", "3"}[i])
		f.createdLive(t, invoice(name, "acme"))
	}
	for _, b := range f.store.kinds {
		b.barrier.timeout = 20 * time.Millisecond
	}
	time.Sleep(50 * time.Millisecond)

	page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-01", 10)
	if err != nil || names(page) != "inv-02,inv-03" || more {
		t.Fatalf("last page = %s, %v, %v; want inv-02,inv-03", names(page), more, err)
	}
	if api.metadataLists.Load() != 1 || api.objectLists.Load() != 0 {
		t.Errorf("%d metadata lists and %d object lists; want one metadata list, no objects read",
			api.metadataLists.Load(), api.objectLists.Load())
	}
	if got := testutil.ToFloat64(f.store.metrics.confirmed.WithLabelValues(string(barrierIdle))); got != 1 {
		t.Errorf("confirmed pages = %v; want 1", got)
	}

	// Changed in the API server since the informer last delivered it: the
	// cache's copy is older, and the page is read from the API server.
	changed := &billingv1.Invoice{}
	if err := f.live.Get(t.Context(), client.ObjectKey{Namespace: "ws", Name: "inv-03"}, changed); err != nil {
		t.Fatal(err)
	}
	changed.Annotations = map[string]string{"example.com/changed": "through another replica"}
	if err := f.live.Update(t.Context(), changed); err != nil {
		t.Fatal(err)
	}
	page, _, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-01", 10)
	if err != nil || names(page) != "inv-02,inv-03" || page[1].Annotations["example.com/changed"] == "" {
		t.Fatalf("last page = %s, %v; want inv-02,inv-03 with inv-03 as changed", names(page), err)
	}
	if api.objectLists.Load() != 1 || testutilCount(t, f.store.metrics, barrierIdle) != 1 {
		t.Errorf("%d object lists, %v idle fallbacks; want the page read from the API server once",
			api.objectLists.Load(), testutilCount(t, f.store.metrics, barrierIdle))
	}
}

func TestTheCachedPageIsConfirmedOnlyWhenItHoldsTheSameObjectsNoOlder(t *testing.T) {
	versionOf := func(name, rv string) metav1.PartialObjectMetadata {
		return metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv}}
	}
	cachedAt := func(name, rv string) *billingv1.Invoice {
		inv := invoice(name, "acme")
		inv.ResourceVersion = rv
		return inv
	}
	cached := []client.Object{cachedAt("inv-1", "5"), cachedAt("inv-2", "9")}
	cases := []struct {
		name  string
		live  []metav1.PartialObjectMetadata
		limit int
		want  bool
	}{
		{"the same objects at the same versions", []metav1.PartialObjectMetadata{versionOf("inv-1", "5"), versionOf("inv-2", "9")}, 10, true},
		{"the cache newer than the read", []metav1.PartialObjectMetadata{versionOf("inv-1", "4"), versionOf("inv-2", "9")}, 10, true},
		{"an object changed since the cache's copy", []metav1.PartialObjectMetadata{versionOf("inv-1", "5"), versionOf("inv-2", "12")}, 10, false},
		{"an object the cache lacks", []metav1.PartialObjectMetadata{versionOf("inv-1", "5"), versionOf("inv-15", "11"), versionOf("inv-2", "9")}, 10, false},
		{"an object the API server no longer has", []metav1.PartialObjectMetadata{versionOf("inv-1", "5")}, 10, false},
		{"a version that is not a number", []metav1.PartialObjectMetadata{versionOf("inv-1", "5"), versionOf("inv-2", "x")}, 10, false},
		{"only the first limit+1 compared", []metav1.PartialObjectMetadata{versionOf("inv-1", "5"), versionOf("inv-2", "9"), versionOf("inv-3", "1")}, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameOrNewer(cached[:min(len(cached), tc.limit+1)], tc.live, tc.limit); got != tc.want {
				t.Errorf("sameOrNewer = %v; want %v", got, tc.want)
			}
		})
	}
}

func TestAPageOfTheAPIServerListsItsNamespaceFromTheTokenOn(t *testing.T) {
	cases := []struct {
		name  string
		ns    string
		limit int64
		token string
		want  client.ListOptions
	}{
		{"a page without a token starts at the namespace's first object", "ws", 11, "",
			client.ListOptions{Namespace: "ws", Limit: 11}},
		{"a page with a token continues from it", "ws", 500, "abc",
			client.ListOptions{Namespace: "ws", Limit: 500, Continue: "abc"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := (&client.ListOptions{}).ApplyOptions(pageOptions(tc.ns, tc.limit, tc.token))
			if got.Namespace != tc.want.Namespace || got.Limit != tc.want.Limit || got.Continue != tc.want.Continue ||
				got.LabelSelector != nil || got.FieldSelector != nil || got.UnsafeDisableDeepCopy != nil {
				t.Errorf("pageOptions(%q, %d, %q) = %+v; want %+v", tc.ns, tc.limit, tc.token, *got, tc.want)
			}
		})
	}
}

func TestWithoutReadingOthersWritesTheLastPageIsTheCachesAlone(t *testing.T) {
	f := newFixture(t)
	api := f.apiServer(t, "100")
	f.start(t)
	f.cachedAt(t, invoice("inv-01", "acme"), "1")
	f.createdLive(t, invoice("inv-01", "acme"))
	f.createdLive(t, invoice("inv-02", "acme"))
	page, _, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
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

func TestAWholeWorkspacesPagesAreReadFromTheAPIServerWhileTheCacheWarms(t *testing.T) {
	f := newFixture(t)
	api := f.apiServer(t, "100")
	for _, name := range []string{"inv-01", "inv-02", "inv-03"} {
		f.createdLive(t, invoice(name, "acme"))
	}

	page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 2)
	if err != nil || names(page) != "inv-01,inv-02" || !more {
		t.Fatalf("first page = %s, %v, %v; want inv-01,inv-02 and more", names(page), more, err)
	}
	page, more, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "inv-02", 2)
	if err != nil || names(page) != "inv-03" || more {
		t.Fatalf("page after inv-02 = %s, %v, %v; want inv-03 alone", names(page), more, err)
	}
	if got := api.objectLists.Load(); got != 2 {
		t.Errorf("lists of invoices from the API server = %d; want one a page", got)
	}
	if got := testutil.ToFloat64(f.store.metrics.warmingPages); got != 2 {
		t.Errorf("pages counted as served while warming = %v; want 2", got)
	}
	if got := testutil.ToFloat64(f.store.metrics.cacheSynced); got != 0 {
		t.Errorf("cache_synced = %v before the sync; want 0", got)
	}

	f.start(t)
	f.cachedAt(t, invoice("inv-01", "acme"), "1")
	if page, _, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 2); err != nil ||
		names(page) != "inv-01" {
		t.Fatalf("page once synced = %s, %v; want inv-01, the cache's", names(page), err)
	}
	if got := api.objectLists.Load(); got != 2 {
		t.Errorf("a page once synced was read from the API server (%d lists)", got)
	}
	if got := testutil.ToFloat64(f.store.metrics.cacheSynced); got != 1 {
		t.Errorf("cache_synced = %v once synced; want 1", got)
	}
}
