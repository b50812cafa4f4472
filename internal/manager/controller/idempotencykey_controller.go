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

package controller

import (
	"context"
	"fmt"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// IdempotencyKeyReconciler deletes the HTTP adapter's idempotency records
// once they expire, so a workspace does not accumulate them forever.
type IdempotencyKeyReconciler struct {
	client.Client
	// Clock tells whether a key has expired.
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=idempotencykeys,verbs=list;watch;delete

// Reconcile deletes an expired key, or waits until it expires.
func (r *IdempotencyKeyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	key := &billingv1.IdempotencyKey{}
	if err := r.Get(ctx, req.NamespacedName, key); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if wait := key.Spec.ExpiresAt.Sub(r.Clock.Now()); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	// The precondition keeps a key that was just claimed again (deleted and
	// recreated under the same name) from being deleted by a stale read.
	if err := r.Delete(ctx, key, client.Preconditions{UID: &key.UID, ResourceVersion: &key.ResourceVersion}); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(fmt.Errorf("deleting expired idempotency key: %w", err))
	}
	logf.FromContext(ctx).V(1).Info("Deleted expired idempotency key")
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller, reconciling up to concurrency
// keys at once (0: the manager's default).
func (r *IdempotencyKeyReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Clock == nil {
		return reconciler.ErrNoClock
	}
	return reconciler.NewController(mgr, "idempotencykey", concurrency, &billingv1.IdempotencyKey{}).
		Complete(reconciler.CountErrors("idempotencykey", r))
}
