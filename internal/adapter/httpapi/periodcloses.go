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
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Closing the books over HTTP (docs/api.md#period-closes). Every answer
// carries the workspace's closed_through as the store reads it when it is
// made: in each period_close object as workspace_closed_through, and at
// the top of a list as closed_through.

// maxThroughLength bounds through, as the CRD does.
const maxThroughLength = 40

// PeriodCloseParams is a validated POST /v1/period_closes body. Its JSON
// is the request's fingerprint.
type PeriodCloseParams struct {
	Through string `json:"through"`
}

// DecodePeriodClose parses a POST /v1/period_closes body: {"through": ...}
// and nothing else. Whatever is wrong with it is 422 parameter_invalid
// (the contract of closing the books names no other code): a body that is
// no JSON object, an unknown or repeated field, a through that is missing,
// not a string or too long. Whether through is a month, day or instant is
// checked against the workspace's time zone (checkPeriodClose).
func DecodePeriodClose(body []byte) (*PeriodCloseParams, *Error) {
	p, e := decodePeriodClose(body)
	if e != nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, e.Param, "%s", e.Message)
	}
	return p, nil
}

func decodePeriodClose(body []byte) (*PeriodCloseParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{"through": kindString})
	if e != nil {
		return nil, e
	}
	through, e := requiredString(fields, "", "through", maxThroughLength)
	if e != nil {
		return nil, e
	}
	return &PeriodCloseParams{Through: through}, nil
}

// createPeriodClose serves POST /v1/period_closes: a PeriodClose through
// a moment that has passed, later than the one the workspace is closed
// through. The controller closes the books (status closed) a moment later.
func (a *Adapter) createPeriodClose(w http.ResponseWriter, r *http.Request, c *call) *Error {
	var closedThrough *time.Time
	return create(a, w, r, c, periodCloseKind, DecodePeriodClose,
		func(p *PeriodCloseParams) (*creation[*billingv1.PeriodClose], *Error) {
			var e *Error
			if closedThrough, e = a.checkPeriodClose(r, c.ns, p); e != nil {
				return nil, e
			}
			return &creation[*billingv1.PeriodClose]{
				object: &billingv1.PeriodClose{Spec: billingv1.PeriodCloseSpec{Through: p.Through}},
				answer: func(pc *billingv1.PeriodClose, _ bool) any { return apiobject.PeriodCloseOf(pc, closedThrough) },
			}, nil
		})
}

// checkPeriodClose resolves p's through in the workspace's time zone and
// checks it: 422 parameter_invalid when it is no month, day or instant (or
// the workspace's time zone is unknown), 409 period_not_ended when it has
// not passed, 409 already_closed, naming the close, when the workspace is
// closed through it or later. It returns the workspace's closed_through
// (nil: not closed).
func (a *Adapter) checkPeriodClose(r *http.Request, ns string, p *PeriodCloseParams) (*time.Time, *Error) {
	var profile billingv1.BillingProfile
	found, err := a.store.Get(r.Context(), ns, billingv1.DefaultBillingProfileName, &profile)
	if err != nil {
		return nil, apiError(r.Context(), err, "Unable to read the billing profile")
	}
	profilePtr := &profile
	if !found {
		profilePtr = nil
	}
	loc, err := billing.TimeZone(profilePtr)
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "through",
			"through cannot be resolved: %s (the workspace's BillingProfile spec.timeZone).", err)
	}
	at, err := billing.ResolveThrough(p.Through, loc)
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "through",
			"through must be a month (2026-10), a day (2026-10-31) or an RFC 3339 instant (2026-10-31T23:59:59Z).")
	}
	if !billing.Ended(at, a.now()) {
		return nil, errorf(http.StatusConflict, CodePeriodNotEnded, "through",
			"%s is not over yet: it ends at %s; close it once it has passed.", p.Through, at.UTC().Format(time.RFC3339))
	}
	closed, name, ok, e := a.closedThrough(r, ns)
	if e != nil {
		return nil, e
	}
	if ok && !at.After(closed) {
		return nil, errorf(http.StatusConflict, CodeAlreadyClosed, "through",
			"Workspace %q is already closed through %s by period close %q; %s ends at %s.", ns,
			closed.UTC().Format(time.RFC3339), name, p.Through, at.UTC().Format(time.RFC3339))
	}
	if !ok {
		return nil, nil
	}
	return &closed, nil
}

// closedThrough reads how far workspace ns is closed, and by which close.
func (a *Adapter) closedThrough(r *http.Request, ns string) (time.Time, string, bool, *Error) {
	closed, name, ok, err := a.store.ClosedThrough(r.Context(), ns)
	if err != nil {
		return time.Time{}, "", false, apiError(r.Context(), err, "Unable to read the period closes")
	}
	return closed, name, ok, nil
}

// workspaceClosedThrough is closedThrough as an answer carries it: nil
// while the books are not closed.
func (a *Adapter) workspaceClosedThrough(r *http.Request, ns string) (*time.Time, *Error) {
	closed, _, ok, e := a.closedThrough(r, ns)
	if e != nil || !ok {
		return nil, e
	}
	return &closed, nil
}

// checkOpenPeriod refuses a record dated date (now when the body gives
// none) in the workspace's closed span: 409 period_closed on param.
func (a *Adapter) checkOpenPeriod(r *http.Request, ns string, date *time.Time, param string) *Error {
	at := a.now()
	if date != nil {
		at = *date
	}
	closed, name, ok, e := a.closedThrough(r, ns)
	if e != nil {
		return e
	}
	if ok && billing.InClosedPeriod(at, closed) {
		return errorf(http.StatusConflict, CodePeriodClosed, param,
			"%s %s is in a closed period: workspace %q is closed through %s (period close %q); "+
				"date it after that.", param, at.UTC().Format(time.RFC3339), ns, closed.UTC().Format(time.RFC3339), name)
	}
	return nil
}

// getPeriodClose serves GET /v1/period_closes/{period_close_id}.
func (a *Adapter) getPeriodClose(w http.ResponseWriter, r *http.Request, c *call) *Error {
	pc, e := pathRecord[billingv1.PeriodClose](a, r, c, "a period close", "period_close_id")
	if e != nil {
		return e
	}
	closed, e := a.workspaceClosedThrough(r, c.ns)
	if e != nil {
		return e
	}
	writeJSON(w, r, http.StatusOK, apiobject.PeriodCloseOf(pc, closed))
	return nil
}

// listPeriodCloses serves GET /v1/period_closes: a page of the
// workspace's period closes, ordered by id, with its closed_through.
func (a *Adapter) listPeriodCloses(w http.ResponseWriter, r *http.Request, c *call) *Error {
	scope := listScope{workspace: c.ns, resource: resourcePeriodClose}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	page, more, err := pages[*billingv1.PeriodClose](a.store)(r.Context(), store.Selection{Namespace: c.ns}, after, limit)
	if err != nil {
		return apiError(r.Context(), err, "Unable to list period closes")
	}
	closed, e := a.workspaceClosedThrough(r, c.ns)
	if e != nil {
		return e
	}
	var next *string
	if more {
		cursor := encodeCursor(scope, page[len(page)-1].Name)
		next = &cursor
	}
	writeJSON(w, r, http.StatusOK, apiobject.PeriodCloseListOf(page, closed, more, next))
	return nil
}
