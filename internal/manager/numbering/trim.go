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

package numbering

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Trim cleans the journal of a workspace's InvoiceSequence: it removes the
// entries whose numbers are written on their invoices, and frees the
// sequences reserved for invoices that can never take them (deleted before
// their number was written, or numbered otherwise), so that the next
// invoices take them and no gap stays. It asks the API server about each
// invoice the cache does not have. Reservations trim written entries by
// themselves; Trim is for what they cannot see, and for quiet workspaces.
func (a *Allocator) Trim(ctx context.Context, namespace string) error {
	seq := &billingv1.InvoiceSequence{}
	key := types.NamespacedName{Namespace: namespace, Name: a.opts.Sequence}
	if err := a.opts.APIReader.Get(ctx, key, seq); err != nil {
		if apierrors.IsNotFound(err) {
			return nil // nothing was ever reserved here
		}
		return &APIError{Op: "reading", Namespace: namespace, Err: err}
	}
	known, err := a.liveFates(ctx, namespace, seq.Spec.Reserved)
	if err != nil {
		return err
	}
	_, err = a.update(ctx, a.workspace(namespace), nil, known)
	return err
}

// liveFates returns the fates of the journal's bound entries, asking the API
// server about the invoices the cache does not have. Every fate it returns
// other than pending is final, so it stays true however long the update that
// applies it takes.
func (a *Allocator) liveFates(ctx context.Context, namespace string,
	entries []billingv1.SequenceReservation) (map[entryKey]fate, error) {
	fates := map[entryKey]fate{}
	for _, entry := range entries {
		if entry.Invoice == "" {
			continue
		}
		invoice := types.NamespacedName{Namespace: namespace, Name: entry.Invoice}
		state, found, err := lookup(ctx, a.opts.Cached, invoice, entry.Fact)
		if err == nil && found {
			fates[keyOf(entry)] = fateOf(entry, state, true, false)
			continue
		}
		state, found, err = lookup(ctx, a.opts.Live, invoice, entry.Fact)
		if err != nil {
			return nil, &APIError{Op: "reading an invoice of", Namespace: namespace, Err: err}
		}
		fates[keyOf(entry)] = fateOf(entry, state, found, true)
	}
	return fates, nil
}

// Start trims the journal of every workspace at once and then every
// TrimInterval until ctx ends. It makes the allocator a controller-runtime Runnable: add it to the
// manager (mgr.Add) to run it on the leader.
func (a *Allocator) Start(ctx context.Context) error {
	ticker := time.NewTicker(a.opts.TrimInterval)
	defer ticker.Stop()
	// A new leader trims at once: what a crashed one reserved for invoices
	// deleted since is freed before the next invoice takes a new sequence.
	a.TrimAll(ctx)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
			a.TrimAll(ctx)
		}
	}
}

// NeedLeaderElection says that Start runs on the elected leader only, where
// the invoice controller assigns numbers.
func (a *Allocator) NeedLeaderElection() bool { return true }

// TrimAll trims every workspace whose journal has entries, logging the
// failures; the next round retries them.
func (a *Allocator) TrimAll(ctx context.Context) {
	log := logf.FromContext(ctx).WithName("numbering")
	list := &billingv1.InvoiceSequenceList{}
	if err := a.opts.APIReader.List(ctx, list); err != nil {
		log.Error(err, "Listing invoice sequences failed")
		return
	}
	for _, seq := range list.Items {
		if seq.Name != a.opts.Sequence || len(seq.Spec.Reserved) == 0 {
			continue
		}
		if err := a.Trim(ctx, seq.Namespace); err != nil {
			log.Error(err, "Trimming the invoice sequence failed", "namespace", seq.Namespace)
		}
	}
}
