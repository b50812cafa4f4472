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

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
)

// BillingProfileReconciler reports on each BillingProfile whether it applies
// to its workspace's invoices: the one named "default" does, any other is
// Ready=False with reason NotDefault.
type BillingProfileReconciler struct {
	client.Client
	// Clock tells when a condition changed.
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=billingprofiles,verbs=list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=billingprofiles/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses,verbs=list;watch;create

// Reconcile computes the profile's status afresh and patches it once when it
// changed. With spec.closeMonthsAfterDays the default profile also closes
// each month that many days after it ends (autoClose), and looks again
// when the next month is due.
func (r *BillingProfileReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	profile := &billingv1.BillingProfile{}
	if active, err := reconciler.GetActive(ctx, r.Client, req.NamespacedName, profile); !active || err != nil {
		return ctrl.Result{}, err
	}
	now := r.Clock.Now()
	before := profile.DeepCopy()
	profile.Status = billingProfileStatus(profile, now)
	if _, err := reconciler.PatchStatus(ctx, r.Client, before, profile); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	wait, err := sealing.AutoClose(ctx, r.Client, profile, now)
	return ctrl.Result{RequeueAfter: wait}, err
}

// SetupWithManager registers the controller, reconciling up to concurrency
// profiles at once (0: the manager's default).
func (r *BillingProfileReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if r.Clock == nil {
		return reconciler.ErrNoClock
	}
	return reconciler.NewController(mgr, "billingprofile", concurrency, &billingv1.BillingProfile{}).
		Complete(reconciler.CountErrors("billingprofile", r))
}
