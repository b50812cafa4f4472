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

package apiobject_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// The /v1 representations of money on account: the customer's credit
// balance, the invoice's applied and written-off amounts, credit
// applications, refunds and write-offs, and their events.

var (
	created = metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	entered = metav1.NewTime(time.Date(2026, 11, 23, 9, 31, 0, 0, time.UTC))
)

// readyFalse is a Ready condition, False, for reason.
func readyFalse(reason string) []metav1.Condition {
	return []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason}}
}

func TestCustomerCreditBalanceIsDerivedFromItsLedger(t *testing.T) {
	cases := []struct {
		name   string
		credit *billingv1.CustomerCredit
		want   string
	}{
		{name: "a customer without credit has an empty list, not null", want: `[]`},
		{name: "an empty ledger is an empty list", credit: &billingv1.CustomerCredit{}, want: `[]`},
		{name: "sources less uses, per currency in currency order, without those at zero",
			credit: &billingv1.CustomerCredit{
				Sources: []billingv1.CreditSource{
					{Invoice: "inv-1", UID: "u1", Currency: "USD", Amount: 300},
					{Invoice: "inv-2", UID: "u2", Currency: "EUR", Amount: 1000},
					{Invoice: "inv-3", UID: "u3", Currency: "EUR", Amount: 500},
					{Invoice: "inv-4", UID: "u4", Currency: "GBP", Amount: 50},
				},
				Uses: []billingv1.CreditUse{
					{Kind: billingv1.CreditUseApplication, Name: "capp-1", UID: "c1", Currency: "EUR", Amount: 700},
					{Kind: billingv1.CreditUseRefund, Name: "rf-1", UID: "r1", Currency: "GBP", Amount: 50},
				},
				// What the status says is not what counts: the ledger is.
				Balance: []billingv1.CurrencyAmount{{Currency: "EUR", Amount: 1}},
			},
			want: `[{"currency":"EUR","amount":800},{"currency":"USD","amount":300}]`},
		{name: "what sealed entries left, carried, counts like a source; a currency carried at 0 shows none",
			credit: &billingv1.CustomerCredit{
				Carried: []billingv1.CarriedCredit{{Currency: "EUR", Amount: 400, EventSequence: 9},
					{Currency: "GBP", Amount: 0, EventSequence: 4}, {Currency: "JPY", Amount: 70}},
				Sources:       []billingv1.CreditSource{{Invoice: "inv-5", UID: "u5", Currency: "EUR", Amount: 100}},
				Uses:          []billingv1.CreditUse{{Kind: billingv1.CreditUseRefund, Name: "rf-2", UID: "r2", Currency: "JPY", Amount: 70}},
				FoldedThrough: 3,
			},
			want: `[{"currency":"EUR","amount":500}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "cus-a"}}
			c.Status.Credit = tc.credit
			b, err := json.Marshal(apiobject.CustomerOf(c).CreditBalance)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("credit_balance = %s, want %s", b, tc.want)
			}
		})
	}
}

func TestInvoiceShowsAppliedAndWrittenOffAmountsWithTheBalance(t *testing.T) {
	pending := apiobject.InvoiceOf(&billingv1.Invoice{})
	if pending.AmountApplied != nil || pending.AmountWrittenOff != nil {
		t.Errorf("a pending invoice has applied %v and written off %v, want null", pending.AmountApplied, pending.AmountWrittenOff)
	}
	cases := []struct {
		name                string
		balance             *billingv1.InvoiceBalance
		applied, writtenOff int64
		status              string
	}{
		{name: "an issued invoice the controller has not looked at has none of either", status: "open"},
		{name: "credit applied shows as amount_applied",
			balance: &billingv1.InvoiceBalance{AmountApplied: 1000, AmountRemaining: 3105,
				PaymentStatus: billingv1.InvoicePaymentPartiallyPaid},
			applied: 1000, status: "partially_paid"},
		{name: "a write-off shows as amount_written_off, uncollectible",
			balance:    &billingv1.InvoiceBalance{AmountWrittenOff: 4105, PaymentStatus: billingv1.InvoicePaymentUncollectible},
			writtenOff: 4105, status: "uncollectible"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv := issuedInvoice(0)
			inv.Status.Balance = tc.balance
			got := apiobject.InvoiceOf(inv)
			if ptr.Deref(got.AmountApplied, -1) != tc.applied || ptr.Deref(got.AmountWrittenOff, -1) != tc.writtenOff ||
				ptr.Deref(got.PaymentStatus, "") != tc.status {
				t.Errorf("applied %v, written off %v, status %v", got.AmountApplied, got.AmountWrittenOff, got.PaymentStatus)
			}
		})
	}
}

func TestCreditApplicationOf(t *testing.T) {
	spec := billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 500}
	cases := []struct {
		name     string
		status   billingv1.CreditApplicationStatus
		currency string
		inv      *billingv1.Invoice
		want     apiobject.CreditApplication
	}{
		{name: "a pending one takes its customer and currency from its invoice", inv: issuedInvoice(0),
			want: apiobject.CreditApplication{CustomerID: "acme", Currency: "EUR", Status: "pending"}},
		{name: "a pending one made with kubectl whose invoice is gone shows the default currency, as an invoice does",
			want: apiobject.CreditApplication{Currency: "USD", Status: "pending"}},
		{name: "a pending one shows the currency of its spec", currency: "GBP",
			want: apiobject.CreditApplication{Currency: "GBP", Status: "pending"}},
		{name: "an applied one shows its status and when it was applied",
			status: billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, CustomerName: "acme",
				Currency: "GBP", AppliedAt: &entered},
			want: apiobject.CreditApplication{CustomerID: "acme", Currency: "GBP", Status: "applied",
				AppliedAt: ptr.To("2026-11-23T09:31:00Z")}},
		{name: "one rejected for want of credit says exceeds_credit",
			status: billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationRejected, CustomerName: "acme",
				Currency: "EUR", Conditions: readyFalse(billingv1.ReasonExceedsCredit)},
			want: apiobject.CreditApplication{CustomerID: "acme", Currency: "EUR", Status: "rejected",
				StatusReason: ptr.To("exceeds_credit")}},
		{name: "one rejected for too little left to pay says exceeds_remaining",
			status: billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationRejected, CustomerName: "acme",
				Currency: "EUR", Conditions: readyFalse(billingv1.ReasonExceedsRemaining)},
			want: apiobject.CreditApplication{CustomerID: "acme", Currency: "EUR", Status: "rejected",
				StatusReason: ptr.To("exceeds_remaining")}},
		{name: "a pending one has no status_reason even with a condition",
			status: billingv1.CreditApplicationStatus{Conditions: readyFalse("Waiting")}, inv: issuedInvoice(0),
			want: apiobject.CreditApplication{CustomerID: "acme", Currency: "EUR", Status: "pending"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ca := &billingv1.CreditApplication{ObjectMeta: metav1.ObjectMeta{Name: "capp-a", CreationTimestamp: created},
				Spec: spec, Status: tc.status}
			ca.Spec.Currency = tc.currency
			want := tc.want
			want.ID, want.Object, want.InvoiceID, want.Amount, want.CreatedAt = "capp-a", "credit_application", "inv-a", 500,
				"2026-11-23T09:30:00Z"
			if got := apiobject.CreditApplicationOf(ca, tc.inv); !equalJSON(t, got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestRefundOf(t *testing.T) {
	cases := []struct {
		name   string
		spec   billingv1.RefundSpec
		status billingv1.RefundStatus
		want   apiobject.Refund
	}{
		{name: "a pending one is refunded when it was created, by another method",
			want: apiobject.Refund{RefundedAt: "2026-11-23T09:30:00Z", Method: "other", Status: "pending"}},
		{name: "its refunded_at, method and reference are its spec's",
			spec: billingv1.RefundSpec{RefundedAt: &entered, Method: "cheque", Reference: "CHQ 0042"},
			want: apiobject.Refund{RefundedAt: "2026-11-23T09:31:00Z", Method: "cheque", Reference: ptr.To("CHQ 0042"),
				Status: "pending"}},
		{name: "a recorded one shows when it was recorded",
			status: billingv1.RefundStatus{Phase: billingv1.RefundRecorded, Currency: "EUR", RecordedAt: &entered},
			want: apiobject.Refund{RefundedAt: "2026-11-23T09:30:00Z", Method: "other", Status: "recorded",
				RecordedAt: ptr.To("2026-11-23T09:31:00Z")}},
		{name: "a rejected one says why",
			status: billingv1.RefundStatus{Phase: billingv1.RefundRejected, Conditions: readyFalse(billingv1.ReasonExceedsCredit)},
			want: apiobject.Refund{RefundedAt: "2026-11-23T09:30:00Z", Method: "other", Status: "rejected",
				StatusReason: ptr.To("exceeds_credit")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rf := &billingv1.Refund{ObjectMeta: metav1.ObjectMeta{Name: "rf-a", CreationTimestamp: created},
				Spec: tc.spec, Status: tc.status}
			rf.Spec.CustomerRef.Name, rf.Spec.Amount, rf.Spec.Currency = "acme", 100, "EUR"
			want := tc.want
			want.ID, want.Object, want.CustomerID, want.Amount, want.Currency, want.CreatedAt = "rf-a", "refund", "acme", 100,
				"EUR", "2026-11-23T09:30:00Z"
			if got := apiobject.RefundOf(rf); !equalJSON(t, got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestWriteOffOf(t *testing.T) {
	cases := []struct {
		name   string
		status billingv1.WriteOffStatus
		inv    *billingv1.Invoice
		want   apiobject.WriteOff
	}{
		{name: "a pending one has no amount and takes its customer and currency from its invoice", inv: issuedInvoice(0),
			want: apiobject.WriteOff{CustomerID: "acme", Currency: "EUR", Status: "pending"}},
		{name: "a recorded one shows what it wrote off and when",
			status: billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, CustomerName: "acme", Currency: "USD",
				Amount: ptr.To[int64](4105), RecordedAt: &entered},
			want: apiobject.WriteOff{CustomerID: "acme", Currency: "USD", Status: "recorded", Amount: ptr.To[int64](4105),
				RecordedAt: ptr.To("2026-11-23T09:31:00Z")}},
		{name: "a rejected one has no amount and says why",
			status: billingv1.WriteOffStatus{Phase: billingv1.WriteOffRejected, CustomerName: "acme", Currency: "EUR",
				Amount: ptr.To[int64](0), Conditions: readyFalse(billingv1.ReasonNothingRemaining)},
			want: apiobject.WriteOff{CustomerID: "acme", Currency: "EUR", Status: "rejected",
				StatusReason: ptr.To("nothing_remaining")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wo := &billingv1.WriteOff{ObjectMeta: metav1.ObjectMeta{Name: "wo-a", CreationTimestamp: created},
				Spec:   billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Reason: "bad debt"},
				Status: tc.status}
			want := tc.want
			want.ID, want.Object, want.InvoiceID, want.Reason, want.CreatedAt = "wo-a", "write_off", "inv-a", "bad debt",
				"2026-11-23T09:30:00Z"
			if got := apiobject.WriteOffOf(wo, tc.inv); !equalJSON(t, got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestTheEventsOfMoneyOnAccountCarryTheirRecords(t *testing.T) {
	reads := 0
	read := func(string) *billingv1.Invoice { reads++; return issuedInvoice(0) }
	pendingApp := &billingv1.CreditApplication{Spec: billingv1.CreditApplicationSpec{
		InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 1}}
	applied := pendingApp.DeepCopy()
	applied.Status = billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, CustomerName: "acme",
		Currency: "EUR"}
	recorded := &billingv1.WriteOff{Spec: billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}},
		Status: billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, CustomerName: "acme", Currency: "EUR",
			Amount: ptr.To[int64](5)}}
	cases := []struct {
		name      string
		obj       any
		object    string
		writeOff  bool
		wantReads int
	}{
		{name: "a credit application entered needs no invoice", obj: applied, object: "credit_application"},
		{name: "a credit application not yet entered reads its invoice", obj: pendingApp, object: "credit_application",
			wantReads: 1},
		{name: "a refund never reads an invoice", obj: &billingv1.Refund{}, object: "refund"},
		{name: "a write-off's event carries the invoice written off, the write-off beside it", obj: recorded,
			object: "invoice", writeOff: true, wantReads: 1},
		{name: "a write-off not yet entered reads its invoice once, for both", obj: &billingv1.WriteOff{},
			object: "invoice", writeOff: true, wantReads: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reads = 0
			b, err := json.Marshal(apiobject.EventDataOf(tc.obj, read))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Object   struct{ Object string } `json:"object"`
				WriteOff *struct {
					Object     string
					CustomerID string `json:"customer_id"`
				} `json:"write_off"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if got.Object.Object != tc.object || reads != tc.wantReads {
				t.Errorf("rendered %s with %d reads of the invoice, want a %s with %d", b, reads, tc.object, tc.wantReads)
			}
			if (got.WriteOff != nil) != tc.writeOff ||
				got.WriteOff != nil && (got.WriteOff.Object != "write_off" || got.WriteOff.CustomerID != "acme") {
				t.Errorf("rendered %s, want a write_off of acme beside the object: %t", b, tc.writeOff)
			}
		})
	}
}

// equalJSON reports whether got and want have the same JSON.
func equalJSON(t *testing.T, got, want any) bool {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	return string(g) == string(w)
}
