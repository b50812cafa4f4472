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
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

// This file is what the WebhookEndpoint reconciler reads besides the
// endpoint: its signing secret, the issued invoice of a sequence, and the
// endpoints an issued invoice wakes.

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

// errSequenceTwice means two invoices of a workspace carry one sequence,
// which the numbering never does; delivery stops rather than guess.
var errSequenceTwice = errors.New("two invoices carry the same sequence")

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

// endpointsOfWorkspace maps a newly issued invoice to its workspace's
// endpoints, and raises the workspace's watermark (the highest sequence
// seen), from which the lag metric is computed.
func (r *WebhookEndpointReconciler) endpointsOfWorkspace(ctx context.Context, obj client.Object) []reconcile.Request {
	inv, ok := obj.(*billingv1.Invoice)
	if !ok || inv.Status.Sequence == nil {
		return nil
	}
	r.watermarks.raise(inv.Namespace, *inv.Status.Sequence)
	endpoints := &billingv1.WebhookEndpointList{}
	if err := r.List(ctx, endpoints, client.InNamespace(inv.Namespace)); err != nil {
		logf.FromContext(ctx).Error(err, "Listing webhook endpoints failed", "namespace", inv.Namespace)
		return nil
	}
	requests := make([]reconcile.Request, 0, len(endpoints.Items))
	for i := range endpoints.Items {
		requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&endpoints.Items[i])})
	}
	return requests
}

func hasSequence(obj client.Object) bool {
	inv, ok := obj.(*billingv1.Invoice)
	return ok && inv.Status.Sequence != nil
}
