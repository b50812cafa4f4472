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

package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Closing the books over a real listener (issue 35). The specs labelled
// periodCloseController need the manager's PeriodClose controller to close
// the books; the others hold with the adapter alone, a close's status set
// by the test through the status subresource as the controller would.

// periodCloseController labels the specs that need the PeriodClose
// controller.
const periodCloseController = "period-close-controller"

// closeOctober makes the PeriodClose pclose-oct through 2026-10 in ns,
// closed through its last second in UTC as the controller closes one
// (phase Closed, status.closedThrough).
func closeOctober(ns string) {
	name, through, at := "pclose-oct", "2026-10", time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	GinkgoHelper()
	pc := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: billingv1.PeriodCloseSpec{Through: through}}
	Expect(k8s.Create(ctx, pc)).To(Succeed())
	now := metav1.Now()
	pc.Status = billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: &metav1.Time{Time: at},
		ClosedAt: &now, ObservedGeneration: pc.Generation, Conditions: []metav1.Condition{{
			Type: billingv1.ConditionReady, Status: metav1.ConditionTrue, Reason: billingv1.ReasonClosed,
			Message: "Closed.", LastTransitionTime: now, ObservedGeneration: pc.Generation}}}
	Expect(k8s.Status().Update(ctx, pc)).To(Succeed())
}

// periodClose decodes an answer that is a period_close.
func (r response) periodClose() apiobject.PeriodClose {
	GinkgoHelper()
	var pc apiobject.PeriodClose
	Expect(json.Unmarshal(r.body, &pc)).To(Succeed(), "body: %s", r.body)
	return pc
}

var _ = Describe("Closing the books", func() {
	var ns string
	BeforeEach(func() { ns = newWorkspace() })

	closeBooks := func(body string) response {
		return send(http.MethodPost, "/v1/period_closes", inWorkspace(ns), withBody(body))
	}
	count := func(list client.ObjectList) int {
		ExpectWithOffset(1, k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
		return meta.LenList(list)
	}

	DescribeTable("refuses a close that cannot close, and creates nothing",
		func(body string, status int, code, param string) {
			got := closeBooks(body)
			Expect(got.status).To(Equal(status), "body: %s", got.body)
			Expect(got.apiErr().Code).To(Equal(code))
			Expect(got.apiErr().Param).To(Equal(param))
			Expect(count(&billingv1.PeriodCloseList{})).To(BeZero())
		},
		Entry("a month that has not ended", `{"through":"2999-12"}`, 409, CodePeriodNotEnded, "through"),
		// Entries are built when the suite starts, long before they run:
		// an instant ahead is far ahead.
		Entry("an instant ahead", `{"through":"2999-01-01T00:00:00Z"}`, 409, CodePeriodNotEnded, "through"),
		Entry("a through that is no month, day or instant", `{"through":"last month"}`, 422, CodeParameterInvalid, "through"),
		Entry("an unknown field", `{"through":"2026-10","force":true}`, 422, CodeParameterInvalid, "force"),
		Entry("no through", `{}`, 422, CodeParameterInvalid, "through"),
	)

	It("refuses a close through a moment the workspace is already closed through, naming the close", func() {
		closeOctober(ns)
		Eventually(func(g Gomega) {
			got := closeBooks(`{"through":"2026-09-30"}`)
			g.Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
			g.Expect(got.apiErr().Code).To(Equal(CodeAlreadyClosed))
			g.Expect(got.apiErr().Message).To(ContainSubstring(`"pclose-oct"`))
		}).Should(Succeed())
		Expect(count(&billingv1.PeriodCloseList{})).To(Equal(1))
	})

	It("answers every close with the workspace's closed_through", func() {
		closeOctober(ns)
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/period_closes/pclose-oct", inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			pc := got.periodClose()
			g.Expect(pc.Status).To(Equal("closed"))
			g.Expect(ptr.Deref(pc.WorkspaceClosedThrough, "")).To(Equal("2026-10-31T23:59:59Z"))
		}).Should(Succeed())
		created := closeBooks(`{"through":"2026-11-01T00:00:00Z"}`)
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		// The PeriodClose controller closes the new close at once: the
		// answer may already say so.
		Expect(ptr.Deref(created.periodClose().WorkspaceClosedThrough, "")).To(
			BeElementOf("2026-10-31T23:59:59Z", "2026-11-01T00:00:00Z"))
		Eventually(func(g Gomega) {
			list, _, err := apiClient(mainURL).ListPeriodCloses(ctx, v1client.ListParams{},
				v1client.Token(writerToken), v1client.Workspace(ns))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(v1client.IDs(&v1client.List[v1client.PeriodClose]{Data: list.Data})).To(ContainElements(
				"pclose-oct", created.periodClose().ID))
			g.Expect(ptr.Deref(list.ClosedThrough, "")).To(Equal("2026-11-01T00:00:00Z"))
		}).Should(Succeed())
	})

	Describe("a payment", func() {
		var invoiceID string
		BeforeEach(func() {
			customer := createCustomer(v1client.Workspace(ns))
			created := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(fmt.Sprintf(
				`{"customer_id":%q,"currency":"EUR","items":[{"description":"Support","quantity":1,"amount":1000}]}`,
				customer.ID)))
			Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
			invoiceID = created.invoice().ID
			Eventually(func(g Gomega) {
				g.Expect(send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice().Status).To(Equal("issued"))
			}).Should(Succeed())
			closeOctober(ns)
		})

		It("dated in the closed period is refused with nothing created", func() {
			Eventually(func(g Gomega) {
				got := send(http.MethodPost, "/v1/payments", inWorkspace(ns), withBody(fmt.Sprintf(
					`{"invoice_id":%q,"amount":100,"paid_at":"2026-10-31T23:59:59Z"}`, invoiceID)))
				g.Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
				g.Expect(got.apiErr().Code).To(Equal(CodePeriodClosed))
				g.Expect(got.apiErr().Param).To(Equal("paid_at"))
			}).Should(Succeed())
			Expect(count(&billingv1.PaymentList{})).To(BeZero())
		})

		It("dated after the closed period is created", func() {
			got := send(http.MethodPost, "/v1/payments", inWorkspace(ns), withBody(fmt.Sprintf(
				`{"invoice_id":%q,"amount":100,"paid_at":"2026-11-01T00:00:00Z"}`, invoiceID)))
			Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
			Expect(count(&billingv1.PaymentList{})).To(Equal(1))
		})
	})

	It("lists no seals, and verifies the empty chain", func() {
		c := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
		seals, _, err := c.ListSeals(ctx, v1client.ListParams{})
		Expect(err).NotTo(HaveOccurred())
		Expect(seals.Data).To(BeEmpty())
		verdict, _, err := c.VerifySeals(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(verdict.Verified).To(BeTrue())
		Expect(ptr.Deref(verdict.Head, "")).To(Equal(billingv1.ZeroHash))
		_, resp, err := c.GetSeal(ctx, "seal-000001")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusNotFound))
	})

	DescribeTable("closes the books through a moment that has passed, and GET shows them closed",
		Label(periodCloseController),
		func(through func(now time.Time) (string, time.Time)) {
			body, want := through(time.Now())
			created := closeBooks(fmt.Sprintf(`{"through":%q}`, body))
			Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
			pc := created.periodClose()
			Expect(pc.ID).To(HavePrefix("pclose-"))
			Expect(pc.Status).To(Equal("pending"))
			Expect(created.header.Get("Location")).To(Equal("/v1/period_closes/" + pc.ID))
			wantAt := want.UTC().Format(time.RFC3339)
			Eventually(func(g Gomega) {
				got := send(http.MethodGet, "/v1/period_closes/"+pc.ID, inWorkspace(ns)).periodClose()
				g.Expect(got.Status).To(Equal("closed"))
				g.Expect(ptr.Deref(got.ClosedThrough, "")).To(Equal(wantAt))
				g.Expect(ptr.Deref(got.WorkspaceClosedThrough, "")).To(Equal(wantAt))
			}).Should(Succeed())

			By("answering the moment again as already closed")
			again := closeBooks(fmt.Sprintf(`{"through":%q}`, body))
			Expect(again.status).To(Equal(http.StatusConflict), "body: %s", again.body)
			Expect(again.apiErr().Code).To(Equal(CodeAlreadyClosed))
			Expect(again.apiErr().Message).To(ContainSubstring(pc.ID))

			By("recording a period.closed event with the moment")
			reader := eventsReader(ns)
			Eventually(func(g Gomega) {
				events := send(http.MethodGet, "/v1/events?type=period.closed", as(reader), inWorkspace(ns))
				g.Expect(events.status).To(Equal(http.StatusOK), "body: %s", events.body)
				g.Expect(string(events.body)).To(ContainSubstring(`"closed_through":"` + wantAt + `"`))
			}).Should(Succeed())
		},
		Entry("a second ago", func(now time.Time) (string, time.Time) {
			at := now.Add(-time.Second).UTC().Truncate(time.Second)
			return at.Format(time.RFC3339), at
		}),
		Entry("yesterday", func(now time.Time) (string, time.Time) {
			y := now.UTC().AddDate(0, 0, -1)
			return y.Format(time.DateOnly),
				time.Date(y.Year(), y.Month(), y.Day(), 23, 59, 59, 0, time.UTC)
		}),
		Entry("last month", func(now time.Time) (string, time.Time) {
			first := time.Date(now.UTC().Year(), now.UTC().Month(), 1, 0, 0, 0, 0, time.UTC)
			return first.AddDate(0, -1, 0).Format("2006-01"), first.Add(-time.Second)
		}),
	)
})

// sealOf is LedgerSeal seq of ns after previous, holding objs, as the
// manager makes one.
func sealOf(ns string, seq int64, previous string, objs ...client.Object) *billingv1.LedgerSeal {
	GinkgoHelper()
	var lines [][]byte
	for _, o := range objs {
		line, err := seal.Line(o)
		Expect(err).NotTo(HaveOccurred())
		lines = append(lines, line)
	}
	enc, err := seal.Encode(lines)
	Expect(err).NotTo(HaveOccurred())
	hash := seal.ChainHash(ns, seq, previous, enc.SHA256)
	return &billingv1.LedgerSeal{
		ObjectMeta: metav1.ObjectMeta{Name: seal.Name(seq), Namespace: ns},
		Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: previous, Hash: hash, ShortHash: hash[:12], Counts: billingv1.SealCounts{Invoices: 1},
			ClosedThrough:      metav1.NewTime(time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)),
			FirstInvoiceNumber: "INV-000001", LastInvoiceNumber: "INV-000001"},
	}
}

// etcdKV calls the JSON gateway of the suite's etcd (the v3 API over
// HTTP) at path with body, and decodes its answer into out.
func etcdKV(path string, body, out any) {
	GinkgoHelper()
	b, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	u := testEnv.Environment.ControlPlane.Etcd.URL.JoinPath(path)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(b))
	Expect(err).NotTo(HaveOccurred())
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = resp.Body.Close() }()
	Expect(resp.StatusCode).To(Equal(http.StatusOK))
	Expect(json.NewDecoder(resp.Body).Decode(out)).To(Succeed())
}

// rewriteInEtcd changes the stored LedgerSeal ns/name straight in etcd,
// behind the API server's back (its validation and immutability never see
// it): edit changes its JSON.
func rewriteInEtcd(ns, name string, edit func(obj map[string]any)) {
	GinkgoHelper()
	key := base64.StdEncoding.EncodeToString([]byte("/registry/billing.invoicing.dev/ledgerseals/" + ns + "/" + name))
	var got struct {
		KVs []struct {
			Value string `json:"value"`
		} `json:"kvs"`
	}
	etcdKV("/v3/kv/range", map[string]string{"key": key}, &got)
	Expect(got.KVs).To(HaveLen(1), "etcd holds no %s/%s", ns, name)
	raw, err := base64.StdEncoding.DecodeString(got.KVs[0].Value)
	Expect(err).NotTo(HaveOccurred())
	obj := map[string]any{}
	Expect(json.Unmarshal(raw, &obj)).To(Succeed(), "a custom resource is stored as JSON: %q", raw)
	edit(obj)
	raw, err = json.Marshal(obj)
	Expect(err).NotTo(HaveOccurred())
	var put map[string]any
	etcdKV("/v3/kv/put", map[string]string{"key": key, "value": base64.StdEncoding.EncodeToString(raw)}, &put)
}

var _ = Describe("Seals", func() {
	var ns string
	var c *v1client.Client
	BeforeEach(func() {
		ns = newWorkspace()
		c = apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
	})

	sealedInvoice := func(name, number string) *billingv1.Invoice {
		return &billingv1.Invoice{
			TypeMeta:   metav1.TypeMeta{APIVersion: billingv1.GroupVersion.String(), Kind: "Invoice"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name)},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "cus-a"}, Currency: "EUR",
				Items: []billingv1.LineItem{{Description: "Support", Quantity: billingv1.Units(1), Amount: 1000}}},
			Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: number},
		}
	}

	It("serves the period.closed and ledger.sealed events recorded on a close and a seal", func() {
		// A workspace without records: the test takes the sequences 1 and
		// 2 the allocator would hand out.
		closeOctober(ns)
		pc := &billingv1.PeriodClose{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "pclose-oct"}, pc)).To(Succeed())
		pc.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePeriodClosed, Sequence: 1,
			CreatedAt: metav1.Now()}}
		Expect(k8s.Status().Update(ctx, pc)).To(Succeed())
		s1 := sealOf(ns, 1, billingv1.ZeroHash, sealedInvoice("inv-a", "INV-000001"))
		Expect(k8s.Create(ctx, s1)).To(Succeed())
		s1.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeLedgerSealed, Sequence: 2,
			CreatedAt: metav1.Now()}}
		Expect(k8s.Status().Update(ctx, s1)).To(Succeed())

		reader := eventsReader(ns)
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/events", as(reader), inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			var events apiobject.List[json.RawMessage]
			g.Expect(json.Unmarshal(got.body, &events)).To(Succeed())
			g.Expect(events.Data).To(HaveLen(2))
			g.Expect(string(events.Data[0])).To(And(ContainSubstring(`"type":"period.closed"`),
				ContainSubstring(`"closed_through":"2026-10-31T23:59:59Z"`)))
			g.Expect(string(events.Data[1])).To(And(ContainSubstring(`"type":"ledger.sealed"`),
				ContainSubstring(`"id":"seal-000001"`), ContainSubstring(`"hash":"`+s1.Spec.Hash+`"`)))
		}).Should(Succeed())
	})

	It("serves a sealed record as before, with the seal's name, and verifies it against the seal", func() {
		s1 := sealOf(ns, 1, billingv1.ZeroHash, sealedInvoice("inv-a", "INV-000001"))
		Expect(k8s.Create(ctx, s1)).To(Succeed())
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/inv-a", inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			inv := got.invoice()
			g.Expect(ptr.Deref(inv.Seal, "")).To(Equal("seal-000001"))
			g.Expect(ptr.Deref(inv.Number, "")).To(Equal("INV-000001"))
			g.Expect(inv.Status).To(Equal("issued"))
			list := send(http.MethodGet, "/v1/invoices", inWorkspace(ns))
			g.Expect(string(list.body)).To(ContainSubstring(`"seal":"seal-000001"`))
		}).Should(Succeed())
		verdict, _, err := c.VerifySeals(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(verdict.Verified).To(BeTrue(), "broken: %+v", verdict.Broken)
	})

	It("serves sealed credit applications, write-offs and refunds as before with their seal, and the events "+
		"of every sealed kind in the feed", func() {
		// The manager's sealing records the seal's ledger.sealed with the
		// workspace's first sequence, which no allocator gave these
		// records: they take the next ones.
		at := metav1.Now()
		event := func(t billingv1.EventType, seq int64) []billingv1.RecordedEvent {
			return []billingv1.RecordedEvent{{Type: t, Sequence: seq, CreatedAt: at}}
		}
		inv := sealedInvoice("inv-a", "INV-000001")
		inv.Status.Events = event(billingv1.EventTypeInvoiceIssued, 2)
		record := func(obj client.Object, kind string) client.Object {
			obj.GetObjectKind().SetGroupVersionKind(billingv1.GroupVersion.WithKind(kind))
			obj.SetNamespace(ns)
			obj.SetUID(types.UID("uid-" + obj.GetName()))
			return obj
		}
		capp := builder.CreditApplication(ns, "capp-a", "inv-a", 300)
		capp.Status = billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, CustomerName: "cus-a",
			Currency: "EUR", AppliedAt: &at, Events: event(billingv1.EventTypeCreditApplied, 3)}
		wo := builder.WriteOff(ns, "wo-a", "inv-a", "The customer went away.")
		wo.Status = billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, CustomerName: "cus-a", Currency: "EUR",
			Amount: ptr.To[int64](700), RecordedAt: &at, Events: event(billingv1.EventTypeInvoiceMarkedUncollectible, 4)}
		rf := builder.Refund(ns, "rf-a", "cus-a", 100, "EUR")
		rf.Status = billingv1.RefundStatus{Phase: billingv1.RefundRecorded, Currency: "EUR", RecordedAt: &at,
			Events: event(billingv1.EventTypeRefundRecorded, 5)}
		reminder := builder.Email(ns, "em-a", builder.WithPurpose(billingv1.EmailPurposeReminder),
			builder.WithInvoiceRef("inv-a"), builder.WithReminderDays(7))
		reminder.Status = billingv1.EmailStatus{Phase: billingv1.EmailSent, SentAt: &at,
			Events: event(billingv1.EventTypeInvoiceReminderSent, 6)}
		s1 := sealOf(ns, 1, billingv1.ZeroHash, inv, record(capp, "CreditApplication"), record(wo, "WriteOff"),
			record(rf, "Refund"), record(reminder, "Email"))
		s1.Spec.Counts = billingv1.SealCounts{Invoices: 1, CreditApplications: 1, WriteOffs: 1, Refunds: 1, Emails: 1}
		Expect(k8s.Create(ctx, s1)).To(Succeed())

		Eventually(func(g Gomega) {
			for _, path := range []string{"/v1/credit_applications/capp-a", "/v1/write_offs/wo-a", "/v1/refunds/rf-a"} {
				got := send(http.MethodGet, path, inWorkspace(ns))
				g.Expect(got.status).To(Equal(http.StatusOK), "%s: %s", path, got.body)
				g.Expect(string(got.body)).To(ContainSubstring(`"seal":"seal-000001"`), path)
			}
			for _, path := range []string{"/v1/credit_applications", "/v1/write_offs", "/v1/refunds"} {
				got := send(http.MethodGet, path, inWorkspace(ns))
				g.Expect(got.status).To(Equal(http.StatusOK), "%s: %s", path, got.body)
				g.Expect(string(got.body)).To(ContainSubstring(`"seal":"seal-000001"`), path)
			}
		}).Should(Succeed())
		reader := eventsReader(ns)
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/events", as(reader), inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			var events apiobject.List[struct {
				Type     string `json:"type"`
				Sequence int64  `json:"sequence"`
			}]
			g.Expect(json.Unmarshal(got.body, &events)).To(Succeed())
			var kinds []string
			for _, e := range events.Data {
				kinds = append(kinds, e.Type)
			}
			g.Expect(kinds).To(Equal([]string{"ledger.sealed", "invoice.issued", "credit.applied", "invoice.marked_uncollectible",
				"refund.recorded", "invoice.reminder_sent"}))
		}).Should(Succeed())
		verdict, _, err := c.VerifySeals(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(verdict.Verified).To(BeTrue(), "broken: %+v", verdict.Broken)
	})

	It("serves a seal's hashes and payload, verifies the chain, and names a payload changed in etcd", func() {
		s1 := sealOf(ns, 1, billingv1.ZeroHash, sealedInvoice("inv-a", "INV-000001"))
		s2 := sealOf(ns, 2, s1.Spec.Hash, sealedInvoice("inv-b", "INV-000002"))
		Expect(k8s.Create(ctx, s1.DeepCopy())).To(Succeed())
		Expect(k8s.Create(ctx, s2.DeepCopy())).To(Succeed())

		By("answering a seal without its payload")
		Eventually(func(g Gomega) {
			got, resp, err := c.GetSeal(ctx, "seal-000002")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.Hash).To(Equal(s2.Spec.Hash))
			g.Expect(got.PreviousHash).To(Equal(s1.Spec.Hash))
			g.Expect(string(resp.Body)).NotTo(ContainSubstring(s2.Spec.Payload))
		}).Should(Succeed())

		By("answering the payload as stored")
		resp, err := c.SealPayload(ctx, "seal-000001")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(Equal(mediaGzip))
		stored, err := seal.Gzip(&s1.Spec)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Body).To(Equal(stored))

		By("verifying the chain of two")
		verdict, _, err := c.VerifySeals(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(verdict.Verified).To(BeTrue(), "broken: %+v", verdict.Broken)
		Expect(verdict.Seals).To(Equal(2))
		Expect(ptr.Deref(verdict.Head, "")).To(Equal(s2.Spec.Hash))

		By("naming the seal whose payload was changed in etcd")
		other := sealOf(ns, 1, billingv1.ZeroHash, sealedInvoice("inv-a", "INV-000099"))
		rewriteInEtcd(ns, "seal-000001", func(obj map[string]any) {
			obj["spec"].(map[string]any)["payload"] = other.Spec.Payload
		})
		Eventually(func(g Gomega) {
			verdict, _, err := c.VerifySeals(ctx)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(verdict.Verified).To(BeFalse())
			g.Expect(verdict.Head).To(BeNil())
			g.Expect(verdict.Broken).NotTo(BeNil())
			g.Expect(verdict.Broken.Seal).To(Equal("seal-000001"))
			g.Expect(verdict.Broken.Sequence).To(Equal(int64(1)))
			g.Expect(verdict.Broken.Reason).To(ContainSubstring("payloadSHA256"))
		}).Should(Succeed())
	})
})
