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

package controller

import (
	"math"
	"testing"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestCustomerStatus(t *testing.T) {
	const activeMessage = "The customer can be billed"
	active := func(at metav1.Time) metav1.Condition {
		return managertest.Condition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonActive, activeMessage, at.Time)
	}
	// customer returns customer acme at generation 2 with the given status,
	// being deleted when deleting.
	customer := func(status billingv1.CustomerStatus, deleting bool) *billingv1.Customer {
		c := builder.Customer("ns", "acme")
		c.Generation = 2
		c.Status = status
		if deleting {
			c.DeletionTimestamp = &metav1.Time{Time: managertest.Now}
			c.Finalizers = []string{billingv1.CustomerFinalizer}
		}
		return c
	}
	activeEarlier := billingv1.CustomerStatus{
		ObservedGeneration: 1, InvoiceCount: 1, Conditions: []metav1.Condition{active(metav1.NewTime(managertest.Earlier))},
	}

	for _, tc := range []struct {
		name     string
		customer *billingv1.Customer
		invoices int
		want     billingv1.CustomerStatus
	}{
		{
			name:     "a new customer is Ready and Active, with no invoices",
			customer: customer(billingv1.CustomerStatus{}, false),
			want: billingv1.CustomerStatus{
				ObservedGeneration: 2, Conditions: []metav1.Condition{active(metav1.NewTime(managertest.Now))},
			},
		},
		{
			name:     "a billed customer counts its invoices and keeps the time it became Ready",
			customer: customer(activeEarlier, false),
			invoices: 3,
			want: billingv1.CustomerStatus{
				ObservedGeneration: 2, InvoiceCount: 3, Conditions: []metav1.Condition{active(metav1.NewTime(managertest.Earlier))},
			},
		},
		{
			name:     "a customer whose deletion waits for invoices is not Ready and says for how many",
			customer: customer(activeEarlier, true),
			invoices: 2,
			want: billingv1.CustomerStatus{
				ObservedGeneration: 2, InvoiceCount: 2, Conditions: []metav1.Condition{
					managertest.Condition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonDeletionBlocked,
						"Deletion waits for 2 invoice(s) that reference this customer", managertest.Now),
				},
			},
		},
		{
			name:     "a count beyond what invoiceCount holds is capped at its largest value",
			customer: customer(billingv1.CustomerStatus{}, false),
			invoices: math.MaxInt32 + 1,
			want: billingv1.CustomerStatus{
				ObservedGeneration: 2, InvoiceCount: math.MaxInt32, Conditions: []metav1.Condition{active(metav1.NewTime(managertest.Now))},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			unchanged := tc.customer.DeepCopy()
			g.Expect(customerStatus(tc.customer, tc.invoices, managertest.Now)).To(Equal(tc.want))
			g.Expect(tc.customer).To(Equal(unchanged), "customerStatus changed its input")
		})
	}
}
