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

package apiobject

import (
	"fmt"
	"time"
)

// Event is one event of a workspace's event sequence, as GET /v1/events
// answers it.
type Event struct {
	// ID is "evt-<workspace>-<sequence>".
	ID        string    `json:"id"`
	Object    string    `json:"object"`
	Sequence  int64     `json:"sequence"`
	Type      string    `json:"type"`
	CreatedAt string    `json:"created_at"`
	Data      EventData `json:"data"`
}

// EventData holds the object the event is about (an Invoice, CreditNote or
// Payment), as GET answers it.
type EventData struct {
	Object any `json:"object"`
}

// EventOf returns the event of sequence and type t of workspace, created
// at createdAt, about object (already rendered).
func EventOf(workspace string, sequence int64, t string, createdAt time.Time, object any) Event {
	return Event{
		ID: fmt.Sprintf("evt-%s-%d", workspace, sequence), Object: "event", Sequence: sequence, Type: t,
		CreatedAt: timestamp(createdAt), Data: EventData{Object: object},
	}
}
