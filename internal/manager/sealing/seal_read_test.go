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
	"strconv"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// paidFamily returns a sealable family of ns, closed through through: an
// invoice inv-1 paid by two payments, pay-b and pay-a.
func paidFamily(through time.Time) billing.Family {
	inv := managertest.IssuedWithSequence("ns", "inv-1", 1)
	inv.UID, inv.Status.Number = "uid-inv-1", "INV-000001"
	inv.Status.IssuedAt = &metav1.Time{Time: through.Add(-time.Hour)}
	inv.Status.Balance = &billingv1.InvoiceBalance{PaymentStatus: billingv1.InvoicePaymentPaid}
	inv.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeInvoiceIssued, 1),
		managertest.RecordedAt(billingv1.EventTypeInvoicePaid, 4)}
	f := billing.Family{Invoice: inv}
	for i, name := range []string{"pay-b", "pay-a"} {
		p := builder.Payment("ns", name, "inv-1", 50)
		p.UID = types.UID("uid-" + p.Name)
		p.Status.Phase = billingv1.PaymentRecorded
		p.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypePaymentRecorded, int64(2+i))}
		f.Members = append(f.Members, p)
	}
	return f
}

// liveOf returns the live read that holds objs.
func liveOf(objs ...client.Object) liveRecords {
	live := liveRecords{}
	for _, obj := range objs {
		live[SealedKey{SealKindOf(obj), obj.GetName()}] = obj
	}
	return live
}

func TestAFamilyIsSealedFromTheLiveReadOnlyAsTheCacheSawIt(t *testing.T) {
	through := managertest.Now
	f := paidFamily(through)
	inv, payB, payA := f.Invoice, f.Members[0].(*billingv1.Payment), f.Members[1].(*billingv1.Payment)
	recreated := payA.DeepCopy()
	recreated.UID = "uid-other"
	deleting := payA.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{Time: through}
	open := inv.DeepCopy()
	open.Status.Balance.PaymentStatus = billingv1.InvoicePaymentOpen
	for _, tc := range []struct {
		name     string
		live     liveRecords
		reserved map[string]bool
		want     []string // the records' names in the seal's order; nil: not sealable
	}{
		{"a family read whole is sealed, its payments by name", liveOf(inv, payB, payA), nil,
			[]string{"inv-1", "pay-a", "pay-b"}},
		{"a family with a record gone waits", liveOf(inv, payB), nil, nil},
		{"a family with a record of another uid waits", liveOf(inv, payB, recreated), nil, nil},
		{"a family with a record being deleted waits", liveOf(inv, payB, deleting), nil, nil},
		{"a family still named in a journal waits", liveOf(inv, payB, payA), map[string]bool{"uid-pay-a": true}, nil},
		{"a family that is not sealable as stored waits", liveOf(open, payB, payA), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			c, ok, err := liveFamily(f, tc.live, through, tc.reserved)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(ok).To(Equal(tc.want != nil))
			var names []string
			for _, obj := range c.records {
				names = append(names, obj.GetName())
			}
			g.Expect(names).To(Equal(tc.want))
			g.Expect(c.lines).To(HaveLen(len(tc.want)))
		})
	}
}

func TestTheLiveReadWantsEveryRecordOfTheChosenFamilies(t *testing.T) {
	g := NewWithT(t)
	f := paidFamily(managertest.Now)
	note := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cn-1", UID: "uid-cn-1"}}
	f.Members = append(f.Members, note)
	g.Expect(wantedRecords([]billing.Family{f}, nil)).To(Equal(map[SealedKey]types.UID{
		{seal.KindInvoice, "inv-1"}: "uid-inv-1", {seal.KindCreditNote, "cn-1"}: "uid-cn-1",
		{seal.KindPayment, "pay-b"}: "uid-pay-b", {seal.KindPayment, "pay-a"}: "uid-pay-a"}))
}

func TestSealedKindsAreTheKindsAMoveDeletes(t *testing.T) {
	f := paidFamily(managertest.Now)
	note := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cn-1"}}
	for _, tc := range []struct {
		name    string
		records []client.Object
		want    []string
	}{
		{"nothing deletes nothing", nil, nil},
		{"an invoice alone is one kind", []client.Object{f.Invoice}, []string{seal.KindInvoice}},
		{"every kind comes in the seal's order", []client.Object{f.Members[0], note, f.Invoice},
			[]string{seal.KindInvoice, seal.KindCreditNote, seal.KindPayment}},
		{"money on account and e-mails come after payments, in the table's order",
			[]client.Object{&billingv1.Email{}, &billingv1.WriteOff{}, &billingv1.Refund{}, &billingv1.CreditApplication{}, f.Invoice},
			[]string{seal.KindInvoice, "CreditApplication", "Refund", "WriteOff", "Email"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(sealedKinds(tc.records)).To(Equal(tc.want))
		})
	}
}

func TestOneLiveReadCoversAFullSeal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target int
		want   int
	}{
		{"the default seal is read 8,192 families at a time", seal.MaxPayloadBytes, seal.MaxPayloadBytes / 64},
		{"a tiny seal still reads one family", 10, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(familiesPerRead(tc.target)).To(Equal(tc.want))
		})
	}
}

// pagedReader serves a workspace's invoices and payments in pages of
// liveReadPage, as the API server does, and counts the pages asked for.
type pagedReader struct {
	client.Reader
	items map[string][]client.Object // by list kind
	pages map[string]int
}

func (p *pagedReader) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	o := (&client.ListOptions{}).ApplyOptions(opts)
	kind := fmt.Sprintf("%T", list)
	p.pages[kind]++
	from, _ := strconv.Atoi(o.Continue)
	all := p.items[kind]
	to := min(from+int(o.Limit), len(all))
	var objs []runtime.Object
	for _, obj := range all[from:to] {
		objs = append(objs, obj)
	}
	if err := meta.SetList(list, objs); err != nil {
		return err
	}
	if to < len(all) {
		list.SetContinue(strconv.Itoa(to))
	}
	return nil
}

func TestTheLiveReadStopsPagingAKindOnceItsWantedRecordsAreFound(t *testing.T) {
	var invoices, payments []client.Object
	for i := range 3 * liveReadPage {
		inv := managertest.IssuedWithSequence("ns", fmt.Sprintf("inv-%05d", i), int64(i+1))
		inv.UID = types.UID("uid-" + inv.Name)
		p := builder.Payment("ns", "pay-"+inv.Name, inv.Name, 50)
		p.UID = types.UID("uid-" + p.Name)
		invoices, payments = append(invoices, inv), append(payments, p)
	}
	family := func(i int) billing.Family {
		return billing.Family{Invoice: invoices[i].(*billingv1.Invoice),
			Members: []billingv1.Settled{payments[i].(*billingv1.Payment)}}
	}
	gone := family(0)
	gone.Members = []billingv1.Settled{builder.Payment("ns", "pay-gone", "inv-00000", 50)}
	for _, tc := range []struct {
		name     string
		families []billing.Family
		pages    map[string]int
	}{
		{"the oldest families are read from the first page of each kind", []billing.Family{family(0), family(1)},
			map[string]int{"*v1.InvoiceList": 1, "*v1.PaymentList": 1}},
		{"a family on the second page is read from two", []billing.Family{family(0), family(liveReadPage + 1)},
			map[string]int{"*v1.InvoiceList": 2, "*v1.PaymentList": 2}},
		{"a record that is gone makes its kind read to the end", []billing.Family{gone},
			map[string]int{"*v1.InvoiceList": 1, "*v1.PaymentList": 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			reader := &pagedReader{items: map[string][]client.Object{
				"*v1.InvoiceList": invoices, "*v1.PaymentList": payments}, pages: map[string]int{}}
			r := &SealReconciler{APIReader: reader}
			live, err := r.readLive(context.Background(), "ns", tc.families, nil)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(reader.pages).To(Equal(tc.pages))
			for _, f := range tc.families {
				g.Expect(live).To(HaveKey(SealedKey{seal.KindInvoice, f.Invoice.Name}))
			}
		})
	}
}

func TestAFamilyIsSealedWithItsCreditWriteOffsAndEmailsInTheSealsOrder(t *testing.T) {
	g := NewWithT(t)
	through := managertest.Now
	f := paidFamily(through)
	capp := builder.CreditApplication("ns", "capp-1", "inv-1", 10)
	capp.UID, capp.Status.Phase = "uid-capp-1", billingv1.CreditApplicationApplied
	capp.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeCreditApplied, 5)}
	em := builder.Email("ns", "em-1", builder.WithPurpose(billingv1.EmailPurposeInvoice), builder.WithInvoiceRef("inv-1"))
	em.UID, em.Status.Phase = "uid-em-1", billingv1.EmailFailed
	f.Members = append([]billingv1.Settled{em, capp}, f.Members...)
	f.Invoice.Status.Ledger = &billingv1.InvoiceLedger{CreditApplications: []billingv1.LedgerEntry{
		{Name: "capp-1", UID: "uid-capp-1", Amount: 10}}}
	live := liveOf(f.Invoice, em, capp, f.Members[2], f.Members[3])
	c, ok, err := liveFamily(f, live, through, nil)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(ok).To(BeTrue())
	var names []string
	for _, obj := range c.records {
		names = append(names, obj.GetName())
	}
	g.Expect(names).To(Equal([]string{"inv-1", "pay-a", "pay-b", "capp-1", "em-1"}))

	why := "a family whose ledger names a credit application it lacks waits"
	f.Members = f.Members[2:]
	_, ok, err = liveFamily(f, live, through, nil)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(ok).To(BeFalse(), why)
}

func TestRecordsOfNoFamilyAreSealedOnlyAsTheyWereAndStillSealable(t *testing.T) {
	through := managertest.Now
	refund := builder.Refund("ns", "rf-1", "cus", 100, "USD", builder.WithRefundedAt(metav1.Time{Time: through.Add(-time.Hour)}))
	refund.UID, refund.Status.Phase = "uid-rf-1", billingv1.RefundRecorded
	refund.Status.Events = []billingv1.RecordedEvent{managertest.RecordedAt(billingv1.EventTypeRefundRecorded, 7)}
	statement := builder.Email("ns", "em-st", builder.WithPurpose(billingv1.EmailPurposeStatement),
		builder.WithCustomerRef("cus"), builder.WithStatement("2026-10-01", "2026-10-31"))
	statement.UID, statement.Status.Phase = "uid-em-st", billingv1.EmailSent
	statement.Status.SentAt = &metav1.Time{Time: through.Add(-time.Minute)}
	sending := statement.DeepCopy()
	sending.Status.Phase = billingv1.EmailPending
	loose := []billingv1.Settled{refund, statement}
	for _, tc := range []struct {
		name string
		live liveRecords
		want []string
	}{
		{"a refund and a statement read as they were are sealed", liveOf(refund, statement), []string{"rf-1", "em-st"}},
		{"a statement being sent again, read live, is left for later", liveOf(refund, sending), []string{"rf-1"}},
		{"nothing read live leaves nothing", liveOf(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			c, ok, err := liveLoose(loose, tc.live, through, nil)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(ok).To(Equal(tc.want != nil))
			g.Expect(c.invoice).To(BeNil())
			var names []string
			for _, obj := range c.records {
				names = append(names, obj.GetName())
			}
			g.Expect(names).To(Equal(tc.want))
			g.Expect(c.lines).To(HaveLen(len(tc.want)))
		})
	}
}
