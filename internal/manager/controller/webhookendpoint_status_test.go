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
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestWebhookStatus(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	failing := func(failures int32) *billingv1.WebhookEndpoint {
		e := &billingv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Generation: 2}}
		e.Status.Failures = failures
		e.Status.LastError = "the receiver answered 503"
		return e
	}
	fresh := &billingv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Generation: 1}}
	cases := []struct {
		name         string
		endpoint     *billingv1.WebhookEndpoint
		run          deliveryRun
		wantReason   string
		wantReady    metav1.ConditionStatus
		wantStalled  bool
		wantFailures int32
		wantAttempt  bool
	}{
		{"a run that delivered is Ready and clears the failures", failing(3),
			deliveryRun{delivered: 9, accepted: 2, attempted: true},
			billingv1.ReasonDelivered, metav1.ConditionTrue, false, 0, true},
		{"a run with nothing to send is Ready and records no attempt", fresh,
			deliveryRun{delivered: 0},
			billingv1.ReasonDelivered, metav1.ConditionTrue, false, 0, false},
		{"a failed attempt counts one more failure", failing(1),
			deliveryRun{delivered: 4, attempted: true, failure: &deliveryFailure{billingv1.ReasonDeliveryFailing, "503"}},
			billingv1.ReasonDeliveryFailing, metav1.ConditionFalse, false, 2, true},
		{"the fifth failure in a row stalls the endpoint", failing(4),
			deliveryRun{delivered: 4, attempted: true, failure: &deliveryFailure{billingv1.ReasonDeliveryFailing, "503"}},
			billingv1.ReasonDeliveryFailing, metav1.ConditionFalse, true, 5, true},
		{"a refused address stalls at once", fresh,
			deliveryRun{attempted: true, failure: &deliveryFailure{billingv1.ReasonURLNotAllowed, "link-local"}},
			billingv1.ReasonURLNotAllowed, metav1.ConditionFalse, true, 1, true},
		{"a missing secret stalls at once and counts for the backoff", fresh,
			deliveryRun{failure: &deliveryFailure{billingv1.ReasonSecretNotFound, "no secret"}},
			billingv1.ReasonSecretNotFound, metav1.ConditionFalse, true, 1, true},
		{"a paused endpoint keeps its failures for when it resumes", failing(6),
			deliveryRun{delivered: 4, paused: true},
			billingv1.ReasonPaused, metav1.ConditionFalse, false, 6, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := webhookStatus(tc.endpoint, tc.run, now)
			ready := meta.FindStatusCondition(got.Conditions, billingv1.ConditionReady)
			if ready == nil || ready.Reason != tc.wantReason || ready.Status != tc.wantReady {
				t.Fatalf("Ready = %+v, want %s %s", ready, tc.wantReady, tc.wantReason)
			}
			if stalled := meta.IsStatusConditionTrue(got.Conditions, billingv1.ConditionStalled); stalled != tc.wantStalled {
				t.Errorf("Stalled = %v, want %v", stalled, tc.wantStalled)
			}
			if got.Failures != tc.wantFailures {
				t.Errorf("failures = %d, want %d", got.Failures, tc.wantFailures)
			}
			if got.DeliveredSequence == nil || *got.DeliveredSequence != tc.run.delivered {
				t.Errorf("deliveredSequence = %v, want %d", got.DeliveredSequence, tc.run.delivered)
			}
			if (got.LastAttempt != nil && got.LastAttempt.Time.Equal(now)) != tc.wantAttempt {
				t.Errorf("lastAttempt = %v, want set to now: %v", got.LastAttempt, tc.wantAttempt)
			}
			// A pause keeps the last error; a failure sets it; anything else clears it.
			wantError := tc.run.failure != nil || (tc.run.paused && tc.endpoint.Status.LastError != "")
			if (got.LastError != "") != wantError {
				t.Errorf("lastError = %q, want set: %v", got.LastError, wantError)
			}
			if got.ObservedGeneration != tc.endpoint.Generation {
				t.Errorf("observedGeneration = %d, want %d", got.ObservedGeneration, tc.endpoint.Generation)
			}
		})
	}
}

func TestWebhookStatusCutsALongErrorToTheCRDBound(t *testing.T) {
	run := deliveryRun{attempted: true, failure: &deliveryFailure{billingv1.ReasonDeliveryFailing, strings.Repeat("é", 1000)}}
	got := webhookStatus(&billingv1.WebhookEndpoint{}, run, time.Now())
	if len(got.LastError) > maxLastError || !strings.HasPrefix(strings.Repeat("é", 1000), got.LastError) {
		t.Fatalf("lastError has %d bytes or splits a character", len(got.LastError))
	}
}

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
		{"a failure waits its backoff", deliveryRun{failure: &deliveryFailure{}}, 4, ctrl.Result{RequeueAfter: 8 * time.Second}},
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
	failing := &deliveryFailure{billingv1.ReasonDeliveryFailing, "the receiver answered 503"}
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
