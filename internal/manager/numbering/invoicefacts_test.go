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

package numbering

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kptr "k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// An invoice controller that reserved invoice.voided (or invoice.overdue)
// and lost the race to a payment entering the ledger never writes it: the
// invoice can no longer reach the fact, so the journal entry is gone and its
// sequence freed, instead of holding the workspace's feed at it for ever.
// An invoice that may still reach the fact keeps its entry, and one that
// carries it has it written.
func TestAnInvoiceFactTheLedgerHasMovedPastFreesItsEventSequence(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	paid := []billingv1.LedgerEntry{{Name: "pay", UID: "uid-pay", Amount: 1000}}
	credited := []billingv1.LedgerEntry{{Name: "cn", UID: "uid-cn", Amount: 1000}}
	for _, tc := range []struct {
		name   string
		fact   billingv1.EventType
		ledger *billingv1.InvoiceLedger
		events []billingv1.RecordedEvent
		want   fate
	}{
		{name: "a voided invoice still unpaid keeps its invoice.voided entry", fact: billingv1.EventTypeInvoiceVoided,
			ledger: &billingv1.InvoiceLedger{CreditNotes: credited}, want: pending},
		{name: "an invoice paid before its invoice.voided was written frees it", fact: billingv1.EventTypeInvoiceVoided,
			ledger: &billingv1.InvoiceLedger{CreditNotes: credited, Payments: paid}, want: gone},
		{name: "an invoice voided and paid later has its invoice.voided written", fact: billingv1.EventTypeInvoiceVoided,
			ledger: &billingv1.InvoiceLedger{CreditNotes: credited, Payments: paid},
			events: []billingv1.RecordedEvent{{Type: billingv1.EventTypeInvoiceVoided, Sequence: 7}}, want: written},
		{name: "an invoice still owing keeps its invoice.overdue entry", fact: billingv1.EventTypeInvoiceOverdue,
			want: pending},
		{name: "an invoice paid before its invoice.overdue was written frees it", fact: billingv1.EventTypeInvoiceOverdue,
			ledger: &billingv1.InvoiceLedger{Payments: paid}, want: gone},
		{name: "a paid invoice keeps its invoice.paid entry until it is written", fact: billingv1.EventTypeInvoicePaid,
			ledger: &billingv1.InvoiceLedger{Payments: paid}, want: pending},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv", UID: "uid-inv"},
				Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: kptr.To[int64](1),
					Total: kptr.To[int64](1000), Ledger: tc.ledger, Events: tc.events}}
			reader := EventReader(fake.NewClientBuilder().WithScheme(scheme).WithObjects(inv).Build())
			state, found, err := lookup(context.Background(), reader, types.NamespacedName{Namespace: "ns", Name: "inv"}, tc.fact)
			if err != nil {
				t.Fatal(err)
			}
			entry := billingv1.SequenceReservation{Sequence: 7, Invoice: "inv", UID: "uid-inv", Fact: tc.fact}
			if got := fateOf(entry, state, found, true); got != tc.want {
				t.Errorf("the entry has fate %v, want %v", got, tc.want)
			}
		})
	}
}
