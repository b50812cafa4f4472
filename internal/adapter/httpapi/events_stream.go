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

package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// streamEvents serves GET /v1/events with Accept: text/event-stream as
// Server-Sent Events (stream.go): the workspace's events of the types
// wanted (all when none) after the start in sequence order, then each one
// as it is seen. Each event's type is the event's type, its id the event's
// sequence and its data the event object the list returns.
func (a *Adapter) streamEvents(w http.ResponseWriter, r *http.Request, c *call,
	wanted map[billingv1.EventType]bool, cursorAfter string) *Error {
	return a.serveStream(w, r, c, cursorAfter, streamSource{
		name:    "events",
		param:   queryAfter,
		changed: func() <-chan struct{} { return a.store.EventsChanged(c.ns) },
		read: func(ctx context.Context, after int64) ([]sse, int64, bool, error) {
			page, last, more, err := a.store.Events(ctx, c.ns, after, streamPage, wanted)
			if err != nil {
				return nil, after, false, err
			}
			// The objects are read within the stream's context, which
			// outlives the request timeout.
			untimed := r.WithContext(ctx)
			events := make([]sse, len(page))
			for i, ev := range page {
				obj := a.eventOf(untimed, c.ns, ev)
				data, err := json.Marshal(obj)
				if err != nil {
					return nil, after, false, err
				}
				events[i] = sse{typ: string(ev.Type), id: ev.Sequence, data: data}
			}
			// Read again at once while the walk advances and more was seen
			// (a full page, or a long run of other types); a walk that ends
			// before a sequence not seen yet waits for it.
			return events, last, more && last > after, nil
		},
	})
}
