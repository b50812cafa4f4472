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
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Reading other replicas' writes on the last page of a list (recent.go).

// createdLive creates obj in the API server only, as another replica would,
// labelled as created at at.
func (f *fixture) createdLive(t *testing.T, obj client.Object, at time.Time) {
	t.Helper()
	obj.SetLabels(CreatedLabels(at))
	if err := f.live.Create(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
}

func TestTheLastPageReadsWhatAnotherReplicaCreatedAMomentAgo(t *testing.T) {
	f := newFixture(t)
	f.store.opts.ReadOthersWrites = true
	f.start(t)
	for _, name := range []string{"inv-01", "inv-02", "inv-03"} {
		f.cached(t, invoice(name, "acme"))
	}
	// Created through another replica: in the API server, not yet in this
	// replica's cache. inv-00 sorts first but was created long ago (the
	// informer has surely delivered such an object, so it is not looked
	// for); inv-04 is recent but another customer's.
	f.createdLive(t, invoice("inv-05", "acme"), f.now.Add(-3*time.Second))
	f.createdLive(t, invoice("inv-04", "globex"), f.now)
	f.createdLive(t, invoice("inv-00", "acme"), f.now.Add(-time.Hour))

	page, more, err := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 2)
	if err != nil || names(page) != "inv-01,inv-02" || !more {
		t.Fatalf("first page = %s, %v, %v; want inv-01,inv-02 from the cache alone", names(page), more, err)
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
	// What was read is served like this replica's own creates until the
	// informer delivers it.
	var got billingv1.Invoice
	reads := f.liveReads.Load()
	if found, err := f.store.Get(t.Context(), "ws", "inv-05", &got); !found || err != nil {
		t.Fatalf("get inv-05 = %v, %v", found, err)
	}
	if f.liveReads.Load() != reads {
		t.Error("the get read the API server again")
	}
}

func TestWithoutReadingOthersWritesTheLastPageIsTheCachesAlone(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	f.cached(t, invoice("inv-01", "acme"))
	f.createdLive(t, invoice("inv-02", "acme"), f.now)
	page, _, err := Page[billingv1.Invoice](t.Context(), f.store, Selection{Namespace: "ws"}, "", 10)
	if err != nil || names(page) != "inv-01" {
		t.Fatalf("page = %s, %v; want inv-01", names(page), err)
	}
}
