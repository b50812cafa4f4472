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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// Conditions and messages the tables expect.
const (
	issuedMessage  = "The invoice is issued"
	missingMessage = `Customer "acme" does not exist in namespace "ns"; the invoice is issued when it is created`
)

var (
	readyIssued = func(at time.Time) metav1.Condition {
		return managertest.Condition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonIssued, issuedMessage, at)
	}
	notReadyMissing = func(at time.Time) metav1.Condition {
		return managertest.Condition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonCustomerNotFound, missingMessage, at)
	}
	reconcilingMissing = func(at time.Time) metav1.Condition {
		return managertest.Condition(billingv1.ConditionReconciling, metav1.ConditionTrue, billingv1.ReasonCustomerNotFound, missingMessage, at)
	}
)

// invoiceOfGeneration2 is an invoice of customer acme in namespace ns, at
// generation 2, with the given status.
func invoiceOfGeneration2(status billingv1.InvoiceStatus, opts ...builder.InvoiceOption) *billingv1.Invoice {
	inv := builder.Invoice("ns", "inv-1", append([]builder.InvoiceOption{builder.WithCustomer("acme")}, opts...)...)
	inv.Generation = 2
	inv.Status = status
	return inv
}

func TestInvoiceStatus(t *testing.T) {
	acme := builder.Customer("ns", "acme", builder.WithDisplayName("Acme"), builder.WithEmail("ap@acme.example"))
	issuedEarlier := billingv1.InvoiceStatus{
		ObservedGeneration: 2,
		Phase:              billingv1.InvoiceIssued,
		Total:              ptr.To[int64](1_000),
		BillTo:             &billingv1.BillTo{Name: "Acme Ltd", Email: "old@acme.example"},
		IssuedAt:           ptr.To(metav1.NewTime(managertest.Earlier)),
		Conditions:         []metav1.Condition{readyIssued(managertest.Earlier)},
	}
	waitingEarlier := billingv1.InvoiceStatus{
		ObservedGeneration: 1,
		Phase:              billingv1.InvoiceInvalid,
		Total:              ptr.To[int64](1_000),
		Conditions:         []metav1.Condition{notReadyMissing(managertest.Earlier), reconcilingMissing(managertest.Earlier)},
	}
	tooLarge := builder.WithNumberedItems(2, billing.MaxQuantity, billing.MaxAmount)

	for _, tc := range []struct {
		name     string
		invoice  *billingv1.Invoice
		customer *billingv1.Customer
		want     billingv1.InvoiceStatus
	}{
		{
			name:     "an invoice whose customer exists is issued now, with its total and the customer's name and e-mail",
			invoice:  invoiceOfGeneration2(billingv1.InvoiceStatus{}, builder.WithItem("Consulting", 2, 500)),
			customer: acme,
			want: billingv1.InvoiceStatus{
				ObservedGeneration: 2,
				Phase:              billingv1.InvoiceIssued,
				Total:              ptr.To[int64](1_000),
				Subtotal:           ptr.To[int64](1_000),
				TaxTotal:           ptr.To[int64](0),
				BillTo:             &billingv1.BillTo{Name: "Acme", Email: "ap@acme.example"},
				IssuedAt:           ptr.To(metav1.NewTime(managertest.Now)),
				Conditions:         []metav1.Condition{readyIssued(managertest.Now)},
			},
		},
		{
			name:    "an invoice whose customer is missing is Invalid and Reconciling, with its total",
			invoice: invoiceOfGeneration2(billingv1.InvoiceStatus{}, builder.WithItem("Consulting", 2, 500)),
			want: billingv1.InvoiceStatus{
				ObservedGeneration: 2,
				Phase:              billingv1.InvoiceInvalid,
				Total:              ptr.To[int64](1_000),
				Subtotal:           ptr.To[int64](1_000),
				TaxTotal:           ptr.To[int64](0),
				Conditions:         []metav1.Condition{notReadyMissing(managertest.Now), reconcilingMissing(managertest.Now)},
			},
		},
		{
			name:     "an invoice whose total is above 2^53-1 is Invalid and Stalled, without a total, though its customer exists",
			invoice:  invoiceOfGeneration2(billingv1.InvoiceStatus{}, tooLarge),
			customer: acme,
			want: billingv1.InvoiceStatus{
				ObservedGeneration: 2,
				Phase:              billingv1.InvoiceInvalid,
				Conditions: []metav1.Condition{
					managertest.Condition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonTotalTooLarge,
						billing.ErrTotalTooLarge.Error(), managertest.Now),
					managertest.Condition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonTotalTooLarge,
						billing.ErrTotalTooLarge.Error(), managertest.Now),
				},
			},
		},
		{
			name:    "an issued invoice stays issued with its billTo and issuedAt when its customer is gone",
			invoice: invoiceOfGeneration2(issuedEarlier, builder.WithItem("Consulting", 2, 500)),
			want:    issuedEarlier,
		},
		{
			name:     "an issued invoice keeps the billTo it was issued with when its customer changed",
			invoice:  invoiceOfGeneration2(issuedEarlier, builder.WithItem("Consulting", 2, 500)),
			customer: acme,
			want:     issuedEarlier,
		},
		{
			name:     "an invoice that waited for its customer is issued once it exists and is no longer Reconciling",
			invoice:  invoiceOfGeneration2(waitingEarlier, builder.WithItem("Consulting", 2, 500)),
			customer: acme,
			want: billingv1.InvoiceStatus{
				ObservedGeneration: 2,
				Phase:              billingv1.InvoiceIssued,
				Total:              ptr.To[int64](1_000),
				Subtotal:           ptr.To[int64](1_000),
				TaxTotal:           ptr.To[int64](0),
				BillTo:             &billingv1.BillTo{Name: "Acme", Email: "ap@acme.example"},
				IssuedAt:           ptr.To(metav1.NewTime(managertest.Now)),
				Conditions:         []metav1.Condition{readyIssued(managertest.Now)},
			},
		},
		{
			name:    "an invoice still waiting for its customer keeps the time its conditions last changed",
			invoice: invoiceOfGeneration2(waitingEarlier, builder.WithItem("Consulting", 2, 500)),
			want: billingv1.InvoiceStatus{
				ObservedGeneration: 2,
				Phase:              billingv1.InvoiceInvalid,
				Total:              ptr.To[int64](1_000),
				Subtotal:           ptr.To[int64](1_000),
				TaxTotal:           ptr.To[int64](0),
				Conditions:         []metav1.Condition{notReadyMissing(managertest.Earlier), reconcilingMissing(managertest.Earlier)},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			unchanged := tc.invoice.DeepCopy()
			g.Expect(invoiceStatus(tc.invoice, tc.customer, nil, managertest.Now)).To(Equal(tc.want))
			g.Expect(tc.invoice).To(Equal(unchanged), "invoiceStatus changed its input")
		})
	}
}
