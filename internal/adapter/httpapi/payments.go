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

// createPayment serves POST /v1/payments. The invoice must be issued, not
// void, in the payment's currency, and have at least the amount left to
// pay (status.balance): the controller records the payment in its ledger.
// A payment paid at or before the workspace's closed_through is 409
// period_closed on paid_at (its paid_at is now when the body has none).
func (a *Adapter) createPayment(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return createOnInvoice(a, w, r, c, paymentKind, a.decodePayment,
		func(p *PaymentParams, inv *billingv1.Invoice) (*creation[*billingv1.Payment], *Error) {
			currency, e := checkPayment(inv, p)
			if e != nil {
				return nil, e
			}
			if e := a.checkOpenPeriod(r, c.ns, p.PaidAt, "paid_at"); e != nil {
				return nil, e
			}
			return &creation[*billingv1.Payment]{object: &billingv1.Payment{Spec: p.spec(currency)},
				answer: func(pay *billingv1.Payment, _ bool) any { return apiobject.PaymentOf(pay, inv) }}, nil
		})
}

// decodePayment decodes a payment's body; its paid_at defaults to now.
func (a *Adapter) decodePayment(body []byte) (*PaymentParams, *Error) {
	return DecodePayment(body, a.now())
}

// replayPayment renders a payment an earlier request with the key created
// (createKind.replay).
func replayPayment(a *Adapter, r *http.Request, ns string, obj client.Object) any {
	return replayAs(obj, a.paymentOf(r, ns))
}

// checkPayment checks payment p against inv, and returns its currency, the
// invoice's: 422 currency_mismatch when p names another, 409 invoice_void
// when inv is fully credited and unpaid, 422 amount_exceeds_remaining when
// p's amount is above what remains to be paid, written off or not.
func checkPayment(inv *billingv1.Invoice, p *PaymentParams) (string, *Error) {
	currency := billing.InvoiceCurrency(inv)
	if p.Currency != "" && p.Currency != currency {
		return "", errorf(http.StatusUnprocessableEntity, CodeCurrencyMismatch, "currency",
			"currency must be the invoice's, %s.", currency)
	}
	b := billing.InvoiceBalanceOf(inv)
	if b == nil {
		return "", errorf(http.StatusConflict, CodeInvoiceNotIssued, "invoice_id",
			"Invoice %q has no total to pay.", inv.Name)
	}
	if b.PaymentStatus == billingv1.InvoicePaymentVoid {
		return "", errorf(http.StatusConflict, CodeInvoiceVoid, "invoice_id",
			"Invoice %q is void: it is fully credited, and nothing is to be paid.", inv.Name)
	}
	// What was written off is still owed: a later payment recovers it
	// first (billing.ComputeLedgerBalance).
	if owed := b.AmountRemaining + b.AmountWrittenOff; p.Amount > owed {
		return "", errorf(http.StatusUnprocessableEntity, CodeExceedsRemaining, "amount",
			"amount %d exceeds the %d that remains to be paid of invoice %q.", p.Amount, owed, inv.Name)
	}
	return currency, nil
}

// paymentOf renders the payments of workspace ns, each with its invoice
// when its representation needs it: until the controller has recorded its
// customer (billing.PaymentNeedsInvoice).
func (a *Adapter) paymentOf(r *http.Request, ns string) func(*billingv1.Payment) apiobject.Payment {
	return func(p *billingv1.Payment) apiobject.Payment {
		return apiobject.PaymentOf(p, a.neededInvoice(r, ns, p.Spec.InvoiceRef.Name, billing.PaymentNeedsInvoice(p)))
	}
}

// getPayment serves GET /v1/payments/{payment_id}.
func (a *Adapter) getPayment(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a payment", "payment_id", a.paymentOf(r, c.ns))
}

// listPayments serves GET /v1/payments: a page of the workspace's
// payments, optionally of one invoice and one customer, ordered by id.
func (a *Adapter) listPayments(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return listRecords(w, r, c, resourcePayments, "payments", a.store, a.paymentOf(r, c.ns))
}
