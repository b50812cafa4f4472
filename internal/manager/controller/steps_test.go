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

package controller

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// These tests check small steps of the controllers with the fake client:
// mappings, the injected clock and what happens when a read fails. Their
// behaviour against an API server is in the envtest suite.

// builderIndexer registers indexes with a fake client builder, so the fake
// client indexes exactly as index.Setup tells a manager to.
type builderIndexer struct{ builder *fake.ClientBuilder }

func (b builderIndexer) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	b.builder.WithIndex(obj, field, extract)
	return nil
}

// invoiceInPhase returns an invoice of customer in ns with the given phase.
func invoiceInPhase(ns, name, customer string, phase billingv1.InvoicePhase) *billingv1.Invoice {
	inv := builder.Invoice(ns, name, builder.WithCustomer(customer), builder.WithItem("Consulting", 1, 100))
	inv.Status.Phase = phase
	return inv
}

// request is the reconcile request for name in namespace "ns".
func request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: client.ObjectKey{Namespace: "ns", Name: name}}
}

func TestInvoicesWaitingForSkipsIssuedInvoices(t *testing.T) {
	g := NewWithT(t)
	cb := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(
		invoiceInPhase("ns", "new", "acme", ""),
		invoiceInPhase("ns", "pending", "acme", billingv1.InvoicePending),
		invoiceInPhase("ns", "invalid", "acme", billingv1.InvoiceInvalid),
		invoiceInPhase("ns", "issued", "acme", billingv1.InvoiceIssued),
		invoiceInPhase("ns", "other-customer", "globex", billingv1.InvoiceInvalid),
		invoiceInPhase("other-ns", "same-name-elsewhere", "acme", billingv1.InvoiceInvalid),
	)
	g.Expect(index.Setup(context.Background(), builderIndexer{builder: cb})).To(Succeed())
	r := &InvoiceReconciler{Client: cb.Build()}

	requests := r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "acme"))
	g.Expect(requests).To(ConsistOf(
		request("new"),
		request("pending"),
		request("invalid"),
	))
	g.Expect(r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "initech"))).To(BeEmpty())
}

func TestInvoicesWaitingForReturnsNothingWhenListingFails(t *testing.T) {
	g := NewWithT(t)
	// Without the index, listing by customer fails.
	r := &InvoiceReconciler{Client: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(invoiceInPhase("ns", "invalid", "acme", billingv1.InvoiceInvalid)).Build()}
	g.Expect(r.invoicesWaitingFor(context.Background(), builder.Customer("ns", "acme"))).To(BeEmpty())
}

func TestCustomerOfInvoice(t *testing.T) {
	g := NewWithT(t)
	inv := builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"))
	g.Expect(customerOfInvoice(context.Background(), inv)).To(ConsistOf(request("acme")))
	g.Expect(customerOfInvoice(context.Background(), &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "acme"},
	})).To(BeEmpty())
}

func TestReconcilersNeedTheirParts(t *testing.T) {
	recorder := events.NewFakeRecorder(1)
	sender := delivery.NewSender(delivery.SenderOptions{})
	reader := fake.NewClientBuilder().WithScheme(testScheme).Build()
	for _, tc := range []struct {
		name  string
		setup func() error
		want  error
	}{
		{"an invoice reconciler without a recorder is refused",
			func() error { return (&InvoiceReconciler{}).SetupWithManager(nil, 0) }, errNoRecorder},
		{"an invoice reconciler without a clock is refused",
			func() error { return (&InvoiceReconciler{Recorder: recorder}).SetupWithManager(nil, 0) }, errNoClock},
		{"an invoice reconciler without an allocator is refused",
			func() error {
				return (&InvoiceReconciler{Recorder: recorder, Clock: clock.RealClock{}}).SetupWithManager(nil, 0)
			}, errNoNumbers},
		{"a customer reconciler without a recorder is refused",
			func() error { return (&CustomerReconciler{Clock: clock.RealClock{}}).SetupWithManager(nil, 0) }, errNoRecorder},
		{"a customer reconciler without a clock is refused",
			func() error { return (&CustomerReconciler{Recorder: recorder}).SetupWithManager(nil, 0) }, errNoClock},
		{"a billing profile reconciler without a clock is refused",
			func() error { return (&BillingProfileReconciler{}).SetupWithManager(nil, 0) }, errNoClock},
		{"an idempotency key reconciler without a clock is refused",
			func() error { return (&IdempotencyKeyReconciler{}).SetupWithManager(nil, 0) }, errNoClock},
		{"a webhook endpoint reconciler without a sender is refused",
			func() error {
				return (&WebhookEndpointReconciler{APIReader: reader, Clock: clock.RealClock{}, Recorder: recorder}).SetupWithManager(nil, 1)
			}, errNoSender},
		{"a webhook endpoint reconciler without an API reader is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, Clock: clock.RealClock{}, Recorder: recorder}).SetupWithManager(nil, 1)
			}, errNoSender},
		{"a webhook endpoint reconciler without a clock is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, APIReader: reader, Recorder: recorder}).SetupWithManager(nil, 1)
			}, errNoClock},
		{"a webhook endpoint reconciler without a recorder is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, APIReader: reader, Clock: clock.RealClock{}}).SetupWithManager(nil, 1)
			}, errNoRecorder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.setup()).To(MatchError(tc.want))
		})
	}
}

// fixedNumbers is a Numberer that answers every call with one assignment or
// one error, and counts the calls.
type fixedNumbers struct {
	assignment numbering.Assignment
	err        error
	calls      int
}

func (f *fixedNumbers) Assign(context.Context, string, string, types.UID) (numbering.Assignment, error) {
	f.calls++
	return f.assignment, f.err
}

func TestReconcileIssuesWithTheAllocatorsSequenceAndIssueTime(t *testing.T) {
	g := NewWithT(t)
	issuedAt := time.Date(2026, time.March, 1, 9, 30, 0, 0, time.UTC)
	c := fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(builder.Customer("ns", "acme", builder.WithDisplayName("Acme"), builder.WithEmail("ap@acme.example")),
			builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 2, 500))).
		WithStatusSubresource(&billingv1.Invoice{}).Build()
	numbers := &fixedNumbers{assignment: numbering.Assignment{Sequence: 7, IssuedAt: issuedAt}}
	r := &InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10),
		Clock: clocktesting.NewFakePassiveClock(issuedAt.Add(time.Minute)), Numbers: numbers, Events: &countingEvents{next: 1}}
	_, err := r.Reconcile(context.Background(), request("inv-1"))
	g.Expect(err).NotTo(HaveOccurred())
	inv := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), request("inv-1").NamespacedName, inv)).To(Succeed())
	g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
	g.Expect(inv.Status.Number).To(Equal("INV-000007"))
	g.Expect(inv.Status.Sequence).To(HaveValue(Equal(int64(7))))
	g.Expect(inv.Status.IssuedAt).To(HaveValue(HaveField("Time", BeTemporally("==", issuedAt))))
	g.Expect(inv.Status.DueAt).To(HaveValue(HaveField("Time", BeTemporally("==", issuedAt.AddDate(0, 0, 30)))))
	g.Expect(inv.Status.Total).To(HaveValue(Equal(int64(1_000))))
	g.Expect(inv.Status.BillTo).To(Equal(&billingv1.BillTo{Name: "Acme", Email: "ap@acme.example"}))

	// Reconciling the numbered invoice again asks for no number.
	_, err = r.Reconcile(context.Background(), request("inv-1"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(numbers.calls).To(Equal(1))
}

func TestInvoiceWaitsUnchangedWhileItsWorkspaceNumberingIsBusy(t *testing.T) {
	for _, busy := range []error{numbering.ErrJournalFull, numbering.ErrContended} {
		t.Run(busy.Error(), func(t *testing.T) {
			g := NewWithT(t)
			c := fake.NewClientBuilder().WithScheme(testScheme).
				WithObjects(builder.Customer("ns", "acme"), builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"))).
				WithStatusSubresource(&billingv1.Invoice{}).Build()
			r := &InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
				Numbers: &fixedNumbers{err: fmt.Errorf("assigning: %w", busy)}, Events: &countingEvents{next: 1}}
			result, err := r.Reconcile(context.Background(), request("inv-1"))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(result.RequeueAfter).To(Equal(retryNumbering))
			inv := &billingv1.Invoice{}
			g.Expect(c.Get(context.Background(), request("inv-1").NamespacedName, inv)).To(Succeed())
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
		Numbers: &fixedNumbers{err: &numbering.APIError{Op: "updating", Namespace: "ns", Err: errUnavailable}},
		Events:  &countingEvents{next: 1}}
	_, err := r.Reconcile(context.Background(), request("inv-1"))
	g.Expect(err).To(MatchError(errUnavailable))
	inv := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), request("inv-1").NamespacedName, inv)).To(Succeed())
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
	r := &InvoiceReconciler{Client: c, Recorder: recorder, Clock: clock.RealClock{}, Numbers: &fixedNumbers{},
		Events: &countingEvents{next: 1}}

	_, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(inv)})
	g.Expect(err).To(MatchError(errUnavailable))
	current := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), client.ObjectKeyFromObject(inv), current)).To(Succeed())
	g.Expect(current.Status).To(Equal(billingv1.InvoiceStatus{}))
	g.Expect(recorder.Events).To(BeEmpty())
}

func TestCustomerKeepsItsFinalizerWhenInvoicesCannotBeCounted(t *testing.T) {
	g := NewWithT(t)
	errUnavailable := errors.New("etcd unavailable")
	customer := builder.Customer("ns", "acme")
	customer.Finalizers = []string{billingv1.CustomerFinalizer}
	customer.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(customer).Build()
	failingReader := interceptor.NewClient(fake.NewClientBuilder().WithScheme(testScheme).Build(), interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return errUnavailable
		},
	})
	r := &CustomerReconciler{Client: c, APIReader: failingReader, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{}}

	_, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(customer)})
	g.Expect(err).To(MatchError(errUnavailable))
	current := &billingv1.Customer{}
	g.Expect(c.Get(context.Background(), client.ObjectKeyFromObject(customer), current)).To(Succeed())
	g.Expect(current.Finalizers).To(ContainElement(billingv1.CustomerFinalizer))
}

// issuedWithSequence returns an issued invoice in ns carrying sequence.
func issuedWithSequence(ns, name string, sequence int64) *billingv1.Invoice {
	inv := invoiceInPhase(ns, name, "acme", billingv1.InvoiceIssued)
	inv.Status.Sequence = &sequence
	return inv
}

func TestIssuedInvoiceFindsTheSequenceInItsBlock(t *testing.T) {
	tests := []struct {
		name     string
		invoices []client.Object
		sequence int64
		want     string // the name found; "" for none
		wantErr  error
	}{
		{"the invoice with the sequence is found among its block's", []client.Object{
			issuedWithSequence("ns", "inv-17", 17), issuedWithSequence("ns", "inv-18", 18),
			issuedWithSequence("ns", "inv-32", 32), issuedWithSequence("ns", "inv-33", 33)}, 18, "inv-18", nil},
		{"the last sequence of a block is found", []client.Object{
			issuedWithSequence("ns", "inv-16", 16), issuedWithSequence("ns", "inv-17", 17)}, 16, "inv-16", nil},
		{"a sequence no invoice carries yet is nothing, not an error", []client.Object{
			issuedWithSequence("ns", "inv-17", 17)}, 19, "", nil},
		{"another workspace's invoice with the sequence is not this one's", []client.Object{
			issuedWithSequence("other-ns", "inv-18", 18)}, 18, "", nil},
		{"two invoices carrying one sequence stop delivery", []client.Object{
			issuedWithSequence("ns", "inv-a", 18), issuedWithSequence("ns", "inv-b", 18)}, 18, "", errSequenceTwice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			builder := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(tt.invoices...)
			g.Expect(index.Setup(context.Background(), builderIndexer{builder: builder})).To(Succeed())
			invoices := invoiceBlocks(builder.Build(), "ns")

			got, err := issuedInvoiceAt(context.Background(), invoices, tt.sequence)
			if tt.wantErr != nil {
				g.Expect(err).To(MatchError(tt.wantErr))
				return
			}
			g.Expect(err).NotTo(HaveOccurred())
			if tt.want == "" {
				g.Expect(got).To(BeNil())
				return
			}
			g.Expect(got.Name).To(Equal(tt.want))
			g.Expect(*got.Status.Sequence).To(Equal(tt.sequence))
		})
	}
}
