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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// customerStatus computes a customer's status afresh from the customer and
// the number of invoices that reference it, at time now. It reads nothing
// else and changes nothing.
//
// A customer is Ready (Active) while it lives, and not Ready
// (DeletionBlocked) while its deletion waits for the invoices that
// reference it.
func customerStatus(customer *billingv1.Customer, invoices int, now time.Time) billingv1.CustomerStatus {
	status := *customer.Status.DeepCopy()
	status.ObservedGeneration = customer.Generation
	status.InvoiceCount = int32(min(invoices, 1<<31-1)) //nolint:gosec // bounded above
	ready := metav1.Condition{
		Type:               billingv1.ConditionReady,
		Status:             metav1.ConditionTrue,
		Reason:             billingv1.ReasonActive,
		Message:            "The customer can be billed",
		ObservedGeneration: customer.Generation,
	}
	if !customer.DeletionTimestamp.IsZero() {
		ready.Status = metav1.ConditionFalse
		ready.Reason = billingv1.ReasonDeletionBlocked
		ready.Message = fmt.Sprintf("Deletion waits for %d invoice(s) that reference this customer", invoices)
	}
	reconciler.SetCondition(&status.Conditions, ready, now)
	return status
}
