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

package managertest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/gstruct"
	"github.com/onsi/gomega/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// scheme knows the API's kinds, as the manager's does.
var scheme = testenv.DefaultScheme()

// Times of the status tables: an earlier reconcile, and this one.
var (
	Earlier = time.Date(2026, time.March, 1, 9, 0, 0, 0, time.UTC)
	Now     = time.Date(2026, time.March, 1, 9, 30, 0, 0, time.UTC)
)

// Condition returns a condition of generation 2, the generation of the
// objects in the status tables.
func Condition(conditionType string, status metav1.ConditionStatus, reason, message string, at time.Time) metav1.Condition {
	return metav1.Condition{
		Type: conditionType, Status: status, Reason: reason, Message: message,
		ObservedGeneration: 2, LastTransitionTime: metav1.NewTime(at),
	}
}

// BuilderIndexer registers indexes with a fake client builder, so the fake
// client indexes exactly as index.Setup tells a manager to.
type BuilderIndexer struct{ Builder *fake.ClientBuilder }

// IndexField registers the index with the builder.
func (b BuilderIndexer) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	b.Builder.WithIndex(obj, field, extract)
	return nil
}

// InvoiceInPhase returns an invoice of customer in ns with the given phase.
func InvoiceInPhase(ns, name, customer string, phase billingv1.InvoicePhase) *billingv1.Invoice {
	inv := builder.Invoice(ns, name, builder.WithCustomer(customer), builder.WithItem("Consulting", 1, 100))
	inv.Status.Phase = phase
	return inv
}

// Request is the reconcile request for name in namespace "ns".
func Request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: client.ObjectKey{Namespace: "ns", Name: name}}
}

// IssuedWithSequence returns an issued invoice in ns carrying sequence.
func IssuedWithSequence(ns, name string, sequence int64) *billingv1.Invoice {
	inv := InvoiceInPhase(ns, name, "acme", billingv1.InvoiceIssued)
	inv.Status.Sequence = &sequence
	return inv
}

// FactCall is one AssignFact call.
type FactCall struct {
	Name  string
	Fact  billingv1.EventType
	After int64
}

// CountingEvents is an EventNumberer that hands out next, next+1, ... and
// records its calls.
type CountingEvents struct {
	mu    sync.Mutex
	Next  int64
	Calls []FactCall
}

// AssignFact hands out the next sequence, issued at now, and records the
// call.
func (c *CountingEvents) AssignFact(_ context.Context, _, name string, _ k8stypes.UID,
	fact billingv1.EventType, after int64) (numbering.Assignment, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Calls = append(c.Calls, FactCall{Name: name, Fact: fact, After: after})
	seq := c.Next
	c.Next++
	return numbering.Assignment{Sequence: seq, IssuedAt: Now}, nil
}

// IssuedEvent is an invoice.issued event at seq.
func IssuedEvent(seq int64) billingv1.RecordedEvent {
	return billingv1.RecordedEvent{Type: billingv1.EventTypeInvoiceIssued, Sequence: seq, CreatedAt: metav1.NewTime(Now)}
}

// HaveCondition matches a list of conditions holding one of type
// conditionType with the given status and reason.
func HaveCondition(conditionType string, status metav1.ConditionStatus, reason string) types.GomegaMatcher {
	return gomega.ContainElement(gstruct.MatchFields(gstruct.IgnoreExtras, gstruct.Fields{
		"Type":   gomega.Equal(conditionType),
		"Status": gomega.Equal(status),
		"Reason": gomega.Equal(reason),
	}))
}

// HaveNoCondition matches a list of conditions without one of type conditionType.
func HaveNoCondition(conditionType string) types.GomegaMatcher {
	return gomega.Not(gomega.ContainElement(gomega.HaveField("Type", conditionType)))
}

// RecordedAt is an event of type t at sequence.
func RecordedAt(t billingv1.EventType, sequence int64) billingv1.RecordedEvent {
	return billingv1.RecordedEvent{Type: t, Sequence: sequence, CreatedAt: metav1.NewTime(Now)}
}

// SealedWorld is a workspace "ns" of two seals: seal 1 holds inv-1
// (sequence 1, events 1 and 3) and pay-1 (event 2), seal 2 holds inv-2
// (sequence 2, event 4), both of customer acme; seal 1 carries its
// ledger.sealed event (5).
func SealedWorld(t *testing.T) (inv1, inv2 *billingv1.Invoice, pay1 *billingv1.Payment, seals []*billingv1.LedgerSeal) {
	t.Helper()
	inv1 = IssuedWithSequence("ns", "inv-1", 1)
	inv1.UID, inv1.Status.Number = "uid-inv-1", "INV-000001"
	inv1.Status.Events = []billingv1.RecordedEvent{RecordedAt(billingv1.EventTypeInvoiceIssued, 1),
		RecordedAt(billingv1.EventTypeInvoicePaid, 3)}
	pay1 = builder.Payment("ns", "pay-1", "inv-1", 100)
	pay1.UID = "uid-pay-1"
	pay1.Status.Events = []billingv1.RecordedEvent{RecordedAt(billingv1.EventTypePaymentRecorded, 2)}
	inv2 = IssuedWithSequence("ns", "inv-2", 2)
	inv2.UID, inv2.Status.Number = "uid-inv-2", "INV-000002"
	inv2.Status.Events = []billingv1.RecordedEvent{RecordedAt(billingv1.EventTypeInvoiceIssued, 4)}
	first, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(Now), inv1, pay1)
	if err != nil {
		t.Fatal(err)
	}
	first.Status.Events = []billingv1.RecordedEvent{RecordedAt(billingv1.EventTypeLedgerSealed, 5)}
	second, err := builder.LedgerSeal("ns", 2, first.Spec.Hash, metav1.NewTime(Now), inv2)
	if err != nil {
		t.Fatal(err)
	}
	return inv1, inv2, pay1, []*billingv1.LedgerSeal{first, second}
}

// ItemTaxes is status.items with the given taxes.
func ItemTaxes(taxes ...*billingv1.Tax) []billingv1.InvoiceItemStatus {
	out := make([]billingv1.InvoiceItemStatus, len(taxes))
	for i, t := range taxes {
		out[i].Tax = t
	}
	return out
}

// Group is one entry of a status's tax breakdown.
func Group(category billingv1.TaxCategory, rate string, taxable, tax int64, reason string) billingv1.TaxBreakdownEntry {
	e := billingv1.TaxBreakdownEntry{Category: category, TaxableAmount: taxable, TaxAmount: tax, ExemptionReason: reason}
	if rate != "" {
		e.Rate = &rate
	}
	return e
}

// ClosesClient is a fake client holding objs, with the status subresources
// of period closes, invoices and payments.
func ClosesClient(objs ...client.Object) client.Client {
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).
		WithStatusSubresource(&billingv1.PeriodClose{}, &billingv1.Invoice{}, &billingv1.Payment{}).Build()
}

// FixedNumbers is a Numberer that answers every call with one assignment or
// one error, and counts the calls.
type FixedNumbers struct {
	Assignment numbering.Assignment
	Err        error
	Calls      int
}

// Assign answers the assignment or the error, and counts the call.
func (f *FixedNumbers) Assign(context.Context, string, string, k8stypes.UID) (numbering.Assignment, error) {
	f.Calls++
	return f.Assignment, f.Err
}
