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
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// This file is the delivery loop: how one reconcile walks the workspace's
// event sequence after the endpoint's cursor, sends the events it
// subscribes to and skips the others, and what it reports of the run.

// Delivery batches. A reconcile sends events one at a time, in event
// sequence order, and patches the endpoint's status once at the end: after
// at most DefaultWebhookBatch accepted events, webhookScanFactor times as
// many events walked (sent or skipped), or webhookBatchTime. A manager
// that dies before that patch sends the batch again after its restart, so
// at most one batch is delivered twice (at least once).
const (
	DefaultWebhookBatch = 100
	webhookBatchTime    = 2 * time.Second
	// webhookScanFactor bounds the events one reconcile walks, skipped
	// ones included, so that an endpoint subscribed to a rare type over a
	// long history does not hold a worker for ever: its cursor moves on in
	// batches, each recorded.
	webhookScanFactor = 10
	// nextWebhookBatch is the pause between two full batches.
	nextWebhookBatch = 10 * time.Millisecond
)

// deliveryRun is what one reconcile did.
type deliveryRun struct {
	// delivered is the event cursor after the run: every event up to it
	// that the endpoint subscribes to was accepted.
	delivered int64
	// invoices is the invoice watermark after the run (invoiceWatermark).
	invoices int64
	// accepted counts the events accepted in this run; walked the events
	// the cursor passed, sent or skipped.
	accepted, walked int
	// attempted is whether an attempt was made, successful or not.
	attempted bool
	// paused is spec.paused.
	paused bool
	// failure is why the run stopped short; nil when it caught up or
	// filled its batch.
	failure *reconciler.Verdict
	// full is whether the run stopped because its batch was full: more
	// events may be waiting.
	full bool
}

// deliver walks the endpoint's next events, one at a time in sequence
// order, until the next event is not in the cache yet, an attempt fails,
// or the batch is full; then it moves the invoice watermark up over the
// invoices whose invoice.issued event the cursor has passed. An error is a
// failure of the Kubernetes API, after which the run's progress is still
// recorded.
func (r *WebhookEndpointReconciler) deliver(ctx context.Context, endpoint *billingv1.WebhookEndpoint) (deliveryRun, error) {
	run := deliveryRun{delivered: eventCursor(endpoint), invoices: invoiceWatermark(endpoint), paused: endpoint.Spec.Paused}
	if run.paused {
		return run, nil
	}
	if err := r.Sender.CheckURL(endpoint.Spec.URL); err != nil {
		run.failure = &reconciler.Verdict{Reason: billingv1.ReasonURLNotAllowed, Message: err.Error()}
		return run, nil
	}
	secret, failure, err := r.signingSecret(ctx, endpoint)
	if err != nil || failure != nil {
		run.failure = failure
		return run, err
	}
	walkErr := r.walk(ctx, endpoint, secret, &run)
	invoices, err := r.raiseInvoiceWatermark(ctx, endpoint.Namespace, run.invoices, run.delivered)
	run.invoices = invoices
	return run, errors.Join(walkErr, err)
}

// walk sends or skips the events after run.delivered, moving it on.
func (r *WebhookEndpointReconciler) walk(ctx context.Context, endpoint *billingv1.WebhookEndpoint,
	secret []byte, run *deliveryRun) error {
	batch := r.Batch
	if batch <= 0 {
		batch = DefaultWebhookBatch
	}
	events := sealedEventBlocks(r.Client, r.Sealed, endpoint.Namespace)
	invoices := r.invoiceReader(ctx, endpoint.Namespace)
	deadline := r.Clock.Now().Add(webhookBatchTime)
	for {
		if run.accepted >= batch || run.walked >= batch*webhookScanFactor || !r.Clock.Now().Before(deadline) {
			run.full = true
			return nil
		}
		ev, ok, err := events.at(ctx, run.delivered+1)
		if err != nil || !ok {
			// !ok: the next event is not recorded yet (or not yet in the
			// cache); the watch of the object that gets it wakes the
			// endpoint.
			return err
		}
		if !sends(endpoint.Spec.Events, run.invoices, &ev) {
			run.delivered++
			run.walked++
			continue
		}
		body, err := delivery.EventBody(endpoint.Namespace, ev.sequence, ev.typ, ev.createdAt, ev.object, invoices)
		if err != nil {
			return fmt.Errorf("encoding event %d: %w", ev.sequence, err)
		}
		start := time.Now()
		err = r.Sender.Send(ctx, endpoint.Spec.URL, secret, body, r.Clock.Now())
		run.attempted = true
		observeWebhookAttempt(client.ObjectKeyFromObject(endpoint), time.Since(start), err)
		if err != nil {
			run.failure = attemptFailure(err)
			logf.FromContext(ctx).V(1).Info("Webhook delivery failed", "eventSequence", ev.sequence, "error", err.Error())
			return nil
		}
		run.delivered++
		run.walked++
		run.accepted++
	}
}

// raiseInvoiceWatermark returns the invoice watermark moved up over each
// next invoice whose invoice.issued event is at or below cursor
// (invoiceDone), reading the invoices from the cache a block of sequences
// at a time (invoiceBlocks); at most maxWatermarkSteps of them per
// reconcile.
func (r *WebhookEndpointReconciler) raiseInvoiceWatermark(ctx context.Context, namespace string,
	watermark, cursor int64) (int64, error) {
	invoices := sealedInvoiceBlocks(r.Client, r.Sealed, namespace)
	for range maxWatermarkSteps {
		inv, err := issuedInvoiceAt(ctx, invoices, watermark+1)
		if err != nil || inv == nil {
			return watermark, err
		}
		if !invoiceDone(billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceIssued), cursor) {
			return watermark, nil
		}
		watermark++
	}
	return watermark, nil
}

// maxWatermarkSteps bounds raiseInvoiceWatermark's walk in one reconcile;
// the next continues it.
const maxWatermarkSteps = DefaultWebhookBatch * webhookScanFactor

// attemptFailure is the condition reason and message of a failed attempt.
func attemptFailure(err error) *reconciler.Verdict {
	if delivery.IsNotAllowed(err) {
		return &reconciler.Verdict{Reason: billingv1.ReasonURLNotAllowed, Message: err.Error()}
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonDeliveryFailing, Message: err.Error()}
}
