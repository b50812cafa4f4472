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

package billing_test

import (
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestRecordedEventsAreReadFromAnInvoiceCreditNoteOrPayment(t *testing.T) {
	issued := billingv1.RecordedEvent{Type: billingv1.EventTypeInvoiceIssued, Sequence: 3}
	paid := billingv1.RecordedEvent{Type: billingv1.EventTypeInvoicePaid, Sequence: 9}
	noteIssued := billingv1.RecordedEvent{Type: billingv1.EventTypeCreditNoteIssued, Sequence: 4}
	recorded := billingv1.RecordedEvent{Type: billingv1.EventTypePaymentRecorded, Sequence: 7}

	invoice := builder.Invoice("acme-ws", "inv-1")
	invoice.Status.Events = []billingv1.RecordedEvent{issued, paid}
	note := builder.CreditNote("acme-ws", "cn-1", "inv-1")
	note.Status.Events = []billingv1.RecordedEvent{noteIssued}
	payment := builder.Payment("acme-ws", "pay-1", "inv-1", 100)
	payment.Status.Events = []billingv1.RecordedEvent{recorded, paid}

	for _, tc := range []struct {
		name       string
		obj        any
		wantNS     string
		wantName   string
		wantEvents []billingv1.RecordedEvent
	}{
		{"an invoice's recorded events are returned in order, with its namespace and name",
			invoice, "acme-ws", "inv-1", []billingv1.RecordedEvent{issued, paid}},
		{"a credit note's recorded events are returned, with its namespace and name",
			note, "acme-ws", "cn-1", []billingv1.RecordedEvent{noteIssued}},
		{"a payment's recorded events are returned in order, with its namespace and name",
			payment, "acme-ws", "pay-1", []billingv1.RecordedEvent{recorded, paid}},
		{"an invoice that records no event yet has none, but its namespace and name",
			builder.Invoice("acme-ws", "inv-2"), "acme-ws", "inv-2", nil},
		{"another kind of object has no namespace, name or events",
			builder.Customer("acme-ws", "acme"), "", "", nil},
		{"an invoice that is not a pointer has no namespace, name or events",
			*invoice, "", "", nil},
		{"nothing has no namespace, name or events", nil, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns, name, events := billing.RecordedEvents(tc.obj)
			if ns != tc.wantNS || name != tc.wantName {
				t.Errorf("RecordedEvents() = %q, %q, want %q, %q", ns, name, tc.wantNS, tc.wantName)
			}
			if !reflect.DeepEqual(events, tc.wantEvents) {
				t.Errorf("RecordedEvents() events = %+v, want %+v", events, tc.wantEvents)
			}
		})
	}
}

func TestACreditNoteNeedsItsInvoiceUntilItRecordsWhatItShows(t *testing.T) {
	recorded := billingv1.CreditNoteStatus{Currency: "EUR", CustomerName: "acme"}
	for _, tc := range []struct {
		name  string
		phase billingv1.CreditNotePhase
		edit  func(*billingv1.CreditNoteStatus)
		want  bool
	}{
		{name: "a new credit note needs it: its amounts are computed against it", want: true},
		{name: "a pending one needs it", phase: billingv1.CreditNotePending, want: true},
		{name: "an issued one that records the customer and currency does not", phase: billingv1.CreditNoteIssued},
		{name: "a rejected one that records them does not", phase: billingv1.CreditNoteRejected},
		{name: "an issued one without its currency needs it", phase: billingv1.CreditNoteIssued, want: true,
			edit: func(st *billingv1.CreditNoteStatus) { st.Currency = "" }},
		{name: "an issued one without its customer needs it", phase: billingv1.CreditNoteIssued, want: true,
			edit: func(st *billingv1.CreditNoteStatus) { st.CustomerName = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := recorded
			st.Phase = tc.phase
			if tc.edit != nil {
				tc.edit(&st)
			}
			if got := billing.CreditNoteNeedsInvoice(&st); got != tc.want {
				t.Errorf("CreditNoteNeedsInvoice() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAPaymentNeedsItsInvoiceUntilItRecordsItsCustomer(t *testing.T) {
	p := builder.Payment("ws", "pay-1", "inv-1", 100)
	if !billing.PaymentNeedsInvoice(p) {
		t.Errorf("a payment without its customer does not need its invoice")
	}
	p.Status.CustomerName = "acme"
	if billing.PaymentNeedsInvoice(p) {
		t.Errorf("a payment that records its customer needs its invoice")
	}
}
