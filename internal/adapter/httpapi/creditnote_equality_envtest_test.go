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
	mathrand "math/rand"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// The adapter answers a new credit note with the lines and amounts it
// will be issued with; the controller computes them again when it issues
// it. Both go through internal/billing, and this spec holds the two
// equal on random issued invoices: several categories and rates (some
// written with trailing zeros, which the controller normalises), lines
// without tax, and credit notes that credit an invoice in parts, each
// against what the ones before it left.

// equalityInvoices and equalityCredits are how many random invoices the
// spec issues and how many credit notes it creates against each.
const (
	equalityInvoices = 12
	equalityCredits  = 4
	equalitySeed     = 34
)

// equalityTaxes are the taxes a random line takes; nil is a line without.
var equalityTaxes = []*billingv1.Tax{
	builder.StandardTax("19"), builder.StandardTax("19.00"), builder.StandardTax("7"),
	builder.StandardTax("5.5"), builder.StandardTax("8.875"), builder.StandardTax("20.0"),
	builder.StandardTax("0.1"),
	builder.Tax(billingv1.TaxZeroRated, "0", ""),
	builder.Tax(billingv1.TaxExempt, "0.00", "Exempt under Article 135(1)(g)"),
	builder.Tax(billingv1.TaxExport, "0", "Export outside the EU"),
	nil,
}

// notSubject is the tax of every line of an invoice not subject to tax:
// one line of category O makes all of them O (EN 16931 BR-O-11).
var notSubject = builder.Tax(billingv1.TaxNotSubject, "", "Not subject to VAT")

var _ = Describe("A credit note's amounts", Label(ledgerController), func() {
	It("are answered by the adapter as the controller issues them, on random invoices", func() {
		ns := newWorkspace()
		Expect(k8s.Create(ctx, builder.Customer(ns, "acme"))).To(Succeed())
		random := mathrand.New(mathrand.NewSource(equalitySeed)) //nolint:gosec // a fixed seed, to repeat a run
		compared := 0
		for n := range equalityInvoices {
			inv := randomInvoice(random, ns, fmt.Sprintf("inv-eq-%d", n))
			Expect(k8s.Create(ctx, inv)).To(Succeed())
			Eventually(func(g Gomega) {
				g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(inv), inv)).To(Succeed())
				g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
			}).Should(Succeed())
			var credited int64
			for c := range equalityCredits {
				body := randomCreditNote(random, inv, c == equalityCredits-1)
				By(fmt.Sprintf("crediting %s (total %d, %d credited): %s", inv.Name, *inv.Status.Total, credited, body))
				// The adapter answers against the invoice as its cache has
				// it: wait until it has the credit notes issued so far.
				Eventually(func(g Gomega) {
					got := send(http.MethodGet, "/v1/invoices/"+inv.Name, inWorkspace(ns)).invoice()
					g.Expect(got.AmountCredited).To(HaveValue(Equal(credited)))
				}).Should(Succeed())
				created := send(http.MethodPost, "/v1/credit_notes", inWorkspace(ns), withBody(body))
				if created.status == http.StatusConflict && created.apiErr().Code == CodeInvoiceFullyCredited {
					break
				}
				if created.status == http.StatusUnprocessableEntity && created.apiErr().Code == CodeExceedsCreditable {
					continue
				}
				Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
				var answered apiobject.CreditNote
				Expect(json.Unmarshal(created.body, &answered)).To(Succeed())

				note := &billingv1.CreditNote{}
				Eventually(func(g Gomega) {
					g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: answered.ID}, note)).To(Succeed())
					g.Expect(note.Status.Phase).To(Equal(billingv1.CreditNoteIssued))
				}).Should(Succeed())
				Expect(answeredTotals(answered)).To(Equal(issuedTotals(&note.Status)),
					"the adapter answered %s; the controller issued %s", created.body, statusJSON(note.Status))
				credited += *note.Status.Total
				compared++
			}
		}
		Expect(compared).To(BeNumerically(">=", equalityInvoices*2), "too few credit notes were compared")
	})
})

// randomInvoice is an invoice of 1 to 4 lines of random quantities,
// amounts and taxes (equalityTaxes; one in eight invoices notSubject) for
// the customer acme.
func randomInvoice(random *mathrand.Rand, ns, name string) *billingv1.Invoice {
	items := make([]billingv1.LineItem, 1+random.Intn(4))
	outOfScope := random.Intn(8) == 0
	for i := range items {
		items[i] = billingv1.LineItem{Description: fmt.Sprintf("Line %d", i), Quantity: billingv1.Units(1 + random.Int63n(5)),
			Amount: 1 + random.Int63n(99_999), Tax: equalityTaxes[random.Intn(len(equalityTaxes))].DeepCopy()}
		if outOfScope {
			items[i].Tax = notSubject.DeepCopy()
		}
	}
	return builder.Invoice(ns, name, builder.WithCustomer("acme"), builder.WithCurrency("EUR"),
		builder.WithItems(items...))
}

// randomCreditNote is the body of a credit note of inv: a full credit when
// full, else one to two lines, each a unit of its line or a random part
// of its net. A line may credit more than is left of its invoice line; the
// adapter refuses such a credit note (exceeds_creditable), and the spec
// goes on with the next.
func randomCreditNote(random *mathrand.Rand, inv *billingv1.Invoice, full bool) string {
	if full {
		return fmt.Sprintf(`{"invoice_id":%q,"reason":"other","full_credit":true}`, inv.Name)
	}
	var lines []string
	for _, i := range random.Perm(len(inv.Spec.Items))[:1+random.Intn(min(2, len(inv.Spec.Items)))] {
		it := inv.Spec.Items[i]
		if random.Intn(2) == 0 {
			lines = append(lines, fmt.Sprintf(`{"invoice_line":%d,"quantity":1}`, i))
			continue
		}
		lines = append(lines, fmt.Sprintf(`{"invoice_line":%d,"amount":%d}`, i, 1+random.Int63n(it.Quantity.Scaled()/billingv1.QuantityScale*it.Amount/3+1)))
	}
	return fmt.Sprintf(`{"invoice_id":%q,"reason":"other","lines":[%s]}`, inv.Name, strings.Join(lines, ","))
}

// creditTotals are a credit note's lines and amounts, in the API's types,
// to compare what the adapter answered with what the controller issued.
type creditTotals struct {
	Lines                     []billingv1.CreditNoteLineStatus
	Subtotal, TaxTotal, Total int64
	TaxBreakdown              []billingv1.TaxBreakdownEntry
}

// issuedTotals are the lines and amounts the controller wrote in st.
func issuedTotals(st *billingv1.CreditNoteStatus) creditTotals {
	out := creditTotals{Lines: st.Lines, TaxBreakdown: st.TaxBreakdown}
	if st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil {
		out.Subtotal, out.TaxTotal, out.Total = *st.Subtotal, *st.TaxTotal, *st.Total
	}
	return out
}

// answeredTotals are the lines and amounts of the adapter's answer.
func answeredTotals(cn apiobject.CreditNote) creditTotals {
	var out creditTotals
	if cn.Subtotal != nil && cn.TaxTotal != nil && cn.Total != nil {
		out.Subtotal, out.TaxTotal, out.Total = *cn.Subtotal, *cn.TaxTotal, *cn.Total
	}
	for _, l := range cn.Lines {
		out.Lines = append(out.Lines, billingv1.CreditNoteLineStatus{InvoiceLine: l.InvoiceLine,
			Description: l.Description, Quantity: l.Quantity, Amount: l.Amount, Tax: answeredTax(l.Tax)})
	}
	out.TaxBreakdown = answeredBreakdown(cn.TaxBreakdown)
	return out
}

// answeredBreakdown is the API's tax breakdown of a /v1 tax breakdown, nil
// when it is empty.
func answeredBreakdown(entries []apiobject.TaxBreakdownEntry) []billingv1.TaxBreakdownEntry {
	var out []billingv1.TaxBreakdownEntry
	for _, e := range entries {
		entry := billingv1.TaxBreakdownEntry{Category: billingv1.TaxCategory(e.Category), Rate: e.Rate,
			TaxableAmount: e.TaxableAmount, TaxAmount: e.TaxAmount}
		if e.ExemptionReason != nil {
			entry.ExemptionReason = *e.ExemptionReason
		}
		out = append(out, entry)
	}
	return out
}

// answeredTax is the API's tax of a line's /v1 tax.
func answeredTax(t *apiobject.Tax) *billingv1.Tax {
	if t == nil {
		return nil
	}
	out := &billingv1.Tax{Category: billingv1.TaxCategory(t.Category), Rate: t.Rate}
	if t.ExemptionReason != nil {
		out.ExemptionReason = *t.ExemptionReason
	}
	return out
}

// statusJSON is v as JSON, for a failure's message.
func statusJSON(v any) string {
	data, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}
