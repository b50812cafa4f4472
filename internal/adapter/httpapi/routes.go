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
	"strings"

	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Resources, as named in SubjectAccessReviews and IdempotencyKeys: those
// of the table of record kinds (internal/recordkind).
var (
	resourceCustomers   = recordkind.Customer.Resource
	resourceInvoices    = recordkind.Invoice.Resource
	resourceCreditNotes = recordkind.CreditNote.Resource
	resourcePayments    = recordkind.Payment.Resource
	resourcePeriodClose = recordkind.PeriodClose.Resource
	resourceLedgerSeals = recordkind.LedgerSeal.Resource
	// The kinds of money on account.
	resourceCreditApplications = recordkind.CreditApplication.Resource
	resourceRefunds            = recordkind.Refund.Resource
	resourceWriteOffs          = recordkind.WriteOff.Resource
	resourceInvoiceSchedules   = recordkind.InvoiceSchedule.Resource
	resourcePendingItems       = recordkind.PendingItem.Resource
	resourceBankTransactions   = recordkind.BankTransaction.Resource
	// resourceEmails is what sending is authorized on: create on emails,
	// the messages the sends queue.
	resourceEmails = recordkind.Email.Resource
)

// Query parameters.
const (
	queryLimit, queryCursor = "limit", "cursor"
	queryCustomerID         = "customer_id"
	queryStatus, queryEmail = "status", "email"
	queryOrder              = "order"
	queryAfterSequence      = "after_sequence"
	queryInvoiceID          = "invoice_id"
	queryPaymentStatus      = "payment_status"
	queryOverdue            = "overdue"
	queryFrom, queryTo      = "from", "to"
	queryScheduleID         = "schedule_id"
)

// routes is the one route table.
func (a *Adapter) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", a.healthz)
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.HandleFunc("GET /v1/openapi.json", a.openAPI)

	mux.Handle("POST /v1/customers", a.api("create", resourceCustomers, "", nil, a.createCustomer))
	mux.Handle("GET /v1/customers", a.api("list", resourceCustomers, "",
		[]string{queryLimit, queryCursor, queryEmail}, a.listCustomers))
	mux.Handle("GET /v1/customers/{customer_id}", a.api("get", resourceCustomers, "customer_id", nil, a.getCustomer))
	mux.Handle("GET /v1/customers/{customer_id}/statement",
		a.api("get", resourceCustomers, "customer_id", statementQuery, a.getStatement))
	mux.Handle("POST /v1/customers/{customer_id}/statement/send",
		a.api("create", resourceEmails, "", statementQuery, a.sendStatement))

	mux.Handle("POST /v1/invoices", a.api("create", resourceInvoices, "", nil, a.createInvoice))
	mux.Handle("GET /v1/invoices", a.api("list", resourceInvoices, "",
		[]string{queryLimit, queryCursor, queryCustomerID, queryStatus, queryPaymentStatus, queryOverdue, queryOrder,
			queryAfterSequence, queryScheduleID}, a.listInvoices))
	mux.Handle("GET /v1/invoices/{invoice_id}", a.api("get", resourceInvoices, "invoice_id", nil, a.getInvoice))
	mux.Handle("GET /v1/invoices/{invoice_id}/document",
		a.api("get", resourceInvoices, "invoice_id", invoiceDocumentQuery, a.getInvoiceDocument))
	mux.Handle("POST /v1/invoices/{invoice_id}/send", a.api("create", resourceEmails, "", nil, a.sendInvoice))

	mux.Handle("POST /v1/credit_notes", a.api("create", resourceCreditNotes, "", nil, a.createCreditNote))
	mux.Handle("GET /v1/credit_notes", a.api("list", resourceCreditNotes, "",
		[]string{queryLimit, queryCursor, queryInvoiceID, queryCustomerID, queryStatus}, a.listCreditNotes))
	mux.Handle("GET /v1/credit_notes/{credit_note_id}",
		a.api("get", resourceCreditNotes, "credit_note_id", nil, a.getCreditNote))
	mux.Handle("GET /v1/credit_notes/{credit_note_id}/document",
		a.api("get", resourceCreditNotes, "credit_note_id", documentQuery, a.getCreditNoteDocument))
	mux.Handle("POST /v1/credit_notes/{credit_note_id}/send",
		a.api("create", resourceEmails, "", nil, a.sendCreditNote))

	ofInvoice := []string{queryLimit, queryCursor, queryInvoiceID, queryCustomerID}
	a.recordRoutes(mux, &recordkind.Payment, "payment_id", ofInvoice, a.createPayment, a.listPayments, a.getPayment)
	a.recordRoutes(mux, &recordkind.CreditApplication, "credit_application_id", ofInvoice,
		a.createCreditApplication, a.listCreditApplications, a.getCreditApplication)
	// A refund draws on its customer's credit, not on one invoice: no
	// invoice_id filter (400 parameter_unknown, as for any other).
	a.recordRoutes(mux, &recordkind.Refund, "refund_id", []string{queryLimit, queryCursor, queryCustomerID},
		a.createRefund, a.listRefunds, a.getRefund)
	a.recordRoutes(mux, &recordkind.WriteOff, "write_off_id", ofInvoice, a.createWriteOff, a.listWriteOffs, a.getWriteOff)
	a.recordRoutes(mux, &recordkind.PeriodClose, "period_close_id", []string{queryLimit, queryCursor},
		a.createPeriodClose, a.listPeriodCloses, a.getPeriodClose)
	a.recordRoutes(mux, &recordkind.InvoiceSchedule, "invoice_schedule_id", []string{queryLimit, queryCursor},
		a.createInvoiceSchedule, a.listInvoiceSchedules, a.getInvoiceSchedule)
	for _, action := range []string{actionPause, actionResume, actionCancel} {
		mux.Handle("POST /v1/invoice_schedules/{invoice_schedule_id}/"+action, a.api("patch", resourceInvoiceSchedules,
			"invoice_schedule_id", nil, a.changeInvoiceSchedule(action)))
	}
	mux.Handle("GET /v1/invoice_schedules/{invoice_schedule_id}/upcoming", a.api("get", resourceInvoiceSchedules,
		"invoice_schedule_id", []string{queryCount}, a.getUpcomingInvoices))
	mux.Handle("POST /v1/invoice_schedules/{invoice_schedule_id}/pending_items",
		a.api("create", resourcePendingItems, "", nil, a.createPendingItem))
	mux.Handle("GET /v1/invoice_schedules/{invoice_schedule_id}/pending_items",
		a.api("list", resourcePendingItems, "", []string{queryLimit, queryCursor}, a.listPendingItems))
	mux.Handle("GET /v1/invoice_schedules/{invoice_schedule_id}/pending_items/{pending_item_id}",
		a.api("get", resourcePendingItems, "pending_item_id", nil, a.getPendingItem))

	// A statement creates bank transactions; a match by hand records a
	// payment.
	mux.Handle("POST /v1/bank_statements", a.api("create", resourceBankTransactions, "", nil, a.importBankStatement))
	mux.Handle("GET /v1/bank_transactions", a.api("list", resourceBankTransactions, "",
		[]string{queryLimit, queryCursor, queryStatus}, a.listBankTransactions))
	mux.Handle("GET /v1/bank_transactions/{bank_transaction_id}", a.api("get", resourceBankTransactions,
		paramBankTransaction, nil, a.getBankTransaction))
	mux.Handle("POST /v1/bank_transactions/{bank_transaction_id}/match", a.api("create", resourcePayments,
		"", nil, a.matchBankTransaction))

	mux.Handle("GET /v1/seals", a.api("list", resourceLedgerSeals, "", []string{queryLimit, queryCursor}, a.listSeals))
	mux.Handle("GET /v1/seals/verify", a.api("list", resourceLedgerSeals, "", nil, a.verifySeals))
	mux.Handle("GET /v1/seals/{seal_id}", a.api("get", resourceLedgerSeals, "seal_id", nil, a.getSeal))
	mux.Handle("GET /v1/seals/{seal_id}/payload", a.api("get", resourceLedgerSeals, "seal_id", nil, a.getSealPayload))

	// The aging shows what every customer owes on its invoices: authorized
	// as a list of the invoices it is computed from.
	mux.Handle("GET /v1/reports/receivables_aging", a.api("list", resourceInvoices, "",
		[]string{queryAsOf, queryLimit, queryCursor}, a.getReceivablesAging))

	mux.Handle("GET /v1/events", a.api("list", resourceEvents, "",
		[]string{queryLimit, queryCursor, queryAfter, queryType}, a.listEvents))
	return mux
}

// recordRoutes routes the create (POST) and the list (GET, with the query
// parameters query) of kind k at its path (internal/recordkind), and the
// get of one of its records at the path's id param.
func (a *Adapter) recordRoutes(mux *http.ServeMux, k *recordkind.Kind, param string, query []string,
	create, list, get apiHandler) {
	mux.Handle("POST "+strings.TrimSuffix(k.Path, "/"), a.api("create", k.Resource, "", nil, create))
	mux.Handle("GET "+strings.TrimSuffix(k.Path, "/"), a.api("list", k.Resource, "", query, list))
	mux.Handle("GET "+k.Path+"{"+param+"}", a.api("get", k.Resource, param, nil, get))
}

// call is an authenticated, authorized request.
type call struct {
	ns    string
	user  user.Info
	id    string // the path's id, for gets
	query url.Values
}

type apiHandler func(w http.ResponseWriter, r *http.Request, c *call) *Error

// api wraps an operation with what every /v1 operation does first:
// authenticate, rate-limit, find the workspace, authorize verb on resource,
// and check the query parameters. Any failure is answered by writeError.
func (a *Adapter) api(verb, resource, idParam string, queryParams []string, h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := a.serveAPI(w, r, verb, resource, idParam, queryParams, h); e != nil {
			writeError(w, r, e)
		}
	})
}

func (a *Adapter) serveAPI(w http.ResponseWriter, r *http.Request, verb, resource, idParam string,
	queryParams []string, h apiHandler) *Error {
	u, e := a.authenticate(r)
	if e != nil {
		return e
	}
	infoFrom(r.Context()).user = u.GetName()
	if e := a.rateLimit(u); e != nil {
		return e
	}
	ns, e := workspaceFor(r.Header.Values(WorkspaceHeader), u)
	if e != nil {
		return e
	}
	c := &call{ns: ns, user: u}
	if idParam != "" {
		c.id = r.PathValue(idParam)
	}
	if e := a.authorize(r.Context(), u, verb, resource, ns, c.id); e != nil {
		return e
	}
	if c.query, e = parseQuery(r.URL.RawQuery, queryParams); e != nil {
		return e
	}
	return h(w, r, c)
}

func (a *Adapter) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}

func (a *Adapter) readyz(w http.ResponseWriter, r *http.Request) {
	if err := a.ready(r.Context()); err != nil {
		logFrom(r.Context()).V(1).Info("Not ready", "reason", err.Error())
		e := unavailable()
		e.Message = "Not ready: " + err.Error()
		writeError(w, r, e)
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}

func (a *Adapter) openAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, openAPIDocument)
}
