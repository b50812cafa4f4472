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
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// ledgerConditions sets the kstatus conditions of a credit note or a
// payment (the objects entered in an invoice's ledger) at one generation
// and time; invoiceConditions sets an invoice's through it.
type ledgerConditions struct {
	conditions *[]metav1.Condition
	generation int64
	now        time.Time
}

// ready marks the object Ready for reason.
func (c ledgerConditions) ready(reason, message string) {
	c.set(billingv1.ConditionReady, metav1.ConditionTrue, reason, message)
	meta.RemoveStatusCondition(c.conditions, billingv1.ConditionReconciling)
	meta.RemoveStatusCondition(c.conditions, billingv1.ConditionStalled)
}

// notReady marks the object not Ready for reason; also is Reconciling (it
// converges by itself) or Stalled (it never will), and the other of the two
// is removed.
func (c ledgerConditions) notReady(reason, message, also string) {
	c.set(billingv1.ConditionReady, metav1.ConditionFalse, reason, message)
	c.set(also, metav1.ConditionTrue, reason, message)
	for _, t := range []string{billingv1.ConditionReconciling, billingv1.ConditionStalled} {
		if t != also {
			meta.RemoveStatusCondition(c.conditions, t)
		}
	}
}

// set sets one condition; its lastTransitionTime becomes now only when its
// status changes.
func (c ledgerConditions) set(conditionType string, status metav1.ConditionStatus, reason, message string) {
	setCondition(c.conditions, metav1.Condition{
		Type:               conditionType,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: c.generation,
	}, c.now)
}
