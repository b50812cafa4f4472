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

package webhooks

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// This file is what the WebhookEndpoint reconciler reads besides the
// endpoint: its signing secret, the issued invoices and the events by
// sequence, and the endpoints a new event wakes.

// signingSecret returns the value of the endpoint's secret key, or why it
// cannot be used.
func (r *WebhookEndpointReconciler) signingSecret(ctx context.Context,
	endpoint *billingv1.WebhookEndpoint) ([]byte, *reconciler.Verdict, error) {
	ref := endpoint.Spec.SecretRef
	secret := &corev1.Secret{}
	err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: endpoint.Namespace, Name: ref.Name}, secret)
	if apierrors.IsNotFound(err) {
		return nil, &reconciler.Verdict{Reason: billingv1.ReasonSecretNotFound,
			Message: fmt.Sprintf("Secret %q does not exist in namespace %s", ref.Name, endpoint.Namespace)}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("getting the signing secret %s: %w", ref.Name, err)
	}
	value := secret.Data[ref.Key]
	if len(value) == 0 {
		return nil, &reconciler.Verdict{Reason: billingv1.ReasonSecretNotFound,
			Message: fmt.Sprintf("Secret %q has no key %q, or it is empty", ref.Name, ref.Key)}, nil
	}
	return value, nil, nil
}

// errSequenceTwice means two invoices of a workspace carry one sequence, or
// two facts one event sequence, which the numbering never does; delivery
// stops rather than guess.
var errSequenceTwice = errors.New("two invoices or events carry the same sequence")

// errIssuedWithoutSequence means an invoice carries its invoice.issued
// event but no invoice sequence, which the invoice controller never writes.
var errIssuedWithoutSequence = errors.New("an invoice.issued event without an invoice sequence")

// sequenceBlocks finds what one workspace holds by sequence in the cache,
// one block of index.SequenceBlockSize sequences at a time: the first
// lookup of a block loads it with one list per kind through a field index
// by block (index.InvoiceSequenceBlock, index.EventSequenceBlock), the next
// fifteen read what it kept. The indexes are by block, not by sequence,
// for their size (index.InvoiceSequenceBlock); a walk over consecutive
// sequences lists each block once. It lives for one reconcile.
type sequenceBlocks[V any] struct {
	reader    client.Reader
	namespace string
	// load lists block's objects of namespace and returns what they hold
	// by sequence.
	load   func(ctx context.Context, reader client.Reader, namespace, block string) (map[int64]V, error)
	block  string
	values map[int64]V
}

// at returns what the workspace holds at sequence, and whether it holds
// anything there yet.
func (b *sequenceBlocks[V]) at(ctx context.Context, sequence int64) (V, bool, error) {
	if block := index.SequenceBlock(sequence); block != b.block || b.values == nil {
		values, err := b.load(ctx, b.reader, b.namespace, block)
		if err != nil {
			var none V
			return none, false, err
		}
		b.block, b.values = block, values
	}
	v, ok := b.values[sequence]
	return v, ok, nil
}

// invoiceBlocks finds the issued invoices of namespace by invoice sequence
// (loadInvoiceBlock).
func invoiceBlocks(reader client.Reader, namespace string) *sequenceBlocks[[]*billingv1.Invoice] {
	return &sequenceBlocks[[]*billingv1.Invoice]{reader: reader, namespace: namespace, load: loadInvoiceBlock}
}

// loadInvoiceBlock lists block's issued invoices of namespace
// (index.InvoiceSequenceBlock) without copying them, and returns them by
// invoice sequence: each sequence with every invoice that carries it, which
// is one unless the numbering went wrong (issuedInvoiceAt). They are the
// cache's own objects: read them, never change them.
func loadInvoiceBlock(ctx context.Context, reader client.Reader, namespace,
	block string) (map[int64][]*billingv1.Invoice, error) {
	list := &billingv1.InvoiceList{}
	if err := reader.List(ctx, list, client.InNamespace(namespace), client.UnsafeDisableDeepCopy,
		client.MatchingFields{index.InvoiceSequenceBlock: block}); err != nil {
		return nil, fmt.Errorf("listing the invoices of sequence block %s: %w", block, err)
	}
	invoices := make(map[int64][]*billingv1.Invoice, len(list.Items))
	for i := range list.Items {
		inv := &list.Items[i]
		if inv.Status.Sequence == nil {
			continue
		}
		invoices[*inv.Status.Sequence] = append(invoices[*inv.Status.Sequence], inv)
	}
	return invoices, nil
}

// issuedInvoiceAt returns the workspace's invoice with sequence from
// invoices, or nil when no invoice carries it yet. Two invoices carrying it
// are an error (errSequenceTwice); two carrying another sequence of its
// block are not, until that sequence is asked for. The invoice is the
// cache's own: read it, never change it.
func issuedInvoiceAt(ctx context.Context, invoices *sequenceBlocks[[]*billingv1.Invoice],
	sequence int64) (*billingv1.Invoice, error) {
	found, _, err := invoices.at(ctx, sequence)
	if err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	default:
		return nil, fmt.Errorf("sequence %d in %s: %w", sequence, invoices.namespace, errSequenceTwice)
	}
}

// eventBlocks finds the events of namespace by event sequence
// (loadEventBlock).
func eventBlocks(reader client.Reader, namespace string) *sequenceBlocks[workspaceEvent] {
	return &sequenceBlocks[workspaceEvent]{reader: reader, namespace: namespace, load: loadEventBlock}
}

// loadEventBlock lists block's Invoices, CreditNotes, Payments and the
// records of money on account (CreditApplications, Refunds, WriteOffs) and
// the Emails of reminders of
// namespace (index.EventSequenceBlock) without copying them, and returns
// the block's events by sequence. A sequence carried twice is an error:
// the allocator never hands one out twice, and delivery stops rather than
// guess. A sequence the block lacks ends the reconcile's walk; the watch
// event of the object that gets it starts the next reconcile, which reads
// the block again.
func loadEventBlock(ctx context.Context, reader client.Reader, namespace,
	block string) (map[int64]workspaceEvent, error) {
	events := map[int64]workspaceEvent{}
	add := func(item runtime.Object) error {
		obj, ok := item.(client.Object)
		if !ok {
			return nil // never: the items of the lists below all are
		}
		_, _, recorded := billing.RecordedEvents(obj)
		for _, e := range recorded {
			if index.SequenceBlock(e.Sequence) != block {
				continue
			}
			if _, twice := events[e.Sequence]; twice {
				return fmt.Errorf("event %d in %s: %w", e.Sequence, namespace, errSequenceTwice)
			}
			ev := workspaceEvent{sequence: e.Sequence, typ: e.Type, createdAt: e.CreatedAt.Time, object: obj}
			if inv, ok := obj.(*billingv1.Invoice); ok && e.Type == billingv1.EventTypeInvoiceIssued {
				// Written in one status patch with the number; without it
				// the skip rule (sends) could not tell, so stop.
				if inv.Status.Sequence == nil {
					return fmt.Errorf("invoice %s/%s carries invoice.issued without a sequence: %w",
						namespace, inv.Name, errIssuedWithoutSequence)
				}
				ev.invoiceSequence = *inv.Status.Sequence
			}
			events[e.Sequence] = ev
		}
		return nil
	}
	in := []client.ListOption{client.InNamespace(namespace), client.UnsafeDisableDeepCopy,
		client.MatchingFields{index.EventSequenceBlock: block}}
	kinds := recordkind.Where(func(k *recordkind.Kind) bool { return k.EventBlocks })
	lists := make([]client.ObjectList, len(kinds))
	for i, k := range kinds {
		lists[i] = k.NewList()
	}
	for _, list := range lists {
		if err := reader.List(ctx, list, in...); err != nil {
			return nil, fmt.Errorf("listing the objects of event block %s: %w", block, err)
		}
	}
	for _, list := range lists {
		// EachListItem passes the items themselves, not copies.
		if err := meta.EachListItem(list, add); err != nil {
			return nil, err
		}
	}
	return events, nil
}

// invoiceReader reads a workspace's invoices for the webhook body's
// renderers (package delivery): from the cache, or once sealed from the
// seal that holds it (readSealedInvoice; the seals it decodes are kept
// for the reader's next reads), so that the invoice.* events recorded on a
// write-off or a reminder carry their invoice after it was sealed, as
// /v1/events does. An invoice that cannot be read is nil, and the event
// shows less.
func (r *WebhookEndpointReconciler) invoiceReader(ctx context.Context, namespace string) func(name string) *billingv1.Invoice {
	memo := &sealMemo{}
	return func(name string) *billingv1.Invoice {
		inv := &billingv1.Invoice{}
		err := r.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, inv)
		switch {
		case err == nil:
			return inv
		case apierrors.IsNotFound(err) && r.Sealed != nil:
			return readSealedInvoice(ctx, r.Sealed, memo, namespace, name)
		default:
			return nil
		}
	}
}

// endpointsOfWorkspace maps an Invoice, CreditNote or Payment that gained
// an event to its workspace's endpoints, and raises the workspace's
// watermarks (the highest invoice and event sequences seen), from which
// the lag metrics are computed.
func (r *WebhookEndpointReconciler) endpointsOfWorkspace(ctx context.Context, obj client.Object) []reconcile.Request {
	events := objectEvents(obj)
	for _, e := range events {
		r.eventMarks.raise(obj.GetNamespace(), e.Sequence)
	}
	if inv, ok := obj.(*billingv1.Invoice); ok && inv.Status.Sequence != nil {
		r.watermarks.raise(inv.Namespace, *inv.Status.Sequence)
	}
	if len(events) == 0 {
		return nil
	}
	endpoints := &billingv1.WebhookEndpointList{}
	if err := r.List(ctx, endpoints, client.InNamespace(obj.GetNamespace())); err != nil {
		logf.FromContext(ctx).Error(err, "Listing webhook endpoints failed", "namespace", obj.GetNamespace())
		return nil
	}
	return reconciler.Requests(endpoints.Items, nil)
}

// objectEvents returns the status.events of an object of a kind that
// carries events (billingv1.EventCarrier); none for another kind.
func objectEvents(obj client.Object) []billingv1.RecordedEvent {
	_, _, events := billing.RecordedEvents(obj)
	return events
}

// GainedEvent is the predicate of the watches that wake endpoints: an
// object created with events, or updated with more than it had (events
// are only ever added).
var GainedEvent = predicate.Funcs{
	CreateFunc:  func(e event.CreateEvent) bool { return len(objectEvents(e.Object)) > 0 },
	UpdateFunc:  func(e event.UpdateEvent) bool { return len(objectEvents(e.ObjectNew)) > len(objectEvents(e.ObjectOld)) },
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}
