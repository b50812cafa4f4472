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
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// ClosedThrough is how far workspace ns's books are closed
// (billing.ClosedThrough): the latest status.closedThrough of its
// PeriodCloses in phase Closed, and that close's name; ok is false while
// none is. It reads the cached PeriodCloses, or the API server's before the
// cache has synced (a create never waits for the cache).
func (s *Store) ClosedThrough(ctx context.Context, ns string) (through time.Time, closeName string, ok bool,
	err error) {
	list := &billingv1.PeriodCloseList{}
	if s.synced.Load() {
		err = s.cache.List(ctx, list, client.InNamespace(ns), client.UnsafeDisableDeepCopy)
	} else {
		err = s.live.List(ctx, list, client.InNamespace(ns))
	}
	if err != nil {
		return time.Time{}, "", false, fmt.Errorf("listing the period closes: %w", err)
	}
	through, closeName, ok = billing.ClosedThrough(list.Items)
	return through, closeName, ok, nil
}

// Seals returns every LedgerSeal of workspace ns in sequence order, read
// from the API server, not the cache: what verifying the chain checks is
// what the API server holds now.
func (s *Store) Seals(ctx context.Context, ns string) ([]*billingv1.LedgerSeal, error) {
	list := &billingv1.LedgerSealList{}
	if err := s.live.List(ctx, list, client.InNamespace(ns)); err != nil {
		return nil, fmt.Errorf("listing the seals: %w", err)
	}
	out := make([]*billingv1.LedgerSeal, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	slices.SortFunc(out, func(a, b *billingv1.LedgerSeal) int { return cmp.Compare(a.Spec.Sequence, b.Spec.Sequence) })
	return out, nil
}
