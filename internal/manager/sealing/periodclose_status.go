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
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// periodCloseInput is what the status of a period close is computed from:
// the workspace's time zone (or why it has none) and its other closes, as
// the cache holds them, at now.
type periodCloseInput struct {
	zone    *time.Location
	zoneErr error
	closes  []billingv1.PeriodClose
	now     time.Time
}

// periodCloseFinal reports whether pc's status never changes again: Closed
// (with its event, written in the same patch), Superseded or Invalid.
func periodCloseFinal(pc *billingv1.PeriodClose) bool {
	switch pc.Status.Phase {
	case billingv1.PeriodCloseClosed:
		return billingv1.FindEvent(pc.Status.Events, billingv1.EventTypePeriodClosed) != nil
	case billingv1.PeriodCloseSuperseded, billingv1.PeriodCloseInvalid:
		return true
	default:
		return false
	}
}

// periodCloseStatus returns the status of pc, which is not final, and how
// long to wait before looking again (0: no need):
//   - spec.through that is no month, day or instant, or a workspace time
//     zone that is unknown: Invalid, Stalled, reason InvalidThrough (a
//     mistake in the manifest; the spec is immutable, so it stays so);
//   - a moment not past yet at now: Pending, Reconciling, reason
//     PeriodNotEnded, to look again just after it ends;
//   - a workspace already closed through that moment or later by another
//     Closed close: Superseded, Stalled, reason AlreadyClosed, naming it;
//   - else Closed, Ready, reason Closed, with closedThrough and closedAt;
//     the caller adds its period.closed event in the same status patch.
//
// Closes only move forward: two closes that race may both close (each saw
// the other still Pending), and the workspace is closed through the later.
// It reads nothing else and changes nothing.
func periodCloseStatus(pc *billingv1.PeriodClose, in periodCloseInput) (billingv1.PeriodCloseStatus, time.Duration) {
	status := *pc.Status.DeepCopy()
	status.ObservedGeneration = pc.Generation
	conditions := reconciler.Conditions{List: &status.Conditions, Generation: pc.Generation, Now: in.now}
	through, err := resolveClose(pc.Spec.Through, in.zone, in.zoneErr)
	if err != nil {
		status.Phase = billingv1.PeriodCloseInvalid
		conditions.NotReady(billingv1.ReasonInvalidThrough,
			fmt.Sprintf("Cannot close through %q: %v; create a new PeriodClose", pc.Spec.Through, err),
			billingv1.ConditionStalled)
		return status, 0
	}
	if !billing.Ended(through, in.now) {
		status.Phase = billingv1.PeriodClosePending
		conditions.NotReady(billingv1.ReasonPeriodNotEnded,
			fmt.Sprintf("The period through %s has not ended yet; it is closed once it has",
				through.UTC().Format(time.RFC3339)), billingv1.ConditionReconciling)
		// Ended is true from the second after through on.
		return status, through.Add(time.Second).Sub(in.now)
	}
	if closed, name, ok := billing.ClosedThrough(others(pc.Name, in.closes)); ok && !closed.Before(through) {
		status.Phase = billingv1.PeriodCloseSuperseded
		conditions.NotReady(billingv1.ReasonAlreadyClosed,
			fmt.Sprintf("The workspace is already closed through %s by PeriodClose %q; this close changes nothing",
				closed.UTC().Format(time.RFC3339), name), billingv1.ConditionStalled)
		return status, 0
	}
	status.Phase = billingv1.PeriodCloseClosed
	closedThrough, closedAt := metav1.NewTime(through), metav1.NewTime(in.now)
	status.ClosedThrough, status.ClosedAt = &closedThrough, &closedAt
	conditions.Ready(billingv1.ReasonClosed,
		fmt.Sprintf("The workspace's books are closed through %s", through.UTC().Format(time.RFC3339)))
	return status, 0
}

// errUnknownZone is resolveClose's error when the workspace's time zone is
// unknown.
var errUnknownZone = errors.New("the workspace's time zone is unknown")

// resolveClose resolves through in zone, or says why it cannot.
func resolveClose(through string, zone *time.Location, zoneErr error) (time.Time, error) {
	if zoneErr != nil {
		return time.Time{}, fmt.Errorf("%w: %w", errUnknownZone, zoneErr)
	}
	return billing.ResolveThrough(through, zone)
}

// others returns closes without the one named name.
func others(name string, closes []billingv1.PeriodClose) []billingv1.PeriodClose {
	out := make([]billingv1.PeriodClose, 0, len(closes))
	for i := range closes {
		if closes[i].Name != name {
			out = append(out, closes[i])
		}
	}
	return out
}
