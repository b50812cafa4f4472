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
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

func TestWebhookStatus(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	earlier := now.Add(-time.Hour)
	// failing is an endpoint whose last failures were recorded an hour ago.
	failing := func(failures int32) *billingv1.WebhookEndpoint {
		e := &billingv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Generation: 2}}
		e.Status.Failures = failures
		e.Status.LastError = "the receiver answered 503"
		e.Status.Conditions = []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse,
			Reason: billingv1.ReasonDeliveryFailing, LastTransitionTime: metav1.NewTime(earlier), ObservedGeneration: 2}}
		return e
	}
	fresh := &billingv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Generation: 1}}
	cases := []struct {
		name     string
		endpoint *billingv1.WebhookEndpoint
		run      deliveryRun
		// Ready's reason and status, and since when it has had that status.
		wantReason     string
		wantReady      metav1.ConditionStatus
		wantReadySince time.Time
		// wantStalled: Stalled is True, since now.
		wantStalled   bool
		wantFailures  int32
		wantAttempt   bool
		wantLastError string
	}{
		{name: "a run that delivered is Ready and clears the failures", endpoint: failing(3),
			run:        deliveryRun{delivered: 9, invoices: 6, accepted: 2, attempted: true},
			wantReason: billingv1.ReasonDelivered, wantReady: metav1.ConditionTrue, wantReadySince: now,
			wantAttempt: true},
		{name: "a run with nothing to send is Ready and records no attempt", endpoint: fresh,
			run:        deliveryRun{delivered: 0},
			wantReason: billingv1.ReasonDelivered, wantReady: metav1.ConditionTrue, wantReadySince: now},
		{name: "a failed attempt counts one more failure and keeps Ready's transition time", endpoint: failing(1),
			run:        deliveryRun{delivered: 4, invoices: 3, attempted: true, failure: &reconciler.Verdict{Reason: billingv1.ReasonDeliveryFailing, Message: "503"}},
			wantReason: billingv1.ReasonDeliveryFailing, wantReady: metav1.ConditionFalse, wantReadySince: earlier,
			wantFailures: 2, wantAttempt: true, wantLastError: "503"},
		{name: "the fifth failure in a row stalls the endpoint", endpoint: failing(4),
			run:        deliveryRun{delivered: 4, invoices: 3, attempted: true, failure: &reconciler.Verdict{Reason: billingv1.ReasonDeliveryFailing, Message: "503"}},
			wantReason: billingv1.ReasonDeliveryFailing, wantReady: metav1.ConditionFalse, wantReadySince: earlier,
			wantStalled: true, wantFailures: 5, wantAttempt: true, wantLastError: "503"},
		{name: "a refused address stalls at once", endpoint: fresh,
			run:        deliveryRun{attempted: true, failure: &reconciler.Verdict{Reason: billingv1.ReasonURLNotAllowed, Message: "link-local"}},
			wantReason: billingv1.ReasonURLNotAllowed, wantReady: metav1.ConditionFalse, wantReadySince: now,
			wantStalled: true, wantFailures: 1, wantAttempt: true, wantLastError: "link-local"},
		{name: "a missing secret stalls at once and counts for the backoff", endpoint: fresh,
			run:        deliveryRun{failure: &reconciler.Verdict{Reason: billingv1.ReasonSecretNotFound, Message: "no secret"}},
			wantReason: billingv1.ReasonSecretNotFound, wantReady: metav1.ConditionFalse, wantReadySince: now,
			wantStalled: true, wantFailures: 1, wantAttempt: true, wantLastError: "no secret"},
		{name: "a paused endpoint keeps its failures and last error for when it resumes", endpoint: failing(6),
			run:        deliveryRun{delivered: 4, invoices: 2, paused: true},
			wantReason: billingv1.ReasonPaused, wantReady: metav1.ConditionFalse, wantReadySince: earlier,
			wantFailures: 6, wantLastError: "the receiver answered 503"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := webhookStatus(tc.endpoint, tc.run, now)
			ready := meta.FindStatusCondition(got.Conditions, billingv1.ConditionReady)
			if ready == nil || ready.Reason != tc.wantReason || ready.Status != tc.wantReady {
				t.Fatalf("Ready = %+v, want %s %s", ready, tc.wantReady, tc.wantReason)
			}
			if !ready.LastTransitionTime.Time.Equal(tc.wantReadySince) {
				t.Errorf("Ready's lastTransitionTime = %v, want %v", ready.LastTransitionTime, tc.wantReadySince)
			}
			stalled := meta.FindStatusCondition(got.Conditions, billingv1.ConditionStalled)
			if isStalled := stalled != nil && stalled.Status == metav1.ConditionTrue; isStalled != tc.wantStalled {
				t.Errorf("Stalled = %+v, want True: %v", stalled, tc.wantStalled)
			}
			if stalled != nil && !stalled.LastTransitionTime.Time.Equal(now) {
				t.Errorf("Stalled's lastTransitionTime = %v, want %v", stalled.LastTransitionTime, now)
			}
			if got.Failures != tc.wantFailures {
				t.Errorf("failures = %d, want %d", got.Failures, tc.wantFailures)
			}
			if got.DeliveredEventSequence == nil || *got.DeliveredEventSequence != tc.run.delivered {
				t.Errorf("deliveredEventSequence = %v, want %d", got.DeliveredEventSequence, tc.run.delivered)
			}
			if got.DeliveredSequence == nil || *got.DeliveredSequence != tc.run.invoices {
				t.Errorf("deliveredSequence = %v, want %d", got.DeliveredSequence, tc.run.invoices)
			}
			if (got.LastAttempt != nil && got.LastAttempt.Time.Equal(now)) != tc.wantAttempt {
				t.Errorf("lastAttempt = %v, want set to now: %v", got.LastAttempt, tc.wantAttempt)
			}
			if got.LastError != tc.wantLastError {
				t.Errorf("lastError = %q, want %q", got.LastError, tc.wantLastError)
			}
			if got.ObservedGeneration != tc.endpoint.Generation {
				t.Errorf("observedGeneration = %d, want %d", got.ObservedGeneration, tc.endpoint.Generation)
			}
		})
	}
}

func TestWebhookStatusCutsALongErrorToTheCRDBoundWithoutSplittingACharacter(t *testing.T) {
	// 1 + 2*1000 bytes: byte 1024 is the first half of an "é", so the cut
	// keeps "a" and 511 whole "é", 1023 bytes.
	long := "a" + strings.Repeat("é", 1000)
	run := deliveryRun{attempted: true, failure: &reconciler.Verdict{Reason: billingv1.ReasonDeliveryFailing, Message: long}}
	got := webhookStatus(&billingv1.WebhookEndpoint{}, run, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	if want := "a" + strings.Repeat("é", 511); got.LastError != want {
		t.Fatalf("lastError has %d bytes (%q...), want the %d bytes %q...",
			len(got.LastError), prefix(got.LastError), len(want), prefix(want))
	}
}

// prefix is the start of s, to keep long strings out of failure messages.
func prefix(s string) string { return reconciler.Truncate(s, 16) }

func TestRetryWait(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	endpoint := func(failures int32, ago time.Duration, observed int64, paused bool) *billingv1.WebhookEndpoint {
		at := metav1.NewTime(now.Add(-ago))
		e := &billingv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Generation: 3}}
		e.Spec.Paused = paused
		e.Status = billingv1.WebhookEndpointStatus{Failures: failures, LastAttempt: &at, ObservedGeneration: observed}
		return e
	}
	cases := []struct {
		name string
		e    *billingv1.WebhookEndpoint
		want time.Duration
	}{
		{"an endpoint without failures does not wait", endpoint(0, 0, 3, false), 0},
		{"after 3 failures it waits 4 s from the last attempt", endpoint(3, time.Second, 3, false), 3 * time.Second},
		{"a backoff that has passed does not wait", endpoint(3, time.Minute, 3, false), -56 * time.Second},
		{"a changed spec is tried at once", endpoint(8, 0, 2, false), 0},
		{"a paused endpoint does not wait to record its pause", endpoint(8, 0, 3, true), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := retryWait(tc.e, now); got != tc.want {
				t.Fatalf("retryWait() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWebhookResult(t *testing.T) {
	cases := []struct {
		name     string
		run      deliveryRun
		failures int32
		want     ctrl.Result
	}{
		{"a caught-up endpoint waits for the next invoice", deliveryRun{delivered: 3}, 0, ctrl.Result{}},
		{"a full batch goes on at once", deliveryRun{full: true}, 0, ctrl.Result{RequeueAfter: nextWebhookBatch}},
		{"a failure waits its backoff", deliveryRun{failure: &reconciler.Verdict{}}, 4, ctrl.Result{RequeueAfter: 8 * time.Second}},
		{"a paused endpoint waits for its spec", deliveryRun{paused: true}, 2, ctrl.Result{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := webhookResult(tc.run, tc.failures); got != tc.want {
				t.Fatalf("webhookResult() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWebhookTransitionsRecordAnEventWhenTheEndpointStallsOrRecovers(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	failing := &reconciler.Verdict{Reason: billingv1.ReasonDeliveryFailing, Message: "the receiver answered 503"}
	endpointAfter := func(failures int32, run deliveryRun) *billingv1.WebhookEndpoint {
		e := &billingv1.WebhookEndpoint{}
		e.Status.Failures = failures
		e.Status = webhookStatus(e, run, now)
		return e
	}
	cases := []struct {
		name   string
		before *billingv1.WebhookEndpoint
		run    deliveryRun
		want   string
	}{
		{"the fifth failure in a row, with the reason unchanged, records a warning",
			endpointAfter(3, deliveryRun{attempted: true, failure: failing}),
			deliveryRun{attempted: true, failure: failing}, "Warning DeliveryFailing"},
		{"a failure before the fifth records nothing",
			endpointAfter(1, deliveryRun{attempted: true, failure: failing}),
			deliveryRun{attempted: true, failure: failing}, ""},
		{"a delivery after a failure records the recovery",
			endpointAfter(1, deliveryRun{attempted: true, failure: failing}),
			deliveryRun{attempted: true, accepted: 1, delivered: 1}, "Normal Delivered"},
		{"a delivery after a delivery records nothing",
			endpointAfter(0, deliveryRun{attempted: true, accepted: 1, delivered: 1}),
			deliveryRun{attempted: true, accepted: 1, delivered: 2}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recorder := events.NewFakeRecorder(4)
			r := &WebhookEndpointReconciler{Recorder: recorder}
			after := tc.before.DeepCopy()
			after.Status = webhookStatus(tc.before, tc.run, now)
			r.recordTransition(context.Background(), tc.before, after)
			var got string
			select {
			case got = <-recorder.Events:
			default:
			}
			if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
				t.Fatalf("event = %q, want one starting %q", got, tc.want)
			}
		})
	}
}
