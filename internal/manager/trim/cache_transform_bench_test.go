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

package trim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/ledger"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// What one cached issued invoice costs the manager's heap, with managed
// fields stripped only (before CacheOptions) and trimmed by
// InvoiceCacheTransform:
//
//	go test -run '^$' -bench CachedIssuedInvoice -benchtime 5000x ./internal/manager/trim/
//
// Each iteration decodes the JSON of one issued invoice, as the informer
// does, transforms it and keeps it; heapB/invoice is the live heap grown
// per invoice kept. The index entries and keys of the cache are the same
// with either transform and are not counted.

// fixedAssignment is a numberer of invoices and events that answers every
// call with itself.
type fixedAssignment numbering.Assignment

func (f fixedAssignment) Assign(context.Context, string, string, types.UID) (numbering.Assignment, error) {
	return numbering.Assignment(f), nil
}

func (f fixedAssignment) AssignFact(context.Context, string, string, types.UID, billingv1.EventType,
	int64) (numbering.Assignment, error) {
	return numbering.Assignment(f), nil
}

// issuedInvoiceJSON returns the JSON of an issued invoice of lines lines
// with tax, its status written by the invoice reconciler itself, as the
// API server sends it (with two managedFields entries); label and
// lastApplied add the deprecated created-bucket label and kubectl's
// last-applied-configuration, and credited a credit note of half of each
// line entered in its ledger.
func issuedInvoiceJSON(b *testing.B, lines int, label, lastApplied, credited bool) []byte {
	b.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	inv := builder.Invoice("workspace-0001", "inv-0000042", builder.WithCustomer("acme"))
	for i := range lines {
		inv.Spec.Items = append(inv.Spec.Items, billingv1.LineItem{Description: fmt.Sprintf("Consulting, March, part %d", i+1),
			Quantity: billingv1.Units(2), Amount: 12500, Tax: builder.StandardTax("19")})
	}
	inv.Spec.Currency = "EUR"
	inv.Generation = 1
	customer := builder.Customer(inv.Namespace, "acme", builder.WithTaxID("DE999999999"),
		builder.WithAddress(billingv1.Address{Line1: "Hauptstr. 1", City: "Berlin", PostalCode: "10115", Country: "DE"}))
	profile := builder.BillingProfile(inv.Namespace, billingv1.DefaultBillingProfileName, builder.WithProfileSpec(billingv1.BillingProfileSpec{
		Issuer:  &billingv1.Issuer{Name: "Seller GmbH", Email: "billing@seller.test", TaxID: "DE123456789"},
		Payment: &billingv1.PaymentAccount{IBAN: "DE89370400440532013000"},
	}))
	c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(inv, customer, profile).
		WithStatusSubresource(&billingv1.Invoice{}).Build()
	r := &ledger.InvoiceReconciler{Client: c, Recorder: events.NewFakeRecorder(10), Clock: clocktesting.NewFakePassiveClock(now),
		Numbers: fixedAssignment{Sequence: 42, IssuedAt: now}, Events: fixedAssignment{Sequence: 97, IssuedAt: now}}
	reconcile := func() {
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(inv)}); err != nil {
			b.Fatal(err)
		}
		if err := c.Get(ctx, client.ObjectKeyFromObject(inv), inv); err != nil {
			b.Fatal(err)
		}
	}
	reconcile()
	if credited {
		invLedger := &billingv1.InvoiceLedger{CreditNotes: []billingv1.LedgerEntry{{Name: "cn-1", UID: "u-cn-1", Amount: *inv.Status.Total / 2}}}
		for range lines {
			invLedger.CreditedLines = append(invLedger.CreditedLines, billingv1.CreditedLine{Quantity: billingv1.Units(1), Net: 12500})
		}
		invLedger.CreditedGroups = []billingv1.CreditedGroup{{TaxableAmount: int64(lines) * 12500, TaxAmount: int64(lines) * 2375}}
		inv.Status.Ledger = invLedger
		if err := c.Status().Update(ctx, inv); err != nil {
			b.Fatal(err)
		}
		reconcile() // the balance, from the ledger
	}
	if lastApplied {
		applied, err := json.Marshal(map[string]any{"apiVersion": billingv1.GroupVersion.String(), "kind": "Invoice",
			"metadata": map[string]string{"name": inv.Name, "namespace": inv.Namespace}, "spec": inv.Spec})
		if err != nil {
			b.Fatal(err)
		}
		inv.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": string(applied)}
	}
	if label {
		inv.Labels = map[string]string{trim.CreatedBucketLabel: "176399520"}
	}
	inv.UID, inv.ResourceVersion, inv.Generation = "6f1c9a52-3c1e-4f0e-9f57-0d5a7c2b9e11", "123456789", 1
	inv.CreationTimestamp = metav1.NewTime(now)
	inv.ManagedFields = []metav1.ManagedFieldsEntry{
		{Manager: "adapter", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "billing.invoicing.dev/v1",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{".":{},"f:customerRef":{},"f:items":{}}}`)},
		{Manager: "manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "billing.invoicing.dev/v1",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:status":{".":{},"f:phase":{}}}`), Subresource: "status"},
	}
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Balance == nil {
		b.Fatalf("the invoice is not issued with a balance: %+v", inv.Status)
	}
	data, err := json.Marshal(inv)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// benchmarkCachedInvoice decodes data b.N times, transforms and keeps each
// invoice, and reports the heap it grew per invoice.
func benchmarkCachedInvoice(b *testing.B, data []byte, transform toolscache.TransformFunc) {
	decoder := serializer.NewCodecFactory(testScheme).UniversalDeserializer()
	kept := make([]any, 0, b.N)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		obj, _, err := decoder.Decode(data, nil, &billingv1.Invoice{})
		if err != nil {
			b.Fatal(err)
		}
		out, err := transform(obj)
		if err != nil {
			b.Fatal(err)
		}
		kept = append(kept, out)
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "heapB/invoice")
	b.ReportMetric(float64(len(data)), "jsonB/invoice")
	runtime.KeepAlive(kept)
}

func BenchmarkCachedIssuedInvoice(b *testing.B) {
	for _, v := range []struct {
		name                         string
		lines                        int
		label, lastApplied, credited bool
	}{
		{"created over HTTP, 1 line", 1, false, false, false},
		{"created over HTTP with the deprecated label, 1 line", 1, true, false, false},
		{"applied with kubectl, 1 line", 1, false, true, false},
		{"applied with kubectl, 20 lines, credited", 20, false, true, true},
	} {
		data := issuedInvoiceJSON(b, v.lines, v.label, v.lastApplied, v.credited)
		b.Run(v.name+"/managed fields stripped", func(b *testing.B) {
			benchmarkCachedInvoice(b, data, cache.TransformStripManagedFields())
		})
		b.Run(v.name+"/trimmed", func(b *testing.B) {
			benchmarkCachedInvoice(b, data, trim.InvoiceCacheTransform())
		})
	}
}
