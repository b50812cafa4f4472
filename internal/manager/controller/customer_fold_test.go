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
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// fakeHoldings is a sealHoldings of the records it names ("Kind/name"),
// each with its seal's sequence and the uid it was sealed with.
type fakeHoldings map[string]struct {
	seq int64
	uid types.UID
}

func (f fakeHoldings) Holding(_ context.Context, _ string, fn func(held func(kind, name string) (int64, types.UID))) error {
	fn(func(kind, name string) (int64, types.UID) {
		h := f[kind+"/"+name]
		return h.seq, h.uid
	})
	return nil
}

// overpaid is customer acme's issued USD invoice name, with uid, overpaid
// by amount.
func overpaid(name, uid string, amount int64) *billingv1.Invoice {
	inv := managertest.InvoiceInPhase("ns", name, "acme", billingv1.InvoiceIssued)
	inv.UID = types.UID(uid)
	inv.Spec.Currency = "USD"
	inv.Status.Balance = &billingv1.InvoiceBalance{AmountOverpaid: amount}
	return inv
}

// labelled is obj labelled sealed in seal-000001, as the sealer labels an
// original before it deletes it.
func labelled[O client.Object](obj O) O {
	obj.SetLabels(map[string]string{billingv1.LabelSealedIn: "seal-000001"})
	return obj
}

// creditOfAcme is a ledger of two USD sources, inv-1 (500, event 3) and
// inv-2 (1,000, event 8), and two uses, capp-1 (300) and rf-1 (100).
func creditOfAcme() *billingv1.CustomerCredit {
	credit, _ := billing.WithSource(nil, overpaid("inv-1", "uid-inv-1", 500), 500, 3)
	credit, _ = billing.WithSource(credit, overpaid("inv-2", "uid-inv-2", 1_000), 1_000, 8)
	credit = billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: "capp-1",
		UID: "uid-capp-1", Currency: "USD", Amount: 300})
	return billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: "rf-1",
		UID: "uid-rf-1", Currency: "USD", Amount: 100})
}

// capp1 and rf1 are the records of creditOfAcme's uses, live.
func capp1() *billingv1.CreditApplication {
	capp := builder.CreditApplication("ns", "capp-1", "inv-9", 300)
	capp.UID = "uid-capp-1"
	return capp
}

func rf1() *billingv1.Refund {
	rf := builder.Refund("ns", "rf-1", "acme", 100, "USD")
	rf.UID = "uid-rf-1"
	return rf
}

func TestTheCustomerFoldsOnlyTheEntriesWhoseOriginalsTheSealerLetGo(t *testing.T) {
	inv1Sealed := fakeHoldings{"Invoice/inv-1": {1, "uid-inv-1"}}
	allSealed := fakeHoldings{"Invoice/inv-1": {1, "uid-inv-1"}, "CreditApplication/capp-1": {2, "uid-capp-1"},
		"Refund/rf-1": {2, "uid-rf-1"}}
	for _, tc := range []struct {
		name     string
		seals    sealHoldings
		invoices []*billingv1.Invoice
		live     []client.Object
		credit   *billingv1.CustomerCredit
		// unchanged: the reconciler writes no credit (creditOf says nil).
		unchanged bool
		sources   []string
		uses      []string
		carried   []billingv1.CarriedCredit
		through   int64
	}{
		{name: "without seals nothing is folded", seals: nil, credit: creditOfAcme(), unchanged: true},
		{name: "a source whose invoice a seal holds and the cache no longer shows is folded",
			seals: inv1Sealed, credit: creditOfAcme(),
			sources: []string{"inv-2"}, uses: []string{"capp-1", "rf-1"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 500, EventSequence: 3}}, through: 1},
		{name: "a source whose sealed invoice is still live, not labelled yet, stays",
			seals: inv1Sealed, invoices: []*billingv1.Invoice{overpaid("inv-1", "uid-inv-1", 500)},
			credit: creditOfAcme(), unchanged: true},
		{name: "a source whose sealed invoice is labelled but not deleted yet stays: the cache keeps no invoice's labels",
			seals: inv1Sealed, invoices: []*billingv1.Invoice{labelled(overpaid("inv-1", "uid-inv-1", 500))},
			credit: creditOfAcme(), unchanged: true},
		{name: "a sealed invoice the cache still shows, unlabelled, after its source was folded is not entered again",
			seals: inv1Sealed, invoices: []*billingv1.Invoice{overpaid("inv-1", "uid-inv-1", 500)},
			credit: func() *billingv1.CustomerCredit {
				c, _, _ := foldSealed(context.Background(), nil, "ns", creditOfAcme(),
					sealedCredit{sourceRecord("inv-1", "uid-inv-1"): 1}, nil)
				return c
			}(), unchanged: true},
		{name: "a sealed overpaid invoice that the ledger does not list is not entered",
			seals:    fakeHoldings{"Invoice/inv-3": {2, "uid-inv-3"}},
			invoices: []*billingv1.Invoice{overpaid("inv-3", "uid-inv-3", 700)},
			credit:   creditOfAcme(), unchanged: true},
		{name: "an invoice made again under a sealed name lets the sealed one's source fold",
			seals: inv1Sealed, invoices: []*billingv1.Invoice{overpaid("inv-1", "uid-again", 0)},
			credit:  creditOfAcme(),
			sources: []string{"inv-2"}, uses: []string{"capp-1", "rf-1"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 500, EventSequence: 3}}, through: 1},
		{name: "uses whose records are sealed and deleted are folded with their source",
			seals: allSealed, credit: creditOfAcme(), sources: []string{"inv-2"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 100, EventSequence: 3}}, through: 2},
		{name: "a use whose sealed record is still live keeps its hold",
			seals: allSealed, live: []client.Object{capp1()}, credit: creditOfAcme(),
			sources: []string{"inv-2"}, uses: []string{"capp-1"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 400, EventSequence: 3}}, through: 2},
		{name: "a use whose sealed record is labelled is folded",
			seals: allSealed, live: []client.Object{labelled(capp1()), labelled(rf1())}, credit: creditOfAcme(),
			sources: []string{"inv-2"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 100, EventSequence: 3}}, through: 2},
		{name: "a use whose name a seal holds with another uid keeps its hold",
			seals:  fakeHoldings{"Invoice/inv-1": {1, "uid-inv-1"}, "Refund/rf-1": {2, "uid-sealed-rf-1"}},
			credit: creditOfAcme(), sources: []string{"inv-2"}, uses: []string{"capp-1", "rf-1"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 500, EventSequence: 3}}, through: 1},
		{name: "a new source is entered in the same ledger the sealed entries are folded out of",
			seals: inv1Sealed, invoices: []*billingv1.Invoice{overpaid("inv-3", "uid-inv-3", 700)},
			credit: creditOfAcme(), sources: []string{"inv-2", "inv-3"}, uses: []string{"capp-1", "rf-1"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 500, EventSequence: 3}}, through: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(tc.live...).Build()
			customer := builder.Customer("ns", "acme")
			customer.Status.Credit = tc.credit
			before := tc.credit.DeepCopy()
			var cached []billingv1.Invoice
			for _, inv := range tc.invoices {
				cached = append(cached, *inv)
			}
			got, err := creditOf(context.Background(), c, tc.seals, customer, cached)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(customer.Status.Credit).To(Equal(before), "creditOf changed the customer it read")
			if tc.unchanged {
				g.Expect(got).To(BeNil())
				return
			}
			g.Expect(got).NotTo(BeNil())
			var sources, uses []string
			for _, s := range got.Sources {
				sources = append(sources, s.Invoice)
			}
			for _, u := range got.Uses {
				uses = append(uses, u.Name)
			}
			g.Expect(sources).To(Equal(tc.sources))
			g.Expect(uses).To(Equal(tc.uses))
			g.Expect(got.Carried).To(Equal(tc.carried))
			g.Expect(got.FoldedThrough).To(Equal(tc.through))
			if len(tc.sources) == len(before.Sources)-1 {
				// Only folded: the balance is the same.
				g.Expect(got.Balance).To(Equal(before.Balance))
			}
		})
	}
}

func TestTheCustomerReconcilerEntersAndFoldsInOnePatchAndThenRests(t *testing.T) {
	g := NewWithT(t)
	ctx := context.Background()
	inv1, _, _, seals := managertest.SealedWorld(t)
	customer := builder.Customer("ns", "acme")
	customer.Finalizers = []string{billingv1.CustomerFinalizer}
	credit, _ := billing.WithSource(nil, inv1, 500, 3)
	customer.Status.Credit = credit
	// inv-1's original is gone; inv-3 is live, overpaid, and not entered
	// yet.
	inv3 := overpaid("inv-3", "uid-inv-3", 200)
	cb := fake.NewClientBuilder().WithScheme(testScheme).WithStatusSubresource(&billingv1.Customer{}).
		WithObjects(customer, inv3, seals[0], seals[1])
	g.Expect(index.Setup(ctx, managertest.BuilderIndexer{Builder: cb})).To(Succeed())
	c := cb.Build()
	r := &CustomerReconciler{Client: c, APIReader: c, Recorder: events.NewFakeRecorder(10), Clock: clock.RealClock{},
		Sealed: &sealing.SealedRecords{Reader: c}}

	_, err := r.Reconcile(ctx, managertest.Request("acme"))
	g.Expect(err).NotTo(HaveOccurred())
	got := &billingv1.Customer{}
	g.Expect(c.Get(ctx, client.ObjectKeyFromObject(customer), got)).To(Succeed())
	g.Expect(got.Status.Credit.Sources).To(ConsistOf(HaveField("Invoice", "inv-3")))
	g.Expect(got.Status.Credit.Carried).To(Equal([]billingv1.CarriedCredit{{Currency: "USD", Amount: 500, EventSequence: 3}}))
	g.Expect(got.Status.Credit.FoldedThrough).To(Equal(int64(1)))
	g.Expect(got.Status.Credit.Summary).To(Equal("USD 7.00"))

	// The next reconcile, which the patch itself brings, finds nothing to
	// fold or enter, and writes nothing.
	version := got.ResourceVersion
	_, err = r.Reconcile(ctx, managertest.Request("acme"))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(c.Get(ctx, client.ObjectKeyFromObject(customer), got)).To(Succeed())
	g.Expect(got.ResourceVersion).To(Equal(version))
}

func TestANewSealWakesTheCustomersWhoseCreditItHolds(t *testing.T) {
	g := NewWithT(t)
	held := builder.Customer("ns", "acme")
	held.Status.Credit = creditOfAcme()
	other := builder.Customer("ns", "globex")
	other.Status.Credit, _ = billing.WithSource(nil, overpaid("inv-7", "uid-inv-7", 10), 10, 1)
	none := builder.Customer("ns", "initech")
	c := fake.NewClientBuilder().WithScheme(testScheme).WithObjects(held, other, none).Build()
	seal := &billingv1.LedgerSeal{}
	seal.Namespace, seal.Name, seal.Spec.Sequence = "ns", "seal-000002", 2
	holdings := fakeHoldings{"Invoice/inv-1": {1, "uid-inv-1"}, "Refund/rf-1": {2, "uid-rf-1"},
		"Invoice/inv-7": {2, "uid-other"}}
	g.Expect(customersHeldBySeal(c, holdings)(context.Background(), seal)).To(ConsistOf(managertest.Request("acme")))
	g.Expect(customersHeldBySeal(c, nil)(context.Background(), seal)).To(BeEmpty())
	g.Expect(sealMade.Create(event.CreateEvent{Object: seal})).To(BeTrue())
	g.Expect(sealMade.Delete(event.DeleteEvent{Object: seal})).To(BeFalse())
}

func TestAUseLetGoByTheSealerWakesItsCustomer(t *testing.T) {
	g := NewWithT(t)
	rf := rf1()
	g.Expect(customerOfUse(context.Background(), rf)).To(ConsistOf(managertest.Request("acme")))
	capp := capp1()
	g.Expect(customerOfUse(context.Background(), capp)).To(BeEmpty(), "an application never applied names no customer")
	capp.Status.CustomerName = "acme"
	g.Expect(customerOfUse(context.Background(), capp)).To(ConsistOf(managertest.Request("acme")))
	g.Expect(sealedOrGone.Delete(event.DeleteEvent{Object: rf})).To(BeTrue())
	g.Expect(sealedOrGone.Update(event.UpdateEvent{ObjectOld: rf, ObjectNew: labelled(rf1())})).To(BeTrue())
	g.Expect(sealedOrGone.Update(event.UpdateEvent{ObjectOld: labelled(rf1()), ObjectNew: labelled(rf1())})).To(BeFalse())
	g.Expect(sealedOrGone.Create(event.CreateEvent{Object: rf})).To(BeFalse())
}
