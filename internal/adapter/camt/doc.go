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

// Package camt reads ISO 20022 camt.053 bank statements (versions
// camt.053.001.02 and camt.053.001.08), the files a bank exports of an
// account's bookings, for the adapter's POST /v1/bank_statements. It is
// pure: bytes in, a Statement or an *InvalidError out.
//
// Read first checks a document against its version's official XML Schema,
// vendored unmodified under schema/ (see its README for the source and
// ISO's terms) and embedded. The check is this package's own, in Go: there
// is no pure-Go XSD validator, and the adapter is a static binary without
// libxml2. It covers the small regular subset of XSD 1.0 that ISO 20022
// message schemas are generated in (schema.go says which constructs) and
// refuses to load a schema outside it, so that a schema is never half
// understood; a test runs libxml2 on the same fixtures and checks that
// both agree. Its errors are "path: what", the path from the root with
// the position of repeated elements: /Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt.
//
// Read then takes from each statement its account and each entry, one
// Transaction per entry or, for an entry that batches several
// transactions, one per transaction with its own amount, references,
// remittance and debtor. Amounts are decimal strings and minor units of
// their ISO 4217 currency (internal/billing), never floating point.
//
// Files: tree.go parses XML into elements (no DOCTYPE); schema.go and
// schematypes.go compile an XSD; automaton.go is a content model's
// automaton; simpletype.go and lexical.go check values; pattern.go
// translates XSD patterns to RE2; validate.go checks a document; schemas.go
// embeds the two schemas; read.go and extract.go are Read; amount.go
// converts amounts; statement.go and errors.go are the types it returns.
package camt
