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

package controller

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

// This file is what the WebhookEndpoint reconciler reads besides the
// endpoint: its signing secret, the issued invoice of a sequence, the event
// of a sequence, and the endpoints a new event wakes.

// signingSecret returns the value of the endpoint's secret key, or why it
// cannot be used.
func (r *WebhookEndpointReconciler) signingSecret(ctx context.Context,
	endpoint *billingv1.WebhookEndpoint) ([]byte, *deliveryFailure, error) {
	ref := endpoint.Spec.SecretRef
	secret := &corev1.Secret{}
	err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: endpoint.Namespace, Name: ref.Name}, secret)
	if apierrors.IsNotFound(err) {
		return nil, &deliveryFailure{billingv1.ReasonSecretNotFound,
			fmt.Sprintf("Secret %q does not exist in namespace %s", ref.Name, endpoint.Namespace)}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("getting the signing secret %s: %w", ref.Name, err)
	}
	value := secret.Data[ref.Key]
	if len(value) == 0 {
		return nil, &deliveryFailure{billingv1.ReasonSecretNotFound,
			fmt.Sprintf("Secret %q has no key %q, or it is empty", ref.Name, ref.Key)}, nil
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

// issuedInvoice returns the workspace's invoice with sequence from the
// cache, or nil when no invoice carries it yet. It lists the sequence's
// block (index.InvoiceSequenceBlock) without copying it, and copies only
// the invoice it returns.
func (r *WebhookEndpointReconciler) issuedInvoice(ctx context.Context, namespace string,
	sequence int64) (*billingv1.Invoice, error) {
	block := &billingv1.InvoiceList{}
	if err := r.List(ctx, block, client.InNamespace(namespace), client.UnsafeDisableDeepCopy,
		client.MatchingFields{index.InvoiceSequenceBlock: index.SequenceBlock(sequence)}); err != nil {
		return nil, fmt.Errorf("listing the invoice with sequence %d: %w", sequence, err)
	}
	var found *billingv1.Invoice
	for i := range block.Items {
		inv := &block.Items[i]
		if inv.Status.Sequence == nil || *inv.Status.Sequence != sequence {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("sequence %d in %s: %w", sequence, namespace, errSequenceTwice)
		}
		found = inv
	}
	if found == nil {
		return nil, nil
	}
	return found.DeepCopy(), nil
}

// eventBlocks finds the events of one workspace by sequence in the cache,
// one block of index.SequenceBlockSize sequences at a time: the first
// lookup of a block lists the block's Invoices, CreditNotes and Payments
// (index.EventSequenceBlock), the next fifteen read what it kept. It lives
// for one reconcile.
type eventBlocks struct {
	reader    client.Reader
	namespace string
	block     string
	events    map[int64]workspaceEvent
}

// at returns the workspace's event with sequence from the cache, or nil
// when no object carries it yet.
func (b *eventBlocks) at(ctx context.Context, sequence int64) (*workspaceEvent, error) {
	if block := index.SequenceBlock(sequence); block != b.block || b.events == nil {
		if err := b.load(ctx, block); err != nil {
			return nil, err
		}
	}
	ev, ok := b.events[sequence]
	if !ok {
		return nil, nil
	}
	return &ev, nil
}

// load reads block's events. A sequence carried twice is an error: the
// allocator never hands one out twice, and delivery stops rather than
// guess. A sequence the block lacks ends the reconcile's walk; the watch
// event of the object that gets it starts the next reconcile, which reads
// the block again.
func (b *eventBlocks) load(ctx context.Context, block string) error {
	events := map[int64]workspaceEvent{}
	add := func(obj client.Object, recorded []billingv1.RecordedEvent) error {
		for _, e := range recorded {
			if index.SequenceBlock(e.Sequence) != block {
				continue
			}
			if _, twice := events[e.Sequence]; twice {
				return fmt.Errorf("event %d in %s: %w", e.Sequence, b.namespace, errSequenceTwice)
			}
			ev := workspaceEvent{sequence: e.Sequence, typ: e.Type, createdAt: e.CreatedAt.Time, object: obj}
			if inv, ok := obj.(*billingv1.Invoice); ok && e.Type == billingv1.EventTypeInvoiceIssued {
				// Written in one status patch with the number; without it
				// the skip rule (sends) could not tell, so stop.
				if inv.Status.Sequence == nil {
					return fmt.Errorf("invoice %s/%s carries invoice.issued without a sequence: %w",
						b.namespace, inv.Name, errIssuedWithoutSequence)
				}
				ev.invoiceSequence = *inv.Status.Sequence
			}
			events[e.Sequence] = ev
		}
		return nil
	}
	in := []client.ListOption{client.InNamespace(b.namespace), client.UnsafeDisableDeepCopy,
		client.MatchingFields{index.EventSequenceBlock: block}}
	invoices := &billingv1.InvoiceList{}
	notes := &billingv1.CreditNoteList{}
	payments := &billingv1.PaymentList{}
	for _, list := range []client.ObjectList{invoices, notes, payments} {
		if err := b.reader.List(ctx, list, in...); err != nil {
			return fmt.Errorf("listing the objects of event block %s: %w", block, err)
		}
	}
	for i := range invoices.Items {
		if err := add(&invoices.Items[i], invoices.Items[i].Status.Events); err != nil {
			return err
		}
	}
	for i := range notes.Items {
		if err := add(&notes.Items[i], notes.Items[i].Status.Events); err != nil {
			return err
		}
	}
	for i := range payments.Items {
		if err := add(&payments.Items[i], payments.Items[i].Status.Events); err != nil {
			return err
		}
	}
	b.block, b.events = block, events
	return nil
}

// invoiceReader reads a workspace's invoices from the cache for the
// renderers of credit notes and payments (apiobject.EventObject); an
// invoice that cannot be read is nil, and the object shows less.
func (r *WebhookEndpointReconciler) invoiceReader(ctx context.Context, namespace string) apiobject.InvoiceReader {
	return func(name string) *billingv1.Invoice {
		inv := &billingv1.Invoice{}
		if err := r.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, inv); err != nil {
			return nil
		}
		return inv
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
	requests := make([]reconcile.Request, 0, len(endpoints.Items))
	for i := range endpoints.Items {
		requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&endpoints.Items[i])})
	}
	return requests
}

// objectEvents returns the status.events of an Invoice, CreditNote or
// Payment; none for another kind.
func objectEvents(obj client.Object) []billingv1.RecordedEvent {
	switch o := obj.(type) {
	case *billingv1.Invoice:
		return o.Status.Events
	case *billingv1.CreditNote:
		return o.Status.Events
	case *billingv1.Payment:
		return o.Status.Events
	default:
		return nil
	}
}

// gainedEvent is the predicate of the watches that wake endpoints: an
// object created with events, or updated with more than it had (events
// are only ever added).
var gainedEvent = predicate.Funcs{
	CreateFunc:  func(e event.CreateEvent) bool { return len(objectEvents(e.Object)) > 0 },
	UpdateFunc:  func(e event.UpdateEvent) bool { return len(objectEvents(e.ObjectNew)) > len(objectEvents(e.ObjectOld)) },
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}
