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
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// CreditNoteReader is an InvoiceLookup over CreditNotes, read with reader
// (the manager's cache for Options.Cached, its API reader for
// Options.Live): the allocator of the credit-note series treats a credit
// note as the invoice series treats an invoice, keyed by name and UID,
// written once status.sequence carries its number.
func CreditNoteReader(reader client.Reader) InvoiceLookup {
	return creditNoteReader{reader: reader}
}

type creditNoteReader struct {
	reader client.Reader
}

// LookupInvoice tells the UID and the sequence (0: none yet) of the credit
// note named by key, or that it does not exist.
func (r creditNoteReader) LookupInvoice(ctx context.Context, key types.NamespacedName) (InvoiceState, bool, error) {
	return readState(ctx, r.reader, key, &billingv1.CreditNote{}, func(note *billingv1.CreditNote) InvoiceState {
		var sequence int64
		if note.Status.Sequence != nil {
			sequence = *note.Status.Sequence
		}
		return InvoiceState{UID: note.UID, Sequence: sequence}
	})
}
