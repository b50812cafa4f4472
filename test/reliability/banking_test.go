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

package reliability

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/camtfile"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("The manager killed while a 2,000-line bank statement is matched", func() {
	It("pays every invoice exactly once, each by one payment named like its line, and imports nothing twice", func() {
		const lines = 2000
		const iban = "DE02120300000000202051"
		ws := newWorkspace("banking")
		Expect(k8s.Create(ctx, &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: ws},
			Spec:       billingv1.BillingProfileSpec{Payment: &billingv1.PaymentAccount{IBAN: iban}},
		})).To(Succeed())
		Expect(k8s.Create(ctx, builder.Customer(ws, "payer"))).To(Succeed())
		awaitFinalizer(ws, "payer")

		By("issuing an invoice per line, each with its payment reference")
		for i := range lines {
			Expect(k8s.Create(ctx, builder.Invoice(ws, fmt.Sprintf("inv-%04d", i), builder.WithCustomer("payer"),
				builder.WithCurrency("EUR"), builder.WithItem("Work", 1, int64(100+i))))).To(Succeed())
		}
		var invoices billingv1.InvoiceList
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &invoices, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(invoices.Items).To(HaveLen(lines))
			for _, inv := range invoices.Items {
				g.Expect(inv.Status.PaymentReference).NotTo(BeEmpty(), "invoice %s", inv.Name)
			}
		}).WithTimeout(3 * time.Minute).Should(Succeed())

		By("importing a statement that pays half by reference and half by number and amount")
		entries := make([]camtfile.Entry, 0, lines)
		for i, inv := range invoices.Items {
			e := camtfile.Entry{BankRef: fmt.Sprintf("BANK-%05d", i), Cents: *inv.Status.Total, Day: "2026-11-20"}
			if i%2 == 0 {
				e.Reference = inv.Status.PaymentReference
			} else {
				e.Text = "Invoice " + inv.Status.Number
			}
			entries = append(entries, e)
		}
		statement := camtfile.Write(iban, "stmt-reliability", entries)
		adapter := startInProcessAdapter(httpapi.Options{RateLimit: -1})
		// An import may take the server's StatementTimeout: 2,000 creates
		// while the manager matches take minutes on a loaded machine.
		api := v1client.New(adapter.url, &http.Client{Timeout: httpapi.StatementTimeout + time.Minute}).
			With(v1client.Token(tokens[callers[0]]), v1client.Workspace(ws))

		matched := func() int {
			var list billingv1.BankTransactionList
			Expect(k8s.List(ctx, &list, crclient.InNamespace(ws))).To(Succeed())
			n := 0
			for _, t := range list.Items {
				if t.Status.Phase == billingv1.BankTransactionMatched {
					n++
				}
			}
			return n
		}
		// The manager matches while the import creates the lines: it is
		// killed twice meanwhile, and its second life ends once the import
		// has answered.
		type answer struct {
			imported *v1client.BankStatement
			resp     *v1client.Response
			err      error
		}
		answered := make(chan answer, 1)
		go func() {
			defer GinkgoRecover()
			imported, resp, err := api.ImportBankStatement(ctx, statement)
			answered <- answer{imported, resp, err}
		}()

		By("killing the manager twice while it matches")
		Eventually(matched).WithTimeout(time.Minute).Should(BeNumerically(">=", 100))
		manager.kill()
		GinkgoWriter.Printf("Killed the manager after %d matches\n", matched())
		manager = startManager()
		before := matched()
		Eventually(matched).WithTimeout(time.Minute).Should(BeNumerically(">=", min(before+100, lines)))
		var first answer
		Eventually(answered).WithTimeout(httpapi.StatementTimeout + time.Minute).Should(Receive(&first))
		Expect(first.err).NotTo(HaveOccurred(), "body: %v", first.resp)
		Expect(first.imported.Transactions).To(Equal(lines))
		manager.kill()
		GinkgoWriter.Printf("Killed the restarted manager after %d matches\n", matched())
		again, resp, err := api.ImportBankStatement(ctx, statement)
		Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
		Expect(again.New).To(BeZero(), "a re-import while no manager runs creates nothing")
		manager = startManager()

		By("finding every line matched, every invoice paid once, by the payment of its line")
		Eventually(matched).WithTimeout(3 * time.Minute).Should(Equal(lines))
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &invoices, crclient.InNamespace(ws))).To(Succeed())
			for _, inv := range invoices.Items {
				g.Expect(inv.Status.Balance).NotTo(BeNil(), "invoice %s", inv.Name)
				g.Expect(inv.Status.Balance.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid), "invoice %s", inv.Name)
				g.Expect(inv.Status.Balance.AmountOverpaid).To(BeZero(), "invoice %s was paid twice", inv.Name)
			}
		}).WithTimeout(3 * time.Minute).Should(Succeed())
		var payments billingv1.PaymentList
		Expect(k8s.List(ctx, &payments, crclient.InNamespace(ws))).To(Succeed())
		Expect(payments.Items).To(HaveLen(lines))
		paid := map[string]string{}
		for _, p := range payments.Items {
			Expect(p.Labels[billingv1.LabelBankTransaction]).To(Equal(p.Name), "payment %s", p.Name)
			Expect(paid).NotTo(HaveKey(p.Spec.InvoiceRef.Name), "invoice %s paid by %s and %s",
				p.Spec.InvoiceRef.Name, paid[p.Spec.InvoiceRef.Name], p.Name)
			paid[p.Spec.InvoiceRef.Name] = p.Name
		}
		var transactions billingv1.BankTransactionList
		Expect(k8s.List(ctx, &transactions, crclient.InNamespace(ws))).To(Succeed())
		Expect(transactions.Items).To(HaveLen(lines))
	})
})
