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
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// recordedView is what record sets in a kind's status, read back.
type recordedView struct {
	customer, currency, display string
	at                          time.Time
	observedGeneration          int64
	ready                       string
}

func viewOf(conditions []metav1.Condition, customer, currency string, display *billingv1.AmountDisplay,
	at *metav1.Time, observed int64) recordedView {
	v := recordedView{customer: customer, currency: currency, observedGeneration: observed}
	if display != nil {
		v.display = display.Amount
	}
	if at != nil {
		v.at = at.Time
	}
	if c := meta.FindStatusCondition(conditions, billingv1.ConditionReady); c != nil && c.Status == metav1.ConditionTrue {
		v.ready = c.Reason
	}
	return v
}

func TestRecordingTakesTheSameStepsForEveryKindOfLedgerRecord(t *testing.T) {
	inv := issuedInvoice(68_050, managertest.Now, &billingv1.InvoiceLedger{
		WriteOffs: []billingv1.LedgerEntry{{Name: "wo-1", UID: "uid-wo", Amount: 18_050}}})
	inv.Spec.Currency = "USD"
	earlier := managertest.Now.Add(-time.Hour)
	for _, tc := range []struct {
		name string
		view func() recordedView
		want recordedView
	}{{
		name: "a payment takes its invoice's customer and currency, shows its amount and is recorded now",
		view: func() recordedView {
			p := builder.Payment("ns", "pay-1", "inv-1", 50_000)
			p.Generation = 3
			s := recordedPayment(p, inv, managertest.Now)
			return viewOf(s.Conditions, s.CustomerName, s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{customer: "acme", currency: "USD", display: "USD 500.00", at: managertest.Now,
			observedGeneration: 3, ready: billingv1.ReasonRecorded},
	}, {
		name: "a credit application is applied now, in its invoice's currency, for its customer",
		view: func() recordedView {
			capp := builder.CreditApplication("ns", "capp-1", "inv-1", 1_000)
			capp.Generation = 2
			s := appliedCreditApplication(capp, inv, managertest.Now)
			return viewOf(s.Conditions, s.CustomerName, s.Currency, s.Display, s.AppliedAt, s.ObservedGeneration)
		},
		want: recordedView{customer: "acme", currency: "USD", display: "USD 10.00", at: managertest.Now,
			observedGeneration: 2, ready: billingv1.ReasonApplied},
	}, {
		name: "a refund keeps its own currency and shows its amount in it",
		view: func() recordedView {
			rf := builder.Refund("ns", "rf-1", "acme", 500, "JPY")
			rf.Generation = 1
			s := recordedRefund(rf, managertest.Now)
			return viewOf(s.Conditions, "", s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{currency: "JPY", display: "JPY 500", at: managertest.Now, observedGeneration: 1,
			ready: billingv1.ReasonRecorded},
	}, {
		name: "a write-off shows the amount its ledger entry wrote off",
		view: func() recordedView {
			wo := builder.WriteOff("ns", "wo-1", "inv-1", "Uncollectible")
			wo.UID = "uid-wo"
			wo.Generation = 4
			s := recordedWriteOff(wo, inv, managertest.Now)
			return viewOf(s.Conditions, s.CustomerName, s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{customer: "acme", currency: "USD", display: "USD 180.50", at: managertest.Now,
			observedGeneration: 4, ready: billingv1.ReasonRecorded},
	}, {
		name: "a write-off whose ledger entry is not found keeps the display it had",
		view: func() recordedView {
			wo := builder.WriteOff("ns", "wo-2", "inv-1", "Uncollectible")
			wo.Status.Display = &billingv1.AmountDisplay{Amount: "USD 1.00"}
			s := recordedWriteOff(wo, inv, managertest.Now)
			return viewOf(s.Conditions, s.CustomerName, s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{customer: "acme", currency: "USD", display: "USD 1.00", at: managertest.Now,
			ready: billingv1.ReasonRecorded},
	}, {
		name: "a record recorded before keeps when it was recorded",
		view: func() recordedView {
			p := builder.Payment("ns", "pay-1", "inv-1", 50_000)
			at := metav1.NewTime(earlier)
			p.Status.RecordedAt = &at
			s := recordedPayment(p, inv, managertest.Now)
			return viewOf(s.Conditions, s.CustomerName, s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{customer: "acme", currency: "USD", display: "USD 500.00", at: earlier,
			ready: billingv1.ReasonRecorded},
	}, {
		name: "a record that was stalled is Ready once recorded",
		view: func() recordedView {
			rf := builder.Refund("ns", "rf-1", "acme", 500, "EUR")
			rf.Status.Conditions = []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse,
				Reason: billingv1.ReasonExceedsCredit}, {Type: billingv1.ConditionStalled, Status: metav1.ConditionTrue,
				Reason: billingv1.ReasonExceedsCredit}}
			s := recordedRefund(rf, managertest.Now)
			if meta.FindStatusCondition(s.Conditions, billingv1.ConditionStalled) != nil {
				return recordedView{ready: "still stalled"}
			}
			return viewOf(s.Conditions, "", s.Currency, s.Display, s.RecordedAt, s.ObservedGeneration)
		},
		want: recordedView{currency: "EUR", display: "EUR 5.00", at: managertest.Now, ready: billingv1.ReasonRecorded},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.view()).To(Equal(tc.want))
		})
	}
}
