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
	"errors"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// createCreditNote serves POST /v1/credit_notes. The invoice must be
// issued and have what the credit note credits left to credit, counting its
// issued credit notes (status.ledger): the controller issues the credit
// note, or rejects it when another took what was left meanwhile. The
// answer shows the amounts computed now to check it, as the controller
// will compute them.
func (a *Adapter) createCreditNote(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return createOnInvoice(a, w, r, c, creditNoteKind, DecodeCreditNote,
		func(p *CreditNoteParams, inv *billingv1.Invoice) (*creation[*billingv1.CreditNote], *Error) {
			cn := &billingv1.CreditNote{Spec: p.spec()}
			credit, e := checkCredit(inv, &cn.Spec)
			if e != nil {
				return nil, e
			}
			return &creation[*billingv1.CreditNote]{object: cn,
				answer: func(cn *billingv1.CreditNote, replayed bool) any {
					if replayed {
						return apiobject.CreditNoteOf(cn, inv)
					}
					// The credit's lines and amounts, not computed again.
					return apiobject.PendingCreditNoteOf(cn, inv, credit.Totals(inv))
				}}, nil
		})
}

// creditableInvoice reads the invoice a credit note or payment names: 422
// resource_missing when the workspace has none of that id, 409
// invoice_not_issued when it is not issued, 409 invoice_sealed when a seal
// holds it (its ledger is closed: docs/ledger.md#what-is-sealed).
func (a *Adapter) creditableInvoice(r *http.Request, c *call, id string) (*billingv1.Invoice, *Error) {
	inv := &billingv1.Invoice{}
	if e := a.readRecord(r, c.ns, id, inv, http.StatusUnprocessableEntity, "an invoice", "invoice_id"); e != nil {
		return nil, e
	}
	if phase := inv.EffectivePhase(); phase != billingv1.InvoiceIssued {
		return nil, errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
			"Invoice %q is %s; only an issued invoice can be credited or paid.", id, apiobject.Status(phase))
	}
	if sealed := inv.Labels[billingv1.LabelSealedIn]; sealed != "" {
		return nil, errorf(http.StatusConflict, CodeInvoiceSealed, "invoice_id",
			"Invoice %q is sealed in %s: it was settled in a closed period and its ledger is closed; "+
				"record this in the open period instead.", id, sealed)
	}
	return inv, nil
}

// checkCredit checks a credit note of spec against what is left to credit
// of inv, and returns what it credits (billing.CreditOf): 409
// invoice_fully_credited when nothing is left, 422 amount_exceeds_creditable
// on the first line that credits more than is left of its invoice line, or
// on lines when the note's base in a tax group (its lines less its
// allowances plus its charges there) exceeds what is left of the
// invoice's, 422 parameter_invalid on a line that names no line of the
// invoice, and the 422 of an allowance or charge at fault
// (adjustmentError): allowance_exceeds_base above its base, or
// parameter_invalid on a tax that is not one of the invoice's groups.
func checkCredit(inv *billingv1.Invoice, spec *billingv1.CreditNoteSpec) (*billing.NoteCredit, *Error) {
	credit, err := billing.CreditOf(spec, inv)
	if credit == nil {
		return nil, errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
			"Invoice %q cannot be credited: %v.", inv.Name, err)
	}
	if credit.Invoice.Remaining() <= 0 || errors.Is(err, billing.ErrFullyCredited) {
		return nil, fullyCredited(inv.Name)
	}
	var lineErr *billing.CreditLineError
	var adjErr *billing.AdjustmentError
	switch {
	case err == nil:
		return credit, nil
	case errors.Is(err, billing.ErrExceedsCreditable):
		return nil, errorf(http.StatusUnprocessableEntity, CodeExceedsCreditable, "lines",
			"The credit note credits more than is left of invoice %q: %v. Take its share of the invoice's allowances off with allowances of the same tax.",
			inv.Name, err)
	case errors.As(err, &adjErr):
		return nil, adjustmentError(adjErr)
	case errors.As(err, &lineErr):
		code, path := CodeParameterInvalid, elem("lines", lineErr.Index)
		if lineErr.Exceeds {
			code = CodeExceedsCreditable
		}
		if lineErr.Field != "lines" {
			path = join(path, lineErr.Field)
		}
		return nil, errorf(http.StatusUnprocessableEntity, code, path, "%s %s.", path, lineErr.Message)
	default:
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "lines",
			"The credit note's amounts cannot be computed: %v.", err)
	}
}

func fullyCredited(id string) *Error {
	return errorf(http.StatusConflict, CodeInvoiceFullyCredited, "invoice_id",
		"Invoice %q is fully credited: nothing is left to credit.", id)
}

// replayCreditNote renders a credit note an earlier request with the key
// created (createKind.replay).
func replayCreditNote(a *Adapter, r *http.Request, ns string, obj client.Object) any {
	return replayAs(obj, a.creditNoteOf(r, ns))
}

// getCreditNote serves GET /v1/credit_notes/{credit_note_id}.
func (a *Adapter) getCreditNote(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a credit note", "credit_note_id", a.creditNoteOf(r, c.ns))
}

// creditNoteOf renders the credit notes of workspace ns, each with its
// invoice when its representation needs it: while it is pending, or when
// the controller did not record the invoice's customer and currency
// (billing.CreditNoteNeedsInvoice).
func (a *Adapter) creditNoteOf(r *http.Request, ns string) func(*billingv1.CreditNote) apiobject.CreditNote {
	return func(cn *billingv1.CreditNote) apiobject.CreditNote {
		return apiobject.CreditNoteOf(cn,
			a.neededInvoice(r, ns, cn.Spec.InvoiceRef.Name, billing.CreditNoteNeedsInvoice(&cn.Status)))
	}
}

// readInvoice returns a reader of the invoices of ns from the store, for
// apiobject's renderers; an invoice that cannot be read is nil.
func (a *Adapter) readInvoice(r *http.Request, ns string) apiobject.InvoiceReader {
	return func(name string) *billingv1.Invoice {
		inv := &billingv1.Invoice{}
		if found, err := a.store.Get(r.Context(), ns, name, inv); err != nil || !found {
			return nil
		}
		return inv
	}
}

// listCreditNotes serves GET /v1/credit_notes: a page of the workspace's
// credit notes, optionally of one invoice, one customer and one status,
// ordered by id.
func (a *Adapter) listCreditNotes(w http.ResponseWriter, r *http.Request, c *call) *Error {
	l, e := recordListing(c.query, resourceCreditNotes, "credit notes")
	if e != nil {
		return e
	}
	if c.query.Has(queryStatus) {
		l.filters.Status = c.query.Get(queryStatus)
		var ok bool
		if l.sel.CreditNotePhase, ok = creditNoteStatusFilters[l.filters.Status]; !ok {
			return errorf(http.StatusBadRequest, CodeParameterInvalid, queryStatus,
				"status must be pending, issued or rejected.")
		}
	}
	return listPage(w, r, c, l, a.store, a.creditNoteOf(r, c.ns), nil)
}
