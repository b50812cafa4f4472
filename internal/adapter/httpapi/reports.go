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
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Reports (docs/api.md#receivables-aging): the receivables aging of a
// workspace at the end of a day, computed by billing from each customer's
// records as the store serves them, live and sealed.

// queryAsOf is the day of the receivables aging.
const queryAsOf = "as_of"

// resourceReceivablesAging names the aging's list in its cursors.
const resourceReceivablesAging = "receivables_aging"

// mediaCSV is the media type of a report as CSV.
const mediaCSV = "text/csv"

// agingScan bounds how many customers one page of the aging reads, as a
// multiple of its limit: customers with nothing open are skipped, and a
// page that has read that many ends early, with has_more and a cursor
// after the last customer read.
const agingScan = 10

// getReceivablesAging serves GET /v1/reports/receivables_aging: per
// customer (ordered by id, paginated like every list), what was open at
// the end of as_of (a day, YYYY-MM-DD, in the workspace's time zone;
// today by default) by days past due, and the customer's unapplied
// credit; customers with neither are left out. With Accept: text/csv
// (listed above application/json) the same page is answered as CSV with a
// header row, the next page's URL in a Link header. It is authorized as a
// list of invoices.
func (a *Adapter) getReceivablesAging(w http.ResponseWriter, r *http.Request, c *call) *Error {
	_, loc, e := a.workspaceTimeZone(r, c.ns)
	if e != nil {
		return e
	}
	today := billing.StartOfDay(a.now(), loc)
	asOf, e := dayParam(c.query, queryAsOf, today, today)
	if e != nil {
		return e
	}
	scope := listScope{workspace: c.ns, resource: resourceReceivablesAging}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	items, last, more, err := a.agingPage(r.Context(), c.ns, asOf, loc, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the receivables")
	}
	var next *string
	if more {
		cursor := encodeCursor(scope, last)
		next = &cursor
	}
	if acceptQuality(r.Header.Values("Accept"), mediaCSV) > acceptQuality(r.Header.Values("Accept"), mediaJSON) {
		writeAgingCSV(w, r, items, asOf, limit, next)
		return nil
	}
	data := make([]json.RawMessage, len(items))
	for i := range items {
		b, err := json.Marshal(items[i])
		if err != nil {
			panic(err.Error()) // every response type marshals
		}
		data[i] = b
	}
	w.Header().Add("Vary", "Accept")
	writeList(w, r, data, more, next)
	return nil
}

// agingPage reads the customers of ns after the id after, and answers the
// aging at the end of asOf of at most limit of them, those with something
// open or some credit; last is the id of the last customer read, and more
// whether others follow it.
func (a *Adapter) agingPage(ctx context.Context, ns string, asOf time.Time, loc *time.Location, after string,
	limit int) (items []apiobject.Aging, last string, more bool, err error) {
	last, read := after, 0
	for read < limit*agingScan {
		customers, others, err := pages[*billingv1.Customer](a.store)(ctx, store.Selection{Namespace: ns}, last, limit)
		if err != nil {
			return nil, "", false, err
		}
		for i, cus := range customers {
			read++
			last = cus.Name
			recs, err := a.customerRecords(ctx, ns, cus.Name)
			if err != nil {
				return nil, "", false, err
			}
			rows, err := billing.Aging(recs, asOf, loc)
			if err != nil {
				return nil, "", false, err
			}
			rows = slices.DeleteFunc(rows, func(row billing.AgingRow) bool { return row.Customer != cus.Name })
			if len(rows) > 0 {
				items = append(items, apiobject.AgingOf(cus.Name, cus.Spec.Name, rows, asOf, loc))
			}
			if len(items) == limit {
				return items, last, others || i < len(customers)-1, nil
			}
		}
		if !others || len(customers) == 0 {
			return items, last, false, nil
		}
	}
	return items, last, true, nil
}

// writeAgingCSV answers items as CSV: a header row, then one row per
// customer and currency (apiobject.AgingCSVRecords). A next page is named
// by a Link header (rel="next") with the same as_of and limit.
func writeAgingCSV(w http.ResponseWriter, r *http.Request, items []apiobject.Aging, asOf time.Time, limit int,
	next *string) {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	// Writes to a buffer cannot fail; Flush below reports any error.
	_ = cw.Write(apiobject.AgingCSVHeader)
	for i := range items {
		_ = cw.WriteAll(apiobject.AgingCSVRecords(&items[i]))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		panic(err.Error()) // a bytes.Buffer does not fail
	}
	h := w.Header()
	day := asOf.Format(time.DateOnly)
	if next != nil {
		q := url.Values{queryAsOf: {day}, queryLimit: {strconv.Itoa(limit)}, queryCursor: {*next}}
		h.Set("Link", "</v1/reports/receivables_aging?"+q.Encode()+`>; rel="next"`)
	}
	h.Set("Content-Type", mediaCSV+"; charset=utf-8; header=present")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment",
		map[string]string{"filename": "receivables-aging-" + day + ".csv"}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b.Bytes())
	}
}
