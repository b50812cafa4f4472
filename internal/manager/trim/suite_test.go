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

package trim_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// The envtest specs run the controllers in a manager wired by
// controller.Setup whose cache is trim.CacheOptions, as cmd/main.go wires
// them, against a real kube-apiserver and etcd with the generated CRDs.
// Specs read through k8sClient, straight from the API server.
var (
	testScheme = testenv.DefaultScheme()
	// k8sClient reads and writes straight through the API server.
	k8sClient client.Client
	ctx       = context.Background()
)

func TestTrim(t *testing.T) {
	testenv.Require(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "Trim Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultConsistentlyDuration(2 * time.Second)

	env, err := testenv.Start(testenv.WithScheme(testScheme))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(env.Stop)
	k8sClient = env.Client

	mgr, err := ctrl.NewManager(env.Config, ctrl.Options{Scheme: testScheme, Cache: trim.CacheOptions(),
		Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	Expect(err).NotTo(HaveOccurred())
	managerCtx, stop := context.WithCancel(ctx)
	// Webhook receivers in these specs listen on loopback over plain http,
	// as make run allows.
	Expect(controller.Setup(managerCtx, mgr, controller.Options{MaxConcurrentReconciles: 4,
		Webhooks: delivery.SenderOptions{Policy: delivery.Policy{AllowInsecureLoopback: true}}})).To(Succeed())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(managerCtx) }()
	// Cleanups run last first: the manager stops before the control plane.
	DeferCleanup(func() {
		stop()
		Expect(<-done).To(Succeed())
	})
	Expect(mgr.GetCache().WaitForCacheSync(managerCtx)).To(BeTrue())
})

// newNamespace creates a namespace of its own for one spec.
func newNamespace() string {
	GinkgoHelper()
	return builder.Namespace(GinkgoT(), ctx, k8sClient, "test-")
}

// create creates objs through the API server.
func create(objs ...client.Object) {
	GinkgoHelper()
	for _, obj := range objs {
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
	}
}

// eventually waits until obj, read from the API server, passes check, and
// returns what it read last.
func eventually[O client.Object](obj O, check func(g Gomega, current O)) O {
	GinkgoHelper()
	current := obj.DeepCopyObject().(O) // a deep copy has its original's type
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), current)).To(Succeed())
		check(g, current)
	}).Should(Succeed())
	return current
}

// getInvoice reads an invoice from the API server.
func getInvoice(g Gomega, inv *billingv1.Invoice) *billingv1.Invoice {
	current := &billingv1.Invoice{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), current)).To(Succeed())
	return current
}

// waitForReady waits until inv's Ready condition has reason, and returns it.
func waitForReady(inv *billingv1.Invoice, reason string) *billingv1.Invoice {
	GinkgoHelper()
	return eventually(inv, func(g Gomega, current *billingv1.Invoice) {
		ready := meta.FindStatusCondition(current.Status.Conditions, billingv1.ConditionReady)
		g.Expect(ready).NotTo(BeNil(), "the invoice has no Ready condition yet")
		g.Expect(ready.Reason).To(Equal(reason))
	})
}

// waitForInvoiceEvent waits until the invoice carries an event of type t.
func waitForInvoiceEvent(inv *billingv1.Invoice, t billingv1.EventType) {
	GinkgoHelper()
	eventually(inv, func(g Gomega, current *billingv1.Invoice) {
		g.Expect(billingv1.FindEvent(current.Status.Events, t)).NotTo(BeNil(), "%s has no %s", inv.Name, t)
	})
}

// settledEvents waits until the events recorded on the invoices, credit
// notes and payments of ns are want in number and gapless from 1, and
// returns them in sequence order.
func settledEvents(ns string, want int) []billingv1.RecordedEvent {
	GinkgoHelper()
	var events []billingv1.RecordedEvent
	Eventually(func(g Gomega) {
		invoices, notes, payments := &billingv1.InvoiceList{}, &billingv1.CreditNoteList{}, &billingv1.PaymentList{}
		for _, list := range []client.ObjectList{invoices, notes, payments} {
			g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
		}
		events = nil
		for _, inv := range invoices.Items {
			events = append(events, inv.Status.Events...)
		}
		for _, note := range notes.Items {
			events = append(events, note.Status.Events...)
		}
		for _, payment := range payments.Items {
			events = append(events, payment.Status.Events...)
		}
		slices.SortFunc(events, func(a, b billingv1.RecordedEvent) int { return int(a.Sequence - b.Sequence) })
		g.Expect(events).To(HaveLen(want))
		for i, e := range events {
			g.Expect(e.Sequence).To(BeEquivalentTo(i+1), "the event sequence has a gap")
		}
	}).Should(Succeed())
	return events
}

// newSigningSecret returns the Secret "webhook-signing" of ns, whose key
// "secret" signs webhook deliveries.
func newSigningSecret(ns string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "webhook-signing"},
		Data:       map[string][]byte{"secret": []byte("whsec-0123456789abcdef0123456789abcdef")},
	}
}

// countingNumbers hands out the sequences 1, 2, 3... as both the invoice
// numbers and the events, and counts the calls.
type countingNumbers struct {
	mu    sync.Mutex
	calls int
}

func (c *countingNumbers) Assign(context.Context, string, string, types.UID) (numbering.Assignment, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return numbering.Assignment{Sequence: int64(c.calls), IssuedAt: time.Now()}, nil
}

func (c *countingNumbers) AssignFact(ctx context.Context, namespace, name string, uid types.UID,
	_ billingv1.EventType, _ int64) (numbering.Assignment, error) {
	return c.Assign(ctx, namespace, name, uid)
}
