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
	"slices"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file is what a WebhookEndpoint sends of the workspace's event
// sequence: where it starts, and which events it sends or skips. These are
// pure functions; the loop that walks the sequence is in
// webhookendpoint_delivery.go.

// workspaceEvent is one event of a workspace's event sequence, with the
// object that carries it (shared with the cache: read it, never change it).
type workspaceEvent struct {
	sequence  int64
	typ       billingv1.EventType
	createdAt time.Time
	object    client.Object
	// invoiceSequence is the invoice's status.sequence for an
	// invoice.issued event, 0 otherwise.
	invoiceSequence int64
}

// subscribes says whether events (a spec.events) names t, or "*".
func subscribes(events []string, t billingv1.EventType) bool {
	return slices.Contains(events, billingv1.EventsAll) || slices.Contains(events, string(t))
}

// eventCursor is where delivery resumes in the event sequence: after
// status.deliveredEventSequence, or after spec.startAfterEventSequence for
// an endpoint that has none yet (a new endpoint, or one made before
// webhooks followed the event sequence, which starts at the first event).
func eventCursor(endpoint *billingv1.WebhookEndpoint) int64 {
	if endpoint.Status.DeliveredEventSequence != nil {
		return *endpoint.Status.DeliveredEventSequence
	}
	return endpoint.Spec.StartAfterEventSequence
}

// invoiceWatermark is the invoice sequence at or below which every
// invoice is done with (status.deliveredSequence), and never below
// spec.startAfterSequence: an endpoint never sends the invoice.issued
// event of such an invoice.
func invoiceWatermark(endpoint *billingv1.WebhookEndpoint) int64 {
	watermark := endpoint.Spec.StartAfterSequence
	if d := endpoint.Status.DeliveredSequence; d != nil {
		watermark = max(watermark, *d)
	}
	return watermark
}

// sends says whether an endpoint subscribed to events, whose invoices up
// to invoices are done with, sends ev; otherwise the endpoint skips it.
// An invoice.issued event of an invoice at or below invoices was sent
// before (by a version that followed the invoice sequence, or at an event
// the cursor has passed) or is before spec.startAfterSequence.
func sends(events []string, invoices int64, ev *workspaceEvent) bool {
	if !subscribes(events, ev.typ) {
		return false
	}
	return ev.typ != billingv1.EventTypeInvoiceIssued || ev.invoiceSequence > invoices
}

// invoiceDone says whether the invoice with the invoice sequence right
// after the watermark is done with, given its invoice.issued event (nil
// when it has none yet) and the event cursor: its event is at or below the
// cursor, so it was sent, skipped as unsubscribed, or before the start.
func invoiceDone(issued *billingv1.RecordedEvent, cursor int64) bool {
	return issued != nil && issued.Sequence <= cursor
}
