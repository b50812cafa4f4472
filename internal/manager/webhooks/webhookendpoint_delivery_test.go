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

package webhooks

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// issuedAtEvent returns an issued invoice in ns carrying sequence, whose
// invoice.issued event has event sequence at.
func issuedAtEvent(ns, name string, sequence, at int64) *billingv1.Invoice {
	inv := managertest.IssuedWithSequence(ns, name, sequence)
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(at)}
	return inv
}

// invoicesUpTo returns n issued invoices in ns with the sequences 1 to n,
// the invoice.issued event of sequence i at event sequence i.
func invoicesUpTo(ns string, n int64) []client.Object {
	invoices := make([]client.Object, 0, n)
	for seq := int64(1); seq <= n; seq++ {
		invoices = append(invoices, issuedAtEvent(ns, fmt.Sprintf("inv-%d", seq), seq, seq))
	}
	return invoices
}

func TestTheInvoiceWatermarkRisesOverTheInvoicesWhoseIssuedEventTheCursorPassed(t *testing.T) {
	tests := []struct {
		name      string
		invoices  []client.Object
		watermark int64
		cursor    int64
		want      int64
		wantErr   error
	}{
		{"it rises over each next invoice whose issued event is at or below the cursor", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 2), issuedAtEvent("ns", "inv-2", 2, 4),
			issuedAtEvent("ns", "inv-3", 3, 6), issuedAtEvent("ns", "inv-4", 4, 8)}, 0, 6, 3, nil},
		{"it rises from where it was, across blocks of sequences", invoicesUpTo("ns", 40), 10, 35, 35, nil},
		{"it stops before the first invoice whose issued event the cursor has not passed", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 1), issuedAtEvent("ns", "inv-2", 2, 9),
			issuedAtEvent("ns", "inv-3", 3, 2)}, 0, 5, 1, nil},
		{"it stops before a sequence no invoice carries yet", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 1), issuedAtEvent("ns", "inv-2", 2, 2),
			issuedAtEvent("ns", "inv-4", 4, 3)}, 0, 10, 2, nil},
		{"it stops before an invoice that has no issued event yet", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 1), managertest.IssuedWithSequence("ns", "inv-2", 2),
			issuedAtEvent("ns", "inv-3", 3, 3)}, 0, 10, 1, nil},
		{"another workspace's invoices do not raise it", invoicesUpTo("other-ns", 5), 0, 10, 0, nil},
		{"a watermark above every invoice stays where it is", invoicesUpTo("ns", 3), 7, 10, 7, nil},
		{"two invoices carrying the next sequence stop it with an error", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 1), issuedAtEvent("ns", "inv-2a", 2, 2),
			issuedAtEvent("ns", "inv-2b", 2, 3)}, 0, 10, 1, errSequenceTwice},
		{"two invoices carrying a sequence it does not reach are no error", []client.Object{
			issuedAtEvent("ns", "inv-1", 1, 1), issuedAtEvent("ns", "inv-2", 2, 20),
			issuedAtEvent("ns", "inv-3a", 3, 3), issuedAtEvent("ns", "inv-3b", 3, 4)}, 0, 10, 1, nil},
		{"it rises at most maxWatermarkSteps in one reconcile", invoicesUpTo("ns", maxWatermarkSteps+20), 5,
			maxWatermarkSteps + 20, 5 + maxWatermarkSteps, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			builder := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(tt.invoices...)
			g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: builder})).To(Succeed())
			r := &WebhookEndpointReconciler{Client: builder.Build()}

			got, err := r.raiseInvoiceWatermark(context.Background(), "ns", tt.watermark, tt.cursor)
			if tt.wantErr != nil {
				g.Expect(err).To(MatchError(tt.wantErr))
			} else {
				g.Expect(err).NotTo(HaveOccurred())
			}
			g.Expect(got).To(Equal(tt.want))
		})
	}
}

func TestTheInvoiceWatermarkListsEachBlockOfSequencesOnce(t *testing.T) {
	g := NewWithT(t)
	builder := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(invoicesUpTo("ns", 40)...)
	g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: builder})).To(Succeed())
	lists := 0
	c := interceptor.NewClient(builder.Build(), interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			lists++
			return c.List(ctx, list, opts...)
		},
	})
	r := &WebhookEndpointReconciler{Client: c}

	got, err := r.raiseInvoiceWatermark(context.Background(), "ns", 0, 35)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(got).To(BeEquivalentTo(35))
	g.Expect(lists).To(Equal(3), "sequences 1 to 36 are in the blocks 0, 1 and 2")
}
