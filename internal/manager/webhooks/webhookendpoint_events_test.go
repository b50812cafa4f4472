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

package webhooks

import (
	"testing"

	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestAnEndpointSendsTheEventsItSubscribesToAndSkipsInvoicesAtOrBelowItsWatermark(t *testing.T) {
	issued := func(invoice int64) *workspaceEvent {
		return &workspaceEvent{typ: billingv1.EventTypeInvoiceIssued, invoiceSequence: invoice}
	}
	paid := &workspaceEvent{typ: billingv1.EventTypeInvoicePaid}
	note := &workspaceEvent{typ: billingv1.EventTypeCreditNoteIssued}
	for _, tc := range []struct {
		name     string
		events   []string
		invoices int64
		ev       *workspaceEvent
		want     bool
	}{
		{"a subscribed type is sent", []string{"invoice.paid"}, 0, paid, true},
		{"another type is skipped", []string{"invoice.paid", "payment.recorded"}, 0, note, false},
		{"* sends every type", []string{"*"}, 0, note, true},
		{"* with a named type still sends every type", []string{"invoice.issued", "*"}, 0, paid, true},
		{"an invoice above the watermark is sent", []string{"invoice.issued"}, 4, issued(5), true},
		{"an invoice at the watermark is skipped", []string{"invoice.issued"}, 5, issued(5), false},
		{"an invoice below the watermark is skipped, with *", []string{"*"}, 9, issued(5), false},
		{"the watermark does not hold back other types", []string{"*"}, 9, paid, true},
		{"an invoice is skipped without the subscription", []string{"payment.recorded"}, 0, issued(1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sends(tc.events, tc.invoices, tc.ev); got != tc.want {
				t.Errorf("sends(%v, %d, %s) = %v, want %v", tc.events, tc.invoices, tc.ev.typ, got, tc.want)
			}
		})
	}
}

func TestAnEndpointResumesAfterItsEventCursorOrWhereItsSpecStartsIt(t *testing.T) {
	for _, tc := range []struct {
		name          string
		spec          billingv1.WebhookEndpointSpec
		status        billingv1.WebhookEndpointStatus
		wantCursor    int64
		wantWatermark int64
	}{
		{name: "a new endpoint starts at the first event, skipping no invoice"},
		{name: "a new endpoint starts where its spec says",
			spec:       billingv1.WebhookEndpointSpec{StartAfterEventSequence: 30, StartAfterSequence: 12},
			wantCursor: 30, wantWatermark: 12},
		{name: "the status is where delivery resumes, whatever the spec's start",
			spec:       billingv1.WebhookEndpointSpec{StartAfterEventSequence: 30, StartAfterSequence: 2},
			status:     billingv1.WebhookEndpointStatus{DeliveredEventSequence: ptr.To[int64](41), DeliveredSequence: ptr.To[int64](17)},
			wantCursor: 41, wantWatermark: 17},
		{name: "an endpoint from before the event sequence scans from the first event, skipping its delivered invoices",
			status:     billingv1.WebhookEndpointStatus{DeliveredSequence: ptr.To[int64](25)},
			wantCursor: 0, wantWatermark: 25},
		{name: "a startAfterSequence raised above the status skips up to it",
			spec:       billingv1.WebhookEndpointSpec{StartAfterSequence: 40},
			status:     billingv1.WebhookEndpointStatus{DeliveredSequence: ptr.To[int64](25)},
			wantCursor: 0, wantWatermark: 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &billingv1.WebhookEndpoint{Spec: tc.spec, Status: tc.status}
			if got := eventCursor(e); got != tc.wantCursor {
				t.Errorf("eventCursor() = %d, want %d", got, tc.wantCursor)
			}
			if got := invoiceWatermark(e); got != tc.wantWatermark {
				t.Errorf("invoiceWatermark() = %d, want %d", got, tc.wantWatermark)
			}
		})
	}
}

func TestTheInvoiceWatermarkPassesAnInvoiceOnlyOnceTheCursorPassedItsIssuedEvent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		issued *billingv1.RecordedEvent
		cursor int64
		want   bool
	}{
		{"an invoice without its event yet is not done", nil, 100, false},
		{"an event above the cursor is not done", &billingv1.RecordedEvent{Sequence: 8}, 7, false},
		{"an event at the cursor is done", &billingv1.RecordedEvent{Sequence: 7}, 7, true},
		{"an event below the cursor is done", &billingv1.RecordedEvent{Sequence: 3}, 7, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := invoiceDone(tc.issued, tc.cursor); got != tc.want {
				t.Errorf("invoiceDone() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWebhookLagsCountWhatTheEndpointHasNotPassedInInvoicesAndInEvents(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		invoices, events       int64
		run                    deliveryRun
		wantInvoices, wantEvts int64
	}{
		{"caught up", 10, 30, deliveryRun{invoices: 10, delivered: 30}, 0, 0},
		{"behind in both", 10, 30, deliveryRun{invoices: 4, delivered: 12}, 6, 18},
		{"a watermark not yet seen by this manager is no negative lag", 0, 0, deliveryRun{invoices: 4, delivered: 12}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gotInvoices, gotEvents := webhookLags(tc.invoices, tc.events, tc.run)
			if gotInvoices != tc.wantInvoices || gotEvents != tc.wantEvts {
				t.Errorf("webhookLags() = %d, %d, want %d, %d", gotInvoices, gotEvents, tc.wantInvoices, tc.wantEvts)
			}
		})
	}
}
