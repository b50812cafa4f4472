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
	for _, tc := range []struct {
		name          string
		write         func() (string, string)
		subjectPrefix string
		want          []string
	}{
		{"an invoice's subject and text name its number, total and due date",
			func() (string, string) { return InvoiceEmail(issued(), language.English) }, "Invoice DEMO-000001",
			[]string{"DEMO-000001", "$680.50", "Dec 7, 2026", "Dear Sir or Madam,", "Example Invoicing GmbH"}},
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
				return StatementEmail(issued().Status.Issuer, "2026-09-01", "2026-11-30", language.English)
			},
			"Statement of account Sep 1, 2026 to Nov 30, 2026", []string{"Dear Sir or Madam,", "Sep 1, 2026", "Nov 30, 2026"}},
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

func TestEveryMessageGreetsTheCustomerFormallyInItsLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, tag, greeting string
	}{
		{"English", "en", "Dear Sir or Madam,"},
		{"German", "de", "Sehr geehrte Damen und Herren,"},
		{"French", "fr", "Madame, Monsieur,"},
		{"Spanish", "es", "Estimados señores:"},
		{"Italian", "it", "Gentili Signore e Signori,"},
		{"Dutch", "nl", "Geachte heer, mevrouw,"},
		{"Polish", "pl", "Szanowni Państwo,"},
		{"Portuguese", "pt", "Exmos. Senhores,"},
	} {
		tag := language.MustParse(tc.tag)
		due := issued().Status.DueAt.Time
		open := func(inv *billingv1.Invoice) {
			inv.Status.Balance = &billingv1.InvoiceBalance{AmountRemaining: 68050}
		}
		for what, write := range map[string]func() (string, string){
			"invoice":     func() (string, string) { return InvoiceEmail(issued(), tag) },
			"credit note": func() (string, string) { return CreditNoteEmail(issuedCreditNote(), tag) },
			"reminder":    func() (string, string) { return ReminderEmail(issued(open), due, tag) },
			"statement": func() (string, string) {
				return StatementEmail(issued().Status.Issuer, "2026-09-01", "2026-11-30", tag)
			},
		} {
			t.Run("A "+what+" in "+tc.name+" opens with the formal greeting, not the company's name", func(t *testing.T) {
				_, text := write()
				if !strings.HasPrefix(text, tc.greeting+"\n\n") {
					t.Errorf("the text does not open with %q:\n%s", tc.greeting, text)
				}
				if strings.Contains(text, "Acme Corporation") {
					t.Errorf("the text greets the company by name:\n%s", text)
				}
			})
		}
	}
}

func TestAnInvoiceSentAgainSaysWhatRemainsAsTheCustomerOwesIt(t *testing.T) {
	balance := func(b billingv1.InvoiceBalance) func(*billingv1.Invoice) {
		return func(inv *billingv1.Invoice) { inv.Status.Balance = &b }
	}
	for _, tc := range []struct {
		name          string
		inv           *billingv1.Invoice
		tag           language.Tag
		want, notWant []string
	}{
		{"an open invoice states its total alone", issued(balance(billingv1.InvoiceBalance{AmountRemaining: 68050})),
			language.English, []string{"for $680.50"}, []string{"remains", "paid in full"}},
		{"a partly paid invoice states the total and what remains",
			issued(balance(billingv1.InvoiceBalance{AmountPaid: 50000, AmountRemaining: 18050})),
			language.English, []string{"for $680.50", "Of this total, $180.50 remains to be paid."}, nil},
		{"a partly paid German invoice says it in German",
			issued(balance(billingv1.InvoiceBalance{AmountPaid: 50000, AmountRemaining: 18050})),
			language.German, []string{"über 680,50\u00a0$", "Davon ist noch 180,50\u00a0$ offen."}, nil},
		{"a credited invoice states what remains after its credit note",
			issued(balance(billingv1.InvoiceBalance{AmountCredited: 20000, AmountRemaining: 48050})),
			language.English, []string{"Of this total, $480.50 remains to be paid."}, nil},
		{"a partly paid invoice whose rest was written off still asks for the rest, never naming the write-off",
			issued(balance(billingv1.InvoiceBalance{AmountPaid: 50000, AmountWrittenOff: 18050})),
			language.English, []string{"Of this total, $180.50 remains to be paid."}, []string{"written off", "$0.00"}},
		{"an invoice paid in full says nothing remains",
			issued(balance(billingv1.InvoiceBalance{AmountPaid: 68050})),
			language.English, []string{"It has been paid in full; nothing remains to be paid."}, []string{"Of this total"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, text := InvoiceEmail(tc.inv, tc.tag)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the text does not say %q:\n%s", w, text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(strings.ToLower(text), strings.ToLower(w)) {
					t.Errorf("the text says %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestAReminderAsksForWhatAWriteOffWroteOff(t *testing.T) {
	inv := issued(func(inv *billingv1.Invoice) {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: 50000, AmountWrittenOff: 18050}
	})
	subject, text := ReminderEmail(inv, issued().Status.DueAt.Time, language.English)
	if !strings.Contains(subject, "$180.50") || !strings.Contains(text, "$180.50") {
		t.Errorf("the reminder does not ask for $180.50: %q\n%s", subject, text)
	}
	if strings.Contains(strings.ToLower(subject+text), "written off") {
		t.Errorf("the reminder names the write-off: %q\n%s", subject, text)
	}
}
