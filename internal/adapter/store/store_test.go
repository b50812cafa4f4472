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
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache/informertest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllertest"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The store against fakes: controller-runtime's fake informers deliver
// events, a fake client stands for what the informers' cache holds, and
// another for the API server.

// fakeCache is a cache whose informers are fakes and whose reads are
// answered from objects.
type fakeCache struct {
	*informertest.FakeInformers
	objects client.Client
}

func (c fakeCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	return c.objects.Get(ctx, key, obj)
}

func (c fakeCache) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return c.objects.List(ctx, list, opts...)
}

// GetInformer returns the fake informer without its indexer (an empty one
// of its own), so that the store reads the objects through Get.
func (c fakeCache) GetInformer(ctx context.Context, obj client.Object, opts ...cache.InformerGetOption) (
	cache.Informer, error) {
	inf, err := c.FakeInformers.GetInformer(ctx, obj, opts...)
	return struct{ cache.Informer }{inf}, err
}

type fixture struct {
	store     *Store
	cache     fakeCache
	live      client.Client
	liveReads atomic.Int64
	now       time.Time
	// list, when set, answers f.live's lists.
	list func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	if err := billingv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	f := &fixture{now: time.Unix(1_800_000_000, 0)}
	f.cache = fakeCache{
		FakeInformers: &informertest.FakeInformers{Scheme: s},
		objects:       fake.NewClientBuilder().WithScheme(s).Build(),
	}
	f.live = fake.NewClientBuilder().WithScheme(s).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			f.liveReads.Add(1)
			return c.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if f.list != nil {
				return f.list(ctx, c, list, opts...)
			}
			return c.List(ctx, list, opts...)
		},
	}).Build()
	f.store = New(f.cache, f.live, Options{ReadYourWritesTimeout: time.Minute, Now: func() time.Time { return f.now }})
	return f
}

// start starts the store and waits until it is synced.
func (f *fixture) start(t *testing.T) {
	t.Helper()
	if err := f.store.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !f.store.Synced() {
		if time.Now().After(deadline) {
			t.Fatal("the store did not sync")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cached puts obj into the cache and has the informer deliver it.
func (f *fixture) cached(t *testing.T, obj client.Object) {
	t.Helper()
	if err := f.cache.objects.Create(t.Context(), obj.DeepCopyObject().(client.Object)); err != nil {
		t.Fatal(err)
	}
	f.informer(t, obj).Add(obj)
}

// deleted takes obj out of the cache without the informer saying so yet.
func (f *fixture) deleted(t *testing.T, obj client.Object) {
	t.Helper()
	if err := f.cache.objects.Delete(t.Context(), obj.DeepCopyObject().(client.Object)); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) informer(t *testing.T, obj client.Object) *controllertest.FakeInformer {
	t.Helper()
	inf, err := f.cache.FakeInformerFor(t.Context(), obj)
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

func customer(name string) *billingv1.Customer {
	return &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ws"},
		Spec: billingv1.CustomerSpec{Name: "Ada", Email: "ada@example.com"}}
}

func invoice(name, customer string) *billingv1.Invoice {
	return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: customer}}}
}

func names[PT client.Object](page []PT) string {
	out := make([]string, len(page))
	for i, o := range page {
		out[i] = o.GetName()
	}
	return strings.Join(out, ",")
}

func TestGetReadsTheCacheThenTheAPIServer(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	f.cached(t, customer("cus-cached"))
	if err := f.live.Create(t.Context(), customer("cus-live")); err != nil {
		t.Fatal(err)
	}

	var got billingv1.Customer
	if found, err := f.store.Get(t.Context(), "ws", "cus-cached", &got); !found || err != nil || got.Spec.Name != "Ada" {
		t.Errorf("cached: %v, %v, %q", found, err, got.Spec.Name)
	}
	if n := f.liveReads.Load(); n != 0 {
		t.Errorf("a cached object cost %d reads of the API server", n)
	}
	if found, err := f.store.Get(t.Context(), "ws", "cus-live", &got); !found || err != nil {
		t.Errorf("an object only the API server has yet: %v, %v", found, err)
	}
	if found, err := f.store.Get(t.Context(), "ws", "cus-nowhere", &got); found || err != nil {
		t.Errorf("a missing object: %v, %v", found, err)
	}
	reads := f.liveReads.Load()
	for _, name := range []string{"", "UPPER", "../x", strings.Repeat("a", 254)} {
		if found, err := f.store.Get(t.Context(), "ws", name, &got); found || err != nil {
			t.Errorf("the name %q: %v, %v", name, found, err)
		}
	}
	if n := f.liveReads.Load() - reads; n != 0 {
		t.Errorf("names no object can have cost %d reads of the API server", n)
	}
}

func TestGetReadsTheAPIServerBeforeTheCacheHasSynced(t *testing.T) {
	f := newFixture(t)
	if err := f.live.Create(t.Context(), customer("cus-a")); err != nil {
		t.Fatal(err)
	}
	var got billingv1.Customer
	if found, err := f.store.Get(t.Context(), "ws", "cus-a", &got); !found || err != nil || f.liveReads.Load() != 1 {
		t.Errorf("Get = %v, %v after %d reads of the API server", found, err, f.liveReads.Load())
	}
}

func TestACreatedObjectIsReadAtOnceUntilTheInformerDeliversIt(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	f.cached(t, invoice("inv-a", "acme"))
	made := invoice("inv-b", "acme")
	f.store.Created(made)

	var got billingv1.Invoice
	if found, err := f.store.Get(t.Context(), "ws", "inv-b", &got); !found || err != nil || got.Spec.CustomerRef.Name != "acme" {
		t.Errorf("Get of the created invoice = %v, %v, %+v", found, err, got.Spec)
	}
	if f.liveReads.Load() != 0 {
		t.Error("a created object was read from the API server")
	}
	page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws", CustomerID: "acme"}, "", 10)
	if err != nil || more || names(page) != "inv-a,inv-b" {
		t.Errorf("Page = %s, %v, %v; want inv-a,inv-b", names(page), more, err)
	}

	f.cached(t, made)
	page, _, err = typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
	if err != nil || names(page) != "inv-a,inv-b" {
		t.Errorf("after delivery Page = %s, %v", names(page), err)
	}
}

func TestPagesFollowOneAnotherAndSkipDeletedObjects(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	for _, n := range []string{"cus-a", "cus-b", "cus-c", "cus-d", "cus-e"} {
		f.cached(t, customer(n))
	}
	f.deleted(t, customer("cus-b"))
	all := Selection{Namespace: "ws"}
	first, more, err := typedPage[billingv1.Customer](t.Context(), f.store, all, "", 2)
	if err != nil || !more || names(first) != "cus-a,cus-c" {
		t.Fatalf("first page = %s, %v, %v; want cus-a,cus-c and more", names(first), more, err)
	}
	last, more, err := typedPage[billingv1.Customer](t.Context(), f.store, all, "cus-c", 2)
	if err != nil || more || names(last) != "cus-d,cus-e" {
		t.Errorf("last page = %s, %v, %v; want cus-d,cus-e and no more", names(last), more, err)
	}
	other, _, err := typedPage[billingv1.Customer](t.Context(), f.store, Selection{Namespace: "other"}, "", 2)
	if err != nil || len(other) != 0 {
		t.Errorf("another workspace = %s, %v; want nothing", names(other), err)
	}
}

func TestAFilteredPageWaitsForTheCacheOnlyAsLongAsTheRequest(t *testing.T) {
	f := newFixture(t)
	api := f.apiServer(t, "100")
	for _, sel := range []Selection{{Namespace: "ws", Email: "ada@example.com"}, {Namespace: "ws", CustomerID: "acme"}} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		if _, _, err := typedPage[billingv1.Customer](ctx, f.store, sel, "", 2); !errors.Is(err, ErrNotSynced) {
			t.Errorf("Page of %s = %v; want ErrNotSynced", sel.key(), err)
		}
		cancel()
	}
	if n := api.objectLists.Load() + api.barriers.Load(); n != 0 {
		t.Errorf("a filtered page asked the API server %d times while the cache warmed", n)
	}
}

func TestPageRefusesAKindTheStoreDoesNotHold(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	cases := []struct {
		name string
		kind *recordkind.Kind
	}{
		{"a kind the store does not cache", &recordkind.Kind{Name: "Unknown", New: recordkind.Email.New,
			NewList: recordkind.Email.NewList}},
		{"no kind at all (a type of no row)", recordkind.Of(&corev1.ConfigMap{})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := f.store.Page(t.Context(), tc.kind, Selection{Namespace: "ws"}, "", 2); err == nil {
				t.Error("Page succeeded")
			}
		})
	}
}

func withPhase(inv *billingv1.Invoice, p billingv1.InvoicePhase) *billingv1.Invoice {
	inv.Status.Phase = p
	return inv
}

func TestFilteredPagesFillUpToTheLimit(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	phases := []billingv1.InvoicePhase{"", billingv1.InvoiceIssued, billingv1.InvoiceInvalid, billingv1.InvoicePending}
	for i := range 12 {
		customerName := []string{"acme", "globex"}[i%2]
		f.cached(t, withPhase(invoice(fmt.Sprintf("inv-%02d", i), customerName), phases[i%4]))
	}
	cases := []struct {
		name string
		sel  Selection
		want []string // pages of 2
	}{
		{"pending, an invoice without a phase included", Selection{Namespace: "ws", Phase: billingv1.InvoicePending},
			[]string{"inv-00,inv-03", "inv-04,inv-07", "inv-08,inv-11"}},
		{"issued", Selection{Namespace: "ws", Phase: billingv1.InvoiceIssued},
			[]string{"inv-01,inv-05", "inv-09"}},
		{"one customer's pending", Selection{Namespace: "ws", CustomerID: "acme", Phase: billingv1.InvoicePending},
			[]string{"inv-00,inv-04", "inv-08"}},
		{"one customer's invalid", Selection{Namespace: "ws", CustomerID: "acme", Phase: billingv1.InvoiceInvalid},
			[]string{"inv-02,inv-06", "inv-10"}},
		{"another customer's invalid", Selection{Namespace: "ws", CustomerID: "globex", Phase: billingv1.InvoiceInvalid},
			[]string{""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := ""
			for i, want := range tc.want {
				page, more, err := typedPage[billingv1.Invoice](t.Context(), f.store, tc.sel, after, 2)
				if err != nil || names(page) != want || more != (i < len(tc.want)-1) {
					t.Fatalf("page %d = %s, %v, %v; want %s", i, names(page), more, err, want)
				}
				if len(page) > 0 {
					after = page[len(page)-1].GetName()
				}
			}
		})
	}
}

func TestAnInvoiceMovesBetweenPhaseListsWithoutLeavingItsWorkspaceList(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	pending := invoice("inv-a", "acme")
	f.cached(t, pending)
	f.cached(t, invoice("inv-b", "acme"))
	issued := &billingv1.Invoice{}
	if err := f.cache.objects.Get(t.Context(), client.ObjectKeyFromObject(pending), issued); err != nil {
		t.Fatal(err)
	}
	issued.Status.Phase = billingv1.InvoiceIssued

	phase := func(p billingv1.InvoicePhase) string {
		page, _, err := typedPage[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws", Phase: p}, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		return names(page)
	}
	// The cache has the issued invoice, the index has not heard of it yet:
	// the pending list skips it and still fills from the next names.
	if err := f.cache.objects.Update(t.Context(), issued.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if got := phase(billingv1.InvoicePending); got != "inv-b" {
		t.Errorf("pending before the event = %s; want inv-b", got)
	}
	f.informer(t, issued).Update(pending, issued)
	if got := phase(billingv1.InvoicePending); got != "inv-b" {
		t.Errorf("pending = %s; want inv-b", got)
	}
	if got := phase(billingv1.InvoiceIssued); got != "inv-a" {
		t.Errorf("issued = %s; want inv-a", got)
	}
	if got := phase(""); got != "inv-a,inv-b" {
		t.Errorf("all = %s; want inv-a,inv-b", got)
	}
}

func TestCustomersAreSelectedByTheirExactEmail(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	for i, email := range []string{"ada@example.com", "Ada@example.com", "ada@example.com", "grace@example.com", "a|email=b@c"} {
		c := customer(fmt.Sprintf("cus-%d", i))
		c.Spec.Email = email
		f.cached(t, c)
	}
	for email, want := range map[string]string{
		"ada@example.com": "cus-0,cus-2", "Ada@example.com": "cus-1", "a|email=b@c": "cus-4", "nobody@example.com": "",
	} {
		page, more, err := typedPage[billingv1.Customer](t.Context(), f.store, Selection{Namespace: "ws", Email: email}, "", 10)
		if err != nil || more || names(page) != want {
			t.Errorf("email %q = %s, %v, %v; want %s", email, names(page), more, err, want)
		}
	}
}

// typedPage is the store's Page of PT's kind, as PTs.
func typedPage[T any, PT interface {
	*T
	client.Object
}](ctx context.Context, s *Store, sel Selection, after string, limit int) ([]PT, bool, error) {
	objs, more, err := s.Page(ctx, recordkind.Of(PT(new(T))), sel, after, limit)
	if err != nil {
		return nil, false, err
	}
	page, err := Typed[PT](objs)
	return page, more, err
}
