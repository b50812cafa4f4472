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
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// closeBooksNow closes ws's books through a second ago, once that second
// is past.
func closeBooksNow(ws string) {
	GinkgoHelper()
	time.Sleep(1100 * time.Millisecond)
	Expect(k8s.Create(ctx, &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Namespace: ws, Name: "now"},
		Spec:       billingv1.PeriodCloseSpec{Through: time.Now().Add(-time.Second).UTC().Format(time.RFC3339)},
	})).To(Succeed())
}

// sealsOf returns ws's seals.
func sealsOf(ws string) []billingv1.LedgerSeal {
	GinkgoHelper()
	var list billingv1.LedgerSealList
	Expect(k8s.List(ctx, &list, crclient.InNamespace(ws))).To(Succeed())
	return list.Items
}

// closeAndKillTwice closes ws's books and SIGKILLs the manager twice
// while it seals: as soon as a seal exists (its originals not yet all
// labelled and deleted), and again once the restarted manager has moved
// some of them out. live counts ws's records that are still to be sealed.
func closeAndKillTwice(ws string, live func() int) {
	GinkgoHelper()
	before := live()
	closeBooksNow(ws)
	Eventually(func() int { return len(sealsOf(ws)) }).WithTimeout(2*time.Minute).
		Should(BeNumerically(">", 0), "no seal was made: %s", manager.tail())
	manager.kill()
	GinkgoWriter.Printf("Killed the manager with %d seals made, %d records live\n", len(sealsOf(ws)), live())
	time.Sleep(300 * time.Millisecond)
	manager = startManager()
	Eventually(live).WithTimeout(2*time.Minute).
		Should(BeNumerically("<", before), "the restarted manager moved nothing: %s", manager.tail())
	manager.kill()
	GinkgoWriter.Printf("Killed the restarted manager with %d seals made, %d records live\n", len(sealsOf(ws)), live())
	time.Sleep(300 * time.Millisecond)
	manager = startManager()
}

// verifySealed verifies ws's chain of seals and finds every record of
// uids (kind/name → the original's uid) in exactly one seal, with its uid,
// and no other record; each sees every sealed record. It returns how many
// records of each kind the seals hold.
func verifySealed(ws string, uids map[string]string, each func(seal.Record)) map[string]int {
	GinkgoHelper()
	made := sealsOf(ws)
	ptrs := make([]*billingv1.LedgerSeal, len(made))
	for i := range made {
		ptrs[i] = &made[i]
	}
	sealedIn := map[string]string{}
	counted := map[string]int{}
	head, err := seal.VerifyChain(ptrs, func(s *billingv1.LedgerSeal, raw []byte) error {
		recs, err := seal.Records(raw)
		if err != nil {
			return err
		}
		c := s.Spec.Counts
		Expect(recs).To(HaveLen(int(c.Invoices + c.CreditNotes + c.Payments + c.CreditApplications + c.WriteOffs +
			c.Refunds + c.Emails)))
		for _, r := range recs {
			key := r.Kind + "/" + r.Object.GetName()
			Expect(sealedIn).NotTo(HaveKey(key), "%s is in %s and in %s", key, sealedIn[key], s.Name)
			sealedIn[key] = s.Name
			Expect(uids).To(HaveKey(key), "%s was sealed, but was not settled before the close", key)
			Expect(string(r.Object.GetUID())).To(Equal(uids[key]), "%s was sealed with another uid", key)
			counted[r.Kind]++
			if each != nil {
				each(r)
			}
		}
		return nil
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(head).To(Equal(made[len(made)-1].Spec.Hash))
	for key := range uids {
		Expect(sealedIn).To(HaveKey(key), "%s was lost", key)
	}
	return counted
}

var _ = Describe("The manager killed while it seals a thousand families", func() {
	It("leaves every record live or in exactly one seal, never lost and never sealed twice, with a chain "+
		"that verifies and events still gapless", func() {
		ws := newWorkspace("sealing")
		Expect(k8s.Create(ctx, builder.Customer(ws, "payer"))).To(Succeed())
		awaitFinalizer(ws, "payer")

		// A thousand invoices of 1,000 each. Most are paid by one payment,
		// every tenth by two of 500, every seventh is credited in full
		// (void) instead: families of one, two and three records.
		const families, amount = 1000, 1000
		invoiceName := func(i int) string { return fmt.Sprintf("inv-%04d", i) }
		parallel := func(n int, create func(i int) crclient.Object) {
			var wg sync.WaitGroup
			next := make(chan int)
			for range 8 {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					for i := range next {
						Expect(k8s.Create(ctx, create(i))).To(Succeed())
					}
				}()
			}
			for i := range n {
				next <- i
			}
			close(next)
			wg.Wait()
		}
		By("issuing a thousand invoices")
		parallel(families, func(i int) crclient.Object {
			return builder.Invoice(ws, invoiceName(i), builder.WithCustomer("payer"), builder.WithNumberedItems(1, 1, amount))
		})
		awaitCount(ws, &billingv1.InvoiceList{}, families, isIssued, 3*time.Minute)

		By("settling every invoice")
		uids := map[string]string{} // kind/name → uid of the original
		settle := func(i int) []crclient.Object {
			switch {
			case i%7 == 0:
				return []crclient.Object{builder.CreditNote(ws, fmt.Sprintf("cn-%04d", i), invoiceName(i), builder.WithFullCredit())}
			case i%10 == 0:
				return []crclient.Object{builder.Payment(ws, fmt.Sprintf("pay-%04d-a", i), invoiceName(i), amount/2),
					builder.Payment(ws, fmt.Sprintf("pay-%04d-b", i), invoiceName(i), amount/2)}
			default:
				return []crclient.Object{builder.Payment(ws, fmt.Sprintf("pay-%04d", i), invoiceName(i), amount)}
			}
		}
		var all []crclient.Object
		for i := range families {
			all = append(all, settle(i)...)
		}
		parallel(len(all), func(i int) crclient.Object { return all[i] })
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
			settled := 0
			for _, inv := range invs.Items {
				if b := inv.Status.Balance; b != nil && (b.PaymentStatus == billingv1.InvoicePaymentPaid ||
					b.PaymentStatus == billingv1.InvoicePaymentVoid) {
					settled++
				}
			}
			g.Expect(settled).To(Equal(families))
		}).WithTimeout(3 * time.Minute).Should(Succeed())
		var invs billingv1.InvoiceList
		var notes billingv1.CreditNoteList
		var pays billingv1.PaymentList
		Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
		Expect(k8s.List(ctx, &notes, crclient.InNamespace(ws))).To(Succeed())
		Expect(k8s.List(ctx, &pays, crclient.InNamespace(ws))).To(Succeed())
		for _, o := range invs.Items {
			uids[seal.KindInvoice+"/"+o.Name] = string(o.UID)
		}
		for _, o := range notes.Items {
			Expect(o.Status.Phase).To(Equal(billingv1.CreditNoteIssued), "credit note %s", o.Name)
			uids[seal.KindCreditNote+"/"+o.Name] = string(o.UID)
		}
		for _, o := range pays.Items {
			Expect(o.Status.Phase).To(Equal(billingv1.PaymentRecorded), "payment %s", o.Name)
			uids[seal.KindPayment+"/"+o.Name] = string(o.UID)
		}

		By("closing the books and killing the manager twice while it seals")
		liveInvoices := func() int {
			var live billingv1.InvoiceList
			Expect(k8s.List(ctx, &live, crclient.InNamespace(ws))).To(Succeed())
			return len(live.Items)
		}
		// A seal holds about 512 KiB of encoded payload: a thousand small
		// families fit in one or two.
		closeAndKillTwice(ws, liveInvoices)

		By("waiting until no settled record is live")
		Eventually(func(g Gomega) {
			var live billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &live, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(live.Items).To(BeEmpty())
			var liveNotes billingv1.CreditNoteList
			g.Expect(k8s.List(ctx, &liveNotes, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(liveNotes.Items).To(BeEmpty())
			var livePays billingv1.PaymentList
			g.Expect(k8s.List(ctx, &livePays, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(livePays.Items).To(BeEmpty())
		}).WithTimeout(5*time.Minute).Should(Succeed(), "sealing did not finish: %s", manager.tail())

		By("verifying the chain and finding every record in exactly one seal, as it was")
		var sequences []int64
		verifySealed(ws, uids, func(r seal.Record) {
			if o, ok := r.Object.(billingv1.EventCarrier); ok {
				sequences = append(sequences, eventSequences(o.RecordedEvents())...)
			}
		})

		By("checking the event sequence: every fact, every close and every seal once, 1..N without a gap")
		Eventually(func(g Gomega) {
			var closes billingv1.PeriodCloseList
			g.Expect(k8s.List(ctx, &closes, crclient.InNamespace(ws))).To(Succeed())
			all := slices.Clone(sequences)
			for _, c := range closes.Items {
				all = append(all, eventSequences(c.Status.Events)...)
			}
			for _, s := range sealsOf(ws) {
				g.Expect(s.Status.Events).To(HaveLen(1), "seal %s has no ledger.sealed event", s.Name)
				all = append(all, eventSequences(s.Status.Events)...)
			}
			slices.Sort(all)
			for i, seq := range all {
				g.Expect(seq).To(Equal(int64(i+1)), "the event sequences are not exactly 1..%d: %v", len(all), all)
			}
		}).Should(Succeed())
	})
})
