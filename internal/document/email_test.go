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

package document

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestTheMessagesNameWhatTheySend(t *testing.T) {
	due := issued().Status.DueAt.Time
	withRemaining := func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{PaymentStatus: billingv1.InvoicePaymentPartiallyPaid,
			AmountRemaining: 18050}
	}
	acme := &billingv1.Customer{Spec: billingv1.CustomerSpec{Name: "Acme Corporation"}}
	for _, tc := range []struct {
		name          string
		write         func() (string, string)
		subjectPrefix string
		want          []string
	}{
		{"an invoice's subject and text name its number, total and due date",
			func() (string, string) { return InvoiceEmail(issued(), language.English) }, "Invoice DEMO-000001",
			[]string{"DEMO-000001", "$680.50", "Dec 7, 2026", "Dear Acme Corporation", "Example Invoicing GmbH"}},
		{"a credit note's name its number, its invoice and its total",
			func() (string, string) { return CreditNoteEmail(issuedCreditNote(), language.English) }, "Credit note CN-000007",
			[]string{"CN-000007", "DEMO-000001", "$200.00"}},
		{"a reminder before the due date says what remains and when it is due",
			func() (string, string) {
				return ReminderEmail(issued(withRemaining), due.Add(-72*time.Hour), language.English)
			},
			"Reminder: invoice DEMO-000001", []string{"$180.50", "is due on Dec 7, 2026"}},
		{"a reminder after the due date says how long ago it was due",
			func() (string, string) {
				return ReminderEmail(issued(withRemaining), due.Add(7*24*time.Hour), language.English)
			},
			"Reminder: invoice DEMO-000001", []string{"$180.50", "was due on Dec 7, 2026, 7 days ago"}},
		{"a statement's names its period",
			func() (string, string) {
				return StatementEmail(acme, issued().Status.Issuer, "2026-09-01", "2026-11-30", language.English)
			},
			"Statement of account Sep 1, 2026 to Nov 30, 2026", []string{"Dear Acme Corporation", "Sep 1, 2026", "Nov 30, 2026"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			subject, text := tc.write()
			if !strings.HasPrefix(subject, tc.subjectPrefix) {
				t.Errorf("subject %q does not begin with %q", subject, tc.subjectPrefix)
			}
			for _, w := range tc.want {
				if !strings.Contains(subject+"\n"+text, w) {
					t.Errorf("neither the subject %q nor the text %q says %q", subject, text, w)
				}
			}
		})
	}
}
