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

// STAND-IN, to be dropped when merged: the http area's handlers compile
// against the store API of closed books (PeriodCloses and LedgerSeals
// pages, ClosedThrough, Seals) before the store area delivers it. These
// read straight from the API server and index nothing; the store's own
// implementation replaces this file. PeriodCloses and LedgerSeals are
// Page of their kinds, as Customers ... Payments are: keep two such
// one-line methods where the store defines its own.

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

// PeriodCloses is Page of period closes.
func (s *Store) PeriodCloses(ctx context.Context, sel Selection, after string, limit int) (
	[]*billingv1.PeriodClose, bool, error) {
	return Page[billingv1.PeriodClose](ctx, s, sel, after, limit)
}

// LedgerSeals is Page of seals.
func (s *Store) LedgerSeals(ctx context.Context, sel Selection, after string, limit int) (
	[]*billingv1.LedgerSeal, bool, error) {
	return Page[billingv1.LedgerSeal](ctx, s, sel, after, limit)
}

// ClosedThrough is how far workspace ns's books are closed, and by which
// close (billing.ClosedThrough); ok is false while none is.
func (s *Store) ClosedThrough(ctx context.Context, ns string) (through time.Time, closeName string, ok bool, err error) {
	var list billingv1.PeriodCloseList
	if err := s.live.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return time.Time{}, "", false, fmt.Errorf("listing period closes: %w", err)
	}
	through, closeName, ok = billing.ClosedThrough(list.Items)
	return through, closeName, ok, nil
}

// Seals is every seal of workspace ns in sequence order, read from the
// API server.
func (s *Store) Seals(ctx context.Context, ns string) ([]*billingv1.LedgerSeal, error) {
	var list billingv1.LedgerSealList
	if err := s.live.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return nil, fmt.Errorf("listing seals: %w", err)
	}
	out := make([]*billingv1.LedgerSeal, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	slices.SortFunc(out, func(a, b *billingv1.LedgerSeal) int { return cmp.Compare(a.Spec.Sequence, b.Spec.Sequence) })
	return out, nil
}
