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

package billing_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kptr "k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// A customer's credit is derived twice: from its status's credit ledger
// (customercredit.go: sources less uses, what the manager writes) and
// replayed from its records for aging (account.go). This test holds the
// two equal over random ledgers, with the status's ledger as entered and
// with some of its entries folded into carried (creditfold.go).

// creditLedger is one random customer's records, built as the controllers
// would enter them: each record in its invoice's ledger, each use checked
// against the credit available.
type creditLedger struct {
	rng      *rand.Rand
	at       time.Time
	recs     billing.Records
	uses     []billingv1.CreditUse
	sequence int
}

const creditCustomer = "acme"

// next is the date of the next record, one hour after the last.
func (l *creditLedger) next() *metav1.Time {
	l.at = l.at.Add(time.Hour)
	return &metav1.Time{Time: l.at}
}

// name is a fresh name of kind.
func (l *creditLedger) name(kind string) string {
	l.sequence++
	return fmt.Sprintf("%s-%03d", kind, l.sequence)
}

// ledger is inv's ledger, made when it has none.
func ledger(inv *billingv1.Invoice) *billingv1.InvoiceLedger {
	if inv.Status.Ledger == nil {
		inv.Status.Ledger = &billingv1.InvoiceLedger{}
	}
	return inv.Status.Ledger
}

// enter appends the record named name of amount to entries, a list of
// its invoice's ledger.
func enter(entries *[]billingv1.LedgerEntry, name string, amount int64) {
	*entries = append(*entries, billingv1.LedgerEntry{Name: name, UID: name, Amount: amount})
}

// remaining is what inv leaves to pay.
func remaining(inv *billingv1.Invoice) int64 {
	r, _ := billing.InvoiceRemaining(inv)
	return r
}

// statusCredit is the customer's credit as the manager enters it: each
// invoice's amountOverpaid a source, each use after them.
func (l *creditLedger) statusCredit(t *testing.T) *billingv1.CustomerCredit {
	var credit *billingv1.CustomerCredit
	for i, inv := range l.recs.Invoices {
		b, err := billing.LedgerBalance(inv, l.at)
		if err != nil {
			t.Fatal(err)
		}
		if b.AmountOverpaid > 0 {
			credit, _ = billing.WithSource(credit, inv, b.AmountOverpaid, int64(i+1))
		}
	}
	for _, u := range l.uses {
		credit = billing.WithUse(credit, u)
	}
	return credit
}

// randomInvoice is one of the ledger's invoices.
func (l *creditLedger) randomInvoice() *billingv1.Invoice {
	return l.recs.Invoices[l.rng.IntN(len(l.recs.Invoices))]
}

// upTo is a random amount from 1 to n (n > 0).
func (l *creditLedger) upTo(n int64) int64 {
	return 1 + l.rng.Int64N(n)
}

// record adds one random record that the controllers would accept.
func (l *creditLedger) record(t *testing.T) {
	inv := l.randomInvoice()
	currency := billing.InvoiceCurrency(inv)
	switch l.rng.IntN(5) {
	case 0: // a payment, overpaying at times
		amount := l.upTo(*inv.Status.Total)
		name := l.name("pay")
		l.recs.Payments = append(l.recs.Payments, &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Amount: amount, PaidAt: l.next()},
			Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded}})
		enter(&ledger(inv).Payments, name, amount)
	case 1: // a credit note of at most what is left to credit
		credited := int64(0)
		for _, c := range ledger(inv).CreditNotes {
			credited += c.Amount
		}
		if left := *inv.Status.Total - credited; left > 0 {
			amount, name := l.upTo(left), l.name("cn")
			l.recs.CreditNotes = append(l.recs.CreditNotes, &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}},
				Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, IssuedAt: l.next(),
					Total: kptr.To(amount)}})
			enter(&ledger(inv).CreditNotes, name, amount)
		}
	case 2: // a credit application of the credit available, on what is left
		available := billing.AvailableCredit(&billingv1.Customer{Status: billingv1.CustomerStatus{Credit: l.statusCredit(t)}}, currency)
		if n := min(available, remaining(inv)); n > 0 {
			amount, name := l.upTo(n), l.name("ca")
			l.recs.CreditApplications = append(l.recs.CreditApplications, &billingv1.CreditApplication{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: inv.Name}, Amount: amount},
				Status:     billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, AppliedAt: l.next()}})
			enter(&ledger(inv).CreditApplications, name, amount)
			l.uses = append(l.uses, billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: name, UID: name,
				Currency: currency, Amount: amount})
		}
	case 3: // a refund of the credit available
		available := billing.AvailableCredit(&billingv1.Customer{Status: billingv1.CustomerStatus{Credit: l.statusCredit(t)}}, currency)
		if available > 0 {
			amount, name := l.upTo(available), l.name("rf")
			l.recs.Refunds = append(l.recs.Refunds, &billingv1.Refund{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: creditCustomer},
					Currency: currency, Amount: amount, RefundedAt: l.next()},
				Status: billingv1.RefundStatus{Phase: billingv1.RefundRecorded}})
			l.uses = append(l.uses, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: name, UID: name,
				Currency: currency, Amount: amount})
		}
	case 4: // a write-off of what is left
		if r := remaining(inv); r > 0 {
			amount, name := l.upTo(r), l.name("wo")
			wo := &billingv1.WriteOff{ObjectMeta: metav1.ObjectMeta{Name: name}}
			wo.Spec.InvoiceRef.Name = inv.Name
			wo.Status = billingv1.WriteOffStatus{Phase: billingv1.WriteOffRecorded, RecordedAt: l.next(), Amount: kptr.To(amount)}
			l.recs.WriteOffs = append(l.recs.WriteOffs, wo)
			enter(&ledger(inv).WriteOffs, name, amount)
		}
	}
}

// randomCreditLedger is the records of seed: one to four issued invoices
// in one or two currencies, then up to twenty records.
func randomCreditLedger(t *testing.T, seed uint64) *creditLedger {
	l := &creditLedger{rng: rand.New(rand.NewPCG(seed, seed)), at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for range 1 + l.rng.IntN(4) {
		currency := []string{"EUR", "USD"}[l.rng.IntN(2)]
		issued := l.next()
		l.recs.Invoices = append(l.recs.Invoices, &billingv1.Invoice{
			ObjectMeta: metav1.ObjectMeta{Name: l.name("inv"), UID: "uid"},
			Spec:       billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: creditCustomer}, Currency: currency},
			Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, IssuedAt: issued,
				DueAt: &metav1.Time{Time: issued.AddDate(0, 0, 14)}, Total: kptr.To(l.upTo(10_000))}})
	}
	for range l.rng.IntN(21) {
		l.record(t)
	}
	return l
}

// foldedSome is credit with about half of its entries' records sealed
// (in seal 1) and folded, as the customer reconciler folds them.
func (l *creditLedger) foldedSome(credit *billingv1.CustomerCredit) *billingv1.CustomerCredit {
	sealed := map[[3]string]bool{}
	if credit != nil {
		for _, s := range credit.Sources {
			sealed[[3]string{"Invoice", s.Invoice, s.UID}] = l.rng.IntN(2) == 0
		}
		for _, u := range credit.Uses {
			sealed[[3]string{string(u.Kind), u.Name, u.UID}] = l.rng.IntN(2) == 0
		}
	}
	folded, _ := billing.FoldCredit(credit, func(kind, name, uid string) (int64, bool) {
		return 1, sealed[[3]string{kind, name, uid}]
	})
	return folded
}

func TestACustomersCreditIsTheSameInItsStatusAndInAging(t *testing.T) {
	for seed := range uint64(300) {
		l := randomCreditLedger(t, seed)
		rows, err := billing.Aging(&l.recs, l.at.AddDate(1, 0, 0), time.UTC)
		if err != nil {
			t.Fatalf("seed %d: Aging: %v", seed, err)
		}
		aging := map[string]int64{}
		for _, r := range rows {
			if r.UnappliedCredit != 0 {
				aging[r.Currency] = r.UnappliedCredit
			}
		}
		credit := l.statusCredit(t)
		for what, c := range map[string]*billingv1.CustomerCredit{"as entered": credit, "folded": l.foldedSome(credit)} {
			status := map[string]int64{}
			for _, b := range billing.CreditBalance(c) {
				status[b.Currency] = b.Amount
			}
			if fmt.Sprint(status) != fmt.Sprint(aging) {
				t.Errorf("seed %d: the status's credit %s is %v, aging's %v", seed, what, status, aging)
			}
		}
	}
}
