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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/ledger"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// The guard of CacheOptions (cache_transform.go): the suite's manager
// caches issued invoices trimmed, as cmd/main.go's does. A story of
// invoices through their whole life (issued, overdue, credited, paid,
// voided, delivered to a webhook endpoint) must end with every invoice's
// status exactly what a reconcile reading the whole invoice from the API
// server computes, every webhook body exactly what the whole objects
// render, and no status patch of an issued invoice that a trimmed field
// provoked. It fails when the transform drops a field a reconcile needs.

// bodyReceiver is a webhook receiver that keeps the body of every event
// it accepts, by event sequence.
type bodyReceiver struct {
	server *httptest.Server
	mu     sync.Mutex
	bodies map[int64]string
}

// startBodyReceiver starts a bodyReceiver on loopback.
func startBodyReceiver() *bodyReceiver {
	r := &bodyReceiver{bodies: map[int64]string{}}
	r.server = httptest.NewServer(http.HandlerFunc(r.serve))
	return r
}

// serve accepts an event and keeps its body under its sequence.
func (r *bodyReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var ev struct {
		Sequence int64 `json:"sequence"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.bodies[ev.Sequence] = string(body)
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// received returns a copy of the bodies received so far.
func (r *bodyReceiver) received() map[int64]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[int64]string, len(r.bodies))
	for k, v := range r.bodies {
		out[k] = v
	}
	return out
}

// expectedBodies renders the body of every event recorded in ns from the
// objects as the API server stores them, by event sequence: what a manager
// caching whole objects sends.
func expectedBodies(g Gomega, ns string) map[int64]string {
	invoices := &billingv1.InvoiceList{}
	notes := &billingv1.CreditNoteList{}
	payments := &billingv1.PaymentList{}
	for _, list := range []client.ObjectList{invoices, notes, payments} {
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	}
	reader := func(name string) *billingv1.Invoice {
		inv := &billingv1.Invoice{}
		if err := k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, inv); err != nil {
			return nil
		}
		return inv
	}
	out := map[int64]string{}
	render := func(obj any, recorded []billingv1.RecordedEvent) {
		for _, e := range recorded {
			body, err := delivery.EventBody(ns, e.Sequence, e.Type, e.CreatedAt.Time, obj, reader)
			g.Expect(err).NotTo(HaveOccurred())
			out[e.Sequence] = string(body)
		}
	}
	for i := range invoices.Items {
		render(&invoices.Items[i], invoices.Items[i].Status.Events)
	}
	for i := range notes.Items {
		render(&notes.Items[i], notes.Items[i].Status.Events)
	}
	for i := range payments.Items {
		render(&payments.Items[i], payments.Items[i].Status.Events)
	}
	return out
}

// patchRecorder is a client that reads through the API server and, instead
// of patching a status, records the patch.
type patchRecorder struct {
	client.Client
	patches *[]string
}

// Status returns a writer that records status patches.
func (c patchRecorder) Status() client.SubResourceWriter {
	return recordingStatusWriter{SubResourceWriter: c.Client.Status(), patches: c.patches}
}

// recordingStatusWriter records status patches and sends none.
type recordingStatusWriter struct {
	client.SubResourceWriter
	patches *[]string
}

// Patch records the patch of obj's status.
func (w recordingStatusWriter) Patch(_ context.Context, obj client.Object, patch client.Patch,
	_ ...client.SubResourcePatchOption) error {
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	*w.patches = append(*w.patches, fmt.Sprintf("%s: %s", obj.GetName(), data))
	return nil
}

// invoiceVersions returns the resourceVersion of every invoice of ns, by name.
func invoiceVersions(g Gomega, ns string) map[string]string {
	invoices := &billingv1.InvoiceList{}
	g.Expect(k8sClient.List(ctx, invoices, client.InNamespace(ns))).To(Succeed())
	out := map[string]string{}
	for _, inv := range invoices.Items {
		out[inv.Name] = inv.ResourceVersion
	}
	return out
}

var _ = Describe("A manager whose cache trims issued invoices", func() {
	It("writes and delivers exactly what a manager reading whole invoices would, and patches no issued invoice for it", func() {
		ns := newNamespace()
		receiver := startBodyReceiver()
		DeferCleanup(receiver.server.Close)

		By("making a workspace whose invoices are due at once, so that they become overdue")
		profile := builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, builder.WithProfileSpec(billingv1.BillingProfileSpec{
			Issuer: &billingv1.Issuer{Name: "Seller GmbH", Email: "billing@seller.test", TaxID: "DE123456789",
				Address: &billingv1.Address{Line1: "Hauptstr. 1", City: "Berlin", PostalCode: "10115", Country: "DE"}},
			PaymentTermsDays: ptr.To[int32](0),
			Payment:          &billingv1.PaymentAccount{IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX"},
		}))
		customer := builder.Customer(ns, "acme", builder.WithTaxID("FR40303265045"),
			builder.WithAddress(billingv1.Address{Line1: "1 rue de la Paix", City: "Paris", PostalCode: "75002", Country: "FR"}))
		endpoint := builder.WebhookEndpoint(ns, "all", receiver.server.URL, "webhook-signing", "secret",
			builder.WithEvents(billingv1.EventsAll), builder.WithPaused(true))
		create(newSigningSecret(ns), profile, customer, endpoint)

		By("issuing three invoices applied as kubectl applies them: an annotation with the whole object, and a label")
		invoices := make([]*billingv1.Invoice, 3)
		for i := range invoices {
			inv := builder.Invoice(ns, fmt.Sprintf("inv-%03d", i+1), builder.WithCustomer("acme"),
				builder.WithTaxedItem("Consulting, "+strings.Repeat("long description ", 20), 2, 5000, builder.StandardTax("19")),
				builder.WithTaxedItem("Travel", 1, 1200, builder.StandardTax("7")))
			applied, err := json.Marshal(inv)
			Expect(err).NotTo(HaveOccurred())
			inv.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": string(applied)}
			inv.Labels = map[string]string{trim.CreatedBucketLabel: "1"}
			create(inv)
			invoices[i] = inv
		}
		for _, inv := range invoices {
			waitForInvoiceEvent(inv, billingv1.EventTypeInvoiceOverdue)
		}

		By("crediting part of inv-001 and paying the rest, crediting inv-002 in full, paying part of inv-003")
		create(builder.CreditNote(ns, "cn-1", "inv-001", builder.WithCreditedQuantity(0, 1)),
			builder.CreditNote(ns, "cn-2", "inv-002", builder.WithFullCredit()))
		var remaining int64
		Eventually(func(g Gomega) {
			inv := getInvoice(g, invoices[0])
			g.Expect(inv.Status.Ledger).NotTo(BeNil())
			g.Expect(inv.Status.Ledger.CreditedLines).NotTo(BeEmpty())
			g.Expect(inv.Status.Balance).NotTo(BeNil(), "inv-001 has lost its balance")
			remaining = inv.Status.Balance.AmountRemaining
		}).Should(Succeed())
		create(builder.Payment(ns, "pay-1", "inv-001", remaining), builder.Payment(ns, "pay-3", "inv-003", 1000))
		waitForInvoiceEvent(invoices[0], billingv1.EventTypeInvoicePaid)
		waitForInvoiceEvent(invoices[1], billingv1.EventTypeInvoiceVoided)
		// 3 invoice.issued, 3 invoice.overdue, 2 credit_note.issued,
		// 2 payment.recorded, invoice.paid and invoice.voided.
		recorded := settledEvents(ns, 12)

		By("delivering every event, once the story has settled, and comparing each body with the whole objects' rendering")
		Eventually(func(g Gomega) {
			e := &billingv1.WebhookEndpoint{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(endpoint), e)).To(Succeed())
			e.Spec.Paused = false
			g.Expect(k8sClient.Update(ctx, e)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) { g.Expect(receiver.received()).To(HaveLen(len(recorded))) }).Should(Succeed())
		got, want := receiver.received(), expectedBodies(Default, ns)
		Expect(want).To(HaveLen(len(recorded)))
		for _, e := range recorded {
			Expect(got[e.Sequence]).To(Equal(want[e.Sequence]), "the body of event %d (%s)", e.Sequence, e.Type)
		}

		By("touching every invoice, so that each is reconciled again from the trimmed cache")
		// The versions the touches wrote: any later one is a patch of the
		// manager's, made from the trimmed cache.
		touched := map[string]string{}
		for _, inv := range invoices {
			patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"touched":"yes"}}}`))
			obj := inv.DeepCopy()
			Expect(k8sClient.Patch(ctx, obj, patch)).To(Succeed())
			touched[obj.Name] = obj.ResourceVersion
		}
		Consistently(func(g Gomega) {
			g.Expect(invoiceVersions(g, ns)).To(Equal(touched), "a reconcile of the trimmed cache patched an invoice")
		}).Should(Succeed())

		By("reconciling every invoice once more, reading it whole from the API server: nothing to patch")
		var patches []string
		numbers, facts := &countingNumbers{}, &countingNumbers{}
		whole := &ledger.InvoiceReconciler{Client: patchRecorder{Client: k8sClient, patches: &patches},
			Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{}, Numbers: numbers, Events: facts}
		for _, inv := range invoices {
			_, err := whole.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(inv)})
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(patches).To(BeEmpty(), "the statuses differ from what a reconcile of the whole invoices writes")
		Expect(numbers.calls).To(BeZero())
		Expect(facts.calls).To(BeZero())

		By("checking that the API server still holds what the cache dropped")
		for _, inv := range invoices {
			got := getInvoice(Default, inv)
			Expect(got.Annotations).To(HaveKey("kubectl.kubernetes.io/last-applied-configuration"))
			Expect(got.Labels).To(HaveKey(trim.CreatedBucketLabel))
		}
		Expect(getInvoice(Default, invoices[0]).Status.Ledger.CreditedLines).NotTo(BeEmpty())
		Expect(getInvoice(Default, invoices[1]).Status.Ledger.CreditedGroups).NotTo(BeEmpty())
	})
})
