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

// A watch that records when each invoice was first seen Issued, for the
// controller's create-to-issue lags.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// issuedWatch records when each invoice of a namespace ("" for all) was
// first seen Issued, from a watch that starts now.
type issuedWatch struct {
	mu     sync.Mutex
	issued map[string]time.Time
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func (b *bench) watchIssued(ctx context.Context, ns string) (*issuedWatch, error) {
	var list billingv1.InvoiceList
	if err := b.admin.List(ctx, &list, client.InNamespace(ns), client.Limit(1)); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &issuedWatch{issued: map[string]time.Time{}, cancel: cancel, done: make(chan struct{})}
	rv := list.ResourceVersion
	go func() {
		defer close(w.done)
		for ctx.Err() == nil {
			wi, err := b.admin.Watch(ctx, &billingv1.InvoiceList{}, client.InNamespace(ns),
				&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true}})
			if err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
				return
			}
			for ev := range wi.ResultChan() {
				inv, ok := ev.Object.(*billingv1.Invoice)
				if !ok {
					continue
				}
				rv = inv.ResourceVersion
				// An invoice is issued and numbered in one status write.
				if ev.Type == watch.Bookmark || inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Number == "" {
					continue
				}
				key := inv.Namespace + "/" + inv.Name
				if err := checkIssuedTax(inv); err != nil {
					w.mu.Lock()
					w.err = err
					w.mu.Unlock()
					return
				}
				w.mu.Lock()
				if _, seen := w.issued[key]; !seen {
					w.issued[key] = time.Now()
				}
				w.mu.Unlock()
			}
			wi.Stop()
		}
	}()
	return w, nil
}

// checkIssuedTax fails unless inv was issued with the tax of the bench's
// invoices, so that every measurement of issuing includes computing it.
func checkIssuedTax(inv *billingv1.Invoice) error {
	want, err := billing.InvoiceAmounts(&inv.Spec, billing.EffectiveDocumentTaxes(&inv.Spec, nil))
	if err != nil {
		return fmt.Errorf("invoice %s: %w", inv.Name, err)
	}
	if want.TaxTotal == 0 || inv.Status.TaxTotal == nil || *inv.Status.TaxTotal != want.TaxTotal ||
		inv.Status.Total == nil || *inv.Status.Total != want.Total {
		return fmt.Errorf("invoice %s was issued with tax %v and total %v, want a tax of %d and a total of %d",
			inv.Name, inv.Status.TaxTotal, inv.Status.Total, want.TaxTotal, want.Total)
	}
	return nil
}

// await waits until n invoices are Issued and returns when each was, by name.
func (w *issuedWatch) await(ctx context.Context, n int, timeout time.Duration) (map[string]time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		w.mu.Lock()
		got, err := len(w.issued), w.err
		w.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if got >= n {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%d of %d invoices issued after %s", got, n, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	byName := make(map[string]time.Time, len(w.issued))
	for key, at := range w.issued {
		byName[key[strings.Index(key, "/")+1:]] = at
	}
	return byName, nil
}

// awaitNames waits until every invoice of names in ns is Issued and
// returns when each was, by name; unlike await it counts none of the
// namespace's other invoices that the watch sees written. Each look
// checks only the names not yet seen, so that waiting costs the machine
// being measured little.
func (w *issuedWatch) awaitNames(ctx context.Context, ns string, names []string, timeout time.Duration) (
	map[string]time.Time, error) {
	deadline := time.Now().Add(timeout)
	byName := make(map[string]time.Time, len(names))
	pending := slices.Clone(names)
	for {
		w.mu.Lock()
		err := w.err
		pending = slices.DeleteFunc(pending, func(name string) bool {
			at, ok := w.issued[ns+"/"+name]
			if ok {
				byName[name] = at
			}
			return ok
		})
		w.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if len(pending) == 0 {
			return byName, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%d of %d invoices not issued after %s", len(pending), len(names), timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the watch and waits for its goroutine.
func (w *issuedWatch) stop() {
	w.cancel()
	<-w.done
}
