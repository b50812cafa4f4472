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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// InvoiceLookup tells the allocator what an invoice carries, so that it can
// trim the journal entries whose numbers are written and free those whose
// invoices can never take them.
type InvoiceLookup interface {
	// LookupInvoice returns the state of the invoice named key, or found
	// false when the reader has no such invoice.
	LookupInvoice(ctx context.Context, key types.NamespacedName) (state InvoiceState, found bool, err error)
}

// InvoiceReader returns an InvoiceLookup that reads Invoices with reader.
// sequenceOf returns the sequence written on an invoice (0 while none is):
// the invoice controller passes the one that reads status.sequence.
func InvoiceReader(reader client.Reader, sequenceOf func(*billingv1.Invoice) int64) InvoiceLookup {
	return invoiceReader{reader: reader, sequenceOf: sequenceOf}
}

type invoiceReader struct {
	reader     client.Reader
	sequenceOf func(*billingv1.Invoice) int64
}

func (r invoiceReader) LookupInvoice(ctx context.Context, key types.NamespacedName) (InvoiceState, bool, error) {
	return readState(ctx, r.reader, key, &billingv1.Invoice{}, func(inv *billingv1.Invoice) InvoiceState {
		return InvoiceState{UID: inv.UID, Sequence: r.sequenceOf(inv)}
	})
}

// readState reads the object named by key into obj and tells its state, or
// that it does not exist.
func readState[O client.Object](ctx context.Context, reader client.Reader, key types.NamespacedName, obj O,
	state func(O) InvoiceState) (InvoiceState, bool, error) {
	if err := reader.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return InvoiceState{}, false, nil
		}
		return InvoiceState{}, false, err
	}
	return state(obj), true, nil
}
