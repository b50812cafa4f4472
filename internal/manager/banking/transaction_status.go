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
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// This file is a bank transaction's status, as pure functions of what the
// reconciler found.

// withVerdict is t's status with the verdict v decided for it, at now; a
// matched one is recorded by the Payment named like t.
func withVerdict(t *billingv1.BankTransaction, v verdict, now time.Time) billingv1.BankTransactionStatus {
	st := *t.Status.DeepCopy()
	st.Phase, st.Reason, st.MatchedBy, st.Message = v.phase, v.reason, v.how, reconciler.Truncate(v.message, 1024)
	if v.invoice != nil {
		st.Invoice, st.Payment = v.invoice.Name, t.Name
	}
	return withConditions(st, t.Generation, now)
}

// withPayment is t's status once Payment p, named like t, records it,
// matched by how: Matched, whoever created p.
func withPayment(t *billingv1.BankTransaction, p *billingv1.Payment, how billingv1.BankMatchedBy,
	now time.Time) billingv1.BankTransactionStatus {
	st := *t.Status.DeepCopy()
	if st.Phase != billingv1.BankTransactionMatched {
		st.Message = "It pays invoice " + p.Spec.InvoiceRef.Name + ", matched by " + string(how) + "."
	}
	st.Phase, st.Reason, st.MatchedBy = billingv1.BankTransactionMatched, "", how
	st.Invoice, st.Payment = p.Spec.InvoiceRef.Name, p.Name
	return withConditions(st, t.Generation, now)
}

// withConditions sets st's Ready condition and observed generation from
// its phase: Ready once the controller has decided the line, whatever it
// decided (an unmatched line is decided, and waits for a person, not for
// the controller), so that kubectl wait, kstatus and Argo CD see a
// statement's lines settle.
func withConditions(st billingv1.BankTransactionStatus, generation int64, now time.Time) billingv1.BankTransactionStatus {
	st.ObservedGeneration = generation
	c := reconciler.Conditions{List: &st.Conditions, Generation: generation, Now: now}
	switch st.Phase {
	case billingv1.BankTransactionMatched:
		c.Ready(billingv1.ReasonBankMatched, st.Message)
	case billingv1.BankTransactionIgnored:
		c.Ready(billingv1.ReasonBankIgnored, st.Message)
	case billingv1.BankTransactionUnmatched:
		c.Ready(billingv1.ReasonBankUnmatched, st.Message)
	}
	return st
}

// factsDue are the events the stored status st holds a fact of and does
// not carry yet: bank_transaction.unmatched while it is Unmatched,
// bank_transaction.matched once it is Matched. Only a stored fact takes a
// sequence (schedules' recordFacts says why); a transaction matched by
// hand before its unmatched event was recorded carries matched alone.
func factsDue(st *billingv1.BankTransactionStatus) []billingv1.EventType {
	var t billingv1.EventType
	switch st.Phase {
	case billingv1.BankTransactionUnmatched:
		t = billingv1.EventTypeBankTransactionUnmatched
	case billingv1.BankTransactionMatched:
		t = billingv1.EventTypeBankTransactionMatched
	default:
		return nil
	}
	if reconciler.EventSequence(st.Events, t) > 0 {
		return nil
	}
	return []billingv1.EventType{t}
}
