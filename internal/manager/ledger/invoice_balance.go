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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// overdueMargin is how long after dueAt an invoice is looked at again: it
// is overdue once now is after dueAt.
const overdueMargin = 10 * time.Millisecond

// untilOverdue is how long after now an issued invoice with balance becomes
// overdue, or 0 when it never will by time alone: it is already overdue,
// paid, credited, or has no due date. The invoice reconciler requeues the
// invoice after that long instead of polling every invoice.
func untilOverdue(inv *billingv1.Invoice, balance *billingv1.InvoiceBalance, now time.Time) time.Duration {
	if balance == nil || balance.Overdue || balance.AmountRemaining == 0 || inv.Status.DueAt == nil {
		return 0
	}
	return max(inv.Status.DueAt.Sub(now), 0) + overdueMargin
}
