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
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

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

// WebhookEndpointReconciler pushes each workspace's issued invoices to its
// WebhookEndpoints in sequence order, and keeps each endpoint's status: how
// far delivery has come, the last attempt and error, Ready and Stalled.
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

	watermarks watermarks
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=webhookendpoints,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=webhookendpoints/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=list;watch
// The signing secret is read with a get by name, never listed or watched.
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get

// Reconcile sends the endpoint's next batch of events (deliver), computes
// its status afresh (webhookStatus) and patches it once.
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
	observeWebhookLag(req.NamespacedName, r.watermarks.get(req.Namespace), run)
	if !equality.Semantic.DeepEqual(before.Status, endpoint.Status) {
		// The optimistic lock keeps two writers (an old leader still
		// finishing a batch) from moving deliveredSequence backwards.
		patch := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
		if err := r.Status().Patch(ctx, endpoint, patch); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(fmt.Errorf("patching webhook endpoint status: %w", err))
		}
		r.recordTransition(ctx, before, endpoint)
	}
	if runErr != nil {
		return ctrl.Result{}, runErr
	}
	return webhookResult(run, endpoint.Status.Failures), nil
}

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
// when an invoice is issued or the spec changes (watches).
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
			"deliveredSequence", after.Status.DeliveredSequence)
	}
	if r.Recorder == nil {
		return
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

// Errors of SetupWithManager for a webhook reconciler that is missing a part.
var errNoSender = errors.New("the reconciler needs a Sender and an APIReader")

// SetupWithManager registers the controller, delivering to up to
// concurrency endpoints at once: a slow endpoint holds one worker for at
// most one attempt's timeout, then waits out its backoff without one. The
// InvoiceSequence index must be registered first (index.Setup).
func (r *WebhookEndpointReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Sender == nil || r.APIReader == nil {
		return errNoSender
	}
	if r.Clock == nil {
		return errNoClock
	}
	return ctrl.NewControllerManagedBy(mgr).
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: concurrency}).
		// Its own status patches do not wake an endpoint; webhookResult
		// says when it goes on.
		For(&billingv1.WebhookEndpoint{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&billingv1.Invoice{},
			handler.EnqueueRequestsFromMapFunc(r.endpointsOfWorkspace),
			// Only an invoice that gets its sequence has something to send.
			builder.WithPredicates(predicate.Funcs{
				CreateFunc: func(e event.CreateEvent) bool { return hasSequence(e.Object) },
				UpdateFunc: func(e event.UpdateEvent) bool {
					return hasSequence(e.ObjectNew) && !hasSequence(e.ObjectOld)
				},
				DeleteFunc:  func(event.DeleteEvent) bool { return false },
				GenericFunc: func(event.GenericEvent) bool { return false },
			})).
		Named("webhookendpoint").
		Complete(CountErrors("webhookendpoint", r))
}

func hasSequence(obj client.Object) bool {
	inv, ok := obj.(*billingv1.Invoice)
	return ok && inv.Status.Sequence != nil
}
