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

package ledger

import (
	"testing"
	"time"

	. "github.com/onsi/gomega"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// creditableInvoice is an issued invoice of two lines at 19%: 3 x 10,000 and
// 1 x 5,000, total 41,650, with ledger.
func creditableInvoice(ledger *billingv1.InvoiceLedger) *billingv1.Invoice {
	inv := issuedInvoice(41_650, managertest.Now, ledger)
	inv.Spec.Items = []billingv1.LineItem{
		{Description: "Consulting", Quantity: billingv1.Units(3), Amount: 10_000},
		{Description: "Travel", Quantity: billingv1.Units(1), Amount: 5_000},
	}
	inv.Status.Items = managertest.ItemTaxes(builder.StandardTax("19"), builder.StandardTax("19"))
	inv.Status.Number = "INV-000007"
	return inv
}

// credit runs what the reconciler runs for note against inv: what it
// credits, or the verdict that rejects it.
func credit(inv *billingv1.Invoice, note *billingv1.CreditNote) (*billing.NoteCredit, *reconciler.Verdict) {
	cr, err := billing.CreditOf(&note.Spec, inv)
	if cr == nil {
		panic(err)
	}
	if err != nil {
		return cr, verdictOf(err)
	}
	return cr, nil
}

func TestCreditNoteAmountsAndVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ledger  *billingv1.InvoiceLedger
		note    *billingv1.CreditNote
		total   int64
		display string
		reason  string
		credits []billingv1.CreditedLine
	}{{
		name:    "a quantity of a taxed line credits its net and its share of the tax",
		note:    builder.CreditNote("ns", "cn", "inv-1", builder.WithCreditedQuantity(0, 1)),
		total:   11_900,
		display: "USD 119.00",
		credits: []billingv1.CreditedLine{{Quantity: billingv1.Units(1), Net: 10_000}, {}},
	}, {
		name:    "an amount of a line credits that net and its tax",
		note:    builder.CreditNote("ns", "cn", "inv-1", builder.WithCreditedAmount(1, 1_000)),
		total:   1_190,
		display: "USD 11.90",
		credits: []billingv1.CreditedLine{{}, {Net: 1_000}},
	}, {
		name: "a full credit credits all that is left, tax included",
		ledger: &billingv1.InvoiceLedger{CreditedLines: []billingv1.CreditedLine{{Quantity: billingv1.Units(1), Net: 10_000}, {}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: 10_000, TaxAmount: 1_900}}},
		note:    builder.CreditNote("ns", "cn", "inv-1", builder.WithFullCredit()),
		total:   41_650 - 11_900,
		display: "USD 297.50",
		credits: []billingv1.CreditedLine{{Quantity: billingv1.Units(1), Net: 30_000}, {Net: 5_000}},
	}, {
		name: "more units than are left are ExceedsCreditable",
		ledger: &billingv1.InvoiceLedger{CreditedLines: []billingv1.CreditedLine{{Quantity: billingv1.Units(3), Net: 30_000}, {}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: 30_000, TaxAmount: 5_700}}},
		note:   builder.CreditNote("ns", "cn", "inv-1", builder.WithCreditedQuantity(0, 1)),
		reason: billingv1.ReasonExceedsCreditable,
	}, {
		name: "a full credit of a fully credited invoice is ExceedsCreditable",
		ledger: &billingv1.InvoiceLedger{
			CreditedLines:  []billingv1.CreditedLine{{Quantity: billingv1.Units(3), Net: 30_000}, {Quantity: billingv1.Units(1), Net: 5_000}},
			CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: 35_000, TaxAmount: 6_650}}},
		note:   builder.CreditNote("ns", "cn", "inv-1", builder.WithFullCredit()),
		reason: billingv1.ReasonExceedsCreditable,
	}, {
		name:   "a line that is not the invoice's is InvalidLine",
		note:   builder.CreditNote("ns", "cn", "inv-1", builder.WithCreditedQuantity(2, 1)),
		reason: billingv1.ReasonInvalidLine,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			inv := creditableInvoice(tc.ledger)
			cr, verdict := credit(inv, tc.note)
			if tc.reason != "" {
				g.Expect(verdict).NotTo(BeNil())
				g.Expect(verdict.Reason).To(Equal(tc.reason))
				return
			}
			g.Expect(verdict).To(BeNil())
			status := computedCreditNote(tc.note, inv, cr)
			g.Expect(status.Phase).To(Equal(billingv1.CreditNotePending))
			g.Expect(status.Total).To(HaveValue(Equal(tc.total)))
			g.Expect(status.Display).To(Equal(&billingv1.CreditNoteDisplay{Total: tc.display}))
			g.Expect(status.Lines[0].Tax).To(Equal(builder.StandardTax("19")))

			tc.note.UID = "uid-1"
			ledger := enteredLedger(inv, cr, tc.note)
			g.Expect(ledger.CreditedLines).To(Equal(tc.credits))
			g.Expect(hasEntry(ledger.CreditNotes, "cn", "uid-1")).To(BeTrue())
			g.Expect(inv.Status.Ledger).To(Equal(tc.ledger), "the invoice read is not changed")
		})
	}
}

func TestIssuedCreditNoteCopiesTheInvoicesSnapshot(t *testing.T) {
	g := NewWithT(t)
	inv := creditableInvoice(nil)
	inv.Spec.BuyerReference = "04011000-12345-34"
	inv.Status.PaymentAccount = &billingv1.PaymentAccount{IBAN: "DE02120300000000202051"}
	issuedAt := managertest.Now.Add(time.Minute)
	status, err := issuedCreditNote(billingv1.CreditNoteStatus{Total: ptr.To(int64(1))}, inv,
		creditNotePrefix(nil), numbering.Assignment{Sequence: 3, IssuedAt: issuedAt}, 1, managertest.Now)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(status.Phase).To(Equal(billingv1.CreditNoteIssued))
	g.Expect(status.Number).To(Equal("CN-000003"))
	g.Expect(status.IssuedAt.Time).To(Equal(issuedAt))
	g.Expect(status.InvoiceNumber).To(Equal("INV-000007"))
	g.Expect(status.CustomerName).To(Equal("acme"))
	g.Expect(status.BuyerReference).To(Equal("04011000-12345-34"))
	g.Expect(status.PaymentAccount).To(Equal(inv.Status.PaymentAccount))
	g.Expect(status.PaymentAccount).NotTo(BeIdenticalTo(inv.Status.PaymentAccount), "the snapshot shares the invoice's account")
	g.Expect(creditNotePrefix(builder.BillingProfile("ns", "default", builder.WithProfileSpec(
		billingv1.BillingProfileSpec{CreditNotePrefix: ptr.To("AV-")})))).To(Equal("AV-"))
}
