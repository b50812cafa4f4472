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

// Package recordkind is the one table of the kinds of records the adapter
// serves and the manager reconciles: per kind its Go type, the resource
// IdempotencyKeys and SubjectAccessReviews name, the prefix of the ids the
// adapter makes, its /v1 path, the event types it carries, whether a seal
// holds it, and the key of its ledger descriptor in the manager. The
// create path, the store's kinds, the event carriers, the seal's record
// kinds and the trim's kinds are built from it; what a record says of
// itself (its events, invoice, customer, whether it is settled) are
// methods of its api/v1 type (api/v1/record.go). Both programs import it:
// it imports api/v1 and nothing of internal/.
package recordkind
