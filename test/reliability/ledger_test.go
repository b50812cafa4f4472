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
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

var _ = Describe("The controller killed during a burst of credit notes and payments", func() {
	It("issues or rejects every credit note as the invoice allows, records every payment, enters each in its "+
		"invoice's ledger exactly once, numbers the credit notes 1..N without a gap, and gives each fact one "+
		"event of a gapless event sequence", func() {
		ws := newWorkspace("ledger")
		Expect(k8s.Create(ctx, builder.Customer(ws, "payer"))).To(Succeed())
		awaitFinalizer(ws, "payer")

		// Each invoice has three lines of 2 units at 1,000: a total of
		// 6,000. Each gets eight credit notes of one unit, on lines 0, 1,
		// 2, 0, 1, 2, 0, 1: lines 0 and 1 are asked for three units of two,
		// so exactly six credit notes per invoice can be issued and two
		// must be rejected, whichever come last. Each also gets four
		// payments of 700: recorded whatever the credit notes did, the
		// 2,800 all owed back once everything is credited.
		const (
			invoices        = 4
			notesPerInvoice = 8
			paysPerInvoice  = 4
			unitPrice       = 1000
			payment         = 700
		)
		invoiceName := func(i int) string { return fmt.Sprintf("inv-%d", i) }
		By("issuing the invoices")
		for i := range invoices {
			Expect(k8s.Create(ctx, builder.Invoice(ws, invoiceName(i), builder.WithCustomer("payer"),
				builder.WithNumberedItems(3, 2, unitPrice)))).To(Succeed())
		}
		Eventually(func(g Gomega) {
			for i := range invoices {
				inv := &billingv1.Invoice{}
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: invoiceName(i)}, inv)).To(Succeed())
				g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
				g.Expect(*inv.Status.Total).To(Equal(int64(6 * unitPrice)))
			}
		}).Should(Succeed())

		By("creating credit notes and payments in a burst while the manager is killed and restarted twice")
		var made atomic.Int32
		burstDone := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(burstDone)
			for round := range notesPerInvoice {
				for i := range invoices {
					Expect(k8s.Create(ctx, builder.CreditNote(ws, fmt.Sprintf("cn-%d-%d", i, round), invoiceName(i),
						builder.WithCreditedQuantity(int32(round%3), 1)))).To(Succeed())
					made.Add(1)
					if round%2 == 1 {
						Expect(k8s.Create(ctx, builder.Payment(ws, fmt.Sprintf("pay-%d-%d", i, round/2),
							invoiceName(i), payment))).To(Succeed())
						made.Add(1)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
		Eventually(made.Load).Should(BeNumerically(">=", 10))
		manager.kill()
		GinkgoWriter.Printf("Killed the manager after %d credit notes and payments\n", made.Load())
		Eventually(made.Load).Should(BeNumerically(">=", 25))
		manager = startManager()
		time.Sleep(300 * time.Millisecond)
		manager.kill()
		GinkgoWriter.Printf("Killed the restarted manager after %d credit notes and payments\n", made.Load())
		time.Sleep(500 * time.Millisecond)
		manager = startManager()
		Eventually(burstDone).WithTimeout(time.Minute).Should(BeClosed())

		By("waiting until every credit note is decided and every payment recorded")
		var notes billingv1.CreditNoteList
		var payments billingv1.PaymentList
		Eventually(func(g Gomega) {
			g.Expect(k8s.List(ctx, &notes, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(notes.Items).To(HaveLen(invoices * notesPerInvoice))
			for _, note := range notes.Items {
				g.Expect(note.Status.Phase).To(BeElementOf(billingv1.CreditNoteIssued, billingv1.CreditNoteRejected),
					"credit note %s", note.Name)
			}
			g.Expect(k8s.List(ctx, &payments, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(payments.Items).To(HaveLen(invoices * paysPerInvoice))
			for _, p := range payments.Items {
				g.Expect(p.Status.Phase).To(Equal(billingv1.PaymentRecorded), "payment %s", p.Name)
			}
		}).WithTimeout(time.Minute).Should(Succeed())

		By("checking each invoice's credit notes: six issued, two rejected for what was left, none beyond a line")
		issuedUIDs := map[string][]string{}
		var sequences []int64
		for _, note := range notes.Items {
			inv := note.Spec.InvoiceRef.Name
			ready := meta.FindStatusCondition(note.Status.Conditions, billingv1.ConditionReady)
			Expect(ready).NotTo(BeNil(), "credit note %s", note.Name)
			if note.Status.Phase == billingv1.CreditNoteRejected {
				Expect(ready.Reason).To(Equal(billingv1.ReasonExceedsCreditable), "credit note %s", note.Name)
				Expect(note.Status.Sequence).To(BeNil(), "rejected credit note %s has a number", note.Name)
				continue
			}
			Expect(note.Status.Sequence).NotTo(BeNil(), "credit note %s is issued without a number", note.Name)
			Expect(note.Status.Number).To(Equal(fmt.Sprintf("CN-%06d", *note.Status.Sequence)))
			Expect(*note.Status.Total).To(Equal(int64(unitPrice)), "credit note %s", note.Name)
			sequences = append(sequences, *note.Status.Sequence)
			issuedUIDs[inv] = append(issuedUIDs[inv], string(note.UID))
		}
		slices.Sort(sequences)
		Expect(sequences).To(HaveLen(invoices*6), "issued credit notes")
		for i, sequence := range sequences {
			Expect(sequence).To(Equal(int64(i+1)), "the credit note sequences are not exactly 1..%d: %v",
				len(sequences), sequences)
		}

		By("checking each payment counts once: what it settled and what is owed back add up to it")
		paymentUIDs := map[string][]string{}
		for _, p := range payments.Items {
			Expect(p.Status.AppliedAmount).NotTo(BeNil(), "payment %s", p.Name)
			Expect(p.Status.OverpaidAmount).NotTo(BeNil(), "payment %s", p.Name)
			Expect(*p.Status.AppliedAmount+*p.Status.OverpaidAmount).To(Equal(p.Spec.Amount), "payment %s", p.Name)
			paymentUIDs[p.Spec.InvoiceRef.Name] = append(paymentUIDs[p.Spec.InvoiceRef.Name], string(p.UID))
		}

		By("checking each invoice's ledger holds each issued credit note and each payment exactly once")
		Eventually(func(g Gomega) {
			for i := range invoices {
				inv := &billingv1.Invoice{}
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: invoiceName(i)}, inv)).To(Succeed())
				g.Expect(inv.Status.Ledger).NotTo(BeNil())
				g.Expect(entryUIDs(inv.Status.Ledger.CreditNotes)).To(ConsistOf(issuedUIDs[inv.Name]), "invoice %s", inv.Name)
				g.Expect(entryUIDs(inv.Status.Ledger.Payments)).To(ConsistOf(paymentUIDs[inv.Name]), "invoice %s", inv.Name)
				for _, line := range inv.Status.Ledger.CreditedLines {
					g.Expect(line.Quantity).To(Equal(billingv1.Units(2)), "invoice %s", inv.Name)
				}
				b := inv.Status.Balance
				g.Expect(b).NotTo(BeNil())
				g.Expect(b.AmountCredited).To(Equal(int64(6*unitPrice)), "invoice %s", inv.Name)
				g.Expect(b.AmountPaid).To(Equal(int64(paysPerInvoice*payment)), "invoice %s", inv.Name)
				g.Expect(b.AmountRemaining).To(BeZero(), "invoice %s", inv.Name)
				g.Expect(b.AmountOverpaid).To(Equal(int64(paysPerInvoice*payment)), "invoice %s", inv.Name)
				g.Expect(b.PaymentStatus).To(Equal(billingv1.InvoicePaymentPaid), "invoice %s", inv.Name)
			}
		}).Should(Succeed())

		By("checking the workspace's event sequence: 1..N without a gap, each fact once, after what it depends on")
		// The invoices are paid, which they became once the credit notes and
		// payments entered before it settled the total: invoice.paid comes
		// after enough of their events to settle it. A credit note issued
		// on an invoice already paid (it credits lines, not what remains)
		// comes after invoice.paid, and rightly so. The manager killed, an
		// invoice's credit notes may all enter its ledger before any of its
		// payments: it is voided first, after credit notes crediting its
		// whole total, and paid by the payments after (docs/events.md).
		Eventually(func(g Gomega) {
			var invs billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &invs, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(k8s.List(ctx, &notes, crclient.InNamespace(ws))).To(Succeed())
			g.Expect(k8s.List(ctx, &payments, crclient.InNamespace(ws))).To(Succeed())
			var all []int64
			issuedAt := map[string]int64{}
			for _, inv := range invs.Items {
				facts := []billingv1.EventType{billingv1.EventTypeInvoiceIssued, billingv1.EventTypeInvoicePaid}
				if billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceVoided) != nil {
					facts = append(facts, billingv1.EventTypeInvoiceVoided)
				}
				g.Expect(eventTypes(inv.Status.Events)).To(ConsistOf(facts), "invoice %s", inv.Name)
				issuedAt[inv.Name] = billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceIssued).Sequence
				all = append(all, eventSequences(inv.Status.Events)...)
			}
			type ledgerEvent struct {
				sequence, amount int64
				credit           bool // a credit note's, not a payment's
			}
			ledgerEvents := map[string][]ledgerEvent{} // each invoice's credit notes and payments
			for _, note := range notes.Items {
				if note.Status.Phase != billingv1.CreditNoteIssued {
					g.Expect(note.Status.Events).To(BeEmpty(), "rejected credit note %s", note.Name)
					continue
				}
				g.Expect(eventTypes(note.Status.Events)).To(ConsistOf(billingv1.EventTypeCreditNoteIssued),
					"credit note %s", note.Name)
				seq := note.Status.Events[0].Sequence
				g.Expect(seq).To(BeNumerically(">", issuedAt[note.Spec.InvoiceRef.Name]), "credit note %s", note.Name)
				ledgerEvents[note.Spec.InvoiceRef.Name] = append(ledgerEvents[note.Spec.InvoiceRef.Name],
					ledgerEvent{seq, *note.Status.Total, true})
				all = append(all, seq)
			}
			for _, p := range payments.Items {
				g.Expect(eventTypes(p.Status.Events)).To(ConsistOf(billingv1.EventTypePaymentRecorded), "payment %s", p.Name)
				seq := p.Status.Events[0].Sequence
				g.Expect(seq).To(BeNumerically(">", issuedAt[p.Spec.InvoiceRef.Name]), "payment %s", p.Name)
				ledgerEvents[p.Spec.InvoiceRef.Name] = append(ledgerEvents[p.Spec.InvoiceRef.Name],
					ledgerEvent{seq, p.Spec.Amount, false})
				all = append(all, seq)
			}
			for _, inv := range invs.Items {
				paid := billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoicePaid).Sequence
				var settledBefore, creditedBefore int64
				for _, e := range ledgerEvents[inv.Name] {
					if e.sequence < paid {
						settledBefore += e.amount
					}
				}
				g.Expect(settledBefore).To(BeNumerically(">=", *inv.Status.Total),
					"invoice %s paid (event %d) before credit notes and payments settling it: %v",
					inv.Name, paid, ledgerEvents[inv.Name])
				voided := billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceVoided)
				if voided == nil {
					continue
				}
				GinkgoWriter.Printf("Invoice %s was voided (event %d) before its payments paid it (event %d)\n",
					inv.Name, voided.Sequence, paid)
				for _, e := range ledgerEvents[inv.Name] {
					if e.credit && e.sequence < voided.Sequence {
						creditedBefore += e.amount
					}
				}
				g.Expect(creditedBefore).To(BeNumerically(">=", *inv.Status.Total),
					"invoice %s voided (event %d) before credit notes crediting all of it: %v",
					inv.Name, voided.Sequence, ledgerEvents[inv.Name])
				g.Expect(voided.Sequence).To(BeNumerically("<", paid), "invoice %s paid before it was voided", inv.Name)
			}
			slices.Sort(all)
			for i, seq := range all {
				g.Expect(seq).To(Equal(int64(i+1)), "the event sequences are not exactly 1..%d: %v", len(all), all)
			}
		}).Should(Succeed())
	})
})

// eventTypes are the types of events, in order.
func eventTypes(events []billingv1.RecordedEvent) []billingv1.EventType {
	out := make([]billingv1.EventType, 0, len(events))
	for _, e := range events {
		out = append(out, e.Type)
	}
	return out
}

// eventSequences are the sequences of events, in order.
func eventSequences(events []billingv1.RecordedEvent) []int64 {
	seqs := make([]int64, 0, len(events))
	for _, e := range events {
		seqs = append(seqs, e.Sequence)
	}
	return seqs
}

// entryUIDs are the uids of a ledger's entries, in order, duplicates kept.
func entryUIDs(entries []billingv1.LedgerEntry) []string {
	uids := make([]string, 0, len(entries))
	for _, e := range entries {
		uids = append(uids, e.UID)
	}
	return uids
}
