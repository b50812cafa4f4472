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

package trim

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestWithoutStatusEntries(t *testing.T) {
	creator := metav1.ManagedFieldsEntry{Manager: "argocd-controller", Operation: metav1.ManagedFieldsOperationApply}
	adapter := metav1.ManagedFieldsEntry{Manager: "adapter", Operation: metav1.ManagedFieldsOperationUpdate}
	status := metav1.ManagedFieldsEntry{Manager: "manager", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"}
	other := metav1.ManagedFieldsEntry{Manager: "kubectl-edit", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"}
	for _, tc := range []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		kept    []metav1.ManagedFieldsEntry
		found   bool
	}{
		{"the manager's status entry is dropped and the creator's kept", []metav1.ManagedFieldsEntry{creator, status},
			[]metav1.ManagedFieldsEntry{creator}, true},
		{"every status entry is dropped, whoever wrote it", []metav1.ManagedFieldsEntry{adapter, status, other},
			[]metav1.ManagedFieldsEntry{adapter}, true},
		{"entries without a status entry are left as they are", []metav1.ManagedFieldsEntry{creator, adapter},
			[]metav1.ManagedFieldsEntry{creator, adapter}, false},
		{"only status entries leave none", []metav1.ManagedFieldsEntry{status}, []metav1.ManagedFieldsEntry{}, true},
		{"no entries find nothing", nil, []metav1.ManagedFieldsEntry{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, found := withoutStatusEntries(tc.entries)
			if found != tc.found || len(kept) != len(tc.kept) {
				t.Fatalf("got %v, %t; want %v, %t", kept, found, tc.kept, tc.found)
			}
			for i := range kept {
				if kept[i].Manager != tc.kept[i].Manager || kept[i].Subresource != tc.kept[i].Subresource {
					t.Errorf("entry %d is %v, want %v", i, kept[i], tc.kept[i])
				}
			}
		})
	}
}

func TestManagedFieldsPatch(t *testing.T) {
	creator := metav1.ManagedFieldsEntry{Manager: "kubectl-create", Operation: metav1.ManagedFieldsOperationUpdate}
	for _, tc := range []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		want    string
	}{
		{"the kept entries are sent with the resource version as a lock", []metav1.ManagedFieldsEntry{creator},
			`{"metadata":{"managedFields":[{"manager":"kubectl-create","operation":"Update"}],"resourceVersion":"42"}}`},
		{"no entries are sent as one empty entry, which clears them", nil,
			`{"metadata":{"managedFields":[{}],"resourceVersion":"42"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := managedFieldsPatch(tc.entries, "42")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestChangedBeyondBookkeeping(t *testing.T) {
	issued := func(rv string, change func(*billingv1.Invoice)) *billingv1.Invoice {
		inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ws", Name: "inv-1", ResourceVersion: rv,
			Labels: map[string]string{"team": "a"}}}
		inv.Status.Phase = billingv1.InvoiceIssued
		inv.Status.Number = "INV-000001"
		if change != nil {
			change(inv)
		}
		return inv
	}
	for _, tc := range []struct {
		name     string
		old, new *billingv1.Invoice
		passes   bool
	}{
		{"an update of the resource version alone is dropped", issued("1", nil), issued("2", nil), false},
		{"an update of the resource version and managed fields is dropped", issued("1", nil),
			issued("2", func(i *billingv1.Invoice) {
				i.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl-create"}}
			}), false},
		{"a status change passes", issued("1", nil),
			issued("2", func(i *billingv1.Invoice) { i.Status.Phase = billingv1.InvoicePending }), true},
		{"a label change passes", issued("1", nil),
			issued("2", func(i *billingv1.Invoice) { i.Labels["team"] = "b" }), true},
		{"a resync of the same resource version passes", issued("1", nil), issued("1", nil), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oldRV, newRV := tc.old.ResourceVersion, tc.new.ResourceVersion
			if got := ChangedBeyondBookkeeping.Update(event.UpdateEvent{ObjectOld: tc.old, ObjectNew: tc.new}); got != tc.passes {
				t.Errorf("passes = %t, want %t", got, tc.passes)
			}
			if tc.old.ResourceVersion != oldRV || tc.new.ResourceVersion != newRV {
				t.Errorf("the cached objects were changed: resource versions %q and %q",
					tc.old.ResourceVersion, tc.new.ResourceVersion)
			}
		})
	}
	t.Run("a credit note or payment updated only in its resource version is dropped", func(t *testing.T) {
		for _, pair := range [][2]client.Object{
			{&billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn", ResourceVersion: "1"}},
				&billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn", ResourceVersion: "2"}}},
			{&billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay", ResourceVersion: "1"}},
				&billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay", ResourceVersion: "2"}}},
		} {
			if ChangedBeyondBookkeeping.Update(event.UpdateEvent{ObjectOld: pair[0], ObjectNew: pair[1]}) {
				t.Errorf("%T passed", pair[0])
			}
		}
	})
	t.Run("an object of another kind passes", func(t *testing.T) {
		old := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "c", ResourceVersion: "1"}}
		new := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "c", ResourceVersion: "2"}}
		if !ChangedBeyondBookkeeping.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: new}) {
			t.Error("a customer's update was dropped")
		}
	})
}

func TestOwnershipQueueAdd(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).Build()
	withStatusEntry := func(name string) *billingv1.Invoice {
		return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ws", Name: name, ResourceVersion: "7",
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl-create"}, {Manager: "manager", Subresource: "status"}}}}
	}

	t.Run("an object without a status entry needs nothing queued", func(t *testing.T) {
		q := newOwnershipQueue(c, 1, 1)
		if !q.add(&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "inv-0"}}) || len(q.items) != 0 {
			t.Fatalf("queued %d", len(q.items))
		}
	})
	t.Run("an invoice with a status entry is queued as its metadata with its kind", func(t *testing.T) {
		q := newOwnershipQueue(c, 1, 1)
		if !q.add(withStatusEntry("inv-1")) {
			t.Fatal("not queued")
		}
		item := (<-q.items).(*metav1.PartialObjectMetadata)
		if item.Kind != "Invoice" || item.Name != "inv-1" || item.ResourceVersion != "7" || len(item.ManagedFields) != 2 {
			t.Errorf("queued %+v", item)
		}
	})
	t.Run("a full queue refuses without blocking", func(t *testing.T) {
		q := newOwnershipQueue(c, 1, 1)
		if !q.add(withStatusEntry("inv-1")) || q.add(withStatusEntry("inv-2")) {
			t.Fatal("a second object went into a queue of one")
		}
	})
}
