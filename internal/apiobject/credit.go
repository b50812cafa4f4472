/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package apiobject

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// ToCredit returns an issued invoice as a credit note sees it: its lines
// with their effective taxes, its amounts as frozen in its status (computed
// from its items when it was issued before tax existed), and what its
// issued credit notes have credited (status.ledger). It fails when a rate
// does not parse, which the API server's patterns prevent.
func ToCredit(inv *billingv1.Invoice) (*billing.InvoiceToCredit, error) {
	taxes := ItemTaxes(inv)
	out := &billing.InvoiceToCredit{Lines: make([]billing.TaxedLine, len(inv.Spec.Items))}
	for i, it := range inv.Spec.Items {
		tax, err := billing.LineTaxOf(taxes[i])
		if err != nil {
			return nil, err
		}
		out.Lines[i] = billing.TaxedLine{Quantity: it.Quantity, Amount: it.Amount, Tax: tax}
	}
	st := &inv.Status
	if st.Subtotal != nil && st.TaxTotal != nil && st.Total != nil {
		out.Amounts = billing.Amounts{Subtotal: *st.Subtotal, TaxTotal: *st.TaxTotal, Total: *st.Total,
			TaxBreakdown: make([]billing.TaxGroup, len(st.TaxBreakdown))}
		for g, e := range st.TaxBreakdown {
			group := billing.TaxGroup{Category: billing.TaxCategory(e.Category), TaxableAmount: e.TaxableAmount,
				TaxAmount: e.TaxAmount, ExemptionReason: e.ExemptionReason}
			if e.Rate != nil {
				r, err := billing.ParseRate(*e.Rate)
				if err != nil {
					return nil, err
				}
				group.Rate = &r
			}
			out.Amounts.TaxBreakdown[g] = group
		}
	} else {
		a, err := billing.InvoiceAmounts(inv.Spec.Items, taxes)
		if err != nil {
			return nil, err
		}
		out.Amounts = a
	}
	if l := st.Ledger; l != nil {
		for _, c := range l.CreditedLines {
			out.Credited.Lines = append(out.Credited.Lines, billing.CreditedLine{Quantity: c.Quantity, Net: c.Net})
		}
		for _, c := range l.CreditedGroups {
			out.Credited.Groups = append(out.Credited.Groups,
				billing.CreditedGroup{TaxableAmount: c.TaxableAmount, TaxAmount: c.TaxAmount})
		}
	}
	return out, nil
}

// CreditLines returns the lines of a credit note's spec against inv: its
// own lines, or for a full credit those of inv.FullCredit (which fails with
// billing.ErrFullyCredited when nothing is left).
func CreditLines(spec *billingv1.CreditNoteSpec, inv *billing.InvoiceToCredit) ([]billing.CreditLine, error) {
	if spec.FullCredit {
		return inv.FullCredit()
	}
	lines := make([]billing.CreditLine, len(spec.Lines))
	for i, l := range spec.Lines {
		lines[i] = billing.CreditLine{InvoiceLine: int(l.InvoiceLine)}
		if l.Quantity != nil {
			lines[i].Quantity = *l.Quantity
		}
		if l.Amount != nil {
			lines[i].Amount = *l.Amount
		}
	}
	return lines, nil
}
