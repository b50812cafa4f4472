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

package einvoice_test

import (
	"k8s.io/utils/ptr"

	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// creditLine credits qty units (or, qty 0, the net amount) of the i-th
// line of inv.
type creditLine struct {
	line   int
	qty    int64
	amount int64
}

// creditNote is an issued credit note of inv, issued on 2026-03-15, with
// its amounts computed as the controller does: per tax group, over the
// lines' net amounts.
func creditNote(inv *billingv1.Invoice, lines ...creditLine) *billingv1.CreditNote {
	at := metav1.NewTime(time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC))
	st := billingv1.CreditNoteStatus{
		Phase: billingv1.CreditNoteIssued, Number: "CN-000007", IssuedAt: &at,
		Currency: inv.Spec.Currency, InvoiceNumber: inv.Status.Number, InvoiceIssuedAt: inv.Status.IssuedAt,
		Issuer: inv.Status.Issuer, BillTo: inv.Status.BillTo,
		PaymentAccount: inv.Status.PaymentAccount, BuyerReference: inv.Spec.BuyerReference,
	}
	full := len(lines) == 0
	if full {
		for i, it := range inv.Spec.Items {
			lines = append(lines, creditLine{line: i, qty: it.Quantity.Scaled() / billingv1.QuantityScale})
		}
	}
	net := billingv1.Invoice{Status: billingv1.InvoiceStatus{Phase: billingv1.InvoicePending}}
	for _, l := range lines {
		it := inv.Spec.Items[l.line]
		sl := billingv1.CreditNoteLineStatus{InvoiceLine: int32(l.line), Description: it.Description, Amount: l.amount, Tax: it.Tax}
		if l.qty > 0 {
			q := l.qty
			sl.Quantity, sl.Amount = ptr.To(billingv1.Units(q)), q*it.Amount
		}
		st.Lines = append(st.Lines, sl)
		net.Spec.Items = append(net.Spec.Items, billingv1.LineItem{Description: it.Description, Quantity: billingv1.Units(1), Amount: sl.Amount, Tax: it.Tax})
	}
	a, ok := billing.TotalsOf(&net, billing.DocumentTaxesOf(&net))
	if !ok {
		panic("the credit note's amounts cannot be computed")
	}
	st.Subtotal, st.TaxTotal, st.Total = &a.Subtotal, &a.TaxTotal, &a.Total
	if len(a.TaxBreakdown) > 0 {
		st.TaxBreakdown = a.TaxBreakdown
	}
	spec := billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Reason: "order_change", FullCredit: full}
	return &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-1", Namespace: inv.Namespace}, Spec: spec, Status: st}
}

// creditNoteCases are a partial credit note (a quantity of one line, an
// amount of another, of different rates) and a full one.
func creditNoteCases() []struct {
	name string
	cn   *billingv1.CreditNote
} {
	two := taxCases()[0].inv
	return []struct {
		name string
		cn   *billingv1.CreditNote
	}{
		{"partial credit note", creditNote(two, creditLine{line: 0, qty: 1}, creditLine{line: 1, amount: 1_000})},
		{"full credit note", creditNote(two)},
		{"full credit note of a reverse charge", creditNote(taxCases()[3].inv)},
	}
}
