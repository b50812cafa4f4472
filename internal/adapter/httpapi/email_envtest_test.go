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
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Sending by e-mail over a real listener (issue 37): what the adapter
// does alone, queueing an Email for each send, refusing with nothing
// queued, replaying a retry, and serving a reminder's event from its
// Email. The specs labelled emailController need the manager's Email
// controller, which sends (or fails to send) the messages and mirrors them
// in status.deliveries.

// emailController labels the specs that need the manager's Email
// controller.
const emailController = "email-controller"

// mailFrom is the sender of the specs' workspaces.
const mailFrom = "billing@invoicing.example"

// withMail gives a BillingProfile e-mail settings: from mailFrom, to an
// SMTP server on a loopback port nothing listens on (the specs that need
// a message sent run a server of their own).
func withMail() builder.BillingProfileOption {
	return func(p *billingv1.BillingProfile) {
		p.Spec.Email = &billingv1.EmailSettings{From: mailFrom,
			SMTP: billingv1.SMTPServer{Host: "127.0.0.1", Port: 9, TLS: billingv1.SMTPTLSNone}}
	}
}

// emailsIn lists the Emails of workspace ns from the API server.
func emailsIn(ns string) []billingv1.Email {
	GinkgoHelper()
	var list billingv1.EmailList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	return list.Items
}

// queued decodes a send's 202 answer.
func (r response) queued() apiobject.QueuedDelivery {
	var d apiobject.QueuedDelivery
	ExpectWithOffset(1, json.Unmarshal(r.body, &d)).To(Succeed(), "body: %s", r.body)
	return d
}

var _ = Describe("Sending by e-mail", func() {
	var ns, customerID string
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
	})

	post := func(path, body string, opts ...reqOpt) response {
		GinkgoHelper()
		opts = append([]reqOpt{inWorkspace(ns)}, opts...)
		if body != "" {
			opts = append(opts, withBody(body))
		}
		return send(http.MethodPost, path, opts...)
	}
	configure := func() {
		GinkgoHelper()
		Expect(k8s.Create(ctx, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName, withMail(),
			builder.WithTimeZone("Europe/Berlin")))).To(Succeed())
	}
	// issue creates an invoice of the customer over HTTP and returns its id
	// once it is issued.
	issue := func() string {
		GinkgoHelper()
		created := post("/v1/invoices", fmt.Sprintf(`{"customer_id":%q,"currency":"EUR","items":[%s]}`,
			customerID, untaxedItem("Work", 10_000)))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		id := created.invoice().ID
		Eventually(func() string {
			return send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice().Status
		}).Should(Equal("issued"))
		return id
	}
	email := func(name string) *billingv1.Email {
		GinkgoHelper()
		e := &billingv1.Email{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, e)).To(Succeed())
		return e
	}

	It("queues an issued invoice's Email and answers 202 with its delivery and Message-ID", func() {
		configure()
		id := issue()

		sent := post("/v1/invoices/"+id+"/send", "")
		Expect(sent.status).To(Equal(http.StatusAccepted), "body: %s", sent.body)
		Expect(sent.header.Get("Location")).To(BeEmpty())
		d := sent.queued()
		Expect(d.ID).To(MatchRegexp(`^em-[0-9a-z]{26}$`))
		Expect(d.Object).To(Equal("delivery"))
		Expect(d.Purpose).To(Equal("invoice"))
		Expect(d.To).To(Equal([]string{"ada@example.com"}), "the customer's e-mail, when the body names none")
		Expect(d.SentAt).To(BeNil())
		Expect(d.Attempts).To(BeZero())
		Expect(d.LastError).To(BeNil())

		By("creating the Email the manager sends, with the invoice, its customer and no recipients of its own")
		e := email(d.ID)
		Expect(e.Spec.Purpose).To(Equal(billingv1.EmailPurposeInvoice))
		Expect(e.Spec.InvoiceRef).To(Equal(&billingv1.InvoiceReference{Name: id}))
		Expect(e.Spec.CustomerRef).To(Equal(&billingv1.CustomerReference{Name: customerID}))
		Expect(e.Spec.To).To(BeEmpty())
		Expect(d.MessageID).To(Equal(billing.MessageID(string(e.UID), mailFrom)))
		Expect(d.MessageID).To(Equal("<" + string(e.UID) + "@invoicing.example>"))

		By("queueing the recipients a body names")
		to := post("/v1/invoices/"+id+"/send", `{"to":["ap@acme.example","cfo@acme.example"]}`)
		Expect(to.status).To(Equal(http.StatusAccepted), "body: %s", to.body)
		Expect(to.queued().To).To(Equal([]string{"ap@acme.example", "cfo@acme.example"}))
		Expect(email(to.queued().ID).Spec.To).To(Equal([]string{"ap@acme.example", "cfo@acme.example"}))
		Expect(emailsIn(ns)).To(HaveLen(2))
	})

	It("queues an issued credit note's Email", func() {
		configure()
		id := issue()
		created := post("/v1/credit_notes", fmt.Sprintf(`{"invoice_id":%q,"reason":"other","full_credit":true}`, id))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		var cn apiobject.CreditNote
		Expect(json.Unmarshal(created.body, &cn)).To(Succeed())
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/credit_notes/"+cn.ID, inWorkspace(ns))
			g.Expect(json.Unmarshal(got.body, &cn)).To(Succeed())
			g.Expect(cn.Status).To(Equal("issued"))
		}).Should(Succeed())

		sent := post("/v1/credit_notes/"+cn.ID+"/send", `{}`)
		Expect(sent.status).To(Equal(http.StatusAccepted), "body: %s", sent.body)
		Expect(sent.queued().Purpose).To(Equal("credit_note"))
		e := email(sent.queued().ID)
		Expect(e.Spec.Purpose).To(Equal(billingv1.EmailPurposeCreditNote))
		Expect(e.Spec.CreditNoteRef).To(Equal(&billingv1.CreditNoteReference{Name: cn.ID}))
		Expect(e.Spec.InvoiceRef).To(BeNil())
		Expect(e.Spec.CustomerRef).To(Equal(&billingv1.CustomerReference{Name: customerID}))
	})

	It("queues a statement of the days asked, by default the last 90 days, today included in the workspace's time zone", func() {
		configure()
		path := "/v1/customers/" + customerID + "/statement/send"

		asked := post(path+"?from=2026-10-01&to=2026-10-31", `{"to":["ap@acme.example"]}`)
		Expect(asked.status).To(Equal(http.StatusAccepted), "body: %s", asked.body)
		Expect(asked.queued().Purpose).To(Equal("statement"))
		e := email(asked.queued().ID)
		Expect(e.Spec.Purpose).To(Equal(billingv1.EmailPurposeStatement))
		Expect(e.Spec.CustomerRef).To(Equal(&billingv1.CustomerReference{Name: customerID}))
		Expect(e.Spec.Statement).To(Equal(&billingv1.StatementPeriod{From: "2026-10-01", To: "2026-10-31"}))
		Expect(e.Spec.To).To(Equal([]string{"ap@acme.example"}))

		berlin, err := time.LoadLocation("Europe/Berlin")
		Expect(err).NotTo(HaveOccurred())
		before := time.Now().In(berlin).Format(time.DateOnly)
		byDefault := post(path, "")
		after := time.Now().In(berlin).Format(time.DateOnly)
		Expect(byDefault.status).To(Equal(http.StatusAccepted), "body: %s", byDefault.body)
		period := email(byDefault.queued().ID).Spec.Statement
		Expect(period).NotTo(BeNil())
		Expect(period.To).To(BeElementOf(before, after))
		last, err := time.Parse(time.DateOnly, period.To)
		Expect(err).NotTo(HaveOccurred())
		Expect(period.From).To(Equal(last.AddDate(0, 0, -89).Format(time.DateOnly)))
	})

	It("refuses a send it cannot queue, and queues nothing", func() {
		By("refusing every send while the workspace has no e-mail settings")
		Expect(k8s.Create(ctx, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName))).To(Succeed())
		id := issue()
		for _, path := range []string{"/v1/invoices/" + id + "/send", "/v1/customers/" + customerID + "/statement/send"} {
			got := post(path, "")
			Expect(got.status).To(Equal(http.StatusConflict), "%s: %s", path, got.body)
			Expect(got.apiErr().Code).To(Equal(CodeEmailNotConfigured))
		}

		By("sending once the settings are there, without waiting for the adapter's cache")
		profile := &billingv1.BillingProfile{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: billingv1.DefaultBillingProfileName}, profile)).To(Succeed())
		withMail()(profile)
		Expect(k8s.Update(ctx, profile)).To(Succeed())
		Expect(post("/v1/invoices/"+id+"/send", "").status).To(Equal(http.StatusAccepted))
		Expect(emailsIn(ns)).To(HaveLen(1))

		By("refusing an unknown invoice, an invoice not issued, a bad address and a malformed body")
		Expect(k8s.Create(ctx, builder.Invoice(ns, "inv-orphan", inEUR("cus-nobody")...))).To(Succeed())
		Eventually(func() string {
			return send(http.MethodGet, "/v1/invoices/inv-orphan", inWorkspace(ns)).invoice().Status
		}).Should(Equal("invalid"))
		for _, tc := range []struct {
			path, body  string
			status      int
			code, param string
		}{
			{"/v1/invoices/inv-nothing/send", "", http.StatusNotFound, CodeResourceMissing, "invoice_id"},
			{"/v1/invoices/inv-orphan/send", "", http.StatusConflict, CodeNotIssued, "invoice_id"},
			{"/v1/credit_notes/cn-nothing/send", "", http.StatusNotFound, CodeResourceMissing, "credit_note_id"},
			{"/v1/customers/cus-nothing/statement/send", "", http.StatusNotFound, CodeResourceMissing, "customer_id"},
			{"/v1/invoices/" + id + "/send", `{"to":["Ada <ada@example.com>"]}`, http.StatusUnprocessableEntity,
				CodeParameterInvalid, "to"},
			{"/v1/invoices/" + id + "/send", `{"to":[`, http.StatusBadRequest, CodeBodyInvalid, ""},
			{"/v1/customers/" + customerID + "/statement/send?from=2026-13-01", "", http.StatusBadRequest,
				CodeParameterInvalid, "from"},
		} {
			got := post(tc.path, tc.body)
			Expect(got.status).To(Equal(tc.status), "%s %s: %s", tc.path, tc.body, got.body)
			Expect(got.apiErr().Code).To(Equal(tc.code), "%s %s", tc.path, tc.body)
			Expect(got.apiErr().Param).To(Equal(tc.param), "%s %s", tc.path, tc.body)
		}
		Expect(emailsIn(ns)).To(HaveLen(1), "a refused send queues nothing")
	})

	It("refuses a caller who may not create emails, and queues nothing", func() {
		configure()
		id := issue()
		got := send(http.MethodPost, "/v1/invoices/"+id+"/send", as(readerToken), inWorkspace(nsBeta))
		Expect(got.status).To(Equal(http.StatusForbidden), "body: %s", got.body)
		Expect(got.apiErr().Code).To(Equal(CodePermissionDenied))
		Expect(emailsIn(nsBeta)).To(BeEmpty())
		Expect(emailsIn(ns)).To(BeEmpty())
	})

	It("answers a retry with the same Idempotency-Key with the first delivery, queueing one Email", func() {
		configure()
		id := issue()
		const body = `{"to":["ap@acme.example"]}`
		first := post("/v1/invoices/"+id+"/send", body, withIdempotencyKey("send-once"))
		Expect(first.status).To(Equal(http.StatusAccepted), "body: %s", first.body)
		again := post("/v1/invoices/"+id+"/send", body, withIdempotencyKey("send-once"))
		Expect(again.status).To(Equal(http.StatusAccepted), "body: %s", again.body)
		Expect(again.header.Get(IdempotentReplayedHeader)).To(Equal("true"))
		Expect(again.queued().ID).To(Equal(first.queued().ID))
		Expect(again.queued().MessageID).To(Equal(first.queued().MessageID))
		Expect(emailsIn(ns)).To(HaveLen(1))

		other := post("/v1/invoices/"+id+"/send", `{"to":["cfo@acme.example"]}`, withIdempotencyKey("send-once"))
		Expect(other.status).To(Equal(http.StatusConflict), "body: %s", other.body)
		Expect(other.apiErr().Code).To(Equal(CodeIdempotencyReused))
		Expect(emailsIn(ns)).To(HaveLen(1))
	})

	It("serves a reminder's invoice.reminder_sent from its Email, in sequence order, with the invoice", func() {
		// No e-mail settings: the manager sends nothing here, and the
		// spec records the reminder's event as the manager's Email
		// controller does once the SMTP server accepted it.
		reader := eventsReader(ns)
		id := issue()
		var issued eventJSON
		Eventually(func(g Gomega) {
			page := listEvents(g, reader, ns, "")
			g.Expect(page.Data).To(HaveLen(1))
			issued = page.Data[0]
		}).Should(Succeed())
		Expect(issued.Type).To(Equal("invoice.issued"))

		reminder := &billingv1.Email{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "em-reminder-" + id},
			Spec: billingv1.EmailSpec{Purpose: billingv1.EmailPurposeReminder,
				InvoiceRef:  &billingv1.InvoiceReference{Name: id},
				CustomerRef: &billingv1.CustomerReference{Name: customerID}, ReminderDays: ptr.To[int32](-3)},
		}
		Expect(k8s.Create(ctx, reminder)).To(Succeed())
		sent := billingv1.EmailStatus{Phase: billingv1.EmailSent, MessageID: "<reminder@invoicing.example>",
			To: []string{"ada@example.com"}, Attempts: 1, SentAt: ptr.To(metav1.Now()),
			Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypeInvoiceReminderSent,
				Sequence: issued.Sequence + 1, CreatedAt: metav1.Now()}}}
		// The manager's Email controller may write the Email first (it has
		// nothing to send with): write the sent status over its latest.
		Eventually(func() error {
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(reminder), reminder); err != nil {
				return err
			}
			reminder.Status = sent
			return k8s.Status().Update(ctx, reminder)
		}).Should(Succeed())

		var event struct {
			Sequence int64  `json:"sequence"`
			Type     string `json:"type"`
			Data     struct {
				Object   apiobject.Invoice       `json:"object"`
				Reminder apiobject.EventReminder `json:"reminder"`
			} `json:"data"`
		}
		Eventually(func(g Gomega) {
			resp, err := try(http.MethodGet, fmt.Sprintf("/v1/events?type=invoice.reminder_sent&after=%d", issued.Sequence),
				as(reader), inWorkspace(ns))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(resp.status).To(Equal(http.StatusOK), "body: %s", resp.body)
			var page struct {
				Data []json.RawMessage `json:"data"`
			}
			g.Expect(json.Unmarshal(resp.body, &page)).To(Succeed())
			g.Expect(page.Data).To(HaveLen(1))
			g.Expect(json.Unmarshal(page.Data[0], &event)).To(Succeed())
		}).Should(Succeed())
		Expect(event.Sequence).To(Equal(issued.Sequence + 1))
		Expect(event.Type).To(Equal("invoice.reminder_sent"))
		Expect(event.Data.Object.ID).To(Equal(id))
		Expect(event.Data.Object.Object).To(Equal("invoice"))
		Expect(event.Data.Reminder).To(Equal(apiobject.EventReminder{Days: -3, MessageID: "<reminder@invoicing.example>"}))

		By("walking the whole sequence without a hole")
		Eventually(func(g Gomega) {
			page := listEvents(g, reader, ns, "")
			g.Expect(page.Data).To(HaveLen(2))
			g.Expect(page.Data[1].Type).To(Equal("invoice.reminder_sent"))
			g.Expect(page.HasMore).To(BeFalse())
		}).Should(Succeed())

		By("streaming it")
		stream, _, err := apiClient(mainURL).With(v1client.Token(reader), v1client.Workspace(ns)).
			StreamEvents(ctx, "?type=invoice.reminder_sent")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stream.Close)
		streamed, err := stream.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(streamed.Type).To(Equal("invoice.reminder_sent"))
		Expect(apiContract.checkStreamEvent(streamed.Data)).To(Succeed())
	})

	It("shows a message the SMTP server does not take in the invoice's deliveries", Label(emailController), func() {
		configure()
		id := issue()
		sent := post("/v1/invoices/"+id+"/send", "")
		Expect(sent.status).To(Equal(http.StatusAccepted), "body: %s", sent.body)
		Eventually(func(g Gomega) {
			inv := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
			g.Expect(inv.Deliveries).To(HaveLen(1))
			d := inv.Deliveries[0]
			g.Expect(d.Purpose).To(Equal("invoice"))
			g.Expect(d.To).To(Equal([]string{"ada@example.com"}))
			g.Expect(ptr.Deref(d.MessageID, "")).To(Equal(sent.queued().MessageID))
			g.Expect(d.SentAt).To(BeNil())
			g.Expect(d.Attempts).To(BeNumerically(">=", 1))
			g.Expect(d.LastError).NotTo(BeNil())
		}).Should(Succeed())
	})
})
