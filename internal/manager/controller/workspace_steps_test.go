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
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestCustomerOfInvoice(t *testing.T) {
	g := NewWithT(t)
	inv := builder.Invoice("ns", "inv-1", builder.WithCustomer("acme"))
	g.Expect(customerOfInvoice(context.Background(), inv)).To(ConsistOf(managertest.Request("acme")))
	g.Expect(customerOfInvoice(context.Background(), &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "acme"},
	})).To(BeEmpty())
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

func TestWorkspaceReconcilersNeedTheirParts(t *testing.T) {
	recorder := events.NewFakeRecorder(1)
	for _, tc := range []struct {
		name  string
		setup func() error
		want  error
	}{
		{"a customer reconciler without a recorder is refused",
			func() error { return (&CustomerReconciler{Clock: clock.RealClock{}}).SetupWithManager(nil, 0) }, reconciler.ErrNoRecorder},
		{"a customer reconciler without a clock is refused",
			func() error { return (&CustomerReconciler{Recorder: recorder}).SetupWithManager(nil, 0) }, reconciler.ErrNoClock},
		{"a billing profile reconciler without a clock is refused",
			func() error { return (&BillingProfileReconciler{}).SetupWithManager(nil, 0) }, reconciler.ErrNoClock},
		{"an idempotency key reconciler without a clock is refused",
			func() error { return (&IdempotencyKeyReconciler{}).SetupWithManager(nil, 0) }, reconciler.ErrNoClock},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.setup()).To(MatchError(tc.want))
		})
	}
}
