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

// Package controller holds the controller manager's seven reconcilers, one
// file a kind: Invoice (issues it: total, gapless number, frozen parties,
// due date, and keeps its balance), CreditNote and Payment (enter them in
// their invoice's ledger, deciding races on what is left to credit; the
// protocol is written on CreditNoteReconciler.Reconcile), Customer (its
// readiness, and the finalizer that keeps a customer with invoices),
// BillingProfile (the workspace's issuer and numbering settings),
// IdempotencyKey (expires the adapter's claims) and WebhookEndpoint (pushes
// the workspace's events of the types it subscribes to, in event-sequence
// order, through internal/manager/delivery).
//
// Each Reconcile is short, in the shape of cluster-api and Flux: get the
// object, handle the finalizer, compute the status fresh with a pure
// function of what was read (the *_status.go files, table-tested), and patch
// once. A transient error is returned; waiting is a watch or RequeueAfter;
// a user's mistake sets a condition (reasons in api/v1) and does not
// hot-loop. Setup wires every reconciler, its indexes and its metrics into a
// manager: cmd/main.go and every envtest suite call it, so tests run the
// wiring production runs.
package controller
