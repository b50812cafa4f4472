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
	"net/http"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/document"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// A customer's statement (docs/api.md#statements), computed by billing
// from the customer's records as the store serves them, live and sealed.

// statementQuery are the query parameters of a statement's route.
var statementQuery = []string{queryFrom, queryTo}

// statementDays is the default length of a statement's range: the last 90
// days, today included.
const statementDays = 90

// mediaJSON is the media type of the API's objects.
const mediaJSON = "application/json"

// recordsPage is how many records a read of a customer's records takes
// from the store at once.
const recordsPage = 500

// getStatement serves GET /v1/customers/{customer_id}/statement: the
// customer's statement from from to to (days, YYYY-MM-DD, in the
// workspace's time zone; by default the last 90 days to today), as JSON,
// or as HTML or a PDF when the Accept header prefers them (statementMedia).
// It is authorized as a get of the customer.
func (a *Adapter) getStatement(w http.ResponseWriter, r *http.Request, c *call) *Error {
	cus, e := a.pathCustomer(r, c)
	if e != nil {
		return e
	}
	profile, loc, e := a.workspaceTimeZone(r, c.ns)
	if e != nil {
		return e
	}
	from, to, e := statementRange(c.query, a.now(), loc)
	if e != nil {
		return e
	}
	recs, err := a.customerRecords(r.Context(), c.ns, c.id)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the customer's records")
	}
	// The JSON is the issuer's view, write-offs included; the HTML and
	// PDF are what the customer receives, without them.
	media := statementMedia(r.Header.Values("Accept"))
	compute := billing.CustomerStatement
	if media == mediaJSON {
		compute = billing.ComputeStatement
	}
	st, err := compute(recs, c.id, from, to, loc)
	if err != nil {
		logFrom(r.Context()).Error(err, "Unable to compute a statement", "customer", c.id)
		return internalError()
	}
	if media == mediaJSON {
		w.Header().Add("Vary", "Accept")
		writeJSON(w, r, http.StatusOK, apiobject.StatementOf(&st, cus.Spec.Name, loc))
		return nil
	}
	settings := billing.SettingsOf(profile)
	doc := &document.Statement{Statement: &st, Customer: cus, Location: loc, Issuer: settings.Issuer,
		Footer: settings.Footer, Locale: locale.Resolve(cus.Spec.PreferredLocale, settings.Locale)}
	ext, render := formatHTML, document.StatementHTML
	if media == mediaPDF {
		ext, render = formatPDF, document.StatementPDF
	} else {
		media = mediaHTML + "; charset=utf-8"
	}
	body, err := render(doc)
	if err != nil {
		logFrom(r.Context()).Error(err, "Unable to render a statement", "customer", c.id)
		return internalError()
	}
	writeDocument(w, r, media, document.StatementFilename(&st, loc, ext), body)
	return nil
}

// statementMedia is the media type a statement is answered in:
// application/pdf when the Accept header lists it with a quality above
// those of application/json and text/html, text/html when it lists that
// above application/json, else application/json (also for */* alone).
func statementMedia(accept []string) string {
	jsonQ, htmlQ, pdfQ := acceptQuality(accept, mediaJSON), acceptQuality(accept, mediaHTML), acceptQuality(accept, mediaPDF)
	switch {
	case pdfQ > 0 && pdfQ > jsonQ && pdfQ > htmlQ:
		return mediaPDF
	case htmlQ > 0 && htmlQ > jsonQ:
		return mediaHTML
	}
	return mediaJSON
}

// statementRange reads from and to: days (YYYY-MM-DD) in loc, to by
// default today (now in loc), from by default 89 days before to. A day
// that is malformed or does not exist, a to after today and a from after
// to are 400 parameter_invalid.
func statementRange(q map[string][]string, now time.Time, loc *time.Location) (from, to time.Time, e *Error) {
	today := billing.StartOfDay(now, loc)
	if to, e = dayParam(q, queryTo, today, today); e != nil {
		return from, to, e
	}
	if from, e = dayParam(q, queryFrom, to.AddDate(0, 0, 1-statementDays), today); e != nil {
		return from, to, e
	}
	if from.After(to) {
		return from, to, errorf(http.StatusBadRequest, CodeParameterInvalid, queryFrom,
			"from (%s) must not be after to (%s).", from.Format(time.DateOnly), to.Format(time.DateOnly))
	}
	return from, to, nil
}

// dayParam reads the query parameter name, a day (YYYY-MM-DD) in loc, or
// def when it is absent; a day after latest (today) is refused, as what a
// day to come holds is not known yet.
func dayParam(q map[string][]string, name string, def, latest time.Time) (time.Time, *Error) {
	values, ok := q[name]
	if !ok || len(values) == 0 {
		return def, nil
	}
	day, err := billing.ParseDay(values[0], latest.Location())
	if err != nil {
		return time.Time{}, errorf(http.StatusBadRequest, CodeParameterInvalid, name,
			"%s must be a day written YYYY-MM-DD, such as 2026-03-31.", name)
	}
	if day.After(latest) {
		return time.Time{}, errorf(http.StatusBadRequest, CodeParameterInvalid, name,
			"%s must not be after today (%s in the workspace's time zone, %s).", name,
			latest.Format(time.DateOnly), latest.Location())
	}
	return day, nil
}

// workspaceTimeZone reads workspace ns's BillingProfile "default" (nil
// when it has none) and its time zone (UTC without one).
func (a *Adapter) workspaceTimeZone(r *http.Request, ns string) (*billingv1.BillingProfile, *time.Location, *Error) {
	var profile billingv1.BillingProfile
	found, err := a.store.Get(r.Context(), ns, billingv1.DefaultBillingProfileName, &profile)
	if err != nil {
		return nil, nil, apiError(r.Context(), err, "Unable to read the billing profile")
	}
	if !found {
		return nil, time.UTC, nil
	}
	loc, err := billing.TimeZone(&profile)
	if err != nil {
		logFrom(r.Context()).Error(err, "The workspace's time zone is unknown", "workspace", ns)
		return nil, nil, internalError()
	}
	return &profile, loc, nil
}

// customerRecords reads every record of customer in ns from the store,
// live and sealed (billing.GatherRecords).
func (a *Adapter) customerRecords(ctx context.Context, ns, customer string) (*billing.Records, error) {
	return billing.GatherRecords(ctx, storeRecords{a: a, sel: store.Selection{Namespace: ns, CustomerID: customer}})
}

// storeRecords reads a customer's records (sel) from the store, live and
// sealed, kind by kind: the ledgers' records by their customer.
type storeRecords struct {
	a   *Adapter
	sel store.Selection
}

func (s storeRecords) Invoices(ctx context.Context) ([]*billingv1.Invoice, error) {
	var invs []*billingv1.Invoice
	err := readAll(ctx, s.a.store, s.sel, &invs)
	return invs, err
}

func (s storeRecords) Ledgers(ctx context.Context, _ []*billingv1.Invoice, recs *billing.Records) error {
	if err := readAll(ctx, s.a.store, s.sel, &recs.CreditNotes); err != nil {
		return err
	}
	if err := readAll(ctx, s.a.store, s.sel, &recs.Payments); err != nil {
		return err
	}
	if err := readAll(ctx, s.a.store, s.sel, &recs.CreditApplications); err != nil {
		return err
	}
	return readAll(ctx, s.a.store, s.sel, &recs.WriteOffs)
}

func (s storeRecords) Refunds(ctx context.Context) ([]*billingv1.Refund, error) {
	var refunds []*billingv1.Refund
	err := readAll(ctx, s.a.store, s.sel, &refunds)
	return refunds, err
}

// readAll reads every object of sel from st into *out, page after page.
func readAll[O client.Object](ctx context.Context, st Store, sel store.Selection, out *[]O) error {
	read := pages[O](st)
	after := ""
	for {
		page, more, err := read(ctx, sel, after, recordsPage)
		if err != nil {
			return err
		}
		*out = append(*out, page...)
		if !more || len(page) == 0 {
			return nil
		}
		after = page[len(page)-1].GetName()
	}
}
