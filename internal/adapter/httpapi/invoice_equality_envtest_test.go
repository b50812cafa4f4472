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
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// The adapter answers a new invoice with the taxes and amounts it will be
// issued with; the controller computes them again when it issues it
// (issue 47). This spec holds the two equal on random invoices created
// over HTTP: items with taxes of their own (several categories and rates,
// some written with trailing zeros), items that take the workspace's
// default tax (which changes during the run, and is sometimes none), and
// currencies of 0, 2 and 3 minor digits. The random source is seeded with
// Ginkgo's seed, which the run prints and every failure names: run again
// with --ginkgo.seed=<seed> to repeat it.

// invoiceEqualityCount is how many random invoices the spec creates, and
// invoiceEqualityDefaults how many of them take each default tax in turn.
const (
	invoiceEqualityCount    = 40
	invoiceEqualityDefaults = 10
)

// equalityCurrencies are the currencies of the random invoices: JPY has no
// minor unit, BHD three digits.
var equalityCurrencies = []string{"EUR", "USD", "JPY", "BHD", "CHF"}

// equalityDefaultTaxes are the workspace's default taxes in turn; nil is
// none, which leaves an item without tax of its own untaxed.
var equalityDefaultTaxes = []*billingv1.Tax{
	builder.StandardTax("19"), nil, builder.StandardTax("8.875"),
	builder.Tax(billingv1.TaxExempt, "0", "Exempt under Article 135(1)(g)"),
}

var _ = Describe("An invoice's amounts", Label(ledgerController), func() {
	It("are answered by the adapter as the controller issues them, on random invoices", func() {
		seed := GinkgoRandomSeed()
		GinkgoWriter.Printf("random invoices of seed %d (repeat with --ginkgo.seed=%d)\n", seed, seed)
		random := mathrand.New(mathrand.NewSource(seed)) //nolint:gosec // a seeded source, to repeat a run
		ns := newWorkspace()
		customerID := createCustomer(v1client.Workspace(ns)).ID
		Expect(k8s.Create(ctx, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName))).To(Succeed())

		var answered []apiobject.Invoice
		bodies := map[string]string{}
		for n := range invoiceEqualityCount {
			if n%invoiceEqualityDefaults == 0 {
				setWorkspaceDefaultTax(ns, equalityDefaultTaxes[n/invoiceEqualityDefaults%len(equalityDefaultTaxes)])
			}
			body := randomInvoiceBody(random, customerID)
			created := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(body))
			Expect(created.status).To(Equal(http.StatusCreated), "seed %d, invoice %d: %s\nbody: %s", seed, n, body, created.body)
			inv := created.invoice()
			answered, bodies[inv.ID] = append(answered, inv), body
		}

		for _, want := range answered {
			id := want.ID
			inv := &billingv1.Invoice{}
			Eventually(func(g Gomega) {
				g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: id}, inv)).To(Succeed())
				g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued), "conditions: %v", inv.Status.Conditions)
			}).Should(Succeed(), "seed %d: %s was not issued; created with %s", seed, id, bodies[id])
			Expect(invoiceAnswered(want)).To(Equal(invoiceIssued(inv)),
				"seed %d: the adapter answered %s with\n%s\nthe controller issued\n%s", seed, bodies[id],
				statusJSON(invoiceAnswered(want)), statusJSON(invoiceIssued(inv)))
			got := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
			Expect(invoiceAnswered(got)).To(Equal(invoiceAnswered(want)), "seed %d: GET %s after issue", seed, id)
		}
	})
})

// setWorkspaceDefaultTax sets the default tax of ns's billing profile.
func setWorkspaceDefaultTax(ns string, tax *billingv1.Tax) {
	GinkgoHelper()
	Eventually(func() error {
		p := &billingv1.BillingProfile{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: billingv1.DefaultBillingProfileName}, p); err != nil {
			return err
		}
		p.Spec.DefaultTax = tax.DeepCopy()
		return k8s.Update(ctx, p)
	}).Should(Succeed())
}

// randomInvoiceBody is the body of a new invoice of customerID in a random
// currency, of 1 to 5 lines of random quantities and amounts, each with a
// tax of equalityTaxes (nil: the workspace's default); one invoice in ten
// is not subject to tax, every line of it (EN 16931 BR-O-11).
func randomInvoiceBody(random *mathrand.Rand, customerID string) string {
	items := make([]string, 1+random.Intn(5))
	outOfScope := random.Intn(10) == 0
	for i := range items {
		tax := equalityTaxes[random.Intn(len(equalityTaxes))]
		if outOfScope {
			tax = notSubject
		}
		item := map[string]any{"description": fmt.Sprintf("Line %d", i), "quantity": 1 + random.Int63n(20),
			"amount": 1 + random.Int63n(250_000)}
		if tax != nil {
			t := map[string]any{"category": tax.Category}
			if tax.Rate != nil {
				t["rate"] = *tax.Rate
			}
			if tax.ExemptionReason != "" {
				t["exemption_reason"] = tax.ExemptionReason
			}
			item["tax"] = t
		}
		data, err := json.Marshal(item)
		Expect(err).NotTo(HaveOccurred())
		items[i] = string(data)
	}
	currency := equalityCurrencies[random.Intn(len(equalityCurrencies))]
	return fmt.Sprintf(`{"customer_id":%q,"currency":%q,"items":[%s]}`, customerID, currency, strings.Join(items, ","))
}

// invoiceTotals are an invoice's currency, line taxes and amounts, in the
// API's types, to compare what the adapter answered with what the
// controller issued.
type invoiceTotals struct {
	Currency                  string
	Taxes                     []*billingv1.Tax
	Subtotal, TaxTotal, Total int64
	TaxBreakdown              []billingv1.TaxBreakdownEntry
}

// invoiceIssued are the taxes and amounts the controller wrote in inv's
// status (status.items is empty when no line has tax).
func invoiceIssued(inv *billingv1.Invoice) invoiceTotals {
	st := &inv.Status
	out := invoiceTotals{Currency: inv.Spec.Currency, Taxes: make([]*billingv1.Tax, len(inv.Spec.Items)),
		TaxBreakdown: st.TaxBreakdown}
	for i, it := range st.Items {
		out.Taxes[i] = it.Tax
	}
	if st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil {
		out.Subtotal, out.TaxTotal, out.Total = *st.Subtotal, *st.TaxTotal, *st.Total
	}
	return out
}

// invoiceAnswered are the taxes and amounts of the adapter's answer.
func invoiceAnswered(inv apiobject.Invoice) invoiceTotals {
	out := invoiceTotals{Currency: inv.Currency, TaxBreakdown: answeredBreakdown(inv.TaxBreakdown)}
	for _, it := range inv.Items {
		out.Taxes = append(out.Taxes, answeredTax(it.Tax))
	}
	if inv.Subtotal != nil && inv.TaxTotal != nil && inv.Total != nil {
		out.Subtotal, out.TaxTotal, out.Total = *inv.Subtotal, *inv.TaxTotal, *inv.Total
	}
	return out
}
