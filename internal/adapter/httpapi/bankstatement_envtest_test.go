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
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/test/camtfile"
	"github.com/invoicing-dev/invoicing/internal/test/qrread"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Bank statements", func() {
	const iban = "DE02120300000000202051"

	It("pay an invoice by reference and one by number and amount; a typo waits for a hand; a re-import creates nothing", func() {
		ws := newWorkspace()
		api := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ws))
		Expect(k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ws},
			Spec: billingv1.BillingProfileSpec{
				Issuer:  &billingv1.Issuer{Name: "Example Invoicing GmbH"},
				Payment: &billingv1.PaymentAccount{IBAN: iban, BIC: "BYLADEM1001"},
			},
		})).To(Succeed())
		cust, resp, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Acme", Email: "ap@acme.example"})
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)

		By("issuing three invoices, each with its payment reference")
		var invoices []*v1client.Invoice
		for _, amount := range []int64{119_00, 50_00, 75_00} {
			created, resp, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Currency: "EUR",
				Items: []v1client.Item{{Description: "Work", Quantity: billingv1.Units(1), Amount: amount}}})
			Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
			var inv *v1client.Invoice
			Eventually(func(g Gomega) {
				inv, _, err = api.GetInvoice(ctx, created.ID)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(inv.Status).To(Equal("issued"))
				g.Expect(inv.PaymentReference).NotTo(BeNil(), "issued before the cache saw the profile")
			}).Should(Succeed())
			Expect(*inv.PaymentReference).To(Equal(banktransfer.Reference(*inv.Number)))
			invoices = append(invoices, inv)
		}
		first, second, third := invoices[0], invoices[1], invoices[2]

		By("reading the EPC QR code of the first one's HTML with a QR decoder")
		doc, err := api.InvoiceDocument(ctx, first.ID, "text/html")
		Expect(err).NotTo(HaveOccurred())
		text, err := qrread.HTML(doc.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Split(text, "\n")).To(Equal([]string{"BCD", "002", "1", "SCT", "BYLADEM1001",
			"Example Invoicing GmbH", iban, "EUR119.00", "", *first.PaymentReference}))

		By("importing a statement that quotes the QR code's reference, a number with its amount, a typo and a fee")
		statement := camtfile.Write(iban, "stmt-2026-11", []camtfile.Entry{
			{BankRef: "B-1", Cents: 119_00, Day: "2026-11-20", Reference: strings.Split(text, "\n")[9]},
			{BankRef: "B-2", Cents: 50_00, Day: "2026-11-20", Text: "Invoice " + *second.Number + ", thanks"},
			{BankRef: "B-3", Cents: 75_00, Day: "2026-11-21", Text: "Invoice " + strings.Replace(*third.Number, "0", "O", 1)},
			{BankRef: "B-4", Cents: 3_50, Day: "2026-11-21", Debit: true, Text: "Account fee"},
			{BankRef: "B-5", Cents: 9_99, Day: "2026-11-22", Pending: true},
		})
		imported, resp, err := api.ImportBankStatement(ctx, statement)
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(resp.Status).To(Equal(http.StatusCreated))
		Expect(imported.Object).To(Equal("bank_statement"))
		Expect(imported.Account).To(Equal(iban))
		Expect(imported.Transactions).To(Equal(4), "the pending entry is not booked yet")
		Expect(imported.New).To(Equal(4))
		Expect(imported.Matched + imported.Unmatched + imported.Ignored + imported.Pending).To(Equal(4))

		By("finding two invoices paid, the typo unmatched and the fee ignored")
		var typo v1client.BankTransaction
		Eventually(func(g Gomega) {
			for _, inv := range invoices[:2] {
				got, _, err := api.GetInvoice(ctx, inv.ID)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(got.PaymentStatus).To(HaveValue(Equal("paid")), "invoice %s", inv.ID)
			}
			unmatched, _, err := api.ListBankTransactions(ctx, v1client.ListParams{Status: "unmatched"})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(unmatched.Data).To(HaveLen(1))
			typo = unmatched.Data[0]
			ignored, _, err := api.ListBankTransactions(ctx, v1client.ListParams{Status: "ignored"})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(ignored.Data).To(HaveLen(1))
			g.Expect(ignored.Data[0].StatusReason).To(HaveValue(Equal("debit")))
			matched, _, err := api.ListBankTransactions(ctx, v1client.ListParams{Status: "matched"})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(matched.Data).To(HaveLen(2))
		}).Should(Succeed())
		Expect(typo.BankReference).To(HaveValue(Equal("B-3")))
		Expect(typo.StatusReason).To(HaveValue(Equal("no_match")))
		Expect(typo.Amount).To(Equal(int64(75_00)))

		By("matching the typo by hand")
		matched, resp, err := api.MatchBankTransaction(ctx, typo.ID, third.ID)
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(matched.Status).To(Equal("matched"))
		Expect(matched.MatchedBy).To(HaveValue(Equal("manual")))
		Expect(matched.InvoiceID).To(HaveValue(Equal(third.ID)))
		Expect(matched.PaymentID).To(HaveValue(Equal(typo.ID)))
		Eventually(func(g Gomega) {
			got, _, err := api.GetInvoice(ctx, third.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.PaymentStatus).To(HaveValue(Equal("paid")))
			t, _, err := api.GetBankTransaction(ctx, typo.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(t.Status).To(Equal("matched"))
			g.Expect(t.MatchedBy).To(HaveValue(Equal("manual")))
		}).Should(Succeed())
		pay, _, err := api.GetPayment(ctx, typo.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(pay.Amount).To(Equal(int64(75_00)))

		By("finding each match and the unmatched line in the event feed")
		reader := eventsReader(ws)
		Eventually(func(g Gomega) {
			events := send(http.MethodGet, "/v1/events?type=bank_transaction.matched,bank_transaction.unmatched",
				as(reader), inWorkspace(ws))
			g.Expect(events.status).To(Equal(http.StatusOK))
			g.Expect(strings.Count(string(events.body), `"type":"bank_transaction.matched"`)).To(Equal(3))
			g.Expect(strings.Count(string(events.body), `"type":"bank_transaction.unmatched"`)).To(Equal(1))
		}).Should(Succeed())

		By("importing the same statement again")
		again, resp, err := api.ImportBankStatement(ctx, statement)
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(again.Transactions).To(Equal(4))
		Expect(again.New).To(Equal(0))
		Expect(again.Matched).To(Equal(3))
		Expect(again.Ignored).To(Equal(1))
		Expect(countIn(ws, &billingv1.BankTransactionList{})).To(Equal(4))
		Expect(countIn(ws, &billingv1.PaymentList{})).To(Equal(3))
	})

	It("refuses what cannot be imported or matched, and creates nothing", func() {
		ws := newWorkspace()
		api := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ws))
		cust, _, err := api.CreateCustomer(ctx, v1client.CustomerParams{Name: "Acme", Email: "ap@acme.example"})
		Expect(err).NotTo(HaveOccurred())
		usd, _, err := api.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: cust.ID, Currency: "USD",
			Items: []v1client.Item{{Description: "Work", Quantity: billingv1.Units(1), Amount: 10_00}}})
		Expect(err).NotTo(HaveOccurred())
		statement := camtfile.Write(iban, "stmt-1", []camtfile.Entry{
			{BankRef: "R-1", Cents: 10_00, Day: "2026-11-20", Text: "no reference"},
			{BankRef: "R-2", Cents: 2_00, Day: "2026-11-20", Debit: true},
		})

		for _, c := range []struct {
			name, contentType string
			body              string
			status            int
			code              string
		}{
			{"a statement sent as JSON", "application/json", string(statement), http.StatusUnsupportedMediaType, "unsupported_media_type"},
			{"a body that is not XML", "application/xml", "not xml", http.StatusUnprocessableEntity, "statement_invalid"},
			{"a payment order, not a statement", "application/xml",
				`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>`,
				http.StatusUnprocessableEntity, "statement_invalid"},
			{"a statement that fails its schema", "application/xml",
				strings.Replace(string(statement), "<CdtDbtInd>CRDT</CdtDbtInd>", "<CdtDbtInd>CREDIT</CdtDbtInd>", 1),
				http.StatusUnprocessableEntity, "statement_invalid"},
		} {
			got := send(http.MethodPost, "/v1/bank_statements", inWorkspace(ws), withBody(c.body),
				withContentType(c.contentType))
			Expect(got.status).To(Equal(c.status), "%s: %s", c.name, got.body)
			Expect(got.apiErr().Code).To(Equal(c.code), c.name)
		}
		Expect(countIn(ws, &billingv1.BankTransactionList{})).To(BeZero())

		_, resp, err := api.ImportBankStatement(ctx, statement)
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		var credit, debit v1client.BankTransaction
		Eventually(func(g Gomega) {
			list, _, err := api.ListBankTransactions(ctx, v1client.ListParams{})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(list.Data).To(HaveLen(2))
			for _, t := range list.Data {
				g.Expect(t.Status).NotTo(Equal("pending"))
				if t.CreditDebit == "credit" {
					credit = t
				} else {
					debit = t
				}
			}
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			inv, _, err := api.GetInvoice(ctx, usd.ID)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())

		for _, c := range []struct {
			name, id, invoice string
			status            int
			code              string
		}{
			{"an unknown transaction", "btx-0000000000000000000000000000000000000000", usd.ID, http.StatusNotFound, "resource_missing"},
			{"an ignored debit", debit.ID, usd.ID, http.StatusConflict, "transaction_not_matchable"},
			{"an unknown invoice", credit.ID, "inv-nope", http.StatusUnprocessableEntity, "resource_missing"},
			{"an invoice in another currency", credit.ID, usd.ID, http.StatusUnprocessableEntity, "currency_mismatch"},
		} {
			_, resp, err := api.MatchBankTransaction(ctx, c.id, c.invoice)
			Expect(err).To(HaveOccurred(), c.name)
			Expect(resp.Status).To(Equal(c.status), "%s: %s", c.name, resp.Body)
			Expect(resp.Err().Code).To(Equal(c.code), c.name)
		}
		got := send(http.MethodGet, "/v1/bank_transactions?status=lost", inWorkspace(ws))
		Expect(got.status).To(Equal(http.StatusBadRequest))
		Expect(countIn(ws, &billingv1.PaymentList{})).To(BeZero())
	})
})

// countIn is how many objects of list's kind workspace ns holds, read from
// the API server.
func countIn(ns string, list client.ObjectList) int {
	ExpectWithOffset(1, k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	return meta.LenList(list)
}
