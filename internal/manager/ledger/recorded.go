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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// recordedFields point into the status of a ledger record (a payment, a
// refund, a credit application or a write-off) at the fields that every
// kind's status sets once the record is recorded. A kind's own step sets
// the rest: its phase and its own amounts.
type recordedFields struct {
	conditions *[]metav1.Condition
	// customerName is nil for a status without one: a refund's spec names
	// its customer.
	customerName *string
	currency     *string
	display      **billingv1.AmountDisplay
	// at is when the record was recorded (a credit application's
	// appliedAt).
	at                 **metav1.Time
	observedGeneration *int64
}

// recording is how a record is recorded: against inv (nil for a record of
// a customer's credit), in currency, its display showing amount (nil: the
// display is kept as it is), and Ready for reason with message.
type recording struct {
	inv             *billingv1.Invoice
	currency        string
	amount          *int64
	reason, message string
}

// record takes, at now, the steps every ledger record's status takes once
// rec is recorded as r says: its customer is its invoice's, its currency
// and display are set, when it was recorded is set once, it has observed
// rec's generation, and it is Ready.
func record(rec billingv1.LedgerRecord, f recordedFields, r recording, now time.Time) {
	if f.customerName != nil && r.inv != nil {
		*f.customerName = r.inv.Spec.CustomerRef.Name
	}
	*f.currency = r.currency
	if r.amount != nil {
		*f.display = amountDisplay(r.currency, *r.amount)
	}
	if *f.at == nil {
		at := metav1.NewTime(now)
		*f.at = &at
	}
	*f.observedGeneration = rec.GetGeneration()
	c := reconciler.Conditions{List: f.conditions, Generation: rec.GetGeneration(), Now: now}
	c.Ready(r.reason, r.message)
}
