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

package numbering

import (
	"errors"
	"fmt"
)

var (
	// ErrJournalFull means the workspace has as many sequences reserved but
	// not yet written on their invoices as its InvoiceSequence can hold.
	// It is transient: retry once the callers have written their numbers.
	ErrJournalFull = errors.New("numbering: too many sequences reserved but not yet written; retry later")

	// ErrContended means the InvoiceSequence kept changing under the
	// allocator (other writers) and it gave up for now. It is transient.
	ErrContended = errors.New("numbering: the workspace's sequence kept changing; retry later")

	// ErrStale means the object already carries its sequence (or its
	// fact's event): the caller read it before that was written. It is
	// transient: read the object again, and there is nothing to assign.
	ErrStale = errors.New("numbering: the object already carries its sequence; read it again")

	// ErrInvalidInvoice means Assign was called without an invoice
	// namespace, name or UID. It is a programming error.
	ErrInvalidInvoice = errors.New("numbering: an invoice needs a namespace, a name and a UID")

	// ErrInvalidSequence means Format was given a sequence below 1.
	ErrInvalidSequence = errors.New("numbering: a sequence is 1 or more")
)

// APIError is a failure of the Kubernetes API while reading or writing a
// workspace's InvoiceSequence or its invoices. It is transient unless the
// wrapped error says otherwise (for example Forbidden).
type APIError struct {
	// Op says what the allocator was doing, for example "updating".
	Op string
	// Namespace is the workspace.
	Namespace string
	// Err is the API error.
	Err error
}

func (e *APIError) Error() string {
	return fmt.Sprintf("numbering: %s the invoice sequence of workspace %q: %v", e.Op, e.Namespace, e.Err)
}

func (e *APIError) Unwrap() error { return e.Err }
