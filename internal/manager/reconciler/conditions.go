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
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Conditions sets the kstatus conditions in List of a record entered in an
// invoice's ledger, an Email or a PeriodClose at one generation and time;
// an invoice's are set through it too.
type Conditions struct {
	List       *[]metav1.Condition
	Generation int64
	Now        time.Time
}

// Ready marks the object Ready for reason.
func (c Conditions) Ready(reason, message string) {
	c.Set(billingv1.ConditionReady, metav1.ConditionTrue, reason, message)
	meta.RemoveStatusCondition(c.List, billingv1.ConditionReconciling)
	meta.RemoveStatusCondition(c.List, billingv1.ConditionStalled)
}

// NotReady marks the object not Ready for reason; also is Reconciling (it
// converges by itself) or Stalled (it never will), and the other of the two
// is removed.
func (c Conditions) NotReady(reason, message, also string) {
	c.Set(billingv1.ConditionReady, metav1.ConditionFalse, reason, message)
	c.Set(also, metav1.ConditionTrue, reason, message)
	for _, t := range []string{billingv1.ConditionReconciling, billingv1.ConditionStalled} {
		if t != also {
			meta.RemoveStatusCondition(c.List, t)
		}
	}
}

// Set sets one condition; its lastTransitionTime becomes now only when its
// status changes.
func (c Conditions) Set(conditionType string, status metav1.ConditionStatus, reason, message string) {
	SetCondition(c.List, metav1.Condition{
		Type:               conditionType,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: c.Generation,
	}, c.Now)
}

// SetCondition sets condition in conditions, stamping its lastTransitionTime
// with now when it is new or its status changed, and keeping the old time
// otherwise.
func SetCondition(conditions *[]metav1.Condition, condition metav1.Condition, now time.Time) {
	condition.LastTransitionTime = metav1.NewTime(now)
	meta.SetStatusCondition(conditions, condition)
}

// Truncate cuts s to at most n bytes without splitting a character.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
