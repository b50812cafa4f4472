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

package main

// Measurement 6, numbering: invoices created directly in ONE workspace as
// fast as the API server takes them, and the time until each is issued with
// its number (the controller writes both in one status patch). The same run
// then compares the allocators alone, from the benchmark's workers: the
// batched one the controller uses (internal/numbering) and a naive one, kept
// only for the comparison (internal/test/naivenumbering), that takes one read and one update of a
// counter per number, one number at a time (a lock per posting, its best
// case: no update conflicts). Both only hand out numbers; neither writes an
// invoice.

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/test/naivenumbering"
)

// numberingWorkspace is where measurement 6 creates: no invoice is numbered
// there before it.
const numberingWorkspace = "bench-3"

// measureNumbering runs measurement 6 and checks that the workspace's
// invoices carry exactly the sequences 1..N.
func (b *bench) measureNumbering(ctx context.Context, r *Report) error {
	n := b.cfg.Invoices
	run := &controllerRun{wait: apfWait{}}
	if err := b.controllerRound(ctx, numberingWorkspace, n, false, false, run); err != nil {
		return err
	}
	if err := b.checkGapless(ctx, numberingWorkspace, n); err != nil {
		return err
	}
	r.NumberingCreatedPerSec, r.NumberingNumberedPerSec, r.NumberingRatio = run.rates()
	lag := result{latencies: run.lags}
	r.NumberingLagP99Ms, r.Details.NumberingLagP50Ms = lag.percentileMs(0.99), lag.percentileMs(0.5)

	batched, err := b.measureBatched(ctx, n)
	if err != nil {
		return err
	}
	naive, err := b.measureNaive(ctx, n)
	if err != nil {
		return err
	}
	r.BatchedNumbersPerSec, r.Details.BatchedP99Ms = batched.perSec(), batched.percentileMs(0.99)
	r.NaiveNumbersPerSec, r.Details.NaiveP99Ms = naive.perSec(), naive.percentileMs(0.99)
	r.BatchedOverNaive = ratio(r.BatchedNumbersPerSec, r.NaiveNumbersPerSec)
	return nil
}

// checkGapless fails unless the n invoices of ns carry the sequences 1..n,
// each once.
func (b *bench) checkGapless(ctx context.Context, ns string, n int) error {
	var list billingv1.InvoiceList
	if err := b.admin.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return err
	}
	sequences := make([]int64, 0, len(list.Items))
	for _, inv := range list.Items {
		if inv.Status.Sequence != nil {
			sequences = append(sequences, *inv.Status.Sequence)
		}
	}
	slices.Sort(sequences)
	if len(sequences) != n {
		return fmt.Errorf("%d of %d invoices in %s are numbered", len(sequences), n, ns)
	}
	for i, s := range sequences {
		if s != int64(i+1) {
			return fmt.Errorf("the sequences of %s are not exactly 1..%d: position %d holds %d", ns, n, i+1, s)
		}
	}
	return nil
}

// measureBatched hands out n numbers with the controller's allocator in a
// workspace of its own, from the benchmark's workers, and checks they are
// exactly 1..n. A number counts as written once handed out.
func (b *bench) measureBatched(ctx context.Context, n int) (result, error) {
	ns := "bench-numbering"
	if err := b.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return result{}, err
	}
	written := &writtenNumbers{sequences: map[string]int64{}}
	allocator, err := numbering.New(numbering.Options{
		Client: b.admin, APIReader: b.admin, Cached: written, Live: written,
	})
	if err != nil {
		return result{}, err
	}
	// The allocator logs through the context's logger: none here.
	ctx = logf.IntoContext(ctx, logr.Discard())
	got := make([]int64, n)
	res, err := b.parallel(ctx, n, func(ctx context.Context, i int) error {
		name := fmt.Sprintf("inv-%d", i)
		assignment, err := allocator.Assign(ctx, ns, name, types.UID(name))
		if err != nil {
			return err
		}
		written.write(name, assignment.Sequence)
		got[i] = assignment.Sequence
		return nil
	})
	if err != nil {
		return result{}, err
	}
	return res, exactlyOneToN("batched", got)
}

// writtenNumbers is an InvoiceLookup of invoices that exist from the moment
// they are numbered, for measuring the allocator alone.
type writtenNumbers struct {
	mu        sync.Mutex
	sequences map[string]int64
}

func (w *writtenNumbers) write(name string, sequence int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sequences[name] = sequence
}

func (w *writtenNumbers) LookupInvoice(_ context.Context, key types.NamespacedName) (numbering.InvoiceState, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sequence, ok := w.sequences[key.Name]
	return numbering.InvoiceState{UID: types.UID(key.Name), Sequence: sequence}, ok, nil
}

// exactlyOneToN fails unless got holds 1..len(got), each once.
func exactlyOneToN(allocator string, got []int64) error {
	slices.Sort(got)
	for i, s := range got {
		if s != int64(i+1) {
			return fmt.Errorf("the %s allocator handed out %d at position %d", allocator, s, i+1)
		}
	}
	return nil
}

// measureNaive hands out n numbers with the naive allocator, from the
// benchmark's workers, and checks they are exactly 1..n.
func (b *bench) measureNaive(ctx context.Context, n int) (result, error) {
	naive := &naivenumbering.Counter{Client: b.admin,
		Key: client.ObjectKey{Namespace: numberingWorkspace, Name: "naive-benchmark"}}
	got := make([]int64, n)
	res, err := b.parallel(ctx, n, func(ctx context.Context, i int) (err error) {
		got[i], err = naive.Next(ctx)
		return err
	})
	if err != nil {
		return result{}, err
	}
	return res, exactlyOneToN("naive", got)
}
