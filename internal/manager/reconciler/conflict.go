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

package reconciler

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// requeueConflict turns a reconcile that failed on a conflict (the
// optimistic lock: the object changed since the cache read it) into a
// requeue without an error. controller-runtime logs every error a
// reconciler returns as "Reconciler error" with a stack trace; a conflict
// is the lock doing its job, and the next reconcile reads the newer object.
// The requeue is rate-limited as an error's is (the same backoff, the same
// queue), so nothing but the log changes; the conflict is logged at V(1)
// and, by CountErrors, counted under reason Conflict. A terminal error is
// left as it is: it is not retried.
func requeueConflict(ctx context.Context, res ctrl.Result, err error) (ctrl.Result, error) {
	if err == nil || !apierrors.IsConflict(err) || errors.Is(err, reconcile.TerminalError(nil)) {
		return res, err
	}
	ctrl.LoggerFrom(ctx).V(1).Info("Conflict, retrying", "error", err.Error())
	//nolint:staticcheck // Requeue is the rate-limited requeue an error gets; RequeueAfter has no backoff.
	return ctrl.Result{Requeue: true, Priority: res.Priority}, nil
}
