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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
)

// sealedKinds are the rows of the record table a seal holds.
var sealedKinds = recordkind.Where(func(k *recordkind.Kind) bool { return k.Sealed != nil })

// liveRecords returns the uids of ws's live records of every kind a seal
// holds, by "kind/name".
func liveRecords(ws string) map[string]string {
	out := map[string]string{}
	for _, k := range sealedKinds {
		list := k.NewList()
		Expect(k8s.List(ctx, list, crclient.InNamespace(ws))).To(Succeed())
		Expect(meta.EachListItem(list, func(item runtime.Object) error {
			obj := item.(crclient.Object)
			out[k.Name+"/"+obj.GetName()] = string(obj.GetUID())
			return nil
		})).To(Succeed())
	}
	return out
}

var _ = Describe("The manager killed while it seals families with credit, write-offs, refunds and e-mails", func() {
	It("finds every record in exactly one seal, none lost, the customer's credit balance unchanged and the "+
		"chain verified", func() {
		ws := newWorkspace("seal-all")
		server, err := smtpserver.Start()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(server.Close)
		Expect(k8s.Create(ctx, builder.BillingProfile(ws, billingv1.DefaultBillingProfileName,
			builder.WithEmailSettings(server.Host, server.Port, "billing@example.com"),
			builder.WithSMTPTLS(billingv1.SMTPTLSNone)))).To(Succeed())
		Expect(k8s.Create(ctx, builder.Customer(ws, "payer", builder.WithEmail("ap@payer.example")))).To(Succeed())
		awaitFinalizer(ws, "payer")

		// 180 invoices of 1,000, in six kinds of family by i%6: 0 overpaid
		// by 300 (the customer's credit), 1 paid by 200 of that credit and
		// a payment of 800, 2 written off, 3 written off then paid (a
		// recovered bad debt), 4 paid and sent by e-mail, 5 paid.
		const families, amount, over = 180, 1000, 300
		invoiceName := func(i int) string { return fmt.Sprintf("inv-%03d", i) }
		By("issuing the invoices")
		for i := range families {
			Expect(k8s.Create(ctx, builder.Invoice(ws, invoiceName(i), builder.WithCustomer("payer"),
				builder.WithNumberedItems(1, 1, amount)))).To(Succeed())
		}
		awaitCount(ws, &billingv1.InvoiceList{}, families, isIssued, 3*time.Minute)

		By("overpaying every sixth invoice, so the customer has credit")
		for i := 0; i < families; i += 6 {
			Expect(k8s.Create(ctx, builder.Payment(ws, "pay-"+invoiceName(i), invoiceName(i), amount+over))).To(Succeed())
		}
		credit := func(g Gomega) int64 {
			var c billingv1.Customer
			g.Expect(k8s.Get(ctx, crclient.ObjectKey{Namespace: ws, Name: "payer"}, &c)).To(Succeed())
			for _, b := range billing.CreditBalance(c.Status.Credit) {
				if b.Currency == "USD" {
					return b.Amount
				}
			}
			return 0
		}
		Eventually(credit).WithTimeout(2 * time.Minute).Should(Equal(int64(families / 6 * over)))

		By("applying credit, writing off, paying, refunding and sending")
		const applied, refunds, refunded = 200, 5, 100
		for i := range families {
			inv := invoiceName(i)
			switch i % 6 {
			case 1:
				Expect(k8s.Create(ctx, builder.CreditApplication(ws, "capp-"+inv, inv, applied))).To(Succeed())
				Expect(k8s.Create(ctx, builder.Payment(ws, "pay-"+inv, inv, amount-applied))).To(Succeed())
			case 2, 3:
				Expect(k8s.Create(ctx, builder.WriteOff(ws, "wo-"+inv, inv, "the customer went away"))).To(Succeed())
			case 4:
				Expect(k8s.Create(ctx, builder.Payment(ws, "pay-"+inv, inv, amount))).To(Succeed())
				Expect(k8s.Create(ctx, builder.Email(ws, "em-"+inv, builder.WithPurpose(billingv1.EmailPurposeInvoice),
					builder.WithInvoiceRef(inv)))).To(Succeed())
			case 5:
				Expect(k8s.Create(ctx, builder.Payment(ws, "pay-"+inv, inv, amount))).To(Succeed())
			}
		}
		for i := range refunds {
			Expect(k8s.Create(ctx, builder.Refund(ws, fmt.Sprintf("rf-%d", i), "payer", refunded, "USD"))).To(Succeed())
		}
		today := time.Now().UTC().Format(time.DateOnly)
		Expect(k8s.Create(ctx, builder.Email(ws, "em-statement", builder.WithPurpose(billingv1.EmailPurposeStatement),
			builder.WithCustomerRef("payer"), builder.WithStatement(today, today)))).To(Succeed())
		// The recovered bad debts are paid once their write-off is
		// recorded: a payment first would leave nothing to write off.
		awaitCount(ws, &billingv1.WriteOffList{}, 2*families/6,
			func(wo *billingv1.WriteOff) bool { return wo.Status.Phase == billingv1.WriteOffRecorded }, 2*time.Minute)
		for i := 3; i < families; i += 6 {
			inv := invoiceName(i)
			Expect(k8s.Create(ctx, builder.Payment(ws, "pay-"+inv, inv, amount))).To(Succeed())
		}

		By("waiting until every record is final")
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
			for _, inv := range invs.Items {
				g.Expect(inv.Settled()).To(BeTrue(), "invoice %s is %v", inv.Name, inv.Status.Balance)
			}
			for _, k := range sealedKinds {
				list := k.NewList()
				g.Expect(k8s.List(ctx, list, crclient.InNamespace(ws))).To(Succeed())
				g.Expect(meta.EachListItem(list, func(item runtime.Object) error {
					s, ok := item.(billingv1.Settled)
					g.Expect(ok && s.Settled()).To(BeTrue(), "%s %s is not final", k.Name, item.(crclient.Object).GetName())
					return nil
				})).To(Succeed())
			}
		}).WithTimeout(3 * time.Minute).Should(Succeed())
		var refundList billingv1.RefundList
		Expect(k8s.List(ctx, &refundList, crclient.InNamespace(ws))).To(Succeed())
		for _, rf := range refundList.Items {
			Expect(rf.Status.Phase).To(Equal(billingv1.RefundRecorded), "refund %s", rf.Name)
		}
		var capps billingv1.CreditApplicationList
		Expect(k8s.List(ctx, &capps, crclient.InNamespace(ws))).To(Succeed())
		for _, a := range capps.Items {
			Expect(a.Status.Phase).To(Equal(billingv1.CreditApplicationApplied), "credit application %s", a.Name)
		}
		uids := liveRecords(ws)
		balance := credit(Default)
		Expect(balance).To(Equal(int64(families/6*(over-applied) - refunds*refunded)))

		By("closing the books and killing the manager twice while it seals")
		closeAndKillTwice(ws, func() int { return len(liveRecords(ws)) })

		By("waiting until no record of any sealed kind is live")
		Eventually(func() map[string]string { return liveRecords(ws) }).WithTimeout(5*time.Minute).
			Should(BeEmpty(), "sealing did not finish: %s", manager.tail())

		By("verifying the chain and finding every record in exactly one seal, as it was")
		counted := verifySealed(ws, uids, nil)
		Expect(counted).To(Equal(map[string]int{
			recordkind.Invoice.Name: families, recordkind.Payment.Name: families - families/6,
			recordkind.CreditApplication.Name: families / 6, recordkind.WriteOff.Name: 2 * families / 6,
			recordkind.Refund.Name: refunds, recordkind.Email.Name: families/6 + 1,
		}))

		By("finding the customer's credit balance as it was before the close, its ledger folded into carried")
		Eventually(func(g Gomega) {
			var c billingv1.Customer
			g.Expect(k8s.Get(ctx, crclient.ObjectKey{Namespace: ws, Name: "payer"}, &c)).To(Succeed())
			g.Expect(c.Status.Credit).NotTo(BeNil())
			g.Expect(c.Status.Credit.Sources).To(BeEmpty(), "sources of sealed invoices are left")
			g.Expect(c.Status.Credit.Uses).To(BeEmpty(), "uses of sealed records are left")
			g.Expect(c.Status.Credit.Carried).To(ConsistOf(HaveField("Amount", balance)))
		}).WithTimeout(time.Minute).Should(Succeed())
		Consistently(credit).WithTimeout(3 * time.Second).Should(Equal(balance))
	})
})
