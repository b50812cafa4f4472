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
	"testing"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestEventBlocksFindEachEventOnTheObjectThatCarriesIt(t *testing.T) {
	inv := managertest.IssuedWithSequence("ns", "inv-1", 7)
	inv.Status.Events = []billingv1.RecordedEvent{
		managertest.RecordedAt(billingv1.EventTypeInvoiceIssued, 1), managertest.RecordedAt(billingv1.EventTypeInvoicePaid, 5)}
	note := builder.CreditNote("ns", "cn-1", "inv-1")
	note.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeCreditNoteIssued, 2)}
	payment := builder.Payment("ns", "pay-1", "inv-1", 100)
	payment.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, 3)}
	later := builder.Payment("ns", "pay-2", "inv-1", 100)
	later.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, 17)}
	elsewhere := builder.Payment("other-ns", "pay-3", "inv-1", 100)
	elsewhere.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, 4)}
	workspace := []client.Object{inv, note, payment, later, elsewhere}
	twice := builder.Payment("ns", "pay-twice", "inv-1", 100)
	twice.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, 2)}
	unnumbered := managertest.InvoiceInPhase("ns", "inv-2", "acme", billingv1.InvoiceIssued)
	unnumbered.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeInvoiceIssued, 6)}

	tests := []struct {
		name     string
		objects  []client.Object
		sequence int64
		want     *workspaceEvent // nil for none
		wantErr  error
	}{
		{"an invoice's invoice.issued event carries the invoice's sequence", workspace, 1,
			&workspaceEvent{sequence: 1, typ: billingv1.EventTypeInvoiceIssued, object: inv, invoiceSequence: 7}, nil},
		{"an invoice's later event is found on it too", workspace, 5,
			&workspaceEvent{sequence: 5, typ: billingv1.EventTypeInvoicePaid, object: inv}, nil},
		{"a credit note's event is found", workspace, 2,
			&workspaceEvent{sequence: 2, typ: billingv1.EventTypeCreditNoteIssued, object: note}, nil},
		{"a payment's event is found", workspace, 3,
			&workspaceEvent{sequence: 3, typ: billingv1.EventTypePaymentRecorded, object: payment}, nil},
		{"an event of the next block is found", workspace, 17,
			&workspaceEvent{sequence: 17, typ: billingv1.EventTypePaymentRecorded, object: later}, nil},
		{"another workspace's event is not this one's", workspace, 4, nil, nil},
		{"two objects carrying one event sequence stop delivery",
			append([]client.Object{twice}, workspace...), 1, nil, errSequenceTwice},
		{"an invoice.issued event without an invoice sequence stops delivery",
			append([]client.Object{unnumbered}, workspace...), 1, nil, errIssuedWithoutSequence},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			cb := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(tt.objects...)
			g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: cb})).To(Succeed())

			got, ok, err := eventBlocks(cb.Build(), "ns").at(context.Background(), tt.sequence)
			if tt.wantErr != nil {
				g.Expect(err).To(MatchError(tt.wantErr))
				return
			}
			g.Expect(err).NotTo(HaveOccurred())
			if tt.want == nil {
				g.Expect(ok).To(BeFalse())
				return
			}
			g.Expect(ok).To(BeTrue())
			g.Expect(got.sequence).To(Equal(tt.want.sequence))
			g.Expect(got.typ).To(Equal(tt.want.typ))
			g.Expect(got.createdAt.Equal(managertest.Now)).To(BeTrue(), "createdAt = %v, want %v", got.createdAt, managertest.Now)
			g.Expect(got.invoiceSequence).To(Equal(tt.want.invoiceSequence))
			g.Expect(got.object.GetNamespace()).To(Equal("ns"))
			g.Expect(got.object.GetName()).To(Equal(tt.want.object.GetName()))
			g.Expect(got.object).To(BeAssignableToTypeOf(tt.want.object))
		})
	}
}

// The invoice.* events recorded on a write-off or a reminder carry their
// invoice, which the webhook body reads: live from the cache, or once
// sealed from its seal, labelled with it, as /v1/events serves it.
func TestTheWebhookInvoiceReaderReadsASealedInvoiceFromItsSeal(t *testing.T) {
	_, _, _, seals := managertest.SealedWorld(t)
	live := managertest.IssuedWithSequence("ns", "inv-3", 3)
	c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(seals[0], seals[1], live).Build()
	for _, tc := range []struct {
		name     string
		sealed   *sealing.SealedRecords
		invoice  string
		wantSeal string // "" for a live invoice
		wantNil  bool
	}{
		{name: "a live invoice is read from the cache", sealed: &sealing.SealedRecords{Reader: c}, invoice: "inv-3"},
		{name: "a sealed invoice is read from its seal, labelled with it", sealed: &sealing.SealedRecords{Reader: c},
			invoice: "inv-2", wantSeal: "seal-000002"},
		{name: "an invoice neither live nor sealed is nil", sealed: &sealing.SealedRecords{Reader: c}, invoice: "inv-9",
			wantNil: true},
		{name: "without a SealedRecords a sealed invoice is nil", invoice: "inv-2", wantNil: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			r := &WebhookEndpointReconciler{Client: c, Sealed: tc.sealed}
			inv := r.invoiceReader(context.Background(), "ns")(tc.invoice)
			if tc.wantNil {
				g.Expect(inv).To(BeNil())
				return
			}
			g.Expect(inv).NotTo(BeNil())
			g.Expect(inv.Name).To(Equal(tc.invoice))
			g.Expect(inv.Labels[billingv1.LabelSealedIn]).To(Equal(tc.wantSeal))
		})
	}
}

func TestIssuedInvoiceFindsTheSequenceInItsBlock(t *testing.T) {
	tests := []struct {
		name     string
		invoices []client.Object
		sequence int64
		want     string // the name found; "" for none
		wantErr  error
	}{
		{"the invoice with the sequence is found among its block's", []client.Object{
			managertest.IssuedWithSequence("ns", "inv-17", 17), managertest.IssuedWithSequence("ns", "inv-18", 18),
			managertest.IssuedWithSequence("ns", "inv-32", 32), managertest.IssuedWithSequence("ns", "inv-33", 33)}, 18, "inv-18", nil},
		{"the last sequence of a block is found", []client.Object{
			managertest.IssuedWithSequence("ns", "inv-16", 16), managertest.IssuedWithSequence("ns", "inv-17", 17)}, 16, "inv-16", nil},
		{"a sequence no invoice carries yet is nothing, not an error", []client.Object{
			managertest.IssuedWithSequence("ns", "inv-17", 17)}, 19, "", nil},
		{"another workspace's invoice with the sequence is not this one's", []client.Object{
			managertest.IssuedWithSequence("other-ns", "inv-18", 18)}, 18, "", nil},
		{"two invoices carrying one sequence stop delivery", []client.Object{
			managertest.IssuedWithSequence("ns", "inv-a", 18), managertest.IssuedWithSequence("ns", "inv-b", 18)}, 18, "", errSequenceTwice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			builder := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(tt.invoices...)
			g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: builder})).To(Succeed())
			invoices := invoiceBlocks(builder.Build(), "ns")

			got, err := issuedInvoiceAt(context.Background(), invoices, tt.sequence)
			if tt.wantErr != nil {
				g.Expect(err).To(MatchError(tt.wantErr))
				return
			}
			g.Expect(err).NotTo(HaveOccurred())
			if tt.want == "" {
				g.Expect(got).To(BeNil())
				return
			}
			g.Expect(got.Name).To(Equal(tt.want))
			g.Expect(*got.Status.Sequence).To(Equal(tt.sequence))
		})
	}
}

func TestSealedEventBlocksFindSealedCloseAndSealEvents(t *testing.T) {
	inv1, _, _, seals := managertest.SealedWorld(t)
	live := managertest.IssuedWithSequence("ns", "inv-3", 3)
	live.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeInvoiceIssued, 7)}
	closed := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "close-1"},
		Status: billingv1.PeriodCloseStatus{Events: []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePeriodClosed, 6)}}}
	leftover := inv1.DeepCopy() // an original whose move is not finished
	cb := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(seals[0], seals[1], live, closed, leftover)
	g := NewWithT(t)
	g.Expect(index.Setup(context.Background(), managertest.BuilderIndexer{Builder: cb})).To(Succeed())
	reader := cb.Build()
	sealed := &sealing.SealedRecords{Reader: reader}
	blocks := sealedEventBlocks(reader, sealed, "ns")
	for _, tc := range []struct {
		sequence        int64
		typ             billingv1.EventType
		name            string
		sealedIn        string
		invoiceSequence int64
	}{
		{1, billingv1.EventTypeInvoiceIssued, "inv-1", "seal-000001", 1},
		{2, billingv1.EventTypePaymentRecorded, "pay-1", "seal-000001", 0},
		{3, billingv1.EventTypeInvoicePaid, "inv-1", "seal-000001", 0},
		{4, billingv1.EventTypeInvoiceIssued, "inv-2", "seal-000002", 2},
		{5, billingv1.EventTypeLedgerSealed, "seal-000001", "", 0},
		{6, billingv1.EventTypePeriodClosed, "close-1", "", 0},
		{7, billingv1.EventTypeInvoiceIssued, "inv-3", "", 3},
	} {
		ev, ok, err := blocks.at(context.Background(), tc.sequence)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(ok).To(BeTrue(), "event %d", tc.sequence)
		g.Expect(ev.typ).To(Equal(tc.typ), "event %d", tc.sequence)
		g.Expect(ev.object.GetName()).To(Equal(tc.name), "event %d", tc.sequence)
		g.Expect(ev.object.GetLabels()[billingv1.LabelSealedIn]).To(Equal(tc.sealedIn), "event %d", tc.sequence)
		g.Expect(ev.invoiceSequence).To(Equal(tc.invoiceSequence), "event %d", tc.sequence)
	}
	_, ok, err := blocks.at(context.Background(), 8)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(ok).To(BeFalse())

	invoices := sealedInvoiceBlocks(reader, sealed, "ns")
	for seq, name := range map[int64]string{1: "inv-1", 2: "inv-2", 3: "inv-3"} {
		inv, err := issuedInvoiceAt(context.Background(), invoices, seq)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(inv.Name).To(Equal(name))
	}
}
