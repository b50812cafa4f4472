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
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// This file is the delivery loop: how one reconcile sends an endpoint's
// next issued invoices, and what it reports of the run.

// Delivery batches. A reconcile sends events one at a time, in sequence
// order, and patches the endpoint's status once at the end: after at most
// DefaultWebhookBatch accepted events or webhookBatchTime of sending. A
// manager that dies before that patch sends the batch again after its
// restart, so at most one batch is delivered twice (at least once).
const (
	DefaultWebhookBatch = 100
	webhookBatchTime    = 2 * time.Second
	// nextWebhookBatch is the pause between two full batches.
	nextWebhookBatch = 10 * time.Millisecond
)

// deliveryRun is what one reconcile did.
type deliveryRun struct {
	// delivered is the sequence of the last event the endpoint accepted.
	delivered int64
	// accepted counts the events accepted in this run.
	accepted int
	// attempted is whether an attempt was made, successful or not.
	attempted bool
	// paused is spec.paused.
	paused bool
	// failure is why the run stopped short; nil when it caught up or
	// filled its batch.
	failure *deliveryFailure
	// full is whether the run stopped because its batch was full: more
	// events may be waiting.
	full bool
}

// deliveryFailure is why a run stopped short, as a condition reason and
// message.
type deliveryFailure struct {
	reason  string
	message string
}

// deliver sends the endpoint's next events, one at a time in sequence
// order, until the next invoice is not issued yet, an attempt fails, or the
// batch is full. An error is a failure of the Kubernetes API, after which
// the run's progress is still recorded.
func (r *WebhookEndpointReconciler) deliver(ctx context.Context, endpoint *billingv1.WebhookEndpoint) (deliveryRun, error) {
	run := deliveryRun{delivered: resumeAfter(endpoint), paused: endpoint.Spec.Paused}
	if run.paused {
		return run, nil
	}
	if err := r.Sender.CheckURL(endpoint.Spec.URL); err != nil {
		run.failure = &deliveryFailure{billingv1.ReasonURLNotAllowed, err.Error()}
		return run, nil
	}
	secret, failure, err := r.signingSecret(ctx, endpoint)
	if err != nil || failure != nil {
		run.failure = failure
		return run, err
	}
	batch := r.Batch
	if batch <= 0 {
		batch = DefaultWebhookBatch
	}
	deadline := r.Clock.Now().Add(webhookBatchTime)
	for {
		if run.accepted >= batch || !r.Clock.Now().Before(deadline) {
			run.full = true
			return run, nil
		}
		inv, err := r.issuedInvoice(ctx, endpoint.Namespace, run.delivered+1)
		if err != nil || inv == nil {
			// nil: the next invoice is not issued yet (or not yet in the
			// cache); its watch event wakes the endpoint.
			return run, err
		}
		body, err := delivery.IssuedEvent(inv)
		if err != nil {
			return run, fmt.Errorf("encoding the event of invoice %s: %w", inv.Name, err)
		}
		start := time.Now()
		err = r.Sender.Send(ctx, endpoint.Spec.URL, secret, body, r.Clock.Now())
		run.attempted = true
		observeWebhookAttempt(client.ObjectKeyFromObject(endpoint), time.Since(start), err)
		if err != nil {
			run.failure = attemptFailure(err)
			logf.FromContext(ctx).V(1).Info("Webhook delivery failed", "sequence", run.delivered+1, "error", err.Error())
			return run, nil
		}
		run.delivered++
		run.accepted++
	}
}

// attemptFailure is the condition reason and message of a failed attempt.
func attemptFailure(err error) *deliveryFailure {
	if delivery.IsNotAllowed(err) {
		return &deliveryFailure{billingv1.ReasonURLNotAllowed, err.Error()}
	}
	return &deliveryFailure{billingv1.ReasonDeliveryFailing, err.Error()}
}

// resumeAfter is the sequence delivery continues after: the status's, or
// spec.startAfterSequence for an endpoint that has none yet.
func resumeAfter(endpoint *billingv1.WebhookEndpoint) int64 {
	if endpoint.Status.DeliveredSequence != nil {
		return *endpoint.Status.DeliveredSequence
	}
	return endpoint.Spec.StartAfterSequence
}
