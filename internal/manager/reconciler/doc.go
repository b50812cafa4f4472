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

// Package reconciler is the base every reconciler of the manager stands on,
// in the shape of Flux's internal/reconcile: the first read of the object
// reconciled (GetActive), the one status patch (PatchStatus), conflicts
// turned into quiet requeues, the kstatus conditions (Conditions,
// SetCondition), Verdict (why an object is not Ready: the one answer of
// every check that holds an object back), the recorded fact (RecordFact: an
// object's event takes the workspace's next event sequence through an
// EventNumberer, after the facts it follows), the controller builder and the
// parts a reconciler needs before it is registered (NewController,
// FirstMissing), the requests a watch of another kind maps to (Requests),
// the workspace's billing profile (WorkspaceProfile; IssuingProfile, read
// live through LiveProfiles while the cache has not seen it), and the
// metrics every reconciler reports (errors by reason, events recorded, the
// invoices counted at scrape time). It registers no reconciler itself.
package reconciler
