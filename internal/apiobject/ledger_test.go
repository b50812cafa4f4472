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
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// issuedInvoice is an issued invoice of two lines, 3 x 1000 at 19% and
// 1 x 500 at 7%, of which creditedNet of line 0 was credited.
func issuedInvoice(creditedNet int64) *billingv1.Invoice {
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "inv-a", Namespace: "ws"},
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Currency: "EUR",
			Items: []billingv1.LineItem{
				{Description: "Hours", Quantity: billingv1.Units(3), Amount: 1000,
					Tax: &billingv1.Tax{Category: billingv1.TaxCategory("S"), Rate: ptr.To("19")}},
				{Description: "Book", Quantity: billingv1.Units(1), Amount: 500,
					Tax: &billingv1.Tax{Category: billingv1.TaxCategory("S"), Rate: ptr.To("7")}},
			}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000001",
			Subtotal: ptr.To[int64](3500), TaxTotal: ptr.To[int64](605), Total: ptr.To[int64](4105),
			TaxBreakdown: []billingv1.TaxBreakdownEntry{
				{Category: "S", Rate: ptr.To("19"), TaxableAmount: 3000, TaxAmount: 570},
				{Category: "S", Rate: ptr.To("7"), TaxableAmount: 500, TaxAmount: 35},
			}},
	}
	if creditedNet > 0 {
		inv.Status.Ledger = &billingv1.InvoiceLedger{
			CreditedLines:  []billingv1.CreditedLine{{Net: creditedNet}, {}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: creditedNet, TaxAmount: creditedNet * 19 / 100}, {}},
		}
	}
	return inv
}

func TestPendingCreditNoteShowsTheAmountsItWouldBeIssuedWith(t *testing.T) {
	cases := []struct {
		name        string
		credited    int64
		spec        billingv1.CreditNoteSpec
		wantTotal   *int64
		wantLines   int
		wantNetLine int64
	}{
		{name: "one unit of the first line credits its net and its tax",
			spec:      billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Quantity: ptr.To(billingv1.Units(1))}}},
			wantTotal: ptr.To[int64](1190), wantLines: 1, wantNetLine: 1000},
		{name: "a full credit of an untouched invoice credits its total",
			spec:      billingv1.CreditNoteSpec{FullCredit: true},
			wantTotal: ptr.To[int64](4105), wantLines: 2, wantNetLine: 3000},
		{name: "a full credit after a credit note credits what is left", credited: 1000,
			spec:      billingv1.CreditNoteSpec{FullCredit: true},
			wantTotal: ptr.To[int64](4105 - 1190), wantLines: 2, wantNetLine: 2000},
		{name: "a line above what is left has no amounts", credited: 3000,
			spec:      billingv1.CreditNoteSpec{Lines: []billingv1.CreditNoteLine{{InvoiceLine: 0, Amount: ptr.To[int64](1)}}},
			wantLines: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cn := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-a", Namespace: "ws"}, Spec: tc.spec}
			cn.Spec.InvoiceRef.Name = "inv-a"
			cn.Spec.Reason = "other"
			got := apiobject.CreditNoteOf(cn, issuedInvoice(tc.credited))
			if got.Status != "pending" || got.CustomerID != "acme" || ptr.Deref(got.Currency, "") != "EUR" ||
				got.InvoiceNumber == nil || *got.InvoiceNumber != "INV-000001" {
				t.Errorf("got status %q, customer %q, currency %q, invoice number %v", got.Status, got.CustomerID,
					ptr.Deref(got.Currency, ""), got.InvoiceNumber)
			}
			if (got.Total == nil) != (tc.wantTotal == nil) || (got.Total != nil && *got.Total != *tc.wantTotal) {
				t.Errorf("total = %v, want %v", ptr.Deref(got.Total, -1), ptr.Deref(tc.wantTotal, -1))
			}
			if len(got.Lines) != tc.wantLines {
				t.Fatalf("%d lines, want %d", len(got.Lines), tc.wantLines)
			}
			if tc.wantTotal != nil && got.Lines[0].Amount != tc.wantNetLine {
				t.Errorf("line 0 amount = %d, want %d", got.Lines[0].Amount, tc.wantNetLine)
			}
		})
	}
}

func TestCreditNoteStatusReasonIsTheConditionsInSnakeCase(t *testing.T) {
	cn := &billingv1.CreditNote{Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteRejected,
		Conditions: []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: "ExceedsCreditable"}}}}
	got := apiobject.CreditNoteOf(cn, nil)
	if got.Status != "rejected" || got.StatusReason == nil || *got.StatusReason != "exceeds_creditable" {
		t.Errorf("status %q, reason %v", got.Status, got.StatusReason)
	}
}

func TestBalanceIsNullUntilIssued(t *testing.T) {
	pending := apiobject.InvoiceOf(&billingv1.Invoice{})
	if pending.AmountRemaining != nil || pending.PaymentStatus != nil || pending.Overdue != nil {
		t.Errorf("a pending invoice has a balance: %+v", pending)
	}
	inv := issuedInvoice(0)
	got := apiobject.InvoiceOf(inv)
	if got.AmountRemaining == nil || *got.AmountRemaining != 4105 || *got.PaymentStatus != "open" {
		t.Errorf("an issued invoice without status.balance: remaining %v, status %v", got.AmountRemaining, got.PaymentStatus)
	}
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 4105, PaymentStatus: billingv1.InvoicePaymentPaid}
	got = apiobject.InvoiceOf(inv)
	if *got.AmountPaid != 4105 || *got.AmountRemaining != 0 || *got.PaymentStatus != "paid" || *got.Overdue {
		t.Errorf("a paid invoice: %+v", got)
	}
}

func TestPaymentDefaultsItsMethodCurrencyAndPaidAt(t *testing.T) {
	created := metav1.Unix(1_800_000_000, 0)
	p := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-a", CreationTimestamp: created},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 100}}
	got := apiobject.PaymentOf(p, issuedInvoice(0))
	if got.Method != "other" || got.Currency != "EUR" || got.CustomerID != "acme" || got.Status != "pending" ||
		got.PaidAt != got.CreatedAt || got.AppliedAmount != nil {
		t.Errorf("got %+v", got)
	}
}
