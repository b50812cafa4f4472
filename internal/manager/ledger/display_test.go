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

	. "github.com/onsi/gomega"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestInvoiceDisplay(t *testing.T) {
	inCurrency := func(inv *billingv1.Invoice, currency string) *billingv1.Invoice {
		inv.Spec.Currency = currency
		return inv
	}
	withBalance := func(inv *billingv1.Invoice, remaining int64) *billingv1.Invoice {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: remaining}
		return inv
	}
	for _, tc := range []struct {
		name string
		inv  *billingv1.Invoice
		want *billingv1.InvoiceDisplay
	}{{
		name: "an invoice without a total shows nothing",
		inv:  managertest.InvoiceInPhase("ns", "inv-1", "acme", billingv1.InvoiceInvalid),
	}, {
		name: "an invoice with a total but no balance yet shows its total only",
		inv:  inCurrency(issuedInvoice(68_050, managertest.Now, nil), "USD"),
		want: &billingv1.InvoiceDisplay{Total: "USD 680.50"},
	}, {
		name: "an issued invoice shows its total and what is left to pay",
		inv:  withBalance(inCurrency(issuedInvoice(68_050, managertest.Now, nil), "USD"), 18_050),
		want: &billingv1.InvoiceDisplay{Total: "USD 680.50", AmountRemaining: "USD 180.50"},
	}, {
		name: "a paid invoice shows nothing left as zero in its currency",
		inv:  withBalance(inCurrency(issuedInvoice(68_050, managertest.Now, nil), "EUR"), 0),
		want: &billingv1.InvoiceDisplay{Total: "EUR 680.50", AmountRemaining: "EUR 0.00"},
	}, {
		name: "a currency without minor units shows no decimals",
		inv:  withBalance(inCurrency(issuedInvoice(500, managertest.Now, nil), "JPY"), 500),
		want: &billingv1.InvoiceDisplay{Total: "JPY 500", AmountRemaining: "JPY 500"},
	}, {
		name: "a currency with three minor digits shows three decimals",
		inv:  withBalance(inCurrency(issuedInvoice(1_250, managertest.Now, nil), "KWD"), 250),
		want: &billingv1.InvoiceDisplay{Total: "KWD 1.250", AmountRemaining: "KWD 0.250"},
	}, {
		name: "an invoice without a currency shows the default currency",
		inv:  issuedInvoice(100, managertest.Now, nil),
		want: &billingv1.InvoiceDisplay{Total: "USD 1.00"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(invoiceDisplay(tc.inv)).To(Equal(tc.want))
		})
	}
}

func TestCreditNoteDisplay(t *testing.T) {
	g := NewWithT(t)
	g.Expect(creditNoteDisplay("USD", nil)).To(BeNil(), "a credit note without a total shows nothing")
	g.Expect(creditNoteDisplay("KWD", ptr.To(int64(1_250)))).To(Equal(&billingv1.CreditNoteDisplay{Total: "KWD 1.250"}))
}

func TestRecordsShowTheirAmountForPeople(t *testing.T) {
	inv := issuedInvoice(68_050, managertest.Now, &billingv1.InvoiceLedger{
		WriteOffs: []billingv1.LedgerEntry{{Name: "wo-1", UID: "uid-wo", Amount: 18_050}}})
	inv.Spec.Currency = "USD"
	writeOff := builder.WriteOff("ns", "wo-1", "inv-1", "Uncollectible")
	writeOff.UID = "uid-wo"
	for _, tc := range []struct {
		name   string
		status func() *billingv1.AmountDisplay
		want   string
	}{{
		name: "a recorded payment shows its amount in the invoice's currency",
		status: func() *billingv1.AmountDisplay {
			return recordedPayment(builder.Payment("ns", "pay-1", "inv-1", 50_000), inv, managertest.Now).Display
		},
		want: "USD 500.00",
	}, {
		name: "an applied credit application shows its amount in the invoice's currency",
		status: func() *billingv1.AmountDisplay {
			return appliedCreditApplication(builder.CreditApplication("ns", "capp-1", "inv-1", 1_000), inv, managertest.Now).Display
		},
		want: "USD 10.00",
	}, {
		name: "a recorded refund shows its amount in its currency",
		status: func() *billingv1.AmountDisplay {
			return recordedRefund(builder.Refund("ns", "rf-1", "acme", 500, "JPY"), managertest.Now).Display
		},
		want: "JPY 500",
	}, {
		name:   "a recorded write-off shows the amount its ledger entry wrote off",
		status: func() *billingv1.AmountDisplay { return recordedWriteOff(writeOff, inv, managertest.Now).Display },
		want:   "USD 180.50",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.status()).To(Equal(&billingv1.AmountDisplay{Amount: tc.want}))
		})
	}
}

func TestSettledDisplay(t *testing.T) {
	shown := &billingv1.AmountDisplay{Amount: "EUR 1.00"}
	for _, tc := range []struct {
		name string
		obj  client.Object
		want any
	}{{
		name: "a credit note issued before status.display shows its total",
		obj: &billingv1.CreditNote{Status: billingv1.CreditNoteStatus{
			Currency: "KWD", Total: ptr.To(int64(1_250))}},
		want: &billingv1.CreditNoteDisplay{Total: "KWD 1.250"},
	}, {
		name: "a payment recorded before status.display shows its amount",
		obj: &billingv1.Payment{Spec: billingv1.PaymentSpec{Amount: 50_000},
			Status: billingv1.PaymentStatus{Currency: "USD"}},
		want: &billingv1.AmountDisplay{Amount: "USD 500.00"},
	}, {
		name: "a credit application applied before status.display shows its amount",
		obj: &billingv1.CreditApplication{Spec: billingv1.CreditApplicationSpec{Amount: 500},
			Status: billingv1.CreditApplicationStatus{Currency: "JPY"}},
		want: &billingv1.AmountDisplay{Amount: "JPY 500"},
	}, {
		name: "a refund recorded before status.display shows its amount",
		obj: &billingv1.Refund{Spec: billingv1.RefundSpec{Amount: 250},
			Status: billingv1.RefundStatus{Currency: "EUR"}},
		want: &billingv1.AmountDisplay{Amount: "EUR 2.50"},
	}, {
		name: "a write-off recorded before status.display shows the amount written off",
		obj:  &billingv1.WriteOff{Status: billingv1.WriteOffStatus{Currency: "USD", Amount: ptr.To(int64(18_050))}},
		want: &billingv1.AmountDisplay{Amount: "USD 180.50"},
	}, {
		name: "a write-off without an amount shows none",
		obj:  &billingv1.WriteOff{Status: billingv1.WriteOffStatus{Currency: "USD"}},
		want: (*billingv1.AmountDisplay)(nil),
	}, {
		name: "a record without a currency shows none",
		obj:  &billingv1.Payment{Spec: billingv1.PaymentSpec{Amount: 50_000}},
		want: (*billingv1.AmountDisplay)(nil),
	}, {
		name: "a record that shows its amount already keeps it",
		obj: &billingv1.Payment{Spec: billingv1.PaymentSpec{Amount: 50_000},
			Status: billingv1.PaymentStatus{Currency: "USD", Display: shown}},
		want: shown,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fillSettledDisplay(tc.obj)
			var got any
			switch o := tc.obj.(type) {
			case *billingv1.CreditNote:
				got = o.Status.Display
			case *billingv1.Payment:
				got = o.Status.Display
			case *billingv1.CreditApplication:
				got = o.Status.Display
			case *billingv1.Refund:
				got = o.Status.Display
			case *billingv1.WriteOff:
				got = o.Status.Display
			}
			NewWithT(t).Expect(got).To(Equal(tc.want))
		})
	}
}

// fillSettledDisplay runs the display of obj's ledger kind.
func fillSettledDisplay(obj client.Object) {
	switch o := obj.(type) {
	case *billingv1.CreditNote:
		creditNotes.display(o)
	case *billingv1.Payment:
		payments.display(o)
	case *billingv1.CreditApplication:
		creditApplications.display(o)
	case *billingv1.Refund:
		refunds.display(o)
	case *billingv1.WriteOff:
		writeOffs.display(o)
	}
}
