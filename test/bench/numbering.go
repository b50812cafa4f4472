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

package main

// Measurement 6, numbering: invoices created directly in ONE workspace as
// fast as the API server takes them, and the time until each is issued with
// its number (the controller writes both in one status patch). The same run
// hands out as many numbers with a naive allocator, kept here only for the
// comparison: one read and one update of a counter per number, one number at
// a time (a lock per posting, its best case: no update conflicts). The naive
// side only counts; it writes no invoice, which flatters it.

import (
	"context"
	"fmt"
	"slices"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
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

	naive, err := b.measureNaive(ctx, n)
	if err != nil {
		return err
	}
	r.NaiveNumbersPerSec, r.Details.NaiveP99Ms = naive.perSec(), naive.percentileMs(0.99)
	r.NumberingOverNaive = ratio(r.NumberingNumberedPerSec, r.NaiveNumbersPerSec)
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

// measureNaive hands out n numbers with the naive allocator, from the
// benchmark's workers, and checks they are exactly 1..n.
func (b *bench) measureNaive(ctx context.Context, n int) (result, error) {
	counter := &billingv1.InvoiceSequence{
		ObjectMeta: metav1.ObjectMeta{Namespace: numberingWorkspace, Name: "naive-benchmark"},
		Spec:       billingv1.InvoiceSequenceSpec{Next: 1},
	}
	if err := b.admin.Create(ctx, counter); err != nil {
		return result{}, err
	}
	var lock sync.Mutex
	got := make([]int64, n)
	res, err := b.parallel(ctx, n, func(ctx context.Context, i int) (err error) {
		lock.Lock()
		defer lock.Unlock()
		got[i], err = b.naiveNext(ctx, client.ObjectKeyFromObject(counter))
		return err
	})
	if err != nil {
		return result{}, err
	}
	slices.Sort(got)
	for i, s := range got {
		if s != int64(i+1) {
			return result{}, fmt.Errorf("the naive allocator handed out %d at position %d", s, i+1)
		}
	}
	return res, nil
}

// naiveNext is the naive allocator: it reads the counter, and takes its
// next number by updating it, reading again on a conflict.
func (b *bench) naiveNext(ctx context.Context, key client.ObjectKey) (int64, error) {
	for {
		counter := &billingv1.InvoiceSequence{}
		if err := b.admin.Get(ctx, key, counter); err != nil {
			return 0, err
		}
		next := counter.Spec.Next
		counter.Spec.Next++
		err := b.admin.Update(ctx, counter)
		if apierrors.IsConflict(err) {
			continue
		}
		return next, err
	}
}
