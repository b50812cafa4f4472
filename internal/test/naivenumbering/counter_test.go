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

package naivenumbering

import (
	"context"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := billingv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

var key = client.ObjectKey{Namespace: "ws", Name: "naive"}

func TestCounterStartsAtOneAndCreatesItsObject(t *testing.T) {
	c := &Counter{Client: fake.NewClientBuilder().WithScheme(newScheme(t)).Build(), Key: key}
	for want := int64(1); want <= 3; want++ {
		got, err := c.Next(context.Background())
		if err != nil || got != want {
			t.Fatalf("Next() = %d, %v; want %d", got, err, want)
		}
	}
	stored := &billingv1.InvoiceSequence{}
	if err := c.Client.Get(context.Background(), key, stored); err != nil || stored.Spec.Next != 4 {
		t.Fatalf("stored next = %d, %v; want 4", stored.Spec.Next, err)
	}
}

func TestConcurrentCallersGetEachNumberOnce(t *testing.T) {
	c := &Counter{Client: fake.NewClientBuilder().WithScheme(newScheme(t)).Build(), Key: key}
	const n = 50
	got := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var err error
			if got[i], err = c.Next(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, seq := range got {
		if seq < 1 || seq > n || seen[seq] {
			t.Fatalf("number %d is out of 1..%d or handed out twice: %v", seq, n, got)
		}
		seen[seq] = true
	}
}

func TestAConflictWithAnotherWriterIsReadAgainNotSkipped(t *testing.T) {
	existing := &billingv1.InvoiceSequence{
		ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name},
		Spec:       billingv1.InvoiceSequenceSpec{Next: 7},
	}
	// Another writer takes 7 between the counter's first read and its
	// update: the update conflicts, and the counter must hand out 8.
	raced := false
	cl := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(existing).
		WithInterceptorFuncs(interceptor.Funcs{
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				if !raced {
					raced = true
					other := &billingv1.InvoiceSequence{}
					if err := c.Get(ctx, key, other); err != nil {
						return err
					}
					other.Spec.Next++
					if err := c.Update(ctx, other); err != nil {
						return err
					}
				}
				return c.Update(ctx, obj, opts...)
			},
		}).Build()
	got, err := (&Counter{Client: cl, Key: key}).Next(context.Background())
	if err != nil || got != 8 {
		t.Fatalf("Next() = %d, %v; want 8 after the other writer took 7", got, err)
	}
}
