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
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// maxLastError is status.lastError's bound in the CRD.
const maxLastError = 1024

// webhookStatus returns the endpoint's status after run, at now:
//   - deliveredEventSequence is the event cursor where the run ended, and
//     deliveredSequence the invoice watermark;
//   - a failure counts one more failure in a row, records its message and
//     the time, and makes Ready False with the failure's reason; Stalled is
//     True at once for a wrong secret or URL, which only a person can fix,
//     and after WebhookStalledAfterFailures failures in a row otherwise;
//   - a paused endpoint is Ready False, reason Paused, and keeps its
//     failures for when it resumes;
//   - otherwise the endpoint is Ready: failures and lastError are cleared.
//
// A condition's lastTransitionTime becomes now when its status changes.
func webhookStatus(endpoint *billingv1.WebhookEndpoint, run deliveryRun, now time.Time) billingv1.WebhookEndpointStatus {
	status := *endpoint.Status.DeepCopy()
	status.ObservedGeneration = endpoint.Generation
	delivered, invoices := run.delivered, run.invoices
	status.DeliveredEventSequence = &delivered
	status.DeliveredSequence = &invoices
	if run.attempted || run.failure != nil {
		at := metav1.NewTime(now)
		status.LastAttempt = &at
	}
	ready := metav1.Condition{
		Type:               billingv1.ConditionReady,
		Status:             metav1.ConditionTrue,
		Reason:             billingv1.ReasonDelivered,
		Message:            fmt.Sprintf("Delivered every subscribed event up to event sequence %d", delivered),
		ObservedGeneration: endpoint.Generation,
	}
	stalled := false
	switch {
	case run.paused:
		ready.Status = metav1.ConditionFalse
		ready.Reason = billingv1.ReasonPaused
		ready.Message = fmt.Sprintf("Paused after event sequence %d; delivery resumes there when spec.paused is false", delivered)
	case run.failure != nil:
		status.Failures++
		status.LastError = reconciler.Truncate(run.failure.Message, maxLastError)
		ready.Status = metav1.ConditionFalse
		ready.Reason = run.failure.Reason
		ready.Message = fmt.Sprintf("Event sequence %d not delivered after %d attempts in a row: %s",
			delivered+1, status.Failures, status.LastError)
		stalled = run.failure.Reason != billingv1.ReasonDeliveryFailing ||
			status.Failures >= billingv1.WebhookStalledAfterFailures
	default:
		status.Failures = 0
		status.LastError = ""
	}
	reconciler.SetCondition(&status.Conditions, ready, now)
	if stalled {
		reconciler.SetCondition(&status.Conditions, metav1.Condition{
			Type:               billingv1.ConditionStalled,
			Status:             metav1.ConditionTrue,
			Reason:             ready.Reason,
			Message:            ready.Message,
			ObservedGeneration: endpoint.Generation,
		}, now)
	} else {
		meta.RemoveStatusCondition(&status.Conditions, billingv1.ConditionStalled)
	}
	return status
}
