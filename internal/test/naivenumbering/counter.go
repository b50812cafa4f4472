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

// Package naivenumbering is the naive invoice numbering the benchmarks
// compare the controller's batched allocator (internal/numbering) with: one
// API round trip per number, under a lock, as a lock-per-posting sequence
// does it. It is kept for that comparison only; nothing in the product uses
// it.
package naivenumbering

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Counter hands out 1, 2, 3, ... from the spec.next of one InvoiceSequence,
// Key, reading it and updating it for each number. It is safe for
// concurrent use: one number is taken at a time, so its updates never
// conflict with each other (the naive allocator's best case).
type Counter struct {
	Client client.Client
	Key    client.ObjectKey

	mu sync.Mutex
}

// Next returns the next number: it reads the counter (creating it at 1 when
// there is none), and takes the number by updating it, reading again when
// the update conflicts with another writer.
func (c *Counter) Next(ctx context.Context) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		counter := &billingv1.InvoiceSequence{}
		err := c.Client.Get(ctx, c.Key, counter)
		if apierrors.IsNotFound(err) {
			counter = &billingv1.InvoiceSequence{
				ObjectMeta: metav1.ObjectMeta{Namespace: c.Key.Namespace, Name: c.Key.Name},
				Spec:       billingv1.InvoiceSequenceSpec{Next: 1},
			}
			if err := c.Client.Create(ctx, counter); err != nil && !apierrors.IsAlreadyExists(err) {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		next := counter.Spec.Next
		counter.Spec.Next++
		err = c.Client.Update(ctx, counter)
		if apierrors.IsConflict(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		return next, nil
	}
}
