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
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Money on account over a real listener (issue 36): a customer's credit,
// credit applied to its invoices, refunds and write-offs. The specs
// labelled moneyController need the manager's controllers of money on
// account, which the suite runs; the others hold with the adapter alone.

// moneyController labels the specs that need the controllers of money on
// account.
const moneyController = "money-controller"

var _ = Describe("Money on account", func() {
	var ns, customerID, reader string
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
		reader = eventsReader(ns)
	})

	post := func(path, body string) response {
		GinkgoHelper()
		return send(http.MethodPost, path, inWorkspace(ns), withBody(body))
	}
	get := func(path string) response {
		GinkgoHelper()
		got := send(http.MethodGet, path, inWorkspace(ns))
		Expect(got.status).To(Equal(http.StatusOK), "GET %s: %s", path, got.body)
		return got
	}
	// issue creates an invoice of the customer for amount in currency over
	// HTTP and returns its id once it is issued.
	issue := func(amount int64, currency string) string {
		GinkgoHelper()
		created := post("/v1/invoices", fmt.Sprintf(`{"customer_id":%q,"currency":%q,"items":[%s]}`,
			customerID, currency, untaxedItem("Work", amount)))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		id := created.invoice().ID
		Eventually(func(g Gomega) {
			inv := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
			g.Expect(inv.Status).To(Equal("issued"))
			g.Expect(ptr.Deref(inv.AmountRemaining, -1)).To(Equal(amount))
		}).Should(Succeed())
		return id
	}
	invoice := func(id string) apiobject.Invoice {
		return send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
	}
	creditOf := func(g Gomega) []apiobject.CurrencyAmount {
		got := send(http.MethodGet, "/v1/customers/"+customerID, inWorkspace(ns))
		g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
		return got.customer().CreditBalance
	}
	eur := func(amount int64) []apiobject.CurrencyAmount {
		return []apiobject.CurrencyAmount{{Currency: "EUR", Amount: amount}}
	}
	// overpay issues an invoice of 10000 EUR, pays 10000 + credit for it
	// as a bank import would, with kubectl (the API refuses more than
	// remains), and waits until the customer's credit_balance shows it.
	overpay := func(credit int64) string {
		GinkgoHelper()
		id := issue(10_000, "EUR")
		Expect(k8s.Create(ctx, builder.Payment(ns, id+"-over", id, 10_000+credit))).To(Succeed())
		Eventually(creditOf).Should(Equal(eur(credit)))
		return id
	}
	// ids lists path and returns the ids of the page.
	ids := func(path string) []string {
		GinkgoHelper()
		var page apiobject.List[struct {
			ID string `json:"id"`
		}]
		Expect(json.Unmarshal(get(path).body, &page)).To(Succeed())
		out := make([]string, len(page.Data))
		for i, o := range page.Data {
			out[i] = o.ID
		}
		return out
	}
	// eventsOf lists the workspace's events of type typ.
	eventsOf := func(g Gomega, typ string) []eventJSON {
		return listEvents(g, reader, ns, "type="+typ).Data
	}

	It("makes an overpayment the customer's credit_balance, in its currency", Label(moneyController), func() {
		Expect(creditOf(Default)).To(BeEmpty(), "a new customer has an empty credit_balance, not null")
		overpay(2_500)
		By("listing the customer with it too")
		Expect(string(get("/v1/customers").body)).To(ContainSubstring(`"credit_balance":[{"currency":"EUR","amount":2500}]`))
	})

	It("applies credit by hand to the next invoice: amount_applied, amount_remaining and the credit left",
		Label(moneyController), func() {
			overpay(5_000)
			next := issue(8_000, "EUR")

			created := post("/v1/credit_applications", fmt.Sprintf(`{"invoice_id":%q,"amount":3000}`, next))
			Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
			var capp apiobject.CreditApplication
			Expect(json.Unmarshal(created.body, &capp)).To(Succeed())
			Expect(capp.ID).To(HavePrefix("capp-"))
			Expect(capp.Status).To(Equal("pending"))
			Expect(capp.Currency).To(Equal("EUR"))
			Expect(capp.CustomerID).To(Equal(customerID))
			Expect(created.header.Get("Location")).To(Equal("/v1/credit_applications/" + capp.ID))

			Eventually(func(g Gomega) {
				var got apiobject.CreditApplication
				g.Expect(json.Unmarshal(send(http.MethodGet, "/v1/credit_applications/"+capp.ID, inWorkspace(ns)).body,
					&got)).To(Succeed())
				g.Expect(got.Status).To(Equal("applied"))
				g.Expect(got.AppliedAt).NotTo(BeNil())
				g.Expect(got.StatusReason).To(BeNil())
			}).Should(Succeed())
			Eventually(func(g Gomega) {
				inv := invoice(next)
				g.Expect(ptr.Deref(inv.AmountApplied, -1)).To(Equal(int64(3_000)))
				g.Expect(ptr.Deref(inv.AmountRemaining, -1)).To(Equal(int64(5_000)))
				g.Expect(ptr.Deref(inv.PaymentStatus, "")).To(Equal("partially_paid"))
			}).Should(Succeed())
			Eventually(creditOf).Should(Equal(eur(2_000)))

			By("listing it by invoice at once, and by customer once the controller has looked at it")
			Expect(ids("/v1/credit_applications?invoice_id=" + next)).To(Equal([]string{capp.ID}))
			Eventually(func() []string { return ids("/v1/credit_applications?customer_id=" + customerID) }).
				Should(Equal([]string{capp.ID}))

			By("recording a credit.applied event with the credit application")
			Eventually(func(g Gomega) {
				events := eventsOf(g, "credit.applied")
				g.Expect(events).To(HaveLen(1))
				g.Expect(events[0].Data.Object.Object).To(Equal("credit_application"))
				g.Expect(events[0].Data.Object.ID).To(Equal(capp.ID))
				g.Expect(events[0].Data.Object.InvoiceID).To(Equal(next))
			}).Should(Succeed())

			By("refusing more than the credit left, although the invoice leaves more to pay, and creating nothing")
			more := post("/v1/credit_applications", fmt.Sprintf(`{"invoice_id":%q,"amount":2001}`, next))
			Expect(more.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", more.body)
			Expect(more.apiErr().Code).To(Equal(CodeExceedsCredit))
			Expect(more.apiErr().Param).To(Equal("amount"))
			Expect(ids("/v1/credit_applications")).To(Equal([]string{capp.ID}))
		})

	It("refuses a credit application above what remains of the invoice, and creates nothing", Label(moneyController), func() {
		overpay(9_000)
		next := issue(4_000, "EUR")
		got := post("/v1/credit_applications", fmt.Sprintf(`{"invoice_id":%q,"amount":4001}`, next))
		Expect(got.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", got.body)
		Expect(got.apiErr().Code).To(Equal(CodeExceedsRemaining))
		Expect(got.apiErr().Param).To(Equal("amount"))
		Expect(ids("/v1/credit_applications")).To(BeEmpty())
	})

	It("refunds part of the credit, and keeps the rest", Label(moneyController), func() {
		overpay(5_000)
		created := post("/v1/refunds", fmt.Sprintf(
			`{"customer_id":%q,"amount":2000,"currency":"eur","method":"bank_transfer","reference":"RF18"}`, customerID))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		var rf apiobject.Refund
		Expect(json.Unmarshal(created.body, &rf)).To(Succeed())
		Expect(rf.ID).To(HavePrefix("rf-"))
		Expect(rf.Status).To(Equal("pending"))
		Expect(rf.Currency).To(Equal("EUR"))
		Expect(rf.RefundedAt).To(Equal(rf.CreatedAt))

		Eventually(func(g Gomega) {
			var got apiobject.Refund
			g.Expect(json.Unmarshal(send(http.MethodGet, "/v1/refunds/"+rf.ID, inWorkspace(ns)).body, &got)).To(Succeed())
			g.Expect(got.Status).To(Equal("recorded"))
			g.Expect(got.RecordedAt).NotTo(BeNil())
		}).Should(Succeed())
		Eventually(creditOf).Should(Equal(eur(3_000)))
		Expect(ids("/v1/refunds?customer_id=" + customerID)).To(Equal([]string{rf.ID}))
		Expect(ids("/v1/refunds?customer_id=cus-other")).To(BeEmpty())

		By("recording a refund.recorded event with the refund")
		Eventually(func(g Gomega) {
			events := eventsOf(g, "refund.recorded")
			g.Expect(events).To(HaveLen(1))
			g.Expect(events[0].Data.Object.Object).To(Equal("refund"))
			g.Expect(events[0].Data.Object.ID).To(Equal(rf.ID))
		}).Should(Succeed())

		By("refusing a refund of more than is left, and creating nothing")
		more := post("/v1/refunds", fmt.Sprintf(`{"customer_id":%q,"amount":3001,"currency":"EUR"}`, customerID))
		Expect(more.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", more.body)
		Expect(more.apiErr().Code).To(Equal(CodeExceedsCredit))
		Expect(more.apiErr().Param).To(Equal("amount"))
		Expect(ids("/v1/refunds")).To(Equal([]string{rf.ID}))
	})

	It("refuses a refund dated in a closed period, and creates nothing", Label(moneyController), func() {
		overpay(1_000)
		closeOctober(ns)
		// The close is written straight to the API server: wait until the
		// adapter's cache has it, so that one refund is asked, once.
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/period_closes/pclose-oct", inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			g.Expect(ptr.Deref(got.periodClose().WorkspaceClosedThrough, "")).To(Equal("2026-10-31T23:59:59Z"))
		}).Should(Succeed())
		got := post("/v1/refunds", fmt.Sprintf(
			`{"customer_id":%q,"amount":500,"currency":"EUR","refunded_at":"2026-10-15T12:00:00Z"}`, customerID))
		Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
		Expect(got.apiErr().Code).To(Equal(CodePeriodClosed))
		Expect(got.apiErr().Param).To(Equal("refunded_at"))
		Expect(ids("/v1/refunds")).To(BeEmpty())
	})

	It("writes off an invoice, then a late payment recovers it: uncollectible, then paid", Label(moneyController), func() {
		id := issue(10_000, "EUR")
		created := post("/v1/write_offs", fmt.Sprintf(`{"invoice_id":%q,"reason":"The customer stopped answering."}`, id))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		var wo apiobject.WriteOff
		Expect(json.Unmarshal(created.body, &wo)).To(Succeed())
		Expect(wo.ID).To(HavePrefix("wo-"))
		Expect(wo.Status).To(Equal("pending"))
		Expect(wo.Amount).To(BeNil())
		Expect(wo.CustomerID).To(Equal(customerID))

		Eventually(func(g Gomega) {
			var got apiobject.WriteOff
			g.Expect(json.Unmarshal(send(http.MethodGet, "/v1/write_offs/"+wo.ID, inWorkspace(ns)).body, &got)).To(Succeed())
			g.Expect(got.Status).To(Equal("recorded"))
			g.Expect(ptr.Deref(got.Amount, -1)).To(Equal(int64(10_000)))
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			inv := invoice(id)
			g.Expect(ptr.Deref(inv.PaymentStatus, "")).To(Equal("uncollectible"))
			g.Expect(ptr.Deref(inv.AmountWrittenOff, -1)).To(Equal(int64(10_000)))
			g.Expect(ptr.Deref(inv.AmountRemaining, -1)).To(BeZero())
			g.Expect(ptr.Deref(inv.Overdue, true)).To(BeFalse())
		}).Should(Succeed())
		Eventually(func() []string { return ids("/v1/invoices?payment_status=uncollectible") }).Should(Equal([]string{id}))
		Expect(ids("/v1/write_offs?invoice_id=" + id)).To(Equal([]string{wo.ID}))
		Eventually(func() []string { return ids("/v1/write_offs?customer_id=" + customerID) }).Should(Equal([]string{wo.ID}))

		By("recording an invoice.marked_uncollectible event with the invoice, the write-off beside it")
		Eventually(func(g Gomega) {
			events := eventsOf(g, "invoice.marked_uncollectible")
			g.Expect(events).To(HaveLen(1))
			g.Expect(events[0].Data.Object.Object).To(Equal("invoice"))
			g.Expect(events[0].Data.Object.ID).To(Equal(id))
			g.Expect(events[0].Data.WriteOff).NotTo(BeNil())
			g.Expect(events[0].Data.WriteOff.ID).To(Equal(wo.ID))
			g.Expect(events[0].Data.WriteOff.Object).To(Equal("write_off"))
			g.Expect(events[0].Data.WriteOff.InvoiceID).To(Equal(id))
		}).Should(Succeed())

		By("streaming the event with the invoice and the write-off")
		stream, _, err := apiClient(mainURL).With(v1client.Token(reader), v1client.Workspace(ns)).
			StreamEvents(ctx, "?type=invoice.marked_uncollectible")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stream.Close)
		streamed, err := stream.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(streamed.Type).To(Equal("invoice.marked_uncollectible"))
		Expect(apiContract.checkStreamEvent(streamed.Data)).To(Succeed())
		Expect(string(streamed.Data)).To(ContainSubstring(`"data":{"object":{"id":%q,"object":"invoice"`, id))
		Expect(string(streamed.Data)).To(ContainSubstring(`"write_off":{"id":%q,"object":"write_off"`, wo.ID))

		By("refusing a second write-off: nothing remains")
		again := post("/v1/write_offs", fmt.Sprintf(`{"invoice_id":%q,"reason":"again"}`, id))
		Expect(again.status).To(Equal(http.StatusConflict), "body: %s", again.body)
		Expect(again.apiErr().Code).To(Equal(CodeInvoiceNotOpen))

		By("taking a late payment of what was written off, which recovers it")
		paid := post("/v1/payments", fmt.Sprintf(`{"invoice_id":%q,"amount":10000}`, id))
		Expect(paid.status).To(Equal(http.StatusCreated), "body: %s", paid.body)
		Eventually(func(g Gomega) {
			inv := invoice(id)
			g.Expect(ptr.Deref(inv.PaymentStatus, "")).To(Equal("paid"))
			g.Expect(ptr.Deref(inv.AmountWrittenOff, -1)).To(BeZero())
			g.Expect(ptr.Deref(inv.AmountPaid, -1)).To(Equal(int64(10_000)))
		}).Should(Succeed())
		Eventually(creditOf).Should(BeEmpty(), "a recovered bad debt is no credit")
	})

	It("creates a write-off once per Idempotency-Key, and answers a retry with it even once it is recorded",
		Label(moneyController), func() {
			id := issue(4_000, "EUR")
			body := fmt.Sprintf(`{"invoice_id":%q,"reason":"bad debt"}`, id)
			first := send(http.MethodPost, "/v1/write_offs", inWorkspace(ns), withBody(body), withIdempotencyKey("wo-key-1"))
			Expect(first.status).To(Equal(http.StatusCreated), "body: %s", first.body)
			Expect(first.header.Get(IdempotentReplayedHeader)).To(BeEmpty())
			Eventually(func(g Gomega) {
				g.Expect(ptr.Deref(invoice(id).PaymentStatus, "")).To(Equal("uncollectible"))
			}).Should(Succeed())

			By("answering a retry with the write-off, although the invoice leaves nothing to write off now")
			again := send(http.MethodPost, "/v1/write_offs", inWorkspace(ns), withBody(body), withIdempotencyKey("wo-key-1"))
			Expect(again.status).To(Equal(http.StatusCreated), "body: %s", again.body)
			Expect(again.header.Get(IdempotentReplayedHeader)).To(Equal("true"))
			Expect(again.header.Get("Location")).To(Equal(first.header.Get("Location")))
			Expect(string(again.body)).To(ContainSubstring(`"status":"recorded"`))

			By("refusing the key with another request, and the request without the key")
			other := issue(1_000, "EUR")
			reused := send(http.MethodPost, "/v1/write_offs", inWorkspace(ns),
				withBody(fmt.Sprintf(`{"invoice_id":%q,"reason":"bad debt"}`, other)), withIdempotencyKey("wo-key-1"))
			Expect(reused.status).To(Equal(http.StatusConflict), "body: %s", reused.body)
			Expect(reused.apiErr().Code).To(Equal(CodeIdempotencyReused))
			fresh := send(http.MethodPost, "/v1/write_offs", inWorkspace(ns), withBody(body), withIdempotencyKey("wo-key-2"))
			Expect(fresh.status).To(Equal(http.StatusConflict), "body: %s", fresh.body)
			Expect(fresh.apiErr().Code).To(Equal(CodeInvoiceNotOpen))
			Expect(ids("/v1/write_offs")).To(HaveLen(1))
		})

	Describe("refusals, each creating nothing", func() {
		// nothing checks that no object of the three kinds exists, through
		// the API server and through each list.
		nothing := func() {
			GinkgoHelper()
			for _, list := range []client.ObjectList{&billingv1.CreditApplicationList{}, &billingv1.RefundList{},
				&billingv1.WriteOffList{}} {
				Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
				Expect(apimeta.LenList(list)).To(BeZero(), "%T holds %v", list, list)
			}
			for _, path := range []string{"/v1/credit_applications", "/v1/refunds", "/v1/write_offs"} {
				Expect(ids(path)).To(BeEmpty(), "GET %s", path)
			}
		}
		// waiting is an invoice made with kubectl for a customer that does
		// not exist: it is never issued.
		waiting := func() string {
			GinkgoHelper()
			Expect(k8s.Create(ctx, builder.Invoice(ns, "inv-waiting", inEUR("cus-none")...))).To(Succeed())
			return "inv-waiting"
		}
		// sealed is an issued invoice that a seal holds, served as if live.
		sealed := func() string {
			GinkgoHelper()
			inv := &billingv1.Invoice{
				TypeMeta:   metav1.TypeMeta{APIVersion: billingv1.GroupVersion.String(), Kind: "Invoice"},
				ObjectMeta: metav1.ObjectMeta{Name: "inv-sealed", Namespace: ns, UID: types.UID("uid-inv-sealed")},
				Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: customerID}, Currency: "EUR",
					Items: []billingv1.LineItem{{Description: "Support", Quantity: billingv1.Units(1), Amount: 1000}}},
				Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000001",
					Total: ptr.To[int64](1000)},
			}
			Expect(k8s.Create(ctx, sealOf(ns, 1, billingv1.ZeroHash, inv))).To(Succeed())
			Eventually(func(g Gomega) {
				got := send(http.MethodGet, "/v1/invoices/inv-sealed", inWorkspace(ns))
				g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
				g.Expect(ptr.Deref(got.invoice().Seal, "")).To(Equal("seal-000001"))
			}).Should(Succeed())
			return "inv-sealed"
		}
		// issued is an invoice of 4000 EUR of the customer, issued.
		issued := func() string { GinkgoHelper(); return issue(4_000, "EUR") }
		none := func() string { return "inv-none" }

		DescribeTable("of a credit application",
			func(invoiceOf func() string, body string, status int, code, param string) {
				got := post("/v1/credit_applications", fmt.Sprintf(body, invoiceOf()))
				Expect(got.status).To(Equal(status), "body: %s", got.body)
				Expect(got.apiErr().Code).To(Equal(code))
				Expect(got.apiErr().Param).To(Equal(param))
				nothing()
			},
			Entry("an unknown invoice", none, `{"invoice_id":%q,"amount":1}`, 422, CodeResourceMissing, "invoice_id"),
			Entry("an invoice that is not issued", waiting, `{"invoice_id":%q,"amount":1}`,
				409, CodeInvoiceNotIssued, "invoice_id"),
			Entry("a sealed invoice", sealed, `{"invoice_id":%q,"amount":1}`, 409, CodeInvoiceSealed, "invoice_id"),
			Entry("more than the customer's credit", issued, `{"invoice_id":%q,"amount":1}`,
				422, CodeExceedsCredit, "amount"),
			Entry("no amount", issued, `{"invoice_id":%q}`, 422, CodeParameterMissing, "amount"),
			Entry("an amount that is not whole", issued, `{"invoice_id":%q,"amount":2.5}`,
				422, CodeParameterInvalid, "amount"),
			Entry("an amount of 0", issued, `{"invoice_id":%q,"amount":0}`, 422, CodeParameterInvalid, "amount"),
			Entry("an amount of 2^53", issued, `{"invoice_id":%q,"amount":9007199254740992}`,
				422, CodeParameterInvalid, "amount"),
		)

		DescribeTable("of a refund",
			func(body func(customer string) string, status int, code, param string) {
				got := post("/v1/refunds", body(customerID))
				Expect(got.status).To(Equal(status), "body: %s", got.body)
				Expect(got.apiErr().Code).To(Equal(code))
				Expect(got.apiErr().Param).To(Equal(param))
				nothing()
			},
			Entry("an unknown customer", func(string) string { return `{"customer_id":"cus-none","amount":1,"currency":"EUR"}` },
				422, CodeResourceMissing, "customer_id"),
			Entry("more than the customer's credit", func(c string) string {
				return fmt.Sprintf(`{"customer_id":%q,"amount":1,"currency":"EUR"}`, c)
			}, 422, CodeExceedsCredit, "amount"),
			Entry("no currency", func(c string) string { return fmt.Sprintf(`{"customer_id":%q,"amount":1}`, c) },
				422, CodeParameterMissing, "currency"),
			Entry("a method payments do not have", func(c string) string {
				return fmt.Sprintf(`{"customer_id":%q,"amount":1,"currency":"EUR","method":"bitcoin"}`, c)
			}, 422, CodeParameterInvalid, "method"),
			Entry("a refunded_at in the future", func(c string) string {
				return fmt.Sprintf(`{"customer_id":%q,"amount":1,"currency":"EUR","refunded_at":%q}`, c,
					time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
			}, 422, CodeParameterInvalid, "refunded_at"),
			Entry("an amount of 0", func(c string) string {
				return fmt.Sprintf(`{"customer_id":%q,"amount":0,"currency":"EUR"}`, c)
			}, 422, CodeParameterInvalid, "amount"),
		)

		DescribeTable("of a write-off",
			func(invoiceOf func() string, body string, status int, code, param string) {
				got := post("/v1/write_offs", fmt.Sprintf(body, invoiceOf()))
				Expect(got.status).To(Equal(status), "body: %s", got.body)
				Expect(got.apiErr().Code).To(Equal(code))
				Expect(got.apiErr().Param).To(Equal(param))
				nothing()
			},
			Entry("an unknown invoice", none, `{"invoice_id":%q,"reason":"bad debt"}`, 422, CodeResourceMissing, "invoice_id"),
			Entry("an invoice that is not issued", waiting, `{"invoice_id":%q,"reason":"bad debt"}`,
				409, CodeInvoiceNotIssued, "invoice_id"),
			Entry("a sealed invoice", sealed, `{"invoice_id":%q,"reason":"bad debt"}`, 409, CodeInvoiceSealed, "invoice_id"),
			Entry("no reason", issued, `{"invoice_id":%q}`, 422, CodeParameterMissing, "reason"),
			Entry("a reason of 501 characters", issued, `{"invoice_id":%q,"reason":"`+strings.Repeat("r", 501)+`"}`,
				422, CodeParameterInvalid, "reason"),
		)

		It("of a write-off of an invoice with nothing left to pay", Label(moneyController), func() {
			id := issue(4_000, "EUR")
			Expect(post("/v1/payments", fmt.Sprintf(`{"invoice_id":%q,"amount":4000}`, id)).status).To(Equal(http.StatusCreated))
			Eventually(func(g Gomega) { g.Expect(ptr.Deref(invoice(id).PaymentStatus, "")).To(Equal("paid")) }).Should(Succeed())
			got := post("/v1/write_offs", fmt.Sprintf(`{"invoice_id":%q,"reason":"bad debt"}`, id))
			Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
			Expect(got.apiErr().Code).To(Equal(CodeInvoiceNotOpen))
			Expect(got.apiErr().Param).To(Equal("invoice_id"))
			nothing()
		})

		It("of a list of refunds by invoice: a refund has no invoice", func() {
			got := send(http.MethodGet, "/v1/refunds?invoice_id=inv-1", inWorkspace(ns))
			Expect(got.status).To(Equal(http.StatusBadRequest), "body: %s", got.body)
			Expect(got.apiErr().Code).To(Equal(CodeParameterUnknown))
			Expect(got.apiErr().Param).To(Equal(queryInvoiceID))
		})
	})
})
