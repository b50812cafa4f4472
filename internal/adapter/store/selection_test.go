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

package store

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestSelectionSets(t *testing.T) {
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name, Namespace: "ws"} }
	overdue := &billingv1.Invoice{ObjectMeta: meta("inv-a"),
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Balance: &billingv1.InvoiceBalance{
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid, Overdue: true}}}
	pendingNote := &billingv1.CreditNote{ObjectMeta: meta("cn-a"),
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}}}
	issuedNote := pendingNote.DeepCopy()
	issuedNote.Status = billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, CustomerName: "acme"}
	payment := &billingv1.Payment{ObjectMeta: meta("pay-a"),
		Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}},
		Status: billingv1.PaymentStatus{CustomerName: "acme"}}
	pendingApp := &billingv1.CreditApplication{ObjectMeta: meta("capp-a"),
		Spec: billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}}}
	appliedApp := pendingApp.DeepCopy()
	appliedApp.Status = billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, CustomerName: "acme"}
	refund := &billingv1.Refund{ObjectMeta: meta("rf-a"),
		Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}}}
	writeOff := &billingv1.WriteOff{ObjectMeta: meta("wo-a"),
		Spec:   billingv1.WriteOffSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}},
		Status: billingv1.WriteOffStatus{CustomerName: "acme"}}
	uncollectible := &billingv1.Invoice{ObjectMeta: meta("inv-u"),
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Balance: &billingv1.InvoiceBalance{
			PaymentStatus: billingv1.InvoicePaymentUncollectible}}}
	cases := []struct {
		name    string
		sets    []string
		in, out []Selection
	}{
		{
			name: "an uncollectible invoice is in the sets of its payment status",
			sets: invoiceSets(uncollectible),
			in: []Selection{
				{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentUncollectible},
				{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentUncollectible},
			},
			out: []Selection{{Namespace: "ws", Overdue: true}, {Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentOpen}},
		},
		{
			name: "a credit application not yet applied is in its invoice's sets but in no customer's yet",
			sets: ledgerRecordSets(pendingApp),
			in:   []Selection{{Namespace: "ws"}, {Namespace: "ws", InvoiceID: "inv-a"}},
			out:  []Selection{{Namespace: "ws", CustomerID: "acme"}, {Namespace: "ws", InvoiceID: "inv-b"}},
		},
		{
			name: "an applied credit application is in the sets of its invoice and its customer",
			sets: ledgerRecordSets(appliedApp),
			in: []Selection{
				{Namespace: "ws", InvoiceID: "inv-a"}, {Namespace: "ws", CustomerID: "acme"},
				{Namespace: "ws", CustomerID: "acme", InvoiceID: "inv-a"},
			},
			out: []Selection{{Namespace: "ws", CustomerID: "other"}},
		},
		{
			name: "a refund is in its customer's sets at once, and in no invoice's",
			sets: ledgerRecordSets(refund),
			in:   []Selection{{Namespace: "ws"}, {Namespace: "ws", CustomerID: "acme"}},
			out:  []Selection{{Namespace: "ws", InvoiceID: "inv-a"}, {Namespace: "ws", CustomerID: "other"}},
		},
		{
			name: "a write-off is in the sets of its workspace, its invoice and its customer",
			sets: ledgerRecordSets(writeOff),
			in: []Selection{
				{Namespace: "ws"}, {Namespace: "ws", InvoiceID: "inv-a"}, {Namespace: "ws", CustomerID: "acme"},
				{Namespace: "ws", CustomerID: "acme", InvoiceID: "inv-a"},
			},
			out: []Selection{{Namespace: "ws", InvoiceID: "inv-b"}},
		},
		{
			name: "an overdue, partially paid invoice is in the sets of its payment status and of overdue, alone and combined",
			sets: invoiceSets(overdue),
			in: []Selection{
				{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentPartiallyPaid},
				{Namespace: "ws", Overdue: true},
				{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentPartiallyPaid, Overdue: true},
				{Namespace: "ws", CustomerID: "acme", PaymentStatus: billingv1.InvoicePaymentPartiallyPaid},
				{Namespace: "ws", CustomerID: "acme", Overdue: true},
				{Namespace: "ws", CustomerID: "acme", Phase: billingv1.InvoiceIssued},
			},
			out: []Selection{
				{Namespace: "ws", PaymentStatus: billingv1.InvoicePaymentOpen},
				{Namespace: "ws", CustomerID: "other", Overdue: true},
			},
		},
		{
			name: "a pending credit note is in its invoice's sets but in no customer's yet",
			sets: creditNoteSets(pendingNote),
			in: []Selection{
				{Namespace: "ws"}, {Namespace: "ws", InvoiceID: "inv-a"},
				{Namespace: "ws", CreditNotePhase: billingv1.CreditNotePending},
				{Namespace: "ws", InvoiceID: "inv-a", CreditNotePhase: billingv1.CreditNotePending},
			},
			out: []Selection{{Namespace: "ws", CustomerID: "acme"}, {Namespace: "ws", CreditNotePhase: billingv1.CreditNoteIssued}},
		},
		{
			name: "an issued credit note is in its customer's sets and its phase's",
			sets: creditNoteSets(issuedNote),
			in: []Selection{
				{Namespace: "ws", CustomerID: "acme"},
				{Namespace: "ws", CustomerID: "acme", InvoiceID: "inv-a", CreditNotePhase: billingv1.CreditNoteIssued},
			},
			out: []Selection{{Namespace: "ws", CreditNotePhase: billingv1.CreditNotePending}},
		},
		{
			name: "a payment is in the sets of its workspace, its invoice and its customer",
			sets: ledgerRecordSets(payment),
			in: []Selection{
				{Namespace: "ws"}, {Namespace: "ws", InvoiceID: "inv-a"}, {Namespace: "ws", CustomerID: "acme"},
				{Namespace: "ws", CustomerID: "acme", InvoiceID: "inv-a"},
			},
			out: []Selection{{Namespace: "ws", InvoiceID: "inv-b"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.sets) == 0 || tc.sets[0] != (Selection{Namespace: "ws"}).key() {
				t.Errorf("the first set is not the workspace's: %v", tc.sets)
			}
			for _, sel := range tc.in {
				if !slices.Contains(tc.sets, sel.key()) {
					t.Errorf("not in %q; sets %v", sel.key(), tc.sets)
				}
			}
			for _, sel := range tc.out {
				if slices.Contains(tc.sets, sel.key()) {
					t.Errorf("in %q", sel.key())
				}
			}
		})
	}
}
