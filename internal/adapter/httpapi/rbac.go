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

package httpapi

// The adapter's own permissions. controller-gen renders them, with the
// controller's (internal/controller), into the one ClusterRole of the pod's
// ServiceAccount, config/rbac/role.yaml (make manifests): a pod has one
// identity, so its role is the union of what its two containers need. The
// adapter acts for a caller only after a TokenReview (who is calling) and a
// SubjectAccessReview (may they do this in this workspace), so RBAC stays
// the one place that grants access to invoices. It watches customers,
// invoices, credit notes, payments, credit applications, refunds and
// write-offs for its cache, reads one from the API server when the cache
// misses it, creates them for callers, and claims Idempotency-Keys with
// IdempotencyKey objects (deleting a claim whose create was refused). It
// watches billing profiles for its cache, and gets the workspace's
// BillingProfile "default" (its resource version, to confirm the cached
// one) for the default tax of a create and the footer of a document. It
// watches period closes (the workspace's closed_through) and ledger seals
// (whose records it serves as if live) for its cache, and lists the seals
// from the API server to verify the chain. It creates emails for the sends
// (what a caller's SubjectAccessReview names: create on emails), and watches
// them for the events of reminders. It creates the bank transactions of an
// imported statement, and a transaction's payment when a caller matches it
// by hand. The review rules also serve both
// containers' metrics endpoints.
//
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=customers;invoices;creditnotes;payments,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditapplications;refunds;writeoffs,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=emails,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoiceschedules,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=pendingitems,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=banktransactions,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=periodcloses;ledgerseals,verbs=get;list;watch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=idempotencykeys,verbs=get;create;delete
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=billingprofiles,verbs=get;list;watch
// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create
