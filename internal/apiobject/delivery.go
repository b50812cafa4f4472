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

package apiobject

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Delivery is one message sent about an invoice, credit note or customer,
// as its deliveries list shows it: what the message was (purpose), to whom,
// its Message-ID, when the SMTP server accepted it (null until then), how
// many times it was handed over, and the last failed attempt's error (null
// when there was none).
type Delivery struct {
	Purpose   string   `json:"purpose"`
	To        []string `json:"to"`
	MessageID *string  `json:"message_id"`
	SentAt    *string  `json:"sent_at"`
	Attempts  int32    `json:"attempts"`
	LastError *string  `json:"last_error"`
}

// DeliveriesOf is the /v1 representation of an object's status.deliveries,
// in the order the controller keeps them; empty, not nil, when there is
// none.
func DeliveriesOf(ds []billingv1.Delivery) []Delivery {
	out := make([]Delivery, len(ds))
	for i := range ds {
		d := &ds[i]
		out[i] = Delivery{Purpose: string(d.Purpose), To: recipients(d.To), MessageID: optional(d.MessageID),
			SentAt: optionalTimestamp(d.SentAt), Attempts: d.Attempts, LastError: optional(d.LastError)}
	}
	return out
}

// recipients is a list of addresses, copied; empty, not nil, when there is
// none.
func recipients(to []string) []string {
	return append(make([]string, 0, len(to)), to...)
}

// QueuedDelivery is the answer to a request to send (POST .../send): the
// Email queued, its id, and what will be sent, as a delivery. Until the
// controller has looked at it, attempts is 0 and sent_at and last_error
// are null.
type QueuedDelivery struct {
	ID        string   `json:"id"`
	Object    string   `json:"object"`
	Purpose   string   `json:"purpose"`
	To        []string `json:"to"`
	MessageID string   `json:"message_id"`
	SentAt    *string  `json:"sent_at"`
	Attempts  int32    `json:"attempts"`
	LastError *string  `json:"last_error"`
}

// QueuedDeliveryOf is the /v1 representation of e, an Email just queued
// (or queued by an earlier request with the same Idempotency-Key). Its
// recipients and Message-ID are the ones the controller fixed in its
// status once it has, else to (the body's addresses, or the customer's
// e-mail) and the Message-ID derived from its uid and the sender's address
// from (billing.MessageID), which the controller fixes the same.
func QueuedDeliveryOf(e *billingv1.Email, to []string, from string) QueuedDelivery {
	st := &e.Status
	if len(st.To) > 0 {
		to = st.To
	}
	messageID := st.MessageID
	if messageID == "" {
		messageID = billing.MessageID(string(e.UID), from)
	}
	return QueuedDelivery{ID: e.Name, Object: "delivery", Purpose: string(e.Spec.Purpose), To: recipients(to),
		MessageID: messageID, SentAt: optionalTimestamp(st.SentAt), Attempts: st.Attempts,
		LastError: optional(st.LastError)}
}
