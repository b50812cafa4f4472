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
	"strings"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Sending by e-mail (docs/api.md#sending-by-e-mail). A send queues an
// Email, through the one create path, for the manager to send over SMTP;
// it answers 202 with the delivery it queued: its id (the Email's name),
// recipients and Message-ID, known before it is sent. What a send checks
// (the document issued, the workspace's e-mail configured) its Email does
// not change, so a retry with the same Idempotency-Key replays the first
// answer and queues nothing.

// sendInvoice serves POST /v1/invoices/{invoice_id}/send: 404
// resource_missing for an unknown invoice, 409 not_issued for one not
// issued, 409 email_not_configured when the workspace's BillingProfile has
// no spec.email.
func (a *Adapter) sendInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return sendOf(a, w, r, c, "an invoice", "invoice_id", DecodeSend,
		func(p *SendParams, inv *billingv1.Invoice) (*creation[*billingv1.Email], *Error) {
			if phase := inv.EffectivePhase(); phase != billingv1.InvoiceIssued {
				return nil, errorf(http.StatusConflict, CodeNotIssued, "invoice_id",
					"Invoice %q is %s; only an issued invoice can be sent.", inv.Name, apiobject.Status(phase))
			}
			var billTo string
			if inv.Status.BillTo != nil {
				billTo = inv.Status.BillTo.Email
			}
			return a.queueEmail(r, c, p, inv.Spec.CustomerRef.Name, billTo, billingv1.EmailSpec{
				Purpose: billingv1.EmailPurposeInvoice, InvoiceRef: &billingv1.InvoiceReference{Name: inv.Name}})
		})
}

// sendCreditNote serves POST /v1/credit_notes/{credit_note_id}/send, with
// the refusals of sendInvoice for a credit note.
func (a *Adapter) sendCreditNote(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return sendOf(a, w, r, c, "a credit note", "credit_note_id", DecodeSend,
		func(p *SendParams, cn *billingv1.CreditNote) (*creation[*billingv1.Email], *Error) {
			if cn.Status.Phase != billingv1.CreditNoteIssued {
				phase := cn.Status.Phase
				if phase == "" {
					phase = billingv1.CreditNotePending
				}
				return nil, errorf(http.StatusConflict, CodeNotIssued, "credit_note_id",
					"Credit note %q is %s; only an issued credit note can be sent.", cn.Name,
					strings.ToLower(string(phase)))
			}
			customer, billTo := cn.Status.CustomerName, ""
			if cn.Status.BillTo != nil {
				billTo = cn.Status.BillTo.Email
			}
			if customer == "" {
				if inv := a.readInvoice(r, c.ns)(cn.Spec.InvoiceRef.Name); inv != nil {
					customer = inv.Spec.CustomerRef.Name
				}
			}
			return a.queueEmail(r, c, p, customer, billTo, billingv1.EmailSpec{
				Purpose: billingv1.EmailPurposeCreditNote, CreditNoteRef: &billingv1.CreditNoteReference{Name: cn.Name}})
		})
}

// sendStatement serves POST /v1/customers/{customer_id}/statement/send:
// the customer's statement of the days from and to of the query (default:
// the last 90 days to today, in the workspace's time zone). 404
// resource_missing for an unknown customer, 409 email_not_configured as
// for an invoice, 400 parameter_invalid for a day that is not one or a
// from after to.
func (a *Adapter) sendStatement(w http.ResponseWriter, r *http.Request, c *call) *Error {
	decode := func(body []byte) (*SendParams, *Error) {
		p, e := DecodeSend(body)
		if e != nil {
			return nil, e
		}
		// The days as sent, for the Idempotency-Key's fingerprint; they are
		// resolved with the statement's own rules in queueEmail.
		p.StatementFrom, p.StatementTo = c.query.Get(queryFrom), c.query.Get(queryTo)
		return p, nil
	}
	return sendOf(a, w, r, c, "a customer", "customer_id", decode,
		func(p *SendParams, _ *billingv1.Customer) (*creation[*billingv1.Email], *Error) {
			return a.queueEmail(r, c, p, c.id, "", billingv1.EmailSpec{Purpose: billingv1.EmailPurposeStatement})
		})
}

// sendOf serves a send of the record the path's param names (pathRecord:
// 404 resource_missing when the workspace has none), which check checks
// and makes the Email of.
func sendOf[T any, O apiObject[T]](a *Adapter, w http.ResponseWriter, r *http.Request, c *call, what, param string,
	decode func(body []byte) (*SendParams, *Error),
	check func(p *SendParams, obj O) (*creation[*billingv1.Email], *Error)) *Error {
	c.id = r.PathValue(param)
	return create(a, w, r, c, emailKind, decode, func(p *SendParams) (*creation[*billingv1.Email], *Error) {
		obj, e := pathRecord[T, O](a, r, c, what, param)
		if e != nil {
			return nil, e
		}
		return check(p, obj)
	})
}

// queueEmail is the creation of the Email of spec, for customer (its
// customerRef), to p.To: 409 email_not_configured when the workspace's
// BillingProfile has no spec.email. A statement's period is resolved here,
// in the workspace's time zone. Its answer names the recipients the
// manager sends to: p.To, else the customer's e-mail (billTo, the
// document's bill-to e-mail, when the customer cannot be read).
func (a *Adapter) queueEmail(r *http.Request, c *call, p *SendParams, customer, billTo string,
	spec billingv1.EmailSpec) (*creation[*billingv1.Email], *Error) {
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return nil, apiError(r.Context(), err, "Unable to read the billing profile")
	}
	if profile.Email == nil {
		return nil, errorf(http.StatusConflict, CodeEmailNotConfigured, "",
			"Workspace %q does not send e-mail: its BillingProfile %q has no spec.email.", c.ns,
			billingv1.DefaultBillingProfileName)
	}
	if spec.Purpose == billingv1.EmailPurposeStatement {
		loc, err := billing.Location(profile.TimeZone)
		if err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, queryTo,
				"The statement's days cannot be resolved: %s (the workspace's BillingProfile spec.timeZone).", err)
		}
		from, to, e := statementRange(c.query, a.now(), loc)
		if e != nil {
			return nil, e
		}
		spec.Statement = &billingv1.StatementPeriod{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly)}
	}
	if customer != "" {
		spec.CustomerRef = &billingv1.CustomerReference{Name: customer}
	}
	spec.To = p.To
	to := billing.Recipients(p.To, a.customerEmail(r, c.ns, customer), billTo)
	from := profile.Email.From
	return &creation[*billingv1.Email]{object: &billingv1.Email{Spec: spec},
		answer: func(e *billingv1.Email, _ bool) any { return apiobject.QueuedDeliveryOf(e, to, from) }}, nil
}

// customerEmail is the e-mail of customer now, "" when it cannot be read.
func (a *Adapter) customerEmail(r *http.Request, ns, customer string) string {
	cus := &billingv1.Customer{}
	if customer == "" {
		return ""
	}
	if found, err := a.store.Get(r.Context(), ns, customer, cus); err != nil || !found {
		return ""
	}
	return cus.Spec.Email
}
