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

// Package sealing holds the reconcilers that close a workspace's books:
// SealReconciler (moves settled families of records into LedgerSeals, a
// hash chain, and deletes the originals) and PeriodCloseReconciler (closes
// a period, by hand or automatically from the BillingProfile, so that no
// record dated in it enters a ledger). SealedRecords, the index of what
// each workspace's verified seals hold, decoded once per seal, lives here
// too: the ledger, e-mail and webhook reconcilers and the Customer
// reconciler ask it whether a record is sealed and read sealed records
// through it (seal_check.go: a re-created sealed record is refused).
package sealing
