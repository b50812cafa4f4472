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

package apiobject

import (
	"cmp"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/meta"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// CreditNote is the /v1 representation of a CreditNote.
type CreditNote struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	InvoiceID  string `json:"invoice_id"`
	CustomerID string `json:"customer_id"`
	// Currency is the invoice's; null only while the controller has not
	// looked at a credit note whose invoice cannot be read.
	Currency *string `json:"currency"`
	Status   string  `json:"status"`
	// StatusReason says why a rejected or invalid credit note is so
	// (already_sealed for an invalid one); null
	// otherwise.
	StatusReason *string `json:"status_reason"`
	// Number, Sequence, IssuedAt, BillTo and Issuer are null until it is
	// issued; InvoiceNumber is the credited invoice's.
	Number        *string          `json:"number"`
	Sequence      *int64           `json:"sequence"`
	InvoiceNumber *string          `json:"invoice_number"`
	Reason        string           `json:"reason"`
	Memo          *string          `json:"memo"`
	Lines         []CreditNoteLine `json:"lines"`
	// The amounts are null while they cannot be computed: a pending credit
	// note whose invoice is gone, or can no longer be credited that much.
	// Its allowances and charges are as given, or on a full credit what is
	// left of the invoice's.
	DocumentAmounts
	IssuedAt  *string `json:"issued_at"`
	BillTo    *BillTo `json:"bill_to"`
	Issuer    *Issuer `json:"issuer"`
	CreatedAt string  `json:"created_at"`
	// Seal is the name of the seal that holds it; null while it is live.
	Seal *string `json:"seal"`
	// Deliveries are the messages sent about the credit note; empty, not
	// null, when there is none.
	Deliveries []Delivery `json:"deliveries"`
}

// CreditNoteLine is a line of a credit note: the invoice line it credits,
// the quantity credited, a number in its shortest form (null for a line
// that credits an amount), the invoice line's unit (C62, one, when it
// names none), its net amount and the invoice line's tax.
type CreditNoteLine struct {
	InvoiceLine int32                      `json:"invoice_line"`
	Description string                     `json:"description"`
	Quantity    *billingv1.DecimalQuantity `json:"quantity"`
	UnitCode    string                     `json:"unit_code"`
	Amount      int64                      `json:"amount"`
	Tax         *Tax                       `json:"tax"`
}

// CreditNoteOf is the /v1 representation of cn. inv is its invoice, or nil
// when it cannot be read: an issued or rejected credit note needs none; a
// pending one shows the amounts it would be issued with, computed as the
// controller does against inv (billing.PendingCreditNote).
func CreditNoteOf(cn *billingv1.CreditNote, inv *billingv1.Invoice) CreditNote {
	out := creditNoteHead(cn, inv)
	if st := &cn.Status; st.Total != nil && st.Subtotal != nil && st.TaxTotal != nil {
		out.Subtotal, out.TaxTotal, out.Total = copyInt(st.Subtotal), copyInt(st.TaxTotal), copyInt(st.Total)
		out.TaxBreakdown = breakdownJSON(st.TaxBreakdown)
		out.Lines = creditNoteLinesJSON(st.Lines)
		out.Allowances, out.Charges = AllowanceChargesOf(st.Allowances), AllowanceChargesOf(st.Charges)
		out.AllowanceTotal, out.ChargeTotal = orZero(st.AllowanceTotal), orZero(st.ChargeTotal)
		return out
	}
	if out.Status == creditNotePending && inv != nil {
		if computed, ok := billing.PendingCreditNote(&cn.Spec, inv); ok {
			withTotals(&out, computed)
			return out
		}
	}
	for _, l := range cn.Spec.Lines {
		line := CreditNoteLine{InvoiceLine: l.InvoiceLine, Quantity: l.Quantity, UnitCode: string(billingv1.UnitOne)}
		if l.Amount != nil {
			line.Amount = *l.Amount
		}
		out.Lines = append(out.Lines, line)
	}
	given := &billingv1.InvoiceSpec{Allowances: cn.Spec.Allowances, Charges: cn.Spec.Charges}
	own := billing.EffectiveDocumentTaxes(given, nil)
	out.Allowances, out.Charges = givenAdjustments(given, own)
	return out
}

// orZero is a copy of p, 0 for nil.
func orZero(p *int64) *int64 {
	if p == nil {
		return new(int64)
	}
	return copyInt(p)
}

// PendingCreditNoteOf is the /v1 representation of cn, pending against
// inv, with the lines and amounts its caller already computed
// (billing.CreditNoteTotalsOf): a create answers what it checked without
// computing it again.
func PendingCreditNoteOf(cn *billingv1.CreditNote, inv *billingv1.Invoice, totals billing.CreditNoteTotals) CreditNote {
	out := creditNoteHead(cn, inv)
	withTotals(&out, totals)
	return out
}

// creditNotePending is the /v1 status of a pending credit note.
var creditNotePending = strings.ToLower(string(billingv1.CreditNotePending))

// creditNoteHead is what a credit note shows besides its lines and
// amounts: its ids, status and parties, the invoice's customer, currency
// and number while the controller has not recorded them (inv may be nil).
func creditNoteHead(cn *billingv1.CreditNote, inv *billingv1.Invoice) CreditNote {
	st := &cn.Status
	phase := cmp.Or(st.Phase, billingv1.CreditNotePending)
	out := CreditNote{
		ID: cn.Name, Object: "credit_note", InvoiceID: cn.Spec.InvoiceRef.Name,
		CustomerID: st.CustomerName, Currency: optional(st.Currency),
		Status: strings.ToLower(string(phase)), Number: optional(st.Number), Sequence: st.Sequence,
		InvoiceNumber: optional(st.InvoiceNumber), Reason: string(cn.Spec.Reason), Memo: optional(cn.Spec.Memo),
		Lines: []CreditNoteLine{},
		DocumentAmounts: DocumentAmounts{TaxBreakdown: []TaxBreakdownEntry{},
			Allowances: []AllowanceCharge{}, Charges: []AllowanceCharge{}},
		IssuedAt: optionalTimestamp(st.IssuedAt), CreatedAt: timestamp(cn.CreationTimestamp.Time),
		Seal: SealOfRecord(cn), Deliveries: DeliveriesOf(st.Deliveries),
	}
	if inv != nil {
		if out.CustomerID == "" {
			out.CustomerID = inv.Spec.CustomerRef.Name
		}
		if out.Currency == nil {
			out.Currency = optional(billing.InvoiceCurrency(inv))
		}
		if out.InvoiceNumber == nil {
			out.InvoiceNumber = optional(inv.Status.Number)
		}
	}
	if phase == billingv1.CreditNoteRejected || phase == billingv1.CreditNoteInvalid {
		if ready := meta.FindStatusCondition(st.Conditions, billingv1.ConditionReady); ready != nil && ready.Reason != "" {
			reason := snakeCase(ready.Reason)
			out.StatusReason = &reason
		}
	}
	out.BillTo, out.Issuer = BillToOf(st.BillTo), IssuerOf(st.Issuer)
	return out
}

// withTotals sets out's lines and amounts to computed.
func withTotals(out *CreditNote, computed billing.CreditNoteTotals) {
	out.Lines, out.TaxBreakdown = creditNoteLinesJSON(computed.Lines), breakdownJSON(computed.TaxBreakdown)
	out.Subtotal, out.TaxTotal, out.Total = &computed.Subtotal, &computed.TaxTotal, &computed.Total
	out.Allowances, out.Charges = AllowanceChargesOf(computed.Allowances), AllowanceChargesOf(computed.Charges)
	out.AllowanceTotal, out.ChargeTotal = &computed.AllowanceTotal, &computed.ChargeTotal
}

// creditNoteLinesJSON is the /v1 representation of a credit note's lines
// as the controller writes them (billing.CreditNoteTotals); empty, not nil,
// when there is none.
func creditNoteLinesJSON(lines []billingv1.CreditNoteLineStatus) []CreditNoteLine {
	out := make([]CreditNoteLine, len(lines))
	for i, l := range lines {
		out[i] = CreditNoteLine{InvoiceLine: l.InvoiceLine, Description: l.Description, Quantity: l.Quantity,
			UnitCode: string(billingv1.UnitOne), Amount: l.Amount, Tax: taxJSON(l.Tax)}
		if l.UnitCode != "" {
			out[i].UnitCode = string(l.UnitCode)
		}
	}
	return out
}

// snakeCase writes a condition's reason as /v1 writes codes:
// "ExceedsCreditable" is "exceeds_creditable".
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
