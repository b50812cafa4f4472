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

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// createCreditApplication serves POST /v1/credit_applications: some of the
// invoice's customer's credit in the invoice's currency, applied to the
// invoice. The invoice must be issued and not sealed (creditableInvoice);
// the amount at most the customer's credit in that currency (422
// amount_exceeds_credit) and what the invoice leaves to pay (422
// amount_exceeds_remaining), both as the controller derives them
// (internal/billing), which enters it, or rejects it when a racing use took
// the credit or the invoice was settled meanwhile.
func (a *Adapter) createCreditApplication(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return createOnInvoice(a, w, r, c, creditApplicationKind, DecodeCreditApplication,
		func(p *CreditApplicationParams, inv *billingv1.Invoice) (*creation[*billingv1.CreditApplication], *Error) {
			currency := billing.InvoiceCurrency(inv)
			customer, e := a.invoiceCustomer(r, c.ns, inv)
			if e != nil {
				return nil, e
			}
			if e := checkAvailableCredit(customer, inv.Spec.CustomerRef.Name, currency, p.Amount); e != nil {
				return nil, e
			}
			remaining, e := invoiceRemaining(inv)
			if e != nil {
				return nil, e
			}
			if p.Amount > remaining {
				return nil, errorf(http.StatusUnprocessableEntity, CodeExceedsRemaining, fieldAmount,
					"amount %d exceeds the %d that remains to be paid of invoice %q.", p.Amount, remaining, inv.Name)
			}
			ca := &billingv1.CreditApplication{Spec: billingv1.CreditApplicationSpec{
				InvoiceRef: billingv1.InvoiceReference{Name: p.InvoiceID}, Amount: p.Amount, Currency: currency}}
			return &creation[*billingv1.CreditApplication]{object: ca,
				answer: func(ca *billingv1.CreditApplication, _ bool) any {
					return apiobject.CreditApplicationOf(ca, inv)
				}}, nil
		})
}

// invoiceCustomer reads the customer of inv; nil, with no error, when the
// workspace has none of that name (it then has no credit).
func (a *Adapter) invoiceCustomer(r *http.Request, ns string, inv *billingv1.Invoice) (*billingv1.Customer, *Error) {
	customer := &billingv1.Customer{}
	found, err := a.store.Get(r.Context(), ns, inv.Spec.CustomerRef.Name, customer)
	if err != nil {
		return nil, apiError(r.Context(), err, "Unable to read a customer")
	}
	if !found {
		return nil, nil
	}
	return customer, nil
}

// invoiceRemaining is what remains to pay of inv (billing.InvoiceRemaining):
// 409 invoice_not_issued when it has no total.
func invoiceRemaining(inv *billingv1.Invoice) (int64, *Error) {
	remaining, ok := billing.InvoiceRemaining(inv)
	if !ok {
		return 0, errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
			"Invoice %q has no total to pay.", inv.Name)
	}
	return remaining, nil
}

// checkAvailableCredit refuses to spend amount of the credit in currency of
// customer (named name; nil when it does not exist, which has none): 422
// amount_exceeds_credit on amount when its credit (billing.AvailableCredit)
// is less.
func checkAvailableCredit(customer *billingv1.Customer, name, currency string, amount int64) *Error {
	var available int64
	if customer != nil {
		available = billing.AvailableCredit(customer, currency)
	}
	if amount > available {
		return errorf(http.StatusUnprocessableEntity, CodeExceedsCredit, fieldAmount,
			"amount %d exceeds the %d %s of credit customer %q has.", amount, available, currency, name)
	}
	return nil
}

// creditApplicationOf renders the credit applications of workspace ns,
// each with its invoice when its representation needs it: until the
// controller has recorded its customer and currency
// (apiobject.CreditApplicationNeedsInvoice).
func (a *Adapter) creditApplicationOf(r *http.Request, ns string) func(*billingv1.CreditApplication) apiobject.CreditApplication {
	return func(ca *billingv1.CreditApplication) apiobject.CreditApplication {
		return apiobject.CreditApplicationOf(ca,
			a.neededInvoice(r, ns, ca.Spec.InvoiceRef.Name, apiobject.CreditApplicationNeedsInvoice(ca)))
	}
}

// replayCreditApplication renders a credit application an earlier request
// with the key created (createKind.replay).
func replayCreditApplication(a *Adapter, r *http.Request, ns string, obj client.Object) any {
	return replayAs(obj, a.creditApplicationOf(r, ns))
}

// getCreditApplication serves GET /v1/credit_applications/{credit_application_id}.
func (a *Adapter) getCreditApplication(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a credit application", "credit_application_id", a.creditApplicationOf(r, c.ns))
}

// listCreditApplications serves GET /v1/credit_applications: a page of the
// workspace's credit applications, optionally of one invoice and one
// customer, ordered by id.
func (a *Adapter) listCreditApplications(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return listRecords(w, r, c, resourceCreditApplications, "credit applications", a.store,
		a.creditApplicationOf(r, c.ns))
}
