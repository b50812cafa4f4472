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

package reconciler

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// oneObject is a reader that holds at most one object of kind T (nil: a
// NotFound for every name), or fails with err, and counts the reads it
// was asked (reads may be nil).
type oneObject[T any, PT interface {
	*T
	client.Object
}] struct {
	client.Reader
	held  PT
	err   error
	reads *int
}

func (r oneObject[T, PT]) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	if r.reads != nil {
		*r.reads++
	}
	if r.err != nil {
		return r.err
	}
	if r.held == nil || r.held.GetName() != key.Name || r.held.GetNamespace() != key.Namespace {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "objects"}, key.Name)
	}
	*obj.(PT) = *r.held.DeepCopyObject().(PT)
	return nil
}

// customers is a oneObject of customers.
type customers = oneObject[billingv1.Customer, *billingv1.Customer]

func TestGetActiveSaysWhetherThereIsAnObjectToReconcile(t *testing.T) {
	now := metav1.Now()
	held := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "cus-a", Namespace: "team-a"}}
	deleting := held.DeepCopy()
	deleting.DeletionTimestamp = &now
	broken := errors.New("connection refused")
	tests := []struct {
		name       string
		reader     customers
		wantActive bool
		wantErr    error
	}{
		{name: "an object that exists and is not being deleted is active", reader: customers{held: held}, wantActive: true},
		{name: "an object that is gone is not active and no error", reader: customers{}},
		{name: "an object being deleted is not active", reader: customers{held: deleting}},
		{name: "a failed read is returned", reader: customers{err: broken}, wantErr: broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := &billingv1.Customer{}
			active, err := GetActive(context.Background(), tt.reader, client.ObjectKey{Namespace: "team-a", Name: "cus-a"}, got)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if active != tt.wantActive {
				t.Errorf("active %v, want %v", active, tt.wantActive)
			}
			if active && got.Name != "cus-a" {
				t.Errorf("the object was not read: %+v", got.ObjectMeta)
			}
		})
	}
}

func TestRequestsNameTheItemsKept(t *testing.T) {
	items := []billingv1.Customer{
		{ObjectMeta: metav1.ObjectMeta{Name: "cus-a", Namespace: "team-a"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "cus-b", Namespace: "team-a", Labels: map[string]string{"keep": "no"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "cus-c", Namespace: "team-b"}},
	}
	tests := []struct {
		name string
		keep func(*billingv1.Customer) bool
		want []string
	}{
		{name: "without a filter every item is asked for", want: []string{"team-a/cus-a", "team-a/cus-b", "team-b/cus-c"}},
		{name: "a filter leaves out the items it refuses", keep: func(c *billingv1.Customer) bool { return c.Labels["keep"] != "no" },
			want: []string{"team-a/cus-a", "team-b/cus-c"}},
		{name: "a filter that refuses all asks for nothing", keep: func(*billingv1.Customer) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Requests(items, tt.keep)
			if len(got) != len(tt.want) {
				t.Fatalf("requests %v, want %v", got, tt.want)
			}
			for i, r := range got {
				if r.String() != tt.want[i] {
					t.Errorf("request %d is %s, want %s", i, r, tt.want[i])
				}
			}
		})
	}
}
