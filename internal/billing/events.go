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

package billing

import (
	"reflect"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file reads the events an invoice, credit note or payment records,
// and says what rendering one of them as its event's object needs beside
// it. The adapter's event index, the manager's webhook delivery and the
// renderers of /v1 all read them here.

// RecordedEvents returns the namespace, name and status.events of an
// object that carries events (a billingv1.EventCarrier: an Invoice,
// CreditNote, Payment, PeriodClose, LedgerSeal, CreditApplication, Refund,
// WriteOff or a reminder's Email), the events in the order the object
// records them; none for another kind. The events are the object's own:
// read them, never change them.
func RecordedEvents(obj any) (namespace, name string, events []billingv1.RecordedEvent) {
	o, ok := obj.(billingv1.EventCarrier)
	if !ok || reflect.ValueOf(o).IsNil() {
		return "", "", nil
	}
	return o.GetNamespace(), o.GetName(), o.RecordedEvents()
}

// CreditNoteNeedsInvoice says whether the representation of a credit note
// whose status is st needs its invoice: while it is pending (its amounts
// are computed against the invoice, PendingCreditNote), or when the
// controller did not record the invoice's customer and currency.
func CreditNoteNeedsInvoice(st *billingv1.CreditNoteStatus) bool {
	return st.Phase == "" || st.Phase == billingv1.CreditNotePending || st.Currency == "" || st.CustomerName == ""
}

// PaymentNeedsInvoice says whether the representation of p needs its
// invoice: until the controller has recorded its customer.
func PaymentNeedsInvoice(p *billingv1.Payment) bool {
	return p.Status.CustomerName == ""
}
