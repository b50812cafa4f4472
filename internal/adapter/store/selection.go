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
	"k8s.io/apimachinery/pkg/util/validation"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Selection names the objects of a list: those of a workspace, or of one
// customer or invoice in it; each optionally narrowed by filters that the
// name index keeps a set for, so that a filtered page costs what an
// unfiltered one does.
type Selection struct {
	Namespace string
	// CustomerID, when set, narrows a list of invoices, credit notes,
	// payments, credit applications, refunds or write-offs to the
	// customer's. A credit note, payment, credit application or write-off
	// belongs to its customer once the controller has looked at it
	// (status.customerName); a refund names its customer in its spec.
	CustomerID string
	// InvoiceID, when set, narrows a list of credit notes, payments, credit
	// applications or write-offs to those of the invoice.
	InvoiceID string
	// Phase, when set, narrows a list of invoices to those in that phase
	// (an invoice without a phase is Pending).
	Phase billingv1.InvoicePhase
	// PaymentStatus, when set, narrows a list of invoices to the issued
	// ones whose status.balance.paymentStatus it is.
	PaymentStatus billingv1.InvoicePaymentStatus
	// Overdue, when true, narrows a list of invoices to the overdue ones
	// (status.balance.overdue).
	Overdue bool
	// CreditNotePhase, when set, narrows a list of credit notes to those
	// in that phase (one without a phase is Pending).
	CreditNotePhase billingv1.CreditNotePhase
	// Email, when set, narrows a list of customers to those whose
	// spec.email is exactly Email.
	Email string
	// ScheduleID, when set, narrows a list of invoices to those the
	// InvoiceSchedule of that name issued (their label
	// billing.invoicing.dev/schedule), and a list of pending items to
	// that schedule's. It selects alone.
	ScheduleID string
	// BankStatus, when set, narrows a list of bank transactions to those
	// in that status as /v1 spells it (BankTransactionPhase.Status):
	// pending (no phase yet), matched, unmatched or ignored.
	BankStatus string
}

// key is the selection's set key in the name index. Namespaces and object
// names hold neither "|" nor "=", so keys of different selections differ;
// the e-mail, which may hold anything, comes last.
func (s Selection) key() string {
	k := s.Namespace
	if s.CustomerID != "" {
		k += "/" + s.CustomerID
	}
	if s.InvoiceID != "" {
		k += "|invoice=" + s.InvoiceID
	}
	if s.Phase != "" {
		k += "|phase=" + string(s.Phase)
	}
	if s.PaymentStatus != "" {
		k += "|payment_status=" + string(s.PaymentStatus)
	}
	if s.Overdue {
		k += "|overdue"
	}
	if s.CreditNotePhase != "" {
		k += "|credit_note_phase=" + string(s.CreditNotePhase)
	}
	if s.ScheduleID != "" {
		k += "|schedule=" + s.ScheduleID
	}
	if s.BankStatus != "" {
		k += "|bank_status=" + s.BankStatus
	}
	if s.Email != "" {
		k += "|email=" + s.Email
	}
	return k
}

// matchable reports whether any object can be in the selection: a
// customer or invoice id that no object can have selects nothing, without
// asking the API server.
func (s Selection) matchable() bool {
	return (s.CustomerID == "" || len(validation.IsDNS1123Subdomain(s.CustomerID)) == 0) &&
		(s.InvoiceID == "" || len(validation.IsDNS1123Subdomain(s.InvoiceID)) == 0) &&
		(s.ScheduleID == "" || len(validation.IsDNS1123Subdomain(s.ScheduleID)) == 0)
}

// kind is one type the store holds: its name index and the sets an object
// of it belongs to.
type kind struct {
	// obj is an empty object of the kind; newObj returns another.
	obj    client.Object
	newObj func() client.Object
	names  *nameIndex
	sets   func(client.Object) []string
	// listKind is the kind of a list of obj, for metadata-only lists;
	// newList returns an empty list of obj.
	listKind string
	newList  func() client.ObjectList
	// barrier is the kind's read barrier (barrier.go).
	barrier *readBarrier
	// indexer is the kind's informer's store, read directly by pages
	// (cachedObject); nil when the informer has none to offer.
	indexer toolscache.Indexer
	// overlay holds the sealed records of a record kind (sealed.go); nil
	// for the other kinds.
	overlay *overlay
}

// workspaceSets names the one set of a kind listed only by workspace
// (PeriodCloses, LedgerSeals).
func workspaceSets(o client.Object) []string {
	return []string{Selection{Namespace: o.GetNamespace()}.key()}
}

// customerSets, invoiceSets, creditNoteSets and ledgerRecordSets name the
// index sets an object belongs to; the first is always the workspace's.
func customerSets(o client.Object) []string {
	sets := []string{Selection{Namespace: o.GetNamespace()}.key()}
	if c, ok := o.(*billingv1.Customer); ok && c.Spec.Email != "" {
		sets = append(sets, Selection{Namespace: o.GetNamespace(), Email: c.Spec.Email}.key())
	}
	return sets
}

func invoiceSets(o client.Object) []string {
	ns := o.GetNamespace()
	sets := []string{Selection{Namespace: ns}.key()}
	inv, ok := o.(*billingv1.Invoice)
	if !ok {
		return sets
	}
	if s := inv.Labels[billingv1.LabelSchedule]; s != "" {
		sets = append(sets, Selection{Namespace: ns, ScheduleID: s}.key())
	}
	scopes := []Selection{{Namespace: ns}}
	if c := inv.Spec.CustomerRef.Name; c != "" {
		scopes = append(scopes, Selection{Namespace: ns, CustomerID: c})
		sets = append(sets, scopes[1].key())
	}
	phase := inv.EffectivePhase()
	for _, sel := range scopes {
		sel.Phase = phase
		sets = append(sets, sel.key())
		sel.Phase = ""
		if phase != billingv1.InvoiceIssued {
			continue
		}
		// The balance as the API shows it: the controller's, or that of an
		// issued invoice it has not looked at since balances existed.
		b := billing.BalanceOf(inv, inv.Status.Total)
		if b == nil {
			continue
		}
		sel.PaymentStatus = b.PaymentStatus
		sets = append(sets, sel.key())
		if b.Overdue {
			sel.Overdue = true
			sets = append(sets, sel.key())
			if sel.PaymentStatus != "" {
				sel.PaymentStatus = ""
				sets = append(sets, sel.key())
			}
		}
	}
	return sets
}

// pendingItemSets names the sets of a pending item: the workspace's and
// its schedule's.
func pendingItemSets(o client.Object) []string {
	sets := workspaceSets(o)
	if p, ok := o.(*billingv1.PendingItem); ok {
		sets = append(sets, Selection{Namespace: p.Namespace, ScheduleID: p.Spec.ScheduleRef.Name}.key())
	}
	return sets
}

// bankTransactionSets names the sets of a bank transaction: the
// workspace's and its status's.
func bankTransactionSets(o client.Object) []string {
	sets := workspaceSets(o)
	if t, ok := o.(*billingv1.BankTransaction); ok {
		sets = append(sets, Selection{Namespace: t.Namespace, BankStatus: t.Status.Phase.Status()}.key())
	}
	return sets
}

// scopes returns the selections of an object of workspace ns, invoice and
// customer (either may be empty): the workspace's, the invoice's, the
// customer's, and the invoice's within the customer's, the workspace's
// first.
func scopes(ns, invoice, customer string) []Selection {
	out := []Selection{{Namespace: ns}}
	if invoice != "" {
		out = append(out, Selection{Namespace: ns, InvoiceID: invoice})
	}
	if customer != "" {
		out = append(out, Selection{Namespace: ns, CustomerID: customer})
		if invoice != "" {
			out = append(out, Selection{Namespace: ns, CustomerID: customer, InvoiceID: invoice})
		}
	}
	return out
}

func creditNoteSets(o client.Object) []string {
	cn, ok := o.(*billingv1.CreditNote)
	if !ok {
		return []string{Selection{Namespace: o.GetNamespace()}.key()}
	}
	phase := cn.Status.Phase
	if phase == "" {
		phase = billingv1.CreditNotePending
	}
	var sets []string
	for _, sel := range scopes(cn.Namespace, cn.Spec.InvoiceRef.Name, cn.Status.CustomerName) {
		sets = append(sets, sel.key())
		sel.CreditNotePhase = phase
		sets = append(sets, sel.key())
	}
	return sets
}

// ledgerRecordSets names the sets of a record of an invoice's ledger or a
// customer's credit (billingv1.LedgerRecord: a payment, credit
// application, refund or write-off): the scopes of its invoice and
// customer.
func ledgerRecordSets(o client.Object) []string {
	r, ok := o.(billingv1.LedgerRecord)
	if !ok {
		return []string{Selection{Namespace: o.GetNamespace()}.key()}
	}
	return scopeKeys(scopes(r.GetNamespace(), r.InvoiceName(), r.CustomerName()))
}

// scopeKeys is the set key of each selection of sels.
func scopeKeys(sels []Selection) []string {
	keys := make([]string, len(sels))
	for i, sel := range sels {
		keys[i] = sel.key()
	}
	return keys
}
