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

// Package controller puts the controller manager together: Setup registers
// the field indexes, the number allocators and the sixteen reconcilers of
// the packages beside it with a manager, each with its own event recorder.
// cmd/main.go and every envtest suite call it, so tests run the wiring
// production runs; the envtest stories here are the black-box suite of
// Setup. It also holds the reconcilers of the workspace that fit no other
// concern: CustomerReconciler (its readiness, its credit's sources and the
// fold of its sealed entries into carried credit, and the finalizer that
// keeps a customer with invoices), BillingProfileReconciler (the
// workspace's issuer and numbering settings, and the automatic period
// close) and IdempotencyKeyReconciler (expires the adapter's claims); the
// manager's business metrics (RegisterMetrics) and its readiness check
// (CachesSynced).
//
// The other reconcilers live by concern: internal/manager/ledger (the
// invoice and the records entered in its ledger), internal/manager/sealing
// (seals and period closes), internal/manager/mailing (e-mails and
// reminders), internal/manager/webhooks (webhook endpoints) and
// internal/manager/schedules (invoice schedules), on the base of
// internal/manager/reconciler.
//
// Each Reconcile is short, in the shape of cluster-api and Flux: get the
// object, handle the finalizer, compute the status fresh with a pure
// function of what was read (the *_status.go files, table-tested), and patch
// once. A transient error is returned; waiting is a watch or RequeueAfter;
// a user's mistake sets a condition (reasons in api/v1) and does not
// hot-loop.
package controller
