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

package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
)

// registration is one IndexField call.
type registration struct {
	obj     client.Object
	field   string
	extract client.IndexerFunc
}

// recordingIndexer records the indexes registered with it.
type recordingIndexer struct {
	registered []registration
	err        error
}

func (r *recordingIndexer) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	r.registered = append(r.registered, registration{obj: obj, field: field, extract: extract})
	return r.err
}

// invoiceExtractor returns the extract function Setup registers for field
// on Invoices.
func invoiceExtractor(t *testing.T, field string) client.IndexerFunc {
	t.Helper()
	indexer := &recordingIndexer{}
	if err := index.Setup(context.Background(), indexer); err != nil {
		t.Fatalf("Setup() error = %v", err)
	}
	for _, r := range indexer.registered {
		if _, ok := r.obj.(*billingv1.Invoice); ok && r.field == field {
			return r.extract
		}
	}
	t.Fatalf("Setup() registered %d indexes, none for %q on Invoices", len(indexer.registered), field)
	return nil
}

// indexCase is one object and the values an index gives it.
type indexCase struct {
	name  string
	field string
	obj   client.Object
	want  []string
}

func TestInvoiceIndexes(t *testing.T) {
	seq := int64(42)
	tests := []indexCase{
		{
			name:  "an invoice is indexed under the name of its customer",
			field: index.InvoiceCustomer,
			obj: &billingv1.Invoice{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-1"},
				Spec:       billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}},
			},
			want: []string{"acme"},
		},
		{
			name:  "an invoice without a customer name is not indexed",
			field: index.InvoiceCustomer,
			obj:   &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-2"}},
			want:  nil,
		},
		{
			name:  "an issued invoice is indexed under the block of 16 its sequence is in",
			field: index.InvoiceSequenceBlock,
			obj: &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-1"},
				Status: billingv1.InvoiceStatus{Sequence: &seq}},
			want: []string{"2"},
		},
		{
			name:  "an invoice without a sequence is not indexed",
			field: index.InvoiceSequenceBlock,
			obj:   &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-2"}},
			want:  nil,
		},
		{
			name:  "an invoice the controller has not looked at awaits its issue",
			field: index.InvoiceAwaitingIssue,
			obj:   &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-3"}},
			want:  []string{"true"},
		},
		{
			name:  "an invalid invoice awaits its issue",
			field: index.InvoiceAwaitingIssue,
			obj: &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-4"},
				Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid}},
			want: []string{"true"},
		},
		{
			name:  "an issued invoice is not indexed as awaiting its issue",
			field: index.InvoiceAwaitingIssue,
			obj: &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "inv-5"},
				Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued}},
			want: nil,
		},
	}
	for _, field := range []string{index.InvoiceCustomer, index.InvoiceSequenceBlock, index.InvoiceAwaitingIssue} {
		tests = append(tests, indexCase{
			name:  "an object that is not an invoice is not indexed under " + field,
			field: field,
			obj:   &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "acme"}},
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := invoiceExtractor(t, tt.field)(tt.obj); !slices.Equal(got, tt.want) {
				t.Errorf("index value = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSequenceBlockPutsSixteenConsecutiveSequencesInOneBlock(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sequence int64
		want     string
	}{
		{"the first sequence is in block 0", 1, "0"},
		{"the sixteenth is still in block 0", 16, "0"},
		{"the seventeenth starts block 1", 17, "1"},
		{"42 is in block 2", 42, "2"},
		{"a large sequence is in its block", 1_000_000, "62499"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := index.SequenceBlock(tc.sequence); got != tc.want {
				t.Errorf("SequenceBlock(%d) = %q, want %q", tc.sequence, got, tc.want)
			}
		})
	}
}

func TestSetupReturnsTheIndexerError(t *testing.T) {
	want := errors.New("indexer is started")
	if err := index.Setup(context.Background(), &recordingIndexer{err: want}); !errors.Is(err, want) {
		t.Errorf("Setup() error = %v, want %v", err, want)
	}
}

// TestInvoiceCustomerIsTheSelectableField guards the promise that cached and
// API-server lookups use the same key: the generated Invoice CRD must declare
// the index key as a selectable field, or field selectors on it are refused.
func TestInvoiceCustomerIsTheSelectableField(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "crd", "bases", "billing.invoicing.dev_invoices.yaml"))
	if err != nil {
		t.Fatalf("reading the Invoice CRD: %v", err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		t.Fatalf("decoding the Invoice CRD: %v", err)
	}
	if len(crd.Spec.Versions) == 0 {
		t.Fatal("the Invoice CRD has no versions")
	}
	for _, version := range crd.Spec.Versions {
		paths := make([]string, 0, len(version.SelectableFields))
		for _, f := range version.SelectableFields {
			paths = append(paths, f.JSONPath)
		}
		if !slices.Contains(paths, "."+index.InvoiceCustomer) {
			t.Errorf("version %s has selectable fields %q, want one for %q", version.Name, paths, index.InvoiceCustomer)
		}
	}
}

// extractorFor returns the extract function Setup registers for field on
// objects of obj's kind.
func extractorFor(t *testing.T, obj client.Object, field string) client.IndexerFunc {
	t.Helper()
	indexer := &recordingIndexer{}
	if err := index.Setup(context.Background(), indexer); err != nil {
		t.Fatalf("Setup() error = %v", err)
	}
	for _, r := range indexer.registered {
		if reflect.TypeOf(r.obj) == reflect.TypeOf(obj) && r.field == field {
			return r.extract
		}
	}
	t.Fatalf("Setup() registered no index %q for %T", field, obj)
	return nil
}

func TestEventSequenceBlockIndexesEachBlockOfAnObjectsEventsOnce(t *testing.T) {
	events := func(seqs ...int64) []billingv1.RecordedEvent {
		out := make([]billingv1.RecordedEvent, len(seqs))
		for i, s := range seqs {
			out[i] = billingv1.RecordedEvent{Type: billingv1.EventTypeInvoiceIssued, Sequence: s}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		obj  client.Object
		want []string
	}{
		{"an invoice without events is not indexed", &billingv1.Invoice{}, nil},
		{"an invoice is indexed under the block of each event", &billingv1.Invoice{
			Status: billingv1.InvoiceStatus{Events: events(3, 20, 40)}}, []string{"0", "1", "2"}},
		{"two events in one block give one value", &billingv1.Invoice{
			Status: billingv1.InvoiceStatus{Events: events(17, 18)}}, []string{"1"}},
		{"a credit note is indexed under its event's block", &billingv1.CreditNote{
			Status: billingv1.CreditNoteStatus{Events: events(33)}}, []string{"2"}},
		{"a payment is indexed under its event's block", &billingv1.Payment{
			Status: billingv1.PaymentStatus{Events: events(1)}}, []string{"0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := extractorFor(t, tc.obj, index.EventSequenceBlock)(tc.obj); !slices.Equal(got, tc.want) {
				t.Errorf("index value = %q, want %q", got, tc.want)
			}
		})
	}
}
