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

package apiobject

import (
	"cmp"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Money on account (docs/ledger.md#money-on-account): the /v1
// representations of credit applications, refunds and write-offs. Each is
// pending until the controller enters it, then applied or recorded, or
// rejected with status_reason, the Ready condition's reason in snake case.

// CreditApplication is the /v1 representation of a CreditApplication.
type CreditApplication struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	InvoiceID  string `json:"invoice_id"`
	CustomerID string `json:"customer_id"`
	Amount     int64  `json:"amount"`
	Currency   string `json:"currency"`
	// Status is pending, applied or rejected; StatusReason says why a
	// rejected one is (exceeds_credit, exceeds_remaining, ...), null
	// otherwise.
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	// AppliedAt is null until it is applied.
	AppliedAt *string `json:"applied_at"`
	CreatedAt string  `json:"created_at"`
	// Seal is the name of the seal that holds it; null while it is live.
	Seal *string `json:"seal"`
}

// Refund is the /v1 representation of a Refund.
type Refund struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	CustomerID string `json:"customer_id"`
	Amount     int64  `json:"amount"`
	Currency   string `json:"currency"`
	// RefundedAt is when the money was paid back: when the refund was
	// created unless its create said.
	RefundedAt string  `json:"refunded_at"`
	Method     string  `json:"method"`
	Reference  *string `json:"reference"`
	// Status is pending, recorded or rejected; StatusReason says why a
	// rejected one is, null otherwise.
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	// RecordedAt is null until it is recorded.
	RecordedAt *string `json:"recorded_at"`
	CreatedAt  string  `json:"created_at"`
	// Seal is the name of the seal that holds it; null while it is live.
	Seal *string `json:"seal"`
}

// WriteOff is the /v1 representation of a WriteOff.
type WriteOff struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	InvoiceID  string `json:"invoice_id"`
	CustomerID string `json:"customer_id"`
	// Amount is what it wrote off: what remained of the invoice when it
	// was recorded; null until then.
	Amount   *int64 `json:"amount"`
	Currency string `json:"currency"`
	Reason   string `json:"reason"`
	// Status is pending, recorded or rejected; StatusReason says why a
	// rejected one is (nothing_remaining, ...), null otherwise.
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	// RecordedAt is null until it is recorded.
	RecordedAt *string `json:"recorded_at"`
	CreatedAt  string  `json:"created_at"`
	// Seal is the name of the seal that holds it; null while it is live.
	Seal *string `json:"seal"`
}

// CreditApplicationNeedsInvoice says whether the representation of ca
// needs its invoice: until the controller has recorded its customer and
// currency.
func CreditApplicationNeedsInvoice(ca *billingv1.CreditApplication) bool {
	return ca.Status.CustomerName == "" || (ca.Spec.Currency == "" && ca.Status.Currency == "")
}

// WriteOffNeedsInvoice says whether the representation of wo needs its
// invoice: until the controller has recorded its customer and currency.
func WriteOffNeedsInvoice(wo *billingv1.WriteOff) bool {
	return wo.Status.CustomerName == "" || wo.Status.Currency == ""
}

// CreditApplicationOf is the /v1 representation of ca. inv is its invoice,
// or nil when it cannot be read; it gives the customer and currency of an
// application the controller has not yet looked at.
func CreditApplicationOf(ca *billingv1.CreditApplication, inv *billingv1.Invoice) CreditApplication {
	st := &ca.Status
	phase := cmp.Or(st.Phase, billingv1.CreditApplicationPending)
	out := CreditApplication{
		ID: ca.Name, Object: "credit_application", InvoiceID: ca.Spec.InvoiceRef.Name, CustomerID: st.CustomerName,
		Amount: ca.Spec.Amount, Currency: cmp.Or(ca.Spec.Currency, st.Currency), Status: strings.ToLower(string(phase)),
		AppliedAt: optionalTimestamp(st.AppliedAt), CreatedAt: timestamp(ca.CreationTimestamp.Time),
		Seal: SealOfRecord(ca),
	}
	if phase == billingv1.CreditApplicationRejected {
		out.StatusReason = readyReason(st.Conditions)
	}
	out.CustomerID, out.Currency = withInvoiceParties(out.CustomerID, out.Currency, inv)
	return out
}

// RefundOf is the /v1 representation of rf.
func RefundOf(rf *billingv1.Refund) Refund {
	st := &rf.Status
	phase := cmp.Or(st.Phase, billingv1.RefundPending)
	method, refundedAt := methodAndDate(rf.Spec.Method, billing.RefundDate(rf))
	out := Refund{
		ID: rf.Name, Object: "refund", CustomerID: rf.Spec.CustomerRef.Name, Amount: rf.Spec.Amount,
		Currency: cmp.Or(rf.Spec.Currency, st.Currency), RefundedAt: refundedAt, Method: method,
		Reference: optional(rf.Spec.Reference), Status: strings.ToLower(string(phase)),
		RecordedAt: optionalTimestamp(st.RecordedAt), CreatedAt: timestamp(rf.CreationTimestamp.Time),
		Seal: SealOfRecord(rf),
	}
	if phase == billingv1.RefundRejected {
		out.StatusReason = readyReason(st.Conditions)
	}
	return out
}

// WriteOffOf is the /v1 representation of wo. inv is its invoice, or nil
// when it cannot be read; it gives the customer and currency of a
// write-off the controller has not yet looked at.
func WriteOffOf(wo *billingv1.WriteOff, inv *billingv1.Invoice) WriteOff {
	st := &wo.Status
	phase := cmp.Or(st.Phase, billingv1.WriteOffPending)
	out := WriteOff{
		ID: wo.Name, Object: "write_off", InvoiceID: wo.Spec.InvoiceRef.Name, CustomerID: st.CustomerName,
		Currency: st.Currency, Reason: wo.Spec.Reason, Status: strings.ToLower(string(phase)),
		RecordedAt: optionalTimestamp(st.RecordedAt), CreatedAt: timestamp(wo.CreationTimestamp.Time),
		Seal: SealOfRecord(wo),
	}
	switch phase {
	case billingv1.WriteOffRecorded:
		if st.Amount != nil {
			out.Amount = copyInt(st.Amount)
		}
	case billingv1.WriteOffRejected:
		out.StatusReason = readyReason(st.Conditions)
	}
	out.CustomerID, out.Currency = withInvoiceParties(out.CustomerID, out.Currency, inv)
	return out
}

// withInvoiceParties fills in the customer and currency of a record of inv
// that its status does not hold yet, from inv (nil when it cannot be
// read); a currency still unknown is the default, as an invoice's is.
func withInvoiceParties(customer, currency string, inv *billingv1.Invoice) (string, string) {
	if inv != nil {
		if customer == "" {
			customer = inv.Spec.CustomerRef.Name
		}
		if currency == "" {
			currency = billing.InvoiceCurrency(inv)
		}
	}
	if currency == "" {
		currency = billing.DefaultCurrency
	}
	return customer, currency
}

// readyReason is the reason of the Ready condition of conds in snake case
// ("ExceedsCredit" is "exceeds_credit"), nil when there is none.
func readyReason(conds []metav1.Condition) *string {
	ready := meta.FindStatusCondition(conds, billingv1.ConditionReady)
	if ready == nil || ready.Reason == "" {
		return nil
	}
	reason := snakeCase(ready.Reason)
	return &reason
}

// writeOffData renders the event of wo, invoice.marked_uncollectible: the
// invoice written off and the write-off.
func writeOffData(wo *billingv1.WriteOff, invoice InvoiceReader) EventData {
	inv := invoice(wo.Spec.InvoiceRef.Name)
	w := WriteOffOf(wo, inv)
	data := EventData{WriteOff: &w}
	if inv != nil {
		data.Object = InvoiceOf(inv)
	}
	return data
}
