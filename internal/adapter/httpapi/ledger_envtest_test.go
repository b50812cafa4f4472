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

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Credit notes and payments over a real listener (issue 23). The specs
// labelled ledgerController need the controller that issues credit notes
// and records payments; the others hold with the adapter alone.

// ledgerController labels the specs that need the ledger's controller.
const ledgerController = "ledger-controller"

var _ = Describe("Credit notes and payments", func() {
	var ns string
	var invoiceID string
	BeforeEach(func() {
		ns = newWorkspace()
		customer := createCustomer(v1client.Workspace(ns))
		// 2 x 1500 EUR at 19% and 1 x 500 EUR at 7%: total 3570 + 535 = 4105.
		created := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[%s,%s]}`, customer.ID,
			taxedItem("Support", 2, 1500, standard(`"19"`)), taxedItem("Book", 1, 500, standard(`"7"`)))))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		invoiceID = created.invoice().ID
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns))
			g.Expect(got.invoice().Status).To(Equal("issued"))
		}).Should(Succeed())
	})

	count := func(list client.ObjectList) int {
		ExpectWithOffset(1, k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
		return len(mustItems(list))
	}
	creditNote := func(body string) response {
		return send(http.MethodPost, "/v1/credit_notes", inWorkspace(ns), withBody(body))
	}
	payment := func(body string) response {
		return send(http.MethodPost, "/v1/payments", inWorkspace(ns), withBody(body))
	}

	It("answers an issued invoice's balance: nothing credited or paid, its total open", func() {
		inv := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
		Expect(*inv.AmountRemaining).To(Equal(int64(4105)))
		Expect(*inv.AmountCredited + *inv.AmountPaid + *inv.AmountOverpaid).To(BeZero())
		Expect(*inv.PaymentStatus).To(Equal("open"))
		Expect(*inv.Overdue).To(BeFalse())
	})

	It("creates a credit note, pending, with the amounts it will be issued with, and reads and lists it", func() {
		got := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"order_change","memo":"one hour less",`+
			`"lines":[{"invoice_line":0,"quantity":1}]}`, invoiceID))
		Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
		var cn apiobject.CreditNote
		Expect(json.Unmarshal(got.body, &cn)).To(Succeed())
		Expect(cn.ID).To(HavePrefix("cn-"))
		Expect(cn.Status).To(Equal("pending"))
		Expect(*cn.Total).To(Equal(int64(1785)))
		Expect(cn.Lines).To(HaveLen(1))
		Expect(cn.Lines[0].Description).To(Equal("Support"))
		Expect(got.header.Get("Location")).To(Equal("/v1/credit_notes/" + cn.ID))

		read := send(http.MethodGet, "/v1/credit_notes/"+cn.ID, inWorkspace(ns))
		Expect(read.status).To(Equal(http.StatusOK))
		list := send(http.MethodGet, "/v1/credit_notes?invoice_id="+invoiceID, inWorkspace(ns))
		Expect(list.status).To(Equal(http.StatusOK))
		Expect(list.body).To(ContainSubstring(cn.ID))
	})

	It("answers 409 for the document of a credit note that is not issued", func() {
		// Made with kubectl for an invoice that does not exist, it stays
		// pending, whatever the controller does meanwhile.
		waiting := builder.CreditNote(ns, "cn-waiting", "inv-missing", builder.WithCreditedQuantity(0, 1))
		Expect(k8s.Create(ctx, waiting)).To(Succeed())
		Eventually(func(g Gomega) {
			doc := send(http.MethodGet, "/v1/credit_notes/cn-waiting/document", inWorkspace(ns))
			g.Expect(doc.status).To(Equal(http.StatusConflict), "a pending credit note has no document: %s", doc.body)
			g.Expect(doc.apiErr().Code).To(Equal(CodeCreditNoteNotIssued))
		}).Should(Succeed())
	})

	It("creates a payment, pending, in the invoice's currency, and reads and lists it", func() {
		got := payment(fmt.Sprintf(`{"invoice_id":%q,"amount":1000,"method":"bank_transfer","reference":"RF18"}`, invoiceID))
		Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
		var p apiobject.Payment
		Expect(json.Unmarshal(got.body, &p)).To(Succeed())
		Expect(p.ID).To(HavePrefix("pay-"))
		Expect(p.Currency).To(Equal("EUR"))
		Expect(send(http.MethodGet, "/v1/payments/"+p.ID, inWorkspace(ns)).status).To(Equal(http.StatusOK))
		list := send(http.MethodGet, "/v1/payments?invoice_id="+invoiceID, inWorkspace(ns))
		Expect(list.body).To(ContainSubstring(p.ID))
	})

	DescribeTable("refuses a credit note that does not fit the invoice, and creates nothing",
		func(body func(id string) string, status int, code, param string) {
			got := creditNote(body(invoiceID))
			Expect(got.status).To(Equal(status), "body: %s", got.body)
			Expect(got.apiErr().Code).To(Equal(code))
			Expect(got.apiErr().Param).To(Equal(param))
			Expect(count(&billingv1.CreditNoteList{})).To(BeZero())
		},
		Entry("an unknown invoice", func(string) string { return `{"invoice_id":"inv-none","reason":"other","full_credit":true}` },
			422, CodeResourceMissing, "invoice_id"),
		Entry("a line above what is left of its invoice line", func(id string) string {
			return fmt.Sprintf(`{"invoice_id":%q,"reason":"other","lines":[{"invoice_line":1,"amount":100},{"invoice_line":0,"quantity":3}]}`, id)
		}, 422, CodeExceedsCreditable, "lines[1].quantity"),
		Entry("an invoice_line the invoice has not", func(id string) string {
			return fmt.Sprintf(`{"invoice_id":%q,"reason":"other","lines":[{"invoice_line":2,"amount":1}]}`, id)
		}, 422, CodeParameterInvalid, "lines[0].invoice_line"),
		Entry("both lines and full_credit", func(id string) string {
			return fmt.Sprintf(`{"invoice_id":%q,"reason":"other","full_credit":true,"lines":[{"invoice_line":0,"amount":1}]}`, id)
		}, 422, CodeParameterInvalid, "full_credit"),
	)

	DescribeTable("refuses a payment that does not fit the invoice, and creates nothing",
		func(body func(id string) string, status int, code, param string) {
			got := payment(body(invoiceID))
			Expect(got.status).To(Equal(status), "body: %s", got.body)
			Expect(got.apiErr().Code).To(Equal(code))
			Expect(got.apiErr().Param).To(Equal(param))
			Expect(count(&billingv1.PaymentList{})).To(BeZero())
		},
		Entry("an unknown invoice", func(string) string { return `{"invoice_id":"inv-none","amount":1}` },
			422, CodeResourceMissing, "invoice_id"),
		Entry("another currency", func(id string) string { return fmt.Sprintf(`{"invoice_id":%q,"amount":1,"currency":"USD"}`, id) },
			422, CodeCurrencyMismatch, "currency"),
		Entry("an amount above what remains", func(id string) string { return fmt.Sprintf(`{"invoice_id":%q,"amount":4106}`, id) },
			422, CodeExceedsRemaining, "amount"),
		Entry("a paid_at an hour ahead", func(id string) string {
			return fmt.Sprintf(`{"invoice_id":%q,"amount":1,"paid_at":"2999-01-01T00:00:00Z"}`, id)
		}, 422, CodeParameterInvalid, "paid_at"),
	)

	It("refuses credit notes and payments of an invoice that is not issued, and creates nothing", func() {
		inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "inv-waiting", Namespace: ns},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "cus-none"}, Currency: "EUR",
				Items: []billingv1.LineItem{{Description: "x", Quantity: billingv1.Units(1), Amount: 1}}}}
		Expect(k8s.Create(ctx, inv)).To(Succeed())
		got := creditNote(`{"invoice_id":"inv-waiting","reason":"other","full_credit":true}`)
		Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
		Expect(got.apiErr().Code).To(Equal(CodeInvoiceNotIssued))
		got = payment(`{"invoice_id":"inv-waiting","amount":1}`)
		Expect(got.status).To(Equal(http.StatusConflict), "body: %s", got.body)
		Expect(got.apiErr().Code).To(Equal(CodeInvoiceNotIssued))
		Expect(count(&billingv1.CreditNoteList{}) + count(&billingv1.PaymentList{})).To(BeZero())
	})

	It("lists invoices by payment_status and overdue, and refuses a bad value", func() {
		open := send(http.MethodGet, "/v1/invoices?payment_status=open", inWorkspace(ns))
		Expect(open.status).To(Equal(http.StatusOK))
		Expect(open.body).To(ContainSubstring(invoiceID))
		paid := send(http.MethodGet, "/v1/invoices?payment_status=paid&status=issued", inWorkspace(ns))
		Expect(paid.invoices().Data).To(BeEmpty())
		Expect(send(http.MethodGet, "/v1/invoices?overdue=true", inWorkspace(ns)).invoices().Data).To(BeEmpty())
		bad := send(http.MethodGet, "/v1/invoices?payment_status=settled", inWorkspace(ns))
		Expect(bad.status).To(Equal(http.StatusBadRequest))
		Expect(bad.apiErr().Param).To(Equal(queryPaymentStatus))
	})

	It("issues a full credit, voids the invoice, then refuses another credit and any payment", Label(ledgerController), func() {
		got := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"issued_in_error","full_credit":true}`, invoiceID))
		Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
		var cn apiobject.CreditNote
		Expect(json.Unmarshal(got.body, &cn)).To(Succeed())
		var number string
		Eventually(func(g Gomega) {
			var read apiobject.CreditNote
			g.Expect(json.Unmarshal(send(http.MethodGet, "/v1/credit_notes/"+cn.ID, inWorkspace(ns)).body, &read)).To(Succeed())
			g.Expect(read.Status).To(Equal("issued"))
			g.Expect(read.Number).NotTo(BeNil())
			g.Expect(*read.Total).To(Equal(int64(4105)))
			number = *read.Number
		}).Should(Succeed())
		doc := send(http.MethodGet, "/v1/credit_notes/"+cn.ID+"/document", inWorkspace(ns), withHeader("Accept", "application/pdf"))
		Expect(doc.status).To(Equal(http.StatusOK))
		Expect(doc.header.Get("Content-Type")).To(Equal("application/pdf"))
		Eventually(func(g Gomega) {
			inv := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
			g.Expect(*inv.PaymentStatus).To(Equal("void"))
		}).Should(Succeed())
		By("the invoice's document lists the credit note by its number, and nothing remains")
		page := send(http.MethodGet, "/v1/invoices/"+invoiceID+"/document", inWorkspace(ns), withHeader("Accept", "text/html"))
		Expect(page.status).To(Equal(http.StatusOK))
		Expect(string(page.body)).To(And(ContainSubstring("Credit note "+number), ContainSubstring("Amount remaining")))
		Expect(string(page.body)).NotTo(ContainSubstring("Payment by bank transfer"))
		again := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"other","lines":[{"invoice_line":0,"amount":1}]}`, invoiceID))
		Expect(again.status).To(Equal(http.StatusConflict), "body: %s", again.body)
		Expect(again.apiErr().Code).To(Equal(CodeInvoiceFullyCredited))
		pay := payment(fmt.Sprintf(`{"invoice_id":%q,"amount":1}`, invoiceID))
		Expect(pay.status).To(Equal(http.StatusConflict), "body: %s", pay.body)
		Expect(pay.apiErr().Code).To(Equal(CodeInvoiceVoid))
		Expect(count(&billingv1.CreditNoteList{})).To(Equal(1))
		Expect(count(&billingv1.PaymentList{})).To(BeZero())
	})

	It("records a payment and answers the balance, then refuses more than remains", Label(ledgerController), func() {
		got := payment(fmt.Sprintf(`{"invoice_id":%q,"amount":4000}`, invoiceID))
		Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
		Eventually(func(g Gomega) {
			inv := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
			g.Expect(*inv.AmountPaid).To(Equal(int64(4000)))
			g.Expect(*inv.AmountRemaining).To(Equal(int64(105)))
			g.Expect(*inv.PaymentStatus).To(Equal("partially_paid"))
		}).Should(Succeed())
		list := send(http.MethodGet, "/v1/invoices?payment_status=partially_paid", inWorkspace(ns))
		Expect(list.body).To(ContainSubstring(invoiceID))
		more := payment(fmt.Sprintf(`{"invoice_id":%q,"amount":106}`, invoiceID))
		Expect(more.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", more.body)
		Expect(more.apiErr().Code).To(Equal(CodeExceedsRemaining))
		Expect(count(&billingv1.PaymentList{})).To(Equal(1))
	})
})

// mustItems returns the items of a list of credit notes or payments.
func mustItems(list client.ObjectList) []any {
	var out []any
	switch l := list.(type) {
	case *billingv1.CreditNoteList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *billingv1.PaymentList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	}
	return out
}
