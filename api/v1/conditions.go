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

package v1

// Condition types set on Invoices and Customers. They follow the kstatus
// conventions (sigs.k8s.io/cli-utils/pkg/kstatus), so Flux, Argo CD and
// `kubectl wait --for=condition=Ready` read them without custom health checks.
const (
	// ConditionReady is True when the object is in its desired state: an
	// invoice is issued, a customer can be billed.
	ConditionReady = "Ready"

	// ConditionReconciling is True while the object is expected to change by
	// itself, for example an invoice waiting for its customer to be created.
	// kstatus reports such an object as InProgress.
	ConditionReconciling = "Reconciling"

	// ConditionStalled is True when the object cannot reach its desired state
	// without a change from a person, for example an invoice whose total is
	// too large. kstatus reports such an object as Failed.
	ConditionStalled = "Stalled"
)

// Condition reasons, in CamelCase as metav1.Condition requires.
const (
	// ReasonIssued: the invoice is issued.
	ReasonIssued = "Issued"

	// ReasonCustomerNotFound: spec.customerRef names no Customer in the
	// invoice's namespace. The invoice is issued as soon as that customer is
	// created.
	ReasonCustomerNotFound = "CustomerNotFound"

	// ReasonTotalTooLarge: the invoice's total is above 2^53-1 minor units.
	// The spec is immutable, so the invoice stays Invalid; create a smaller one.
	ReasonTotalTooLarge = "TotalTooLarge"

	// ReasonActive: the customer can be billed.
	ReasonActive = "Active"

	// ReasonDeletionBlocked: the customer's deletion was requested but
	// invoices still reference it; it is deleted once they are gone.
	ReasonDeletionBlocked = "DeletionBlocked"
)
