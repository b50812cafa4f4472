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

package ledger

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// These tests check small steps of the controllers with the fake client:
// mappings, the injected clock and what happens when a read fails. Their
// behaviour against an API server is in the envtest suite.

func TestInvoicesWaitingForSkipsIssuedInvoices(t *testing.T) {
	g := NewWithT(t)
	cb := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(
		managertest.InvoiceInPhase("ns", "new", "acme", ""),
		managertest.InvoiceInPhase("ns", "pending", "acme", billingv1.InvoicePending),
		managertest.InvoiceInPhase("ns", "invalid", "acme", billingv1.InvoiceInvalid),
		managertest.InvoiceInPhase("ns", "issued", "acme", billingv1.InvoiceIssued),
		managertest.InvoiceInPhase("ns", "other-customer", "globex", billingv1.InvoiceInvalid),
		managertest.InvoiceInPhase("other-ns", "same-name-elsewhere", "acme", billingv1.InvoiceInvalid),
	)
	g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: cb})).To(Succeed())
	r := &InvoiceReconciler{Client: cb.Build()}

	requests := r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "acme"))
	g.Expect(requests).To(ConsistOf(
		managertest.Request("new"),
		managertest.Request("pending"),
		managertest.Request("invalid"),
	))
	g.Expect(r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "initech"))).To(BeEmpty())
}

func TestInvoicesWaitingForReturnsNothingWhenListingFails(t *testing.T) {
	g := NewWithT(t)
	// Without the index, listing by customer fails.
	r := &InvoiceReconciler{Client: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(managertest.InvoiceInPhase("ns", "invalid", "acme", billingv1.InvoiceInvalid)).Build()}
	g.Expect(r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "acme"))).To(BeEmpty())
}

func TestInvoiceReconcilerNeedsItsParts(t *testing.T) {
	recorder := events.NewFakeRecorder(1)
	for _, tc := range []struct {
		name  string
		setup func() error
		want  error
	}{
		{"an invoice reconciler without a recorder is refused",
			func() error { return (&InvoiceReconciler{}).SetupWithManager(nil, 0) }, reconciler.ErrNoRecorder},
		{"an invoice reconciler without a clock is refused",
			func() error { return (&InvoiceReconciler{Recorder: recorder}).SetupWithManager(nil, 0) }, reconciler.ErrNoClock},
		{"an invoice reconciler without an allocator is refused",
			func() error {
				return (&InvoiceReconciler{Recorder: recorder, Clock: clock.RealClock{}}).SetupWithManager(nil, 0)
			}, errNoNumbers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.setup()).To(MatchError(tc.want))
		})
	}
}

func TestReconcileIssuesWithTheAllocatorsSequenceAndIssueTime(t *testing.T) {
	g := NewWithT(t)
	issuedAt := time.Date(2026, time.March, 1, 9, 30, 0, 0, time.UTC)
	c := fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(builder.Customer("ns", "acme", builder.WithDisplayName("Acme"), builder.WithEmail("ap@acme.example")),
			builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 2, 500))).
		WithStatusSubresource(&billingv1.Invoice{}).Build()
	numbers := &managertest.FixedNumbers{Assignment: numbering.Assignment{Sequence: 7, IssuedAt: issuedAt}}
	r := &InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10),
		Clock: clocktesting.NewFakePassiveClock(issuedAt.Add(time.Minute)), Numbers: numbers, Events: &managertest.CountingEvents{Next: 1}}
	_, err := r.Reconcile(context.Background(), managertest.Request("inv-1"))
	g.Expect(err).NotTo(HaveOccurred())
	inv := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, inv)).To(Succeed())
	g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
	g.Expect(inv.Status.Number).To(Equal("INV-000007"))
	g.Expect(inv.Status.Sequence).To(HaveValue(Equal(int64(7))))
	g.Expect(inv.Status.IssuedAt).To(HaveValue(HaveField("Time", BeTemporally("==", issuedAt))))
	g.Expect(inv.Status.DueAt).To(HaveValue(HaveField("Time", BeTemporally("==", issuedAt.AddDate(0, 0, 30)))))
	g.Expect(inv.Status.Total).To(HaveValue(Equal(int64(1_000))))
	g.Expect(inv.Status.BillTo).To(Equal(&billingv1.BillTo{Name: "Acme", Email: "ap@acme.example"}))

	// Reconciling the numbered invoice again asks for no number.
	_, err = r.Reconcile(context.Background(), managertest.Request("inv-1"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(numbers.Calls).To(Equal(1))
}

func TestInvoiceWaitsUnchangedWhileItsWorkspaceNumberingIsBusy(t *testing.T) {
	for _, busy := range []error{numbering.ErrJournalFull, numbering.ErrContended} {
		t.Run(busy.Error(), func(t *testing.T) {
			g := NewWithT(t)
			c := fake.NewClientBuilder().WithScheme(testScheme).
				WithObjects(builder.Customer("ns", "acme"), builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"))).
				WithStatusSubresource(&billingv1.Invoice{}).Build()
			r := &InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
				Numbers: &managertest.FixedNumbers{Err: fmt.Errorf("assigning: %w", busy)}, Events: &managertest.CountingEvents{Next: 1}}
			result, err := r.Reconcile(context.Background(), managertest.Request("inv-1"))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(result.RequeueAfter).To(Equal(retryNumbering))
			inv := &billingv1.Invoice{}
			g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, inv)).To(Succeed())
			g.Expect(inv.Status).To(Equal(billingv1.InvoiceStatus{}))
		})
	}
}

func TestInvoiceIsNotIssuedWhenItsNumberCannotBeAssigned(t *testing.T) {
	g := NewWithT(t)
	errUnavailable := errors.New("etcd unavailable")
	c := fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(builder.Customer("ns", "acme"), builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"))).
		WithStatusSubresource(&billingv1.Invoice{}).Build()
	r := &InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
		Numbers: &managertest.FixedNumbers{Err: &numbering.APIError{Op: "updating", Namespace: "ns", Err: errUnavailable}},
		Events:  &managertest.CountingEvents{Next: 1}}
	_, err := r.Reconcile(context.Background(), managertest.Request("inv-1"))
	g.Expect(err).To(MatchError(errUnavailable))
	inv := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, inv)).To(Succeed())
	g.Expect(inv.Status).To(Equal(billingv1.InvoiceStatus{}))
}

func TestInvoiceReconcileFailsWithoutChangingStatusWhenTheCustomerCannotBeRead(t *testing.T) {
	g := NewWithT(t)
	errUnavailable := errors.New("etcd unavailable")
	inv := builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
	c := fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(inv, builder.Customer("ns", "acme")).
		WithStatusSubresource(&billingv1.Invoice{}).
		WithInterceptorFuncs(interceptor.Funcs{
			Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
				if _, ok := obj.(*billingv1.Customer); ok {
					return errUnavailable
				}
				return c.Get(ctx, key, obj, opts...)
			},
		}).Build()
	recorder := events.NewFakeRecorder(10)
	r := &InvoiceReconciler{Client: c, Recorder: recorder, Clock: clock.RealClock{}, Numbers: &managertest.FixedNumbers{},
		Events: &managertest.CountingEvents{Next: 1}}

	_, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(inv)})
	g.Expect(err).To(MatchError(errUnavailable))
	current := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), client.ObjectKeyFromObject(inv), current)).To(Succeed())
	g.Expect(current.Status).To(Equal(billingv1.InvoiceStatus{}))
	g.Expect(recorder.Events).To(BeEmpty())
}
