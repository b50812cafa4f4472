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
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// billingProfileStatus returns the status of profile: Ready True with reason
// Default for the profile named "default"; for any other, Ready False and
// Stalled True, both with reason NotDefault. A condition's lastTransitionTime
// becomes now when its status changes. It reads nothing else and changes
// nothing.
func billingProfileStatus(profile *billingv1.BillingProfile, now time.Time) billingv1.BillingProfileStatus {
	status := *profile.Status.DeepCopy()
	status.ObservedGeneration = profile.Generation
	condition := metav1.Condition{
		Type:               billingv1.ConditionReady,
		Status:             metav1.ConditionTrue,
		Reason:             billingv1.ReasonDefault,
		Message:            "The profile applies to the invoices this workspace issues",
		ObservedGeneration: profile.Generation,
	}
	if profile.Name == billingv1.DefaultBillingProfileName {
		reconciler.SetCondition(&status.Conditions, condition, now)
		meta.RemoveStatusCondition(&status.Conditions, billingv1.ConditionStalled)
		return status
	}
	// A profile of another name never applies: a mistake in the manifest
	// that no waiting fixes, so it is Stalled too (kstatus: Failed).
	condition.Status = metav1.ConditionFalse
	condition.Reason = billingv1.ReasonNotDefault
	condition.Message = fmt.Sprintf("Only the profile named %q applies to the workspace's invoices; this one applies to none",
		billingv1.DefaultBillingProfileName)
	reconciler.SetCondition(&status.Conditions, condition, now)
	condition.Type = billingv1.ConditionStalled
	condition.Status = metav1.ConditionTrue
	reconciler.SetCondition(&status.Conditions, condition, now)
	return status
}
