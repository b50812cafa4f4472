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

package reconciler

// Verdict is why an object is not Ready, or not yet: a reason of
// api/v1/conditions.go and a message, for its Ready condition and the
// condition it has besides. It is the one answer of every check that can
// hold an object back: a credit note rejected, a record waiting for its
// invoice, an invoice whose amounts cannot be computed, a webhook run that
// stopped short.
type Verdict struct {
	Reason, Message string
	// also is the condition besides Ready (Stalled: it never will be;
	// Reconciling: it goes on by itself) when the verdict decides it; ""
	// when the caller does.
	Also string
}
