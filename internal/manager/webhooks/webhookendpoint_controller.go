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
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// This file is the WebhookEndpoint reconciler itself: what it needs, its
// Reconcile, when it runs again, the events it records and its setup. The
// delivery loop is in webhookendpoint_delivery.go, what it reads besides the
// endpoint in webhookendpoint_lookups.go, its status in
// webhookendpoint_status.go.

// WebhookEndpointReconciler pushes each workspace's events to its
// WebhookEndpoints in event-sequence order, each endpoint the types it
// subscribes to, and keeps each endpoint's status: how far delivery has
// come, the last attempt and error, Ready and Stalled.
type WebhookEndpointReconciler struct {
	client.Client
	// APIReader reads the endpoint (where delivery resumes must never come
	// from a stale cache) and its Secret (which the manager does not
	// cache, so it needs no list or watch of Secrets).
	APIReader client.Reader
	Recorder  events.EventRecorder
	Clock     clock.PassiveClock
	// Sender makes the attempts, and says which URLs it refuses.
	Sender *delivery.Sender
	// Batch is how many events one reconcile sends at most; 0 means
	// DefaultWebhookBatch.
	Batch int
	// Sealed knows the events of sealed records, which are delivered as
	// those of live ones (nil: nothing is sealed).
	Sealed *sealing.SealedRecords

	// watermarks are the highest invoice sequences seen, eventMarks the
	// highest event sequences, per workspace: the lag metrics.
	watermarks watermarks
	eventMarks watermarks
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=webhookendpoints,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=webhookendpoints/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=payments,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications;refunds;writeoffs,verbs=list;watch
// The signing secret is read with a get by name, never listed or watched.
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get

// Reconcile sends the endpoint's next batch of events (deliver), computes
// its status afresh (webhookStatus) and patches it once, when it changed.
func (r *WebhookEndpointReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	endpoint := &billingv1.WebhookEndpoint{}
	if err := r.APIReader.Get(ctx, req.NamespacedName, endpoint); err != nil {
		if apierrors.IsNotFound(err) {
			forgetWebhookMetrics(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !endpoint.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	if wait := retryWait(endpoint, r.Clock.Now()); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}

	run, runErr := r.deliver(ctx, endpoint)
	before := endpoint.DeepCopy()
	endpoint.Status = webhookStatus(endpoint, run, r.Clock.Now())
	observeWebhookLag(req.NamespacedName, r.watermarks.get(req.Namespace), r.eventMarks.get(req.Namespace), run)
	// The optimistic lock keeps two writers (an old leader still finishing
	// a batch) from moving deliveredSequence backwards.
	changed, err := reconciler.PatchStatus(ctx, r.Client, before, endpoint, client.MergeFromWithOptimisticLock{})
	if err != nil {
		// An endpoint deleted meanwhile has nothing left to do.
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if changed {
		r.recordTransition(ctx, before, endpoint)
	}
	if runErr != nil {
		return ctrl.Result{}, runErr
	}
	return webhookResult(run, endpoint.Status.Failures), nil
}

// retryWait is how long a failing endpoint still waits before its next
// attempt: the backoff of its failures, counted from the last attempt. A
// changed spec (a corrected URL, a resume) is tried at once.
func retryWait(endpoint *billingv1.WebhookEndpoint, now time.Time) time.Duration {
	s := endpoint.Status
	if s.Failures == 0 || s.LastAttempt == nil || s.ObservedGeneration != endpoint.Generation || endpoint.Spec.Paused {
		return 0
	}
	return s.LastAttempt.Add(delivery.Backoff(s.Failures)).Sub(now)
}

// webhookResult is when the endpoint is reconciled again by itself: after
// the backoff when failing, at once when its batch was full, and otherwise
// when an object gains an event or the spec changes (watches).
func webhookResult(run deliveryRun, failures int32) ctrl.Result {
	switch {
	case run.paused:
		return ctrl.Result{}
	case run.failure != nil:
		return ctrl.Result{RequeueAfter: delivery.Backoff(failures)}
	case run.full:
		return ctrl.Result{RequeueAfter: nextWebhookBatch}
	default:
		return ctrl.Result{}
	}
}

// recordTransition logs changes of the Ready reason, and records an event
// when the endpoint stalls (also after failures with an unchanged reason)
// or recovers.
func (r *WebhookEndpointReconciler) recordTransition(ctx context.Context, before, after *billingv1.WebhookEndpoint) {
	was := meta.FindStatusCondition(before.Status.Conditions, billingv1.ConditionReady)
	is := meta.FindStatusCondition(after.Status.Conditions, billingv1.ConditionReady)
	if is == nil {
		return
	}
	if was == nil || was.Reason != is.Reason {
		logf.FromContext(ctx).Info("Webhook endpoint status changed", "reason", is.Reason,
			"deliveredEventSequence", after.Status.DeliveredEventSequence,
			"deliveredSequence", after.Status.DeliveredSequence)
	}
	wasStalled := meta.IsStatusConditionTrue(before.Status.Conditions, billingv1.ConditionStalled)
	stalled := meta.IsStatusConditionTrue(after.Status.Conditions, billingv1.ConditionStalled)
	switch {
	case stalled && !wasStalled:
		r.Recorder.Eventf(after, nil, corev1.EventTypeWarning, is.Reason, "Deliver", "%s", is.Message)
	case is.Status == metav1.ConditionTrue && was != nil && was.Status != metav1.ConditionTrue:
		r.Recorder.Eventf(after, nil, corev1.EventTypeNormal, is.Reason, "Deliver", "%s", is.Message)
	}
}

// errNoSender is SetupWithManager's error for a webhook reconciler without
// a Sender or an APIReader.
var errNoSender = errors.New("the reconciler needs a Sender and an APIReader")

// SetupWithManager registers the controller, delivering to up to
// concurrency endpoints at once: a slow endpoint holds one worker for at
// most one attempt's timeout, then waits out its backoff without one. The
// InvoiceSequenceBlock and EventSequenceBlock indexes must be registered
// first (index.Setup).
func (r *WebhookEndpointReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Sender == nil || r.APIReader == nil {
		return errNoSender
	}
	if r.Clock == nil {
		return reconciler.ErrNoClock
	}
	if r.Recorder == nil {
		return reconciler.ErrNoRecorder
	}
	// Its own status patches do not wake an endpoint; webhookResult says
	// when it goes on.
	b := reconciler.NewController(mgr, "webhookendpoint", concurrency, &billingv1.WebhookEndpoint{},
		builder.WithPredicates(predicate.GenerationChangedPredicate{}))
	// Only an object that gains an event has something to send: one of a
	// kind that carries events (internal/recordkind); period.closed and
	// ledger.sealed are the workspace's events too.
	for _, k := range recordkind.Where(func(k *recordkind.Kind) bool { return len(k.Events) > 0 }) {
		b = b.Watches(k.New(), handler.EnqueueRequestsFromMapFunc(r.endpointsOfWorkspace),
			builder.WithPredicates(GainedEvent))
	}
	return b.Complete(reconciler.CountErrors("webhookendpoint", r))
}
