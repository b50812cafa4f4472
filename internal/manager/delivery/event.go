/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package delivery

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// Event is the body of a delivery.
type Event struct {
	// ID is "evt-<workspace>-<sequence>": the same for every attempt and
	// every endpoint, so a receiver drops a repeat by its id.
	ID string `json:"id"`
	// Type is the event type, "invoice.issued".
	Type string `json:"type"`
	// CreatedAt is when the invoice was issued, so a repeat is byte for
	// byte the same body.
	CreatedAt string    `json:"created_at"`
	Data      EventData `json:"data"`
}

// EventData holds the event's object.
type EventData struct {
	// Object is the invoice as GET /v1/invoices/{id} answers it.
	Object apiobject.Invoice `json:"object"`
}

// EventID is the id of the event for the invoice with sequence in workspace.
func EventID(workspace string, sequence int64) string {
	return fmt.Sprintf("evt-%s-%d", workspace, sequence)
}

// IssuedEvent returns the invoice.issued event of inv, encoded. inv must be
// issued, with a sequence.
func IssuedEvent(inv *billingv1.Invoice) ([]byte, error) {
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Sequence == nil || inv.Status.IssuedAt == nil {
		return nil, errors.New("the invoice is not issued with a sequence")
	}
	return json.Marshal(Event{
		ID:        EventID(inv.Namespace, *inv.Status.Sequence),
		Type:      billingv1.EventInvoiceIssued,
		CreatedAt: inv.Status.IssuedAt.UTC().Format(time.RFC3339),
		Data:      EventData{Object: apiobject.InvoiceOf(inv)},
	})
}
