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

package trim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// createdBucketLabel is the label the adapter put on the objects it made
// before the read barrier (billingv1.LabelCreatedBucket, deprecated): some
// invoices still carry it.
const createdBucketLabel = "billing.invoicing.dev/created-bucket"

// fullInvoice is an invoice in phase with everything the transform may
// touch: managedFields, annotations, labels and a ledger with credited
// lines and groups.
func fullInvoice(phase billingv1.InvoicePhase) *billingv1.Invoice {
	return &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: "inv-1", UID: "u-1", ResourceVersion: "7", Generation: 1,
			Annotations:   map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`},
			Labels:        map[string]string{createdBucketLabel: "1"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "acme"},
			Items:       []billingv1.LineItem{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 1000}},
		},
		Status: billingv1.InvoiceStatus{
			Phase:    phase,
			Total:    ptr.To[int64](1000),
			Number:   "INV-000001",
			Sequence: ptr.To[int64](1),
			BillTo:   &billingv1.BillTo{Name: "Acme", Email: "billing@acme.test"},
			Ledger: &billingv1.InvoiceLedger{
				CreditNotes:    []billingv1.LedgerEntry{{Name: "cn-1", UID: "u-cn", Amount: 100}},
				Payments:       []billingv1.LedgerEntry{{Name: "pay-1", UID: "u-pay", Amount: 900}},
				CreditedLines:  []billingv1.CreditedLine{{Quantity: billingv1.Units(0), Net: 100}},
				CreditedGroups: []billingv1.CreditedGroup{{TaxableAmount: 100}},
			},
		},
	}
}

func TestInvoiceCacheTransform(t *testing.T) {
	issuedTrimmed := fullInvoice(billingv1.InvoiceIssued)
	issuedTrimmed.ManagedFields = nil
	issuedTrimmed.Annotations = nil
	issuedTrimmed.Labels = nil
	issuedTrimmed.Status.Ledger.CreditedLines = nil
	issuedTrimmed.Status.Ledger.CreditedGroups = nil
	withoutManagedFields := func(inv *billingv1.Invoice) *billingv1.Invoice {
		inv.ManagedFields = nil
		return inv
	}
	customer := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{
		Name: "acme", Annotations: map[string]string{"a": "b"}, ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m"}}}}
	customerWithoutManagedFields := customer.DeepCopy()
	customerWithoutManagedFields.ManagedFields = nil
	issuedWithoutLedger := fullInvoice(billingv1.InvoiceIssued)
	issuedWithoutLedger.Status.Ledger = nil
	issuedWithoutLedgerTrimmed := issuedWithoutLedger.DeepCopy()
	issuedWithoutLedgerTrimmed.ManagedFields, issuedWithoutLedgerTrimmed.Annotations, issuedWithoutLedgerTrimmed.Labels = nil, nil, nil

	for _, tc := range []struct {
		name string
		in   any
		want any
	}{
		{"an issued invoice loses its managed fields, annotations, labels and credited lines and groups, and keeps the rest",
			fullInvoice(billingv1.InvoiceIssued), issuedTrimmed},
		{"an issued invoice without a ledger loses its annotations and labels", issuedWithoutLedger, issuedWithoutLedgerTrimmed},
		{"a pending invoice is kept whole but for its managed fields",
			fullInvoice(billingv1.InvoicePending), withoutManagedFields(fullInvoice(billingv1.InvoicePending))},
		{"an invalid invoice is kept whole but for its managed fields",
			fullInvoice(billingv1.InvoiceInvalid), withoutManagedFields(fullInvoice(billingv1.InvoiceInvalid))},
		{"an invoice the controller has not looked at is kept whole but for its managed fields",
			fullInvoice(""), withoutManagedFields(fullInvoice(""))},
		{"other kinds pass through with only their managed fields stripped", customer, customerWithoutManagedFields},
		{"what is not an object passes through", "tombstone", "tombstone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := InvoiceCacheTransform()(tc.in)
			if err != nil {
				t.Fatalf("transform: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("transformed object (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTheManagersCacheTrimsInvoicesAndStripsManagedFieldsOfEveryKind(t *testing.T) {
	opts := CacheOptions()
	if opts.DefaultTransform == nil {
		t.Fatal("no default transform: managedFields would be cached")
	}
	var invoiceTransform bool
	for obj, byObject := range opts.ByObject {
		if _, ok := obj.(*billingv1.Invoice); ok && byObject.Transform != nil {
			invoiceTransform = true
			got, err := byObject.Transform(fullInvoice(billingv1.InvoiceIssued))
			if err != nil {
				t.Fatalf("transform: %v", err)
			}
			if inv := got.(*billingv1.Invoice); inv.ManagedFields != nil || inv.Annotations != nil {
				t.Errorf("the invoice transform kept managedFields or annotations: %+v", inv.ObjectMeta)
			}
		}
	}
	if !invoiceTransform {
		t.Error("no transform for invoices")
	}
}

func TestTheManagersCacheKeepsNoSealPayload(t *testing.T) {
	sl := &billingv1.LedgerSeal{Spec: billingv1.LedgerSealSpec{Sequence: 1, Payload: "H4sI", Hash: "abc"}}
	sl.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "manager"}}
	for obj, byObject := range CacheOptions().ByObject {
		if _, ok := obj.(*billingv1.LedgerSeal); !ok {
			continue
		}
		got, err := byObject.Transform(sl)
		if err != nil {
			t.Fatalf("transform: %v", err)
		}
		if s := got.(*billingv1.LedgerSeal); s.Spec.Payload != "" || s.ManagedFields != nil || s.Spec.Hash != "abc" {
			t.Errorf("the seal transform kept %+v", s)
		}
		return
	}
	t.Error("no transform for seals")
}
