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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// paramBankTransaction is the path parameter of a bank transaction.
const paramBankTransaction = "bank_transaction_id"

// bankStatusFilters are the values of the status filter of GET
// /v1/bank_transactions.
var bankStatusFilters = map[string]bool{"pending": true, "matched": true, "unmatched": true, "ignored": true}

// listBankTransactions serves GET /v1/bank_transactions: a page of the
// workspace's bank transactions, optionally of one status, ordered by id.
func (a *Adapter) listBankTransactions(w http.ResponseWriter, r *http.Request, c *call) *Error {
	l := listing{resource: resourceBankTransactions, what: "bank transactions"}
	if c.query.Has(queryStatus) {
		l.filters.Status = c.query.Get(queryStatus)
		if !bankStatusFilters[l.filters.Status] {
			return errorf(http.StatusBadRequest, CodeParameterInvalid, queryStatus,
				"status must be pending, matched, unmatched or ignored.")
		}
		l.sel = store.Selection{BankStatus: l.filters.Status}
	}
	return listPage(w, r, c, l, a.store, apiobject.BankTransactionOf, nil)
}

// getBankTransaction serves GET /v1/bank_transactions/{bank_transaction_id}.
func (a *Adapter) getBankTransaction(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a bank transaction", paramBankTransaction, apiobject.BankTransactionOf)
}

// matchBankTransaction serves POST
// /v1/bank_transactions/{bank_transaction_id}/match {"invoice_id"}: a
// person matches a transaction the controller left unmatched, by creating
// its Payment (banktransfer.PaymentOf) under the transaction's name, as
// the controller does for a match it finds; the controller then marks the
// transaction matched. 409 already_matched when it is (or its payment
// exists), 409 transaction_not_matchable for an ignored debit or reversal,
// and for the invoice what POST /v1/payments answers (creditableInvoice:
// 422 resource_missing, 409 invoice_not_issued, 409 invoice_sealed; 409
// invoice_void), 422 currency_mismatch, and 409 period_closed when it was
// booked in a closed period.
func (a *Adapter) matchBankTransaction(w http.ResponseWriter, r *http.Request, c *call) *Error {
	body, e := readBody(w, r)
	if e != nil {
		return e
	}
	fields, e := bodyFields(body, map[string]kind{fieldInvoiceID: kindString})
	if e != nil {
		return e
	}
	invoiceID, e := requiredString(fields, "", fieldInvoiceID, maxObjectNameLength)
	if e != nil {
		return e
	}
	t := &billingv1.BankTransaction{}
	if e := a.readRecord(r, c.ns, r.PathValue(paramBankTransaction), t, http.StatusNotFound, "a bank transaction",
		paramBankTransaction); e != nil {
		return e
	}
	switch t.Status.Phase {
	case billingv1.BankTransactionMatched:
		return errorf(http.StatusConflict, CodeAlreadyMatched, "",
			"Bank transaction %s already pays invoice %s.", t.Name, t.Status.Invoice)
	case billingv1.BankTransactionIgnored:
		return errorf(http.StatusConflict, CodeNotMatchable, "",
			"Bank transaction %s is a %s: it pays no invoice.", t.Name, t.Status.Reason)
	}
	inv, e := a.creditableInvoice(r, c, invoiceID)
	if e != nil {
		return e
	}
	if b := billing.InvoiceBalanceOf(inv); b != nil && b.PaymentStatus == billingv1.InvoicePaymentVoid {
		return errorf(http.StatusConflict, CodeInvoiceVoid, fieldInvoiceID,
			"Invoice %q is void: it is fully credited, and nothing is to be paid; match the line to another.", inv.Name)
	}
	if currency := billing.InvoiceCurrency(inv); currency != t.Spec.Entry.Currency {
		return errorf(http.StatusUnprocessableEntity, CodeCurrencyMismatch, fieldInvoiceID,
			"Invoice %q is in %s; the transaction is in %s.", inv.Name, currency, t.Spec.Entry.Currency)
	}
	profile, err := a.store.Profile(r.Context(), c.ns)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the billing profile")
	}
	loc, err := billing.Location(profile.TimeZone)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the workspace's time zone")
	}
	p, err := banktransfer.PaymentOf(t, inv.Name, billingv1.MatchedByManual, loc)
	if err != nil {
		return apiError(r.Context(), err, "Unable to record the bank transaction's payment")
	}
	if e := a.checkOpenPeriod(r, c.ns, &p.Spec.PaidAt.Time, "booking_date"); e != nil {
		return e
	}
	created, err := a.claims.CreateNamed(r.Context(), p)
	if err != nil {
		return apiError(r.Context(), err, "Unable to record the bank transaction's payment")
	}
	if !created {
		return errorf(http.StatusConflict, CodeAlreadyMatched, "",
			"Bank transaction %s is already matched: payment %s records it.", t.Name, p.Name)
	}
	a.store.Created(p)
	matched := t.DeepCopy()
	matched.Status.Phase, matched.Status.Reason = billingv1.BankTransactionMatched, ""
	matched.Status.MatchedBy, matched.Status.Invoice, matched.Status.Payment = billingv1.MatchedByManual, inv.Name, p.Name
	writeJSON(w, r, http.StatusOK, apiobject.BankTransactionOf(matched))
	return nil
}
