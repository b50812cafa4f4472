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
	"bytes"
	"encoding/xml"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
)

// startSMTP starts a mail server for one spec, stopped after it.
func startSMTP(opts ...smtpserver.Option) *smtpserver.Server {
	GinkgoHelper()
	server, err := smtpserver.Start(opts...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(server.Close)
	return server
}

// mailProfile is the workspace's default profile sending through server.
func mailProfile(ns string, server *smtpserver.Server, mutate ...func(*billingv1.EmailSettings)) *billingv1.BillingProfile {
	settings := &billingv1.EmailSettings{From: "billing@example.com",
		SMTP: billingv1.SMTPServer{Host: server.Host, Port: server.Port, TLS: billingv1.SMTPTLSMode(server.TLS)}}
	for _, m := range mutate {
		m(settings)
	}
	return builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
		builder.WithIssuer(billingv1.Issuer{Name: "Example GmbH", Email: "billing@example.com", TaxID: "DE123456789",
			Address: &billingv1.Address{Line1: "Friedrichstraße 1", City: "Berlin", PostalCode: "10117", Country: "DE"}}),
		builder.WithDefaultTax(builder.StandardTax("19")),
		func(p *billingv1.BillingProfile) { p.Spec.Email = settings })
}

// sendInvoice is an Email named name that sends the invoice about to to,
// or to its customer without to.
func sendInvoice(ns, name, about string, to ...string) *billingv1.Email {
	return builder.Email(ns, name, builder.WithPurpose(billingv1.EmailPurposeInvoice), builder.WithInvoiceRef(about),
		builder.WithTo(to...))
}

// waitForEmail waits until the Email named name of ns is in phase.
func waitForEmail(ns, name string, phase billingv1.EmailPhase) *billingv1.Email {
	GinkgoHelper()
	em := &billingv1.Email{}
	Eventually(func(g Gomega) {
		g.Expect(apiReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, em)).To(Succeed())
		g.Expect(em.Status.Phase).To(Equal(phase), "conditions: %v", em.Status.Conditions)
	}).Should(Succeed())
	return em
}

// accepted are the messages server accepted.
func accepted(server *smtpserver.Server) []smtpserver.Message {
	var out []smtpserver.Message
	for _, m := range server.Messages() {
		if m.Accepted {
			out = append(out, m)
		}
	}
	return out
}

// subjects are the subjects of messages.
func subjects(messages []smtpserver.Message) []string {
	out := make([]string, 0, len(messages))
	for _, m := range messages {
		s, err := m.Subject()
		Expect(err).NotTo(HaveOccurred())
		out = append(out, s)
	}
	return out
}

var _ = Describe("Sending by e-mail", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme", builder.WithEmail("ap@acme.example"), func(c *billingv1.Customer) {
			c.Spec.Address = &billingv1.Address{Line1: "1 Main Street", City: "Springfield", PostalCode: "62701",
				State: "IL", Country: "US"}
		}))
	})

	It("sends a French customer's invoice in French, as one Factur-X when the profile asks for it", func() {
		server := startSMTP()
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) {
			s.AttachEInvoice = billingv1.EInvoiceAttachmentFacturX
		}))
		acme := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "acme"}}
		Expect(k8sClient.Patch(ctx, acme, client.RawPatch(types.MergePatchType,
			[]byte(`{"spec":{"preferredLocale":"fr"}}`)))).To(Succeed())
		inv := issueFor(ns, "inv-1", 12_500, "EUR")
		create(sendInvoice(ns, "inv-1-send", "inv-1"))

		em := waitForEmail(ns, "inv-1-send", billingv1.EmailSent)
		Expect(em.Status.Note).To(BeEmpty())
		messages := accepted(server)
		Expect(messages).To(HaveLen(1))
		subject, err := messages[0].Subject()
		Expect(err).NotTo(HaveOccurred())
		Expect(subject).To(And(HavePrefix("Facture "+inv.Status.Number), ContainSubstring("148,75\u00a0€")))

		By("attaching one PDF, the Factur-X, its CII inside naming the invoice")
		attachments, err := messages[0].Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(HaveLen(1))
		Expect(attachments[0].Filename).To(Equal(inv.Status.Number + ".pdf"))
		rep, err := pdfcheck.Inspect(attachments[0].Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(pdfcheck.FacturXProblems(rep)).To(BeEmpty())
		Expect(string(rep.EmbeddedFiles[0].Data)).To(ContainSubstring("<ram:ID>" + inv.Status.Number + "</ram:ID>"))
	})

	It("sends an invoice asked for with its PDF and e-invoice, and records the delivery on both", func() {
		server := startSMTP()
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) {
			s.AttachEInvoice = billingv1.EInvoiceAttachment("en16931")
			s.BCC = []string{"books@example.com"}
			s.ReplyTo = "accounts@example.com"
		}))
		inv := issueFor(ns, "inv-1", 12_500, "EUR")
		create(sendInvoice(ns, "inv-1-send", "inv-1"))

		em := waitForEmail(ns, "inv-1-send", billingv1.EmailSent)
		Expect(em.Status.Attempts).To(Equal(int32(1)))
		Expect(em.Status.To).To(Equal([]string{"ap@acme.example"}), "the customer's e-mail when none is given")
		Expect(em.Status.MessageID).To(Equal(billing.MessageID(string(em.UID), "billing@example.com")))
		Expect(meta.IsStatusConditionTrue(em.Status.Conditions, billingv1.ConditionReady)).To(BeTrue())

		By("the server received it once, to the customer and the blind copy")
		messages := accepted(server)
		Expect(messages).To(HaveLen(1))
		m := messages[0]
		Expect(m.From).To(Equal("billing@example.com"))
		from, err := m.Header.AddressList("From")
		Expect(err).NotTo(HaveOccurred())
		Expect(from).To(Equal([]*mail.Address{{Name: "Example GmbH", Address: "billing@example.com"}}),
			"the issuer's name is the From header's display name")
		Expect(m.To).To(ConsistOf("ap@acme.example", "books@example.com"))
		Expect(m.Header.Get("To")).NotTo(ContainSubstring("books@"), "a blind copy is named in no header")
		Expect(m.Header.Get("Reply-To")).To(Equal("accounts@example.com"))
		Expect(m.MessageID()).To(Equal(em.Status.MessageID))
		subject, err := m.Subject()
		Expect(err).NotTo(HaveOccurred())
		Expect(subject).To(And(ContainSubstring(inv.Status.Number), ContainSubstring("€148.75"),
			ContainSubstring(inv.Status.DueAt.UTC().Format("Jan 2, 2006"))))

		By("its PDF and its e-invoice are attached and read back")
		attachments, err := m.Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(HaveLen(2), "note: %s", em.Status.Note)
		Expect(attachments[0].MediaType).To(Equal("application/pdf"))
		Expect(attachments[0].Filename).To(Equal(inv.Status.Number + ".pdf"))
		Expect(bytes.HasPrefix(attachments[0].Body, []byte("%PDF-"))).To(BeTrue())
		Expect(attachments[1].MediaType).To(Equal("application/xml"))
		var root struct {
			XMLName xml.Name
			ID      string `xml:"ID"`
		}
		Expect(xml.Unmarshal(attachments[1].Body, &root)).To(Succeed())
		Expect(root.XMLName.Local).To(Equal("Invoice"))
		Expect(root.ID).To(Equal(inv.Status.Number))

		By("the invoice shows the delivery")
		Eventually(func(g Gomega) {
			current := &billingv1.Invoice{}
			g.Expect(apiReader.Get(ctx, client.ObjectKeyFromObject(inv), current)).To(Succeed())
			g.Expect(current.Status.Deliveries).To(HaveLen(1))
			d := current.Status.Deliveries[0]
			g.Expect(d.Email).To(Equal("inv-1-send"))
			g.Expect(d.Purpose).To(Equal(billingv1.EmailPurposeInvoice))
			g.Expect(d.MessageID).To(Equal(em.Status.MessageID))
			g.Expect(d.SentAt).NotTo(BeNil())
			g.Expect(d.Attempts).To(Equal(int32(1)))
		}).Should(Succeed())
		Consistently(func() []smtpserver.Message { return accepted(server) }).Should(HaveLen(1), "sent once")
	})

	It("sends every invoice and credit note on issue when the profile says so", func() {
		server := startSMTP()
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) { s.SendOnIssue = true }))
		inv := issueFor(ns, "inv-1", 10_000, "USD")
		note := builder.CreditNote(ns, "cn-1", "inv-1", builder.WithCreditedAmount(0, 2_500))
		create(note)

		Eventually(func() []string { return subjects(accepted(server)) }).Should(ConsistOf(
			HavePrefix("Invoice "+inv.Status.Number),
			And(HavePrefix("Credit note "), ContainSubstring(inv.Status.Number), ContainSubstring("$29.75"))))
		waitForEmail(ns, "inv-1"+mailing.OnIssueEmailSuffix, billingv1.EmailSent)
		sentNote := waitForEmail(ns, "cn-1"+mailing.OnIssueEmailSuffix, billingv1.EmailSent)
		Expect(sentNote.Spec.CreditNoteRef.Name).To(Equal("cn-1"))
		Eventually(func(g Gomega) {
			current := &billingv1.CreditNote{}
			g.Expect(apiReader.Get(ctx, client.ObjectKeyFromObject(note), current)).To(Succeed())
			g.Expect(current.Status.Deliveries).To(ConsistOf(HaveField("Purpose", billingv1.EmailPurposeCreditNote)))
		}).Should(Succeed())
	})

	It("attaches the invoice as issued, the same PDF on issue and when sent again after a payment", func() {
		server := startSMTP()
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) { s.SendOnIssue = true }))
		inv := issueFor(ns, "inv-1", 10_000, "USD")
		waitForEmail(ns, "inv-1"+mailing.OnIssueEmailSuffix, billingv1.EmailSent)
		payment := builder.Payment(ns, "pay-1", "inv-1", 4_000)
		create(payment)
		waitForPayment(payment)
		waitForPaymentStatus(inv, billingv1.InvoicePaymentPartiallyPaid)
		create(sendInvoice(ns, "inv-1-again", "inv-1"))
		waitForEmail(ns, "inv-1-again", billingv1.EmailSent)

		messages := accepted(server)
		Expect(messages).To(HaveLen(2))
		var pdfs [][]byte
		for _, m := range messages {
			attachments, err := m.Attachments()
			Expect(err).NotTo(HaveOccurred())
			Expect(attachments).To(HaveLen(1))
			pdfs = append(pdfs, attachments[0].Body)
		}
		Expect(pdfs[1]).To(Equal(pdfs[0]), "the invoice sent again is the one issued")
		Expect(pdfText(pdfs[1])).NotTo(ContainSubstring("Amount paid"))
	})

	It("sends each reminder once at -3, 0 and +7 days, and none after the invoice is paid", func() {
		server := startSMTP()
		profile := mailProfile(ns, server)
		profile.Spec.Reminders = []billingv1.Reminder{{Days: -3}, {Days: 0}, {Days: 7}}
		create(profile)
		inv := issueFor(ns, "inv-1", 10_000, "USD")
		due := inv.Status.DueAt.Time
		clock := clocktesting.NewFakePassiveClock(inv.Status.IssuedAt.Time)
		reminders := &mailing.ReminderReconciler{Client: k8sClient, Clock: clock}
		remind := func(at time.Time) time.Duration {
			GinkgoHelper()
			clock.SetTime(at)
			result, err := reminders.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(inv)})
			Expect(err).NotTo(HaveOccurred())
			return result.RequeueAfter
		}
		day := 24 * time.Hour

		By("none right after issue; the next moment is three days before the due date")
		Expect(remind(inv.Status.IssuedAt.Time)).To(Equal(due.Add(-3 * day).Sub(inv.Status.IssuedAt.Time)))
		Expect(server.Messages()).To(BeEmpty())

		By("three days before, then on the due date, then a second time on the same day")
		Expect(remind(due.Add(-3 * day))).To(Equal(3 * day))
		waitForEmail(ns, "inv-1-email-reminder-m3", billingv1.EmailSent)
		Expect(remind(due)).To(Equal(7 * day))
		Expect(remind(due.Add(time.Hour))).To(Equal(7*day - time.Hour))
		sent := waitForEmail(ns, "inv-1-email-reminder-0", billingv1.EmailSent)
		Expect(sent.Status.Events).To(ConsistOf(HaveField("Type", billingv1.EventTypeInvoiceReminderSent)))
		Eventually(func() []string { return subjects(accepted(server)) }).Should(HaveExactElements(
			HavePrefix("Reminder: invoice "+inv.Status.Number), HavePrefix("Reminder: invoice "+inv.Status.Number)))
		Expect(subjects(accepted(server))[0]).To(ContainSubstring("$119.00"))

		By("paid in full before the week after: no third reminder")
		create(builder.Payment(ns, "inv-1-pay", "inv-1", 11_900))
		waitForPaymentStatus(inv, billingv1.InvoicePaymentPaid)
		Expect(remind(due.Add(7 * day))).To(BeZero())
		Consistently(func() []smtpserver.Message { return accepted(server) }).Should(HaveLen(2))
		Expect(apiReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: "inv-1-email-reminder-7"},
			&billingv1.Email{})).NotTo(Succeed())
	})

	It("skips a queued reminder whose invoice was paid before it went out", func() {
		server := startSMTP()
		create(mailProfile(ns, server))
		inv := issueFor(ns, "inv-1", 10_000, "USD")
		create(builder.Payment(ns, "inv-1-pay", "inv-1", 11_900))
		waitForPaymentStatus(inv, billingv1.InvoicePaymentPaid)
		reminder := mailing.ReminderEmail(inv, 0)
		create(reminder)
		em := waitForEmail(ns, reminder.Name, billingv1.EmailSkipped)
		Expect(meta.FindStatusCondition(em.Status.Conditions, billingv1.ConditionReady).Reason).To(Equal(billingv1.ReasonSettled))
		Expect(em.Status.Events).To(BeEmpty())
		Expect(server.Messages()).To(BeEmpty())
	})

	It("sends a customer's statement as a PDF whose closing balance is what is open", func() {
		server := startSMTP()
		create(mailProfile(ns, server))
		issueFor(ns, "inv-1", 10_000, "USD")
		issueFor(ns, "inv-2", 5_000, "USD")
		create(builder.Payment(ns, "inv-1-pay", "inv-1", 11_900))
		waitForPaymentStatus(&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "inv-1"}},
			billingv1.InvoicePaymentPaid)
		today := time.Now().UTC()
		create(&billingv1.Email{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "statement"},
			Spec: billingv1.EmailSpec{Purpose: billingv1.EmailPurposeStatement,
				CustomerRef: &billingv1.CustomerReference{Name: "acme"},
				Statement: &billingv1.StatementPeriod{From: today.AddDate(0, 0, -30).Format(time.DateOnly),
					To: today.AddDate(0, 0, 1).Format(time.DateOnly)}}})
		waitForEmail(ns, "statement", billingv1.EmailSent)
		messages := accepted(server)
		Expect(messages).To(HaveLen(1))
		subject, err := messages[0].Subject()
		Expect(err).NotTo(HaveOccurred())
		Expect(subject).To(HavePrefix("Statement of account "))
		attachments, err := messages[0].Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(HaveLen(1))
		Expect(attachments[0].MediaType).To(Equal("application/pdf"))
		text := pdfText(attachments[0].Body)
		Expect(text).To(ContainSubstring("Customer acme"))
		Expect(text).To(ContainSubstring("$59.50"), "the closing balance: inv-2's 5,950 with tax, inv-1 paid")
		Eventually(func(g Gomega) {
			c := &billingv1.Customer{}
			g.Expect(apiReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: "acme"}, c)).To(Succeed())
			g.Expect(c.Status.Deliveries).To(ConsistOf(HaveField("Purpose", billingv1.EmailPurposeStatement)))
		}).Should(Succeed())
	})

	It("sends again an invoice sealed in a closed period, read from its seal", func() {
		server := startSMTP()
		inv, payment := paidInvoice(ns)
		number := waitForReady(inv, billingv1.ReasonIssued).Status.Number
		closeBooks(ns)
		expectAllGone(inv, payment)
		create(mailProfile(ns, server))
		create(sendInvoice(ns, "copy", inv.Name))
		em := waitForEmail(ns, "copy", billingv1.EmailSent)
		Expect(em.Status.To).To(Equal([]string{"ap@acme.example"}))
		messages := accepted(server)
		Expect(messages).To(HaveLen(1))
		attachments, err := messages[0].Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(HaveLen(1))
		Expect(pdfText(attachments[0].Body)).To(ContainSubstring(number))
	})

	It("retries a refusing server, then gives up with DeliveryFailing, and issuing goes on", func() {
		server := startSMTP(smtpserver.FailingFirst(100, smtpserver.Refuse(smtpserver.AtMail, 451)))
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) { s.SendOnIssue = true }))
		issueFor(ns, "inv-1", 10_000, "USD")
		em := waitForEmail(ns, "inv-1"+mailing.OnIssueEmailSuffix, billingv1.EmailFailed)
		Expect(em.Status.Attempts).To(Equal(int32(billingv1.EmailMaxAttempts)))
		Expect(em.Status.LastError).To(ContainSubstring("451"))
		failing := meta.FindStatusCondition(em.Status.Conditions, billingv1.ConditionDeliveryFailing)
		Expect(failing).NotTo(BeNil())
		Expect(failing.Status).To(Equal(metav1.ConditionTrue))
		Expect(failing.Reason).To(Equal(billingv1.ReasonAttemptsExhausted))
		Expect(meta.IsStatusConditionTrue(em.Status.Conditions, billingv1.ConditionStalled)).To(BeTrue())
		Expect(server.Struck(smtpserver.AtMail)).To(Equal(billingv1.EmailMaxAttempts))

		By("the next invoice is issued all the same")
		issueFor(ns, "inv-2", 10_000, "USD")
	})

	It("retries a server that stalls until the attempt times out, and sends on the next attempt", func() {
		server := startSMTP(smtpserver.FailingFirst(1, smtpserver.Stall(smtpserver.AtData)))
		create(mailProfile(ns, server))
		issueFor(ns, "inv-1", 10_000, "USD")
		create(sendInvoice(ns, "inv-1-send", "inv-1", "someone@example.org"))
		em := waitForEmail(ns, "inv-1-send", billingv1.EmailSent)
		Expect(em.Status.Attempts).To(Equal(int32(2)))
		Expect(em.Status.To).To(Equal([]string{"someone@example.org"}))
		Expect(accepted(server)).To(HaveLen(1))
		Expect(accepted(server)[0].MessageID()).To(Equal(em.Status.MessageID))
		By("the copy the server read before it stalled carries the same Message-ID: a recipient sees one message twice")
		received := server.Received()
		Expect(received).To(HaveLen(2))
		Expect(received[0].MessageID()).To(Equal(em.Status.MessageID))
		Expect(received[1].MessageID()).To(Equal(em.Status.MessageID))
	})

	It("fails a message it can never send as asked, and sends nothing", func() {
		server := startSMTP()
		issueFor(ns, "inv-1", 10_000, "USD")
		create(sendInvoice(ns, "unconfigured", "inv-1"))
		em := waitForEmail(ns, "unconfigured", billingv1.EmailFailed)
		Expect(meta.FindStatusCondition(em.Status.Conditions, billingv1.ConditionReady).Reason).To(Equal(billingv1.ReasonNotConfigured))

		create(mailProfile(ns, server))
		create(sendInvoice(ns, "missing", "no-such-invoice"))
		em = waitForEmail(ns, "missing", billingv1.EmailFailed)
		Expect(meta.FindStatusCondition(em.Status.Conditions, billingv1.ConditionReady).Reason).To(Equal(billingv1.ReasonSubjectNotFound))

		Consistently(server.Messages).Should(BeEmpty())
	})

	It("authenticates over STARTTLS and never writes the credentials into a status or an event", func() {
		const username, password = "invoicing@example.com", "s3cret-Pa55word-never-shown"
		server := startSMTP(smtpserver.WithStartTLS(smtpCA), smtpserver.WithAuth(username, password))
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "smtp"},
			Data: map[string][]byte{"username": []byte(username), "password": []byte("wrong-" + password)}}
		create(secret)
		create(mailProfile(ns, server, func(s *billingv1.EmailSettings) {
			s.SMTP.CredentialsSecretRef = &billingv1.SecretReference{Name: "smtp"}
		}))
		issueFor(ns, "inv-1", 10_000, "USD")

		By("a wrong password fails the attempt, and the error says so without the password")
		create(sendInvoice(ns, "wrong", "inv-1"))
		Eventually(func(g Gomega) {
			em := &billingv1.Email{}
			g.Expect(apiReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: "wrong"}, em)).To(Succeed())
			g.Expect(em.Status.Attempts).To(BeNumerically(">=", 2))
			g.Expect(em.Status.LastError).To(ContainSubstring("AUTH"))
		}).Should(Succeed())

		By("the right one sends over TLS, authenticated")
		secret.Data["password"] = []byte(password)
		Expect(k8sClient.Update(ctx, secret)).To(Succeed())
		create(sendInvoice(ns, "right", "inv-1"))
		waitForEmail(ns, "right", billingv1.EmailSent)
		Expect(accepted(server)).NotTo(BeEmpty())
		Expect(accepted(server)[0].TLS).To(BeTrue())
		Expect(accepted(server)[0].Username).To(Equal(username))

		By("no status and no event of the workspace holds the password")
		for _, list := range []client.ObjectList{&billingv1.EmailList{}, &billingv1.InvoiceList{},
			&billingv1.BillingProfileList{}, &corev1.EventList{}} {
			Expect(apiReader.List(ctx, list, client.InNamespace(ns))).To(Succeed())
			Expect(fmt.Sprintf("%+v", list)).NotTo(ContainSubstring("s3cret"), "%T", list)
		}
	})
})

// waitForPaymentStatus waits until inv's balance has status.
func waitForPaymentStatus(inv *billingv1.Invoice, status billingv1.InvoicePaymentStatus) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		current := &billingv1.Invoice{}
		g.Expect(apiReader.Get(ctx, client.ObjectKeyFromObject(inv), current)).To(Succeed())
		g.Expect(current.Status.Balance).NotTo(BeNil())
		g.Expect(current.Status.Balance.PaymentStatus).To(Equal(status))
	}).Should(Succeed())
}

// pdfText is the text of every page of a PDF, each run of text on a line.
func pdfText(doc []byte) string {
	GinkgoHelper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	Expect(err).NotTo(HaveOccurred())
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		Expect(err).NotTo(HaveOccurred())
		for _, row := range rows {
			for _, w := range row.Content {
				b.WriteString(w.S)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
