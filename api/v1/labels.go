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

package v1

// LabelCreatedBucket was on every Customer, Invoice, CreditNote and Payment
// the HTTP adapter created: the ten-second bucket of its creation time
// (Unix seconds / 10), by which a replica found the objects created through
// another one.
//
// Deprecated: the adapter no longer writes or reads it; a read barrier on
// resource versions gives read-your-writes across replicas instead
// (docs/design.md). Objects created before carry it, and it means nothing;
// it may be removed from them.
const LabelCreatedBucket = "billing.invoicing.dev/created-bucket"

// LabelSealedIn marks a record (an Invoice, CreditNote, Payment,
// CreditApplication, WriteOff, Refund or Email) that the manager has
// sealed: its value is the name of the LedgerSeal that holds it. The
// manager sets it only after it has read the seal back and verified it, and
// deletes the original right after; the retention policies let only the
// manager delete an issued record, and only one that carries this label
// (docs/ledger.md#closing-the-books).
const LabelSealedIn = "billing.invoicing.dev/sealed-in"

// LabelSealedPart is set by the manager in the same patch as
// LabelSealedIn: a digit from 0 to 3, from a hash of the record's name,
// that spreads a seal's originals over DeleteCollections run at once (the
// API server deletes a collection's items one after the other, each
// waiting for etcd). It selects nothing on its own: every delete also
// selects LabelSealedIn, the label that guards retention.
const LabelSealedPart = "billing.invoicing.dev/sealed-part"
