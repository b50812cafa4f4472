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

import (
	"slices"
	"testing"
	"time"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
)

func TestTheFactsAnInvoiceHasReachedTakeEventsOnceInOrder(t *testing.T) {
	issued := func(balance *billingv1.InvoiceBalance, events ...billingv1.EventType) *billingv1.InvoiceStatus {
		s := &billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: ptr.To[int64](1), Balance: balance}
		for i, e := range events {
			s.Events = append(s.Events, billingv1.RecordedEvent{Type: e, Sequence: int64(i + 1)})
		}
		return s
	}
	balance := func(status billingv1.InvoicePaymentStatus, overdue bool) *billingv1.InvoiceBalance {
		return &billingv1.InvoiceBalance{PaymentStatus: status, Overdue: overdue}
	}
	const (
		iss  = billingv1.EventTypeInvoiceIssued
		paid = billingv1.EventTypeInvoicePaid
		void = billingv1.EventTypeInvoiceVoided
		late = billingv1.EventTypeInvoiceOverdue
	)
	cases := []struct {
		name   string
		status *billingv1.InvoiceStatus
		want   []billingv1.EventType
	}{
		{"an invoice not issued yet has no events due", &billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid}, nil},
		{"an issued invoice without a number waits for it", &billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued}, nil},
		{"a numbered open invoice is due invoice.issued", issued(balance(billingv1.InvoicePaymentOpen, false)), []billingv1.EventType{iss}},
		{"an invoice paid at issue (total 0) is due issued then paid", issued(balance(billingv1.InvoicePaymentPaid, false)),
			[]billingv1.EventType{iss, paid}},
		{"a paid invoice with its issued event is due paid", issued(balance(billingv1.InvoicePaymentPaid, false), iss),
			[]billingv1.EventType{paid}},
		{"a voided invoice is due voided", issued(balance(billingv1.InvoicePaymentVoid, false), iss), []billingv1.EventType{void}},
		{"an overdue invoice is due overdue once", issued(balance(billingv1.InvoicePaymentPartiallyPaid, true), iss),
			[]billingv1.EventType{late}},
		{"an overdue invoice with its event is due nothing", issued(balance(billingv1.InvoicePaymentOpen, true), iss, late), nil},
		{"an overdue invoice paid later is due paid only", issued(balance(billingv1.InvoicePaymentPaid, false), iss, late),
			[]billingv1.EventType{paid}},
		{"a voided invoice paid later is due paid too", issued(balance(billingv1.InvoicePaymentPaid, false), iss, void),
			[]billingv1.EventType{paid}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := InvoiceFactsDue(tc.status); !slices.Equal(got, tc.want) {
				t.Errorf("invoiceFactsDue = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAnEventIsRecordedOnceAndNeverRewritten(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	events := withEvent(nil, billingv1.EventTypeInvoiceIssued, numbering.Assignment{Sequence: 4, IssuedAt: at})
	again := withEvent(events, billingv1.EventTypeInvoiceIssued, numbering.Assignment{Sequence: 9, IssuedAt: at})
	if len(again) != 1 || again[0].Sequence != 4 || !again[0].CreatedAt.Time.Equal(at) {
		t.Fatalf("events = %+v, want invoice.issued at 4 only", again)
	}
	more := withEvent(again, billingv1.EventTypeInvoicePaid, numbering.Assignment{Sequence: 5, IssuedAt: at})
	if len(again) != 1 || len(more) != 2 || EventSequence(more, billingv1.EventTypeInvoicePaid) != 5 {
		t.Fatalf("withEvent changed its input or lost the new event: %+v, %+v", again, more)
	}
	if EventSequence(more, billingv1.EventTypeInvoiceOverdue) != 0 {
		t.Fatalf("an event not recorded has sequence 0")
	}
}
