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

package banking

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
)

var now = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func transaction(st billingv1.BankTransactionStatus) *billingv1.BankTransaction {
	return &billingv1.BankTransaction{ObjectMeta: metav1.ObjectMeta{Name: "btx-1", Namespace: "ws", Generation: 1},
		Spec: billingv1.BankTransactionSpec{Entry: *credit(119_00, nil)}, Status: st}
}

func TestTheStatusSaysWhatTheTransactionIsAndItsReadyCondition(t *testing.T) {
	inv := issued("inv-42", "INV-000042", "EUR", 119_00, 119_00)
	pay, err := banktransfer.PaymentOf(transaction(billingv1.BankTransactionStatus{}), inv.Name,
		billingv1.MatchedByManual, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		status billingv1.BankTransactionStatus
		phase  billingv1.BankTransactionPhase
		ready  metav1.ConditionStatus
		reason string
	}{
		{"a match names its invoice and its payment, which is named like the transaction",
			withVerdict(transaction(billingv1.BankTransactionStatus{}), verdict{phase: billingv1.BankTransactionMatched,
				how: billingv1.MatchedByReference, invoice: inv, message: "m"}, now),
			billingv1.BankTransactionMatched, metav1.ConditionTrue, billingv1.ReasonBankMatched},
		{"an unmatched credit is decided, ready, and says why",
			withVerdict(transaction(billingv1.BankTransactionStatus{}), unmatched(billingv1.BankReasonNoMatch, "m"), now),
			billingv1.BankTransactionUnmatched, metav1.ConditionTrue, billingv1.ReasonBankUnmatched},
		{"an ignored debit is ready",
			withVerdict(transaction(billingv1.BankTransactionStatus{}), verdict{phase: billingv1.BankTransactionIgnored,
				reason: billingv1.BankReasonDebit, message: "m"}, now),
			billingv1.BankTransactionIgnored, metav1.ConditionTrue, billingv1.ReasonBankIgnored},
		{"an unmatched transaction whose payment was made by hand is matched, its reason gone",
			withPayment(transaction(billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionUnmatched,
				Reason: billingv1.BankReasonNoMatch}), pay, billingv1.MatchedByManual, now),
			billingv1.BankTransactionMatched, metav1.ConditionTrue, billingv1.ReasonBankMatched},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.status.Phase != c.phase {
				t.Errorf("phase = %s, want %s", c.status.Phase, c.phase)
			}
			ready := meta.FindStatusCondition(c.status.Conditions, billingv1.ConditionReady)
			if ready == nil || ready.Status != c.ready || ready.Reason != c.reason {
				t.Errorf("Ready = %+v, want %s %s", ready, c.ready, c.reason)
			}
			if c.phase == billingv1.BankTransactionMatched &&
				(c.status.Invoice != "inv-42" || c.status.Payment != "btx-1" || c.status.Reason != "") {
				t.Errorf("a match reads invoice %q, payment %q, reason %q", c.status.Invoice, c.status.Payment, c.status.Reason)
			}
		})
	}
}

func TestFactsDueAreTheStoredFactsWithoutTheirEvents(t *testing.T) {
	unmatchedEvent := billingv1.RecordedEvent{Type: billingv1.EventTypeBankTransactionUnmatched, Sequence: 7}
	cases := []struct {
		name   string
		status billingv1.BankTransactionStatus
		want   []billingv1.EventType
	}{
		{"a transaction not looked at has none", billingv1.BankTransactionStatus{}, nil},
		{"an ignored one has none", billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionIgnored}, nil},
		{"an unmatched one is due its unmatched event",
			billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionUnmatched},
			[]billingv1.EventType{billingv1.EventTypeBankTransactionUnmatched}},
		{"an unmatched one that carries it has none",
			billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionUnmatched,
				Events: []billingv1.RecordedEvent{unmatchedEvent}}, nil},
		{"a matched one is due its matched event, also after an unmatched one",
			billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionMatched,
				Events: []billingv1.RecordedEvent{unmatchedEvent}},
			[]billingv1.EventType{billingv1.EventTypeBankTransactionMatched}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := factsDue(&c.status)
			if len(got) != len(c.want) || (len(got) == 1 && got[0] != c.want[0]) {
				t.Errorf("factsDue = %v, want %v", got, c.want)
			}
		})
	}
}
