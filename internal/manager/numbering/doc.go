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

// Package numbering hands out invoice sequences: per workspace (namespace),
// starting at 1, without a gap or a duplicate, binding across crashes, and
// coalescing concurrent callers into one API round trip per batch. The state
// lives in one InvoiceSequence object per workspace; docs/numbering.md
// describes the design and why it holds.
package numbering
