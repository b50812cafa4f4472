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

package sealing

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestSealedRecordsKnowWhatEachVerifiedSealHolds(t *testing.T) {
	g := NewWithT(t)
	_, _, _, seals := managertest.SealedWorld(t)
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
	events, err := sealed.EventsIn(ctx, "ns", 1, 16)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(events).To(HaveLen(4))
	g.Expect(events[2]).To(Equal(sealedEvent{Seal: "seal-000001", Kind: seal.KindPayment, Name: "pay-1",
		typ: billingv1.EventTypePaymentRecorded}))
	chain, broken, err := sealed.Chain(ctx, "ns")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(broken).NotTo(HaveOccurred())
	g.Expect(chain).To(HaveLen(2))
	g.Expect(chain[0].maxEvent).To(Equal(int64(3)))
	g.Expect(chain[1].hash).To(Equal(seals[1].Spec.Hash))
}

func TestSealedRecordsStopAtASealThatDoesNotVerify(t *testing.T) {
	g := NewWithT(t)
	_, _, _, seals := managertest.SealedWorld(t)
	tampered := seals[1].DeepCopy()
	tampered.Spec.PreviousHash = seals[1].Spec.Hash
	sealed := &SealedRecords{Reader: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(seals[0], tampered).Build()}
	chain, broken, err := sealed.Chain(context.Background(), "ns")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(broken).To(MatchError(ContainSubstring("seal-000002")))
	g.Expect(chain).To(HaveLen(1))
	name, _, _ := sealed.SealOf(context.Background(), "ns", seal.KindInvoice, "inv-2")
	g.Expect(name).To(BeEmpty(), "nothing of a broken seal is taken in")
}

func TestAlreadySealedTellsARecreationFromTheOriginal(t *testing.T) {
	inv1, _, _, seals := managertest.SealedWorld(t)
	sealed := &SealedRecords{Reader: fake.NewClientBuilder().WithScheme(testScheme).
		WithObjects(seals[0], seals[1]).Build()}
	recreated := inv1.DeepCopy()
	recreated.UID = "uid-new"
	other := managertest.IssuedWithSequence("ns", "inv-9", 9)
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
			why, err := AlreadySealed(context.Background(), tc.sealed, tc.obj)
			g.Expect(err).NotTo(HaveOccurred())
			if tc.want == "" {
				g.Expect(why).To(BeNil())
				return
			}
			g.Expect(why).NotTo(BeNil())
			g.Expect(why.Reason).To(Equal(billingv1.ReasonAlreadySealed))
			g.Expect(why.Message).To(ContainSubstring(tc.want))
		})
	}
}

func TestASealReadBackHoldsExactlyTheChosenRecords(t *testing.T) {
	inv1, inv2, pay1, _ := managertest.SealedWorld(t)
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

func TestTheSealedPartsSpreadASealsOriginalsEvenly(t *testing.T) {
	g := NewWithT(t)
	counts := map[string]int{}
	for i := range 4000 {
		name := fmt.Sprintf("inv-%06d", i)
		g.Expect(sealedPart(name)).To(Equal(sealedPart(name)), "the part of %s changed", name)
		counts[sealedPart(name)]++
	}
	g.Expect(counts).To(HaveLen(deleteParts))
	for part, n := range counts {
		g.Expect(n).To(BeNumerically("~", 4000/deleteParts, 4000/deleteParts/5), "part %s", part)
	}
}

func TestDeletingASealsOriginalsTakesEveryLabelledOneAndNoOther(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels func(name string) map[string]string
		gone   bool
		// deletes is how many DeleteCollections it takes: one per part,
		// and the last pass's only when an original is left for it.
		deletes int
	}{
		{"an original labelled with its seal and its part is deleted", func(name string) map[string]string {
			return map[string]string{billingv1.LabelSealedIn: "seal-000002", billingv1.LabelSealedPart: sealedPart(name)}
		}, true, deleteParts},
		{"an original labelled with its seal alone, as before parts were, is deleted", func(string) map[string]string {
			return map[string]string{billingv1.LabelSealedIn: "seal-000002"}
		}, true, deleteParts + 1},
		{"an original labelled with another seal stays", func(name string) map[string]string {
			return map[string]string{billingv1.LabelSealedIn: "seal-000001", billingv1.LabelSealedPart: sealedPart(name)}
		}, false, deleteParts},
		{"a record with a part but no seal stays", func(name string) map[string]string {
			return map[string]string{billingv1.LabelSealedPart: sealedPart(name)}
		}, false, deleteParts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			var objs []client.Object
			for i := range 12 {
				inv := builder.Invoice("ns", fmt.Sprintf("inv-%02d", i))
				inv.Labels = tc.labels(inv.Name)
				objs = append(objs, inv)
			}
			var deletes atomic.Int32
			c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
				DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
					deletes.Add(1)
					return c.DeleteAllOf(ctx, obj, opts...)
				}}).Build()
			r := &SealReconciler{Client: c, Writer: c, APIReader: c}
			g.Expect(r.deleteSealed(context.Background(), "ns", "seal-000002", len(objs),
				[]string{recordkind.Invoice.Name})).To(Succeed())
			g.Expect(deletes.Load()).To(BeEquivalentTo(tc.deletes))
			var left billingv1.InvoiceList
			g.Expect(c.List(context.Background(), &left)).To(Succeed())
			if tc.gone {
				g.Expect(left.Items).To(BeEmpty())
			} else {
				g.Expect(left.Items).To(HaveLen(len(objs)))
			}
		})
	}
}
