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

package sealing

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Automatic close (BillingProfile spec.closeMonthsAfterDays): each month is
// closed that many days after it ends, in the workspace's time zone, by a
// PeriodClose named auto-YYYY-MM through "YYYY-MM" that the PeriodClose
// controller then closes like any other.
//
// Only the latest month whose close moment has passed is closed, never the
// months before it: closing a month closes everything before it too, so
// back-filling would only add closes that end Superseded. Nor does it look
// for a workspace's first invoice: closing a month with nothing in it
// costs one object and closes nothing that exists. A workspace that turns
// automatic close on is closed through the latest due month at once.

// autoCloseMonthPrefix starts the name of an automatic close.
const autoCloseMonthPrefix = "auto-"

// AutoCloseDue returns the first day (in loc) of the latest month whose
// close moment, its end plus days, has passed at now, and the close moment
// of the month after it, when the next one is due.
func AutoCloseDue(days int32, loc *time.Location, now time.Time) (month, next time.Time) {
	local := now.In(loc)
	month = time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, loc).AddDate(0, -1, 0)
	closeMoment := func(m time.Time) time.Time { return m.AddDate(0, 1, int(days)) }
	for now.Before(closeMoment(month)) {
		month = month.AddDate(0, -1, 0)
	}
	return month, closeMoment(month.AddDate(0, 1, 0))
}

// AutoClose creates the close that profile's spec.closeMonthsAfterDays
// makes due at now, unless the workspace is already closed through that
// month, and returns how long until the next one is due (0: never, automatic
// close is off or the workspace's zone is unknown). A close of that name
// that exists already is kept as it is.
func AutoClose(ctx context.Context, c client.Client, profile *billingv1.BillingProfile, now time.Time) (time.Duration, error) {
	if profile.Name != billingv1.DefaultBillingProfileName || profile.Spec.CloseMonthsAfterDays == nil {
		return 0, nil
	}
	loc, err := billing.TimeZone(profile)
	if err != nil {
		return 0, nil //nolint:nilerr // an unknown zone is the profile's mistake; closes say so themselves
	}
	month, next := AutoCloseDue(*profile.Spec.CloseMonthsAfterDays, loc, now)
	wait := next.Sub(now)
	through := month.Format("2006-01")
	end, err := billing.ResolveThrough(through, loc)
	if err != nil {
		return 0, fmt.Errorf("resolving month %s: %w", through, err)
	}
	closes := &billingv1.PeriodCloseList{}
	if err := c.List(ctx, closes, client.InNamespace(profile.Namespace)); err != nil {
		return 0, fmt.Errorf("listing the period closes of %s: %w", profile.Namespace, err)
	}
	if closed, _, ok := billing.ClosedThrough(closes.Items); ok && !closed.Before(end) {
		return wait, nil
	}
	pc := &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Namespace: profile.Namespace, Name: autoCloseMonthPrefix + through},
		Spec:       billingv1.PeriodCloseSpec{Through: through},
	}
	if err := c.Create(ctx, pc); err != nil && !apierrors.IsAlreadyExists(err) {
		return 0, fmt.Errorf("creating period close %s: %w", pc.Name, err)
	} else if err == nil {
		logf.FromContext(ctx).Info("Closing a month automatically", "periodClose", pc.Name)
	}
	return wait, nil
}
