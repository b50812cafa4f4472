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

	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// eventInvoiceIssued is the type of the events of the feed's stream.
const eventInvoiceIssued = "invoice.issued"

// streamInvoiceFeed serves the feed, GET
// /v1/invoices?status=issued&order=sequence with Accept: text/event-stream,
// as Server-Sent Events (stream.go): every issued invoice after the start
// in sequence order, then each one as it is seen; each event's id is the
// invoice's sequence.
func (a *Adapter) streamInvoiceFeed(w http.ResponseWriter, r *http.Request, c *call, cursorAfter string) *Error {
	return a.serveStream(w, r, c, cursorAfter, streamSource{
		name:    "invoice feed",
		param:   queryAfterSequence,
		changed: func() <-chan struct{} { return a.store.FeedChanged(c.ns) },
		read: func(ctx context.Context, after int64) ([]sse, int64, bool, error) {
			page, _, err := a.store.Feed(ctx, c.ns, after, streamPage)
			if err != nil {
				return nil, after, false, err
			}
			events := make([]sse, 0, len(page))
			for _, inv := range page {
				data, err := json.Marshal(apiobject.InvoiceOf(inv))
				if err != nil {
					return nil, after, false, err
				}
				after = *inv.Status.Sequence
				events = append(events, sse{typ: eventInvoiceIssued, id: after, data: data})
			}
			return events, after, len(page) == streamPage, nil
		},
	})
}
