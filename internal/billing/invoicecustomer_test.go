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

package billing_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestWhatTheCustomerIsToldRemainsLeavesWriteOffsOut(t *testing.T) {
	for _, tc := range []struct {
		name    string
		balance *billingv1.InvoiceBalance
		owed    int64
		settled bool
	}{
		{"an invoice without a balance owes nothing", nil, 0, false},
		{"an open invoice owes what remains", &billingv1.InvoiceBalance{AmountRemaining: 68050}, 68050, false},
		{"a partly paid invoice owes what remains and was settled",
			&billingv1.InvoiceBalance{AmountPaid: 50000, AmountRemaining: 18050}, 18050, true},
		{"a written-off invoice still owes what was written off, and nothing settled it",
			&billingv1.InvoiceBalance{AmountWrittenOff: 68050}, 68050, false},
		{"a partly paid invoice whose rest was written off owes the rest",
			&billingv1.InvoiceBalance{AmountPaid: 50000, AmountWrittenOff: 18050}, 18050, true},
		{"a credited invoice was settled by its credit note",
			&billingv1.InvoiceBalance{AmountCredited: 68050}, 0, true},
		{"applied credit settles", &billingv1.InvoiceBalance{AmountApplied: 100, AmountRemaining: 50}, 50, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.OwedByCustomer(tc.balance); got != tc.owed {
				t.Errorf("OwedByCustomer = %d, want %d", got, tc.owed)
			}
			if got := billing.SettledForCustomer(tc.balance); got != tc.settled {
				t.Errorf("SettledForCustomer = %v, want %v", got, tc.settled)
			}
		})
	}
}

func TestTheCreditNotesOfAnInvoiceAreNamedByTheirNumbers(t *testing.T) {
	note := func(name, uid, number string) *billingv1.CreditNote {
		cn := &billingv1.CreditNote{}
		cn.Name, cn.UID, cn.Status.Number = name, types.UID(uid), number
		return cn
	}
	inv := &billingv1.Invoice{Status: billingv1.InvoiceStatus{Ledger: &billingv1.InvoiceLedger{
		CreditNotes: []billingv1.LedgerEntry{{Name: "cn-b", UID: "u2", Amount: 500}, {Name: "cn-a", UID: "u1", Amount: 700}},
	}}}
	for _, tc := range []struct {
		name  string
		inv   *billingv1.Invoice
		notes []*billingv1.CreditNote
		out   []billing.CreditedBy
	}{
		{"an invoice without a ledger lists none", &billingv1.Invoice{}, nil, nil},
		{"the notes are in the ledger's order with their numbers", inv,
			[]*billingv1.CreditNote{note("cn-a", "u1", "CN-0001"), note("cn-b", "u2", "CN-0002")},
			[]billing.CreditedBy{{Number: "CN-0002", Amount: 500}, {Number: "CN-0001", Amount: 700}}},
		{"a note not found, or another of the same name, is named by its name", inv,
			[]*billingv1.CreditNote{note("cn-b", "other", "CN-0009")},
			[]billing.CreditedBy{{Number: "cn-b", Amount: 500}, {Number: "cn-a", Amount: 700}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.CreditNotesOf(tc.inv, tc.notes); !reflect.DeepEqual(got, tc.out) &&
				(len(got) != 0 || len(tc.out) != 0) {
				t.Errorf("CreditNotesOf = %+v, want %+v", got, tc.out)
			}
		})
	}
}
