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
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// resourceEvents is what reading events is authorized on: list on
// "events" of billing.invoicing.dev. No such kind is stored (docs/events.md);
// a SubjectAccessReview still names it, and the view and edit ClusterRoles
// grant it.
const resourceEvents = "events"

// Query parameters of GET /v1/events.
const (
	queryAfter = "after"
	queryType  = "type"
)

// eventTypes are the event types, in the order the API documents them.
var eventTypes = []billingv1.EventType{
	billingv1.EventTypeInvoiceIssued, billingv1.EventTypeInvoicePaid, billingv1.EventTypeInvoiceVoided,
	billingv1.EventTypeInvoiceOverdue, billingv1.EventTypeCreditNoteIssued, billingv1.EventTypePaymentRecorded,
	billingv1.EventTypePeriodClosed, billingv1.EventTypeLedgerSealed, billingv1.EventTypeCreditApplied,
	billingv1.EventTypeRefundRecorded, billingv1.EventTypeInvoiceMarkedUncollectible,
	billingv1.EventTypeInvoiceReminderSent, billingv1.EventTypeInvoiceScheduleCompleted,
	billingv1.EventTypeInvoiceScheduleStalled, billingv1.EventTypeBankTransactionMatched,
	billingv1.EventTypeBankTransactionUnmatched,
}

// eventTypesParam reads type, one or more comma-separated event types: the
// set wanted, nil for all, and its canonical spelling (sorted, no
// repeats) for the cursor.
func eventTypesParam(q url.Values) (map[billingv1.EventType]bool, string, *Error) {
	if !q.Has(queryType) {
		return nil, "", nil
	}
	wanted := map[billingv1.EventType]bool{}
	for _, s := range strings.Split(q.Get(queryType), ",") {
		t := billingv1.EventType(s)
		if !slices.Contains(eventTypes, t) {
			return nil, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryType,
				"type must be one or more of invoice.issued, invoice.paid, invoice.voided, invoice.overdue, "+
					"credit_note.issued, payment.recorded, period.closed, ledger.sealed, credit.applied, "+
					"refund.recorded, invoice.marked_uncollectible, invoice.reminder_sent, "+
					"invoice_schedule.completed, invoice_schedule.stalled, bank_transaction.matched and "+
					"bank_transaction.unmatched, separated by commas.")
		}
		wanted[t] = true
	}
	names := make([]string, 0, len(wanted))
	for t := range wanted {
		names = append(names, string(t))
	}
	slices.Sort(names)
	return wanted, strings.Join(names, ","), nil
}

// eventsStart reads where a page of events starts: after the sequence of
// the cursor, or of after (default 0, the first event). The two cannot be
// combined.
func eventsStart(q url.Values, cursorAfter string) (int64, *Error) {
	return sequenceStart(q, queryAfter, cursorAfter)
}

// listEvents serves GET /v1/events: a page of the workspace's events in
// sequence order after after or the cursor's sequence, optionally of some
// types only. As the invoice feed, a page ends before a sequence this
// replica has not seen yet, with has_more true when it has seen a higher
// one, so that a consumer that stores the last sequence it processed never
// skips one; next_cursor is always set, to where the next page starts.
// With Accept: text/event-stream it answers a stream (events_stream.go).
func (a *Adapter) listEvents(w http.ResponseWriter, r *http.Request, c *call) *Error {
	wanted, types, e := eventTypesParam(c.query)
	if e != nil {
		return e
	}
	scope := listScope{workspace: c.ns, resource: resourceEvents, filters: listFilters{Type: types}}
	limit, cursorAfter, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	if wantsEventStream(r) {
		return a.streamEvents(w, r, c, wanted, cursorAfter)
	}
	after, e := eventsStart(c.query, cursorAfter)
	if e != nil {
		return e
	}
	page, last, more, err := a.store.Events(r.Context(), c.ns, after, limit, wanted)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list events")
	}
	out := apiobject.List[apiobject.Event]{Object: listObject, Data: make([]apiobject.Event, len(page)), HasMore: more}
	for i, ev := range page {
		out.Data[i] = a.eventOf(r, c.ns, ev)
	}
	next := encodeCursor(scope, strconv.FormatInt(last, 10))
	out.NextCursor = &next
	writeJSON(w, r, http.StatusOK, out)
	return nil
}

// eventOf is the event object of ev, as the list and the stream answer it
// and webhooks deliver it (apiobject.EventOf, apiobject.EventDataOf).
func (a *Adapter) eventOf(r *http.Request, ns string, ev store.Event) apiobject.Event {
	return apiobject.EventOf(ns, ev.Sequence, string(ev.Type), ev.CreatedAt,
		apiobject.EventDataOf(ev.Object, a.readInvoice(r, ns)))
}
