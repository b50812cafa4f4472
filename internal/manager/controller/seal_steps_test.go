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

package controller

import (
	"context"
	"testing"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// sealedWorld is a workspace "ns" of two seals: seal 1 holds inv-1
// (sequence 1, events 1 and 3) and pay-1 (event 2), seal 2 holds inv-2
// (sequence 2, event 4), both of customer acme; seal 1 carries its
// ledger.sealed event (5).
func sealedWorld(t *testing.T) (inv1, inv2 *billingv1.Invoice, pay1 *billingv1.Payment, seals []*billingv1.LedgerSeal) {
	t.Helper()
	inv1 = issuedWithSequence("ns", "inv-1", 1)
	inv1.UID, inv1.Status.Number = "uid-inv-1", "INV-000001"
	inv1.Status.Events = []billingv1.RecordedEvent{recordedAt(billingv1.EventTypeInvoiceIssued, 1),
		recordedAt(billingv1.EventTypeInvoicePaid, 3)}
	pay1 = builder.Payment("ns", "pay-1", "inv-1", 100)
	pay1.UID = "uid-pay-1"
	pay1.Status.Events = []billingv1.RecordedEvent{recordedAt(billingv1.EventTypePaymentRecorded, 2)}
	inv2 = issuedWithSequence("ns", "inv-2", 2)
	inv2.UID, inv2.Status.Number = "uid-inv-2", "INV-000002"
	inv2.Status.Events = []billingv1.RecordedEvent{recordedAt(billingv1.EventTypeInvoiceIssued, 4)}
	first, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(now), inv1, pay1)
	if err != nil {
		t.Fatal(err)
	}
	first.Status.Events = []billingv1.RecordedEvent{recordedAt(billingv1.EventTypeLedgerSealed, 5)}
	second, err := builder.LedgerSeal("ns", 2, first.Spec.Hash, metav1.NewTime(now), inv2)
	if err != nil {
		t.Fatal(err)
	}
	return inv1, inv2, pay1, []*billingv1.LedgerSeal{first, second}
}

func TestSealedRecordsKnowWhatEachVerifiedSealHolds(t *testing.T) {
	g := NewWithT(t)
	_, _, _, seals := sealedWorld(t)
	sealed := &SealedRecords{Reader: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(seals[0], seals[1]).Build()}
	ctx := context.Background()

	name, uid, err := sealed.SealOf(ctx, "ns", seal.KindPayment, "pay-1")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(name).To(Equal("seal-000001"))
	g.Expect(uid).To(Equal(types.UID("uid-pay-1")))
	name, _, _ = sealed.SealOf(ctx, "ns", seal.KindInvoice, "inv-2")
	g.Expect(name).To(Equal("seal-000002"))
	name, _, _ = sealed.SealOf(ctx, "ns", seal.KindInvoice, "pay-1")
	g.Expect(name).To(BeEmpty(), "a name is sealed for its kind only")
	name, _, _ = sealed.SealOf(ctx, "other", seal.KindInvoice, "inv-1")
	g.Expect(name).To(BeEmpty())
	g.Expect(sealed.SealedInvoicesOf(ctx, "ns", "acme")).To(Equal(2))
	events, err := sealed.eventsIn(ctx, "ns", 1, 16)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(events).To(HaveLen(4))
	g.Expect(events[2]).To(Equal(sealedEvent{seal: "seal-000001", kind: seal.KindPayment, name: "pay-1",
		typ: billingv1.EventTypePaymentRecorded}))
	chain, broken, err := sealed.chain(ctx, "ns")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(broken).NotTo(HaveOccurred())
	g.Expect(chain).To(HaveLen(2))
	g.Expect(chain[0].maxEvent).To(Equal(int64(3)))
	g.Expect(chain[1].hash).To(Equal(seals[1].Spec.Hash))
}

func TestSealedRecordsStopAtASealThatDoesNotVerify(t *testing.T) {
	g := NewWithT(t)
	_, _, _, seals := sealedWorld(t)
	tampered := seals[1].DeepCopy()
	tampered.Spec.PreviousHash = seals[1].Spec.Hash
	sealed := &SealedRecords{Reader: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(seals[0], tampered).Build()}
	chain, broken, err := sealed.chain(context.Background(), "ns")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(broken).To(MatchError(ContainSubstring("seal-000002")))
	g.Expect(chain).To(HaveLen(1))
	name, _, _ := sealed.SealOf(context.Background(), "ns", seal.KindInvoice, "inv-2")
	g.Expect(name).To(BeEmpty(), "nothing of a broken seal is taken in")
}

func TestAlreadySealedTellsARecreationFromTheOriginal(t *testing.T) {
	inv1, _, _, seals := sealedWorld(t)
	sealed := &SealedRecords{Reader: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(seals[0], seals[1]).Build()}
	recreated := inv1.DeepCopy()
	recreated.UID = "uid-new"
	other := issuedWithSequence("ns", "inv-9", 9)
	for _, tc := range []struct {
		name   string
		sealed *SealedRecords
		obj    client.Object
		want   string // a substring of the message; "" for none
	}{
		{"a record re-created with a sealed name is AlreadySealed, naming the seal", sealed, recreated, `LedgerSeal "seal-000001"`},
		{"the original itself, not yet deleted, is a leftover", sealed, inv1, ""},
		{"a name no seal holds is not", sealed, other, ""},
		{"nothing is sealed without a SealedRecords", nil, recreated, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			why, err := alreadySealed(context.Background(), tc.sealed, tc.obj)
			g.Expect(err).NotTo(HaveOccurred())
			if tc.want == "" {
				g.Expect(why).To(BeNil())
				return
			}
			g.Expect(why).NotTo(BeNil())
			g.Expect(why.reason).To(Equal(billingv1.ReasonAlreadySealed))
			g.Expect(why.message).To(ContainSubstring(tc.want))
		})
	}
}

func TestSealedEventBlocksFindSealedCloseAndSealEvents(t *testing.T) {
	inv1, _, _, seals := sealedWorld(t)
	live := issuedWithSequence("ns", "inv-3", 3)
	live.Status.Events = []billingv1.RecordedEvent{recordedAt(billingv1.EventTypeInvoiceIssued, 7)}
	closed := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "close-1"},
		Status: billingv1.PeriodCloseStatus{Events: []billingv1.RecordedEvent{recordedAt(billingv1.EventTypePeriodClosed, 6)}}}
	leftover := inv1.DeepCopy() // an original whose move is not finished
	cb := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(seals[0], seals[1], live, closed, leftover)
	g := NewWithT(t)
	g.Expect(index.Setup(context.Background(), builderIndexer{builder: cb})).To(Succeed())
	reader := cb.Build()
	sealed := &SealedRecords{Reader: reader}
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

func TestASealReadBackHoldsExactlyTheChosenRecords(t *testing.T) {
	inv1, inv2, pay1, _ := sealedWorld(t)
	chosen := []chosenFamily{{invoice: inv1, records: []client.Object{inv1, pay1}}, {invoice: inv2, records: []client.Object{inv2}}}
	raw := func(objs ...client.Object) []byte {
		var lines [][]byte
		for _, o := range objs {
			line, err := seal.Line(o)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		return seal.Join(lines)
	}
	otherUID := pay1.DeepCopy()
	otherUID.UID = "uid-other"
	for _, tc := range []struct {
		name    string
		payload []byte
		want    string // a substring of the error; "" for none
	}{
		{"the same records in order", raw(inv1, pay1, inv2), ""},
		{"one record fewer", raw(inv1, pay1), "fewer"},
		{"one record more", raw(inv1, pay1, inv2, inv2), "more"},
		{"another order", raw(inv1, inv2, pay1), "record 2"},
		{"another uid", raw(inv1, otherUID, inv2), "uid-other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := holdsExactly(tc.payload, chosen)
			if tc.want == "" {
				NewWithT(t).Expect(err).NotTo(HaveOccurred())
				return
			}
			NewWithT(t).Expect(err).To(MatchError(ContainSubstring(tc.want)))
		})
	}
}
