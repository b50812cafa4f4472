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

package httpapi

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Statements and the receivables aging over a real listener (issue 37).
// The statement is read from records the suite's controllers issue and
// record now; the aging at past days from records dated in the past,
// which only a seal can hold (the controllers date invoices and credit
// notes when they issue them), served by the store as every sealed record.

// statementOf decodes an answer that is a statement.
func (r response) statementOf() apiobject.Statement {
	GinkgoHelper()
	var st apiobject.Statement
	Expect(json.Unmarshal(r.body, &st)).To(Succeed(), "body: %s", r.body)
	return st
}

var _ = Describe("Statements", func() {
	var ns, customerID string
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
	})

	post := func(path, body string) {
		GinkgoHelper()
		got := send(http.MethodPost, path, inWorkspace(ns), withBody(body))
		Expect(got.status).To(Equal(http.StatusCreated), "POST %s: %s", path, got.body)
	}
	issue := func(amount int64) string {
		GinkgoHelper()
		created := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[%s]}`, customerID, untaxedItem("Work", amount))))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		return created.invoice().ID
	}

	It("answers a statement whose closing balance is what its rows imply, as JSON, HTML and PDF", func() {
		kept, voided := issue(100_000), issue(50_000)
		Eventually(func(g Gomega) {
			for _, id := range []string{kept, voided} {
				g.Expect(send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice().Status).To(Equal("issued"))
			}
		}).Should(Succeed())
		post("/v1/payments", fmt.Sprintf(`{"invoice_id":%q,"amount":40000}`, kept))
		post("/v1/credit_notes", fmt.Sprintf(`{"invoice_id":%q,"reason":"order_change","full_credit":true}`, voided))

		path := "/v1/customers/" + customerID + "/statement"
		var st apiobject.Statement
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, path, inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			g.Expect(json.Unmarshal(got.body, &st)).To(Succeed())
			g.Expect(st.Currencies).To(HaveLen(1))
			g.Expect(st.Currencies[0].Rows).To(HaveLen(4), "two invoices, the payment and the credit note")
		}).Should(Succeed())
		today := time.Now().UTC().Format(time.DateOnly)
		Expect(st.To).To(Equal(today), "by default the statement ends today, in UTC without a profile")
		Expect(st.TimeZone).To(Equal("UTC"))
		eur := st.Currencies[0]
		By("adding up: the opening balance and the rows make the closing balance, row by row")
		balance := eur.OpeningBalance
		types := map[string]int64{}
		for _, row := range eur.Rows {
			balance += row.Amount
			Expect(row.Balance).To(Equal(balance), "row %+v", row)
			types[row.Type] += row.Amount
		}
		Expect(eur.OpeningBalance).To(BeZero())
		Expect(eur.ClosingBalance).To(Equal(balance))
		Expect(types).To(Equal(map[string]int64{"invoice": 150_000, "payment": -40_000, "credit_note": -50_000}))
		By("agreeing with the invoices' own balances and the aging")
		Expect(eur.ClosingBalance).To(Equal(ptr.Deref(send(http.MethodGet, "/v1/invoices/"+kept,
			inWorkspace(ns)).invoice().AmountRemaining, -1)))
		Expect(eur.Aging.Current).To(Equal(int64(60_000)))
		Expect(eur.Aging.Total - eur.UnappliedCredit).To(Equal(eur.ClosingBalance))

		By("rendering the same statement as HTML and as a PDF")
		page := send(http.MethodGet, path, inWorkspace(ns), withHeader("Accept", "text/html"))
		Expect(page.status).To(Equal(http.StatusOK))
		Expect(page.header.Get("Content-Type")).To(Equal("text/html; charset=utf-8"))
		Expect(string(page.body)).To(And(ContainSubstring("Closing balance"), ContainSubstring("€600.00")))
		doc := send(http.MethodGet, path, inWorkspace(ns), withHeader("Accept", "application/pdf"))
		Expect(doc.status).To(Equal(http.StatusOK))
		Expect(doc.header.Get("Content-Type")).To(Equal("application/pdf"))
		Expect(bytes.HasPrefix(doc.body, []byte("%PDF-"))).To(BeTrue())

		By("refusing a range that ends before it begins, and changing nothing")
		before := send(http.MethodGet, path, inWorkspace(ns)).body
		bad := send(http.MethodGet, path+"?from=2026-03-02&to=2026-03-01", inWorkspace(ns))
		Expect(bad.status).To(Equal(http.StatusBadRequest))
		Expect(bad.apiErr().Code).To(Equal(CodeParameterInvalid))
		Expect(bad.apiErr().Param).To(Equal("from"))
		Expect(send(http.MethodGet, path, inWorkspace(ns)).body).To(Equal(before))
		Expect(send(http.MethodGet, "/v1/customers/cus-nobody/statement", inWorkspace(ns)).status).
			To(Equal(http.StatusNotFound))
	})
})

// sealedLedger makes the records of one customer in one currency as a
// seal holds them: issued, recorded, with the ids and numbers given.
type sealedLedger struct {
	ns, customer, currency string
	billTo                 billingv1.BillTo
}

// meta is the type and object meta of the record of kind named name.
func (r sealedLedger) meta(kind, name string) (metav1.TypeMeta, metav1.ObjectMeta) {
	return metav1.TypeMeta{APIVersion: billingv1.GroupVersion.String(), Kind: kind},
		metav1.ObjectMeta{Name: name, Namespace: r.ns, UID: types.UID("uid-" + name)}
}

// invoice is an issued invoice of one line of total, number seq.
func (r sealedLedger) invoice(name string, seq, total int64, issued, due metav1.Time) *billingv1.Invoice {
	tm, om := r.meta("Invoice", name)
	return &billingv1.Invoice{TypeMeta: tm, ObjectMeta: om,
		Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: r.customer}, Currency: r.currency,
			Items: []billingv1.LineItem{{Description: "Work", Quantity: billingv1.Units(1), Amount: total}}},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: ptr.To(seq),
			Number: fmt.Sprintf("INV-%06d", seq), Total: ptr.To(total), IssuedAt: &issued, DueAt: &due,
			BillTo: r.billTo.DeepCopy()}}
}

// payment is a recorded payment of amount on invoice.
func (r sealedLedger) payment(name, invoice string, amount int64, paid metav1.Time) *billingv1.Payment {
	tm, om := r.meta("Payment", name)
	return &billingv1.Payment{TypeMeta: tm, ObjectMeta: om,
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Amount: amount, PaidAt: &paid},
		Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded, CustomerName: r.customer, Currency: r.currency,
			RecordedAt: &paid}}
}

// creditNote is an issued full credit note of invoice for total, number seq.
func (r sealedLedger) creditNote(name, invoice string, seq, total int64, issued metav1.Time) *billingv1.CreditNote {
	tm, om := r.meta("CreditNote", name)
	return &billingv1.CreditNote{TypeMeta: tm, ObjectMeta: om,
		Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Reason: "order_change",
			FullCredit: true},
		Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Sequence: ptr.To(seq),
			Number: fmt.Sprintf("CN-%06d", seq), IssuedAt: &issued, CustomerName: r.customer, Currency: r.currency,
			Total: ptr.To(total)}}
}

var _ = Describe("Receivables aging", func() {
	var ns string
	// day is n days after the story's first day, at 09:00 UTC: 200 days ago
	// and on, so that every day of the story has ended.
	var first time.Time
	day := func(n int) metav1.Time { return metav1.NewTime(first.AddDate(0, 0, n).Add(9 * time.Hour)) }
	dayString := func(n int) string { return first.AddDate(0, 0, n).Format(time.DateOnly) }

	BeforeEach(func() {
		ns = newWorkspace()
		first = time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -200)
	})

	// sealedStory seals, for customer cus-aging, three invoices of 30
	// days' terms, their payments and credit notes, dated over 130 days:
	//
	//	day   0: inv-a 1,000.00 issued (due day 30)
	//	day  20: inv-b   500.00 issued (due day 50)
	//	day  40: pay-a1  400.00 on inv-a
	//	day  60: cn-b    200.00 on inv-b
	//	day  70: inv-c   300.00 issued (due day 100)
	//	day  80: cn-c    300.00 on inv-c (voids it)
	//	day  95: pay-a2  600.00 on inv-a (pays it)
	//	day 130: pay-b   300.00 on inv-b (pays it)
	sealedStory := func() {
		GinkgoHelper()
		sealed := sealedLedger{ns: ns, customer: "cus-aging", currency: "EUR",
			billTo: billingv1.BillTo{Name: "Aging AG", Email: "ap@aging.example"}}
		inv := func(name string, seq, total int64, issued int) *billingv1.Invoice {
			return sealed.invoice(name, seq, total, day(issued), day(issued+30))
		}
		pay := func(name, invoice string, amount int64, paid int) *billingv1.Payment {
			return sealed.payment(name, invoice, amount, day(paid))
		}
		cn := func(name, invoice string, seq, total int64, issued int) *billingv1.CreditNote {
			return sealed.creditNote(name, invoice, seq, total, day(issued))
		}
		records := []client.Object{
			inv("inv-a", 1, 100_000, 0), inv("inv-b", 2, 50_000, 20), inv("inv-c", 3, 30_000, 70),
			pay("pay-a1", "inv-a", 40_000, 40), pay("pay-a2", "inv-a", 60_000, 95), pay("pay-b", "inv-b", 30_000, 130),
			cn("cn-b", "inv-b", 1, 20_000, 60), cn("cn-c", "inv-c", 2, 30_000, 80),
		}
		s, err := builder.LedgerSeal(ns, 1, billingv1.ZeroHash, day(140), records...)
		Expect(err).NotTo(HaveOccurred())
		Expect(k8s.Create(ctx, s)).To(Succeed())
		Expect(k8s.Create(ctx, builder.Customer(ns, "cus-aging", builder.WithDisplayName("Aging AG"),
			builder.WithEmail("ap@aging.example")))).To(Succeed())
	}
	aging := func(g Gomega, asOf string) apiobject.List[apiobject.Aging] {
		got := send(http.MethodGet, "/v1/reports/receivables_aging?as_of="+asOf, inWorkspace(ns))
		g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
		var list apiobject.List[apiobject.Aging]
		g.Expect(json.Unmarshal(got.body, &list)).To(Succeed())
		return list
	}
	eur := func(b apiobject.AgingBuckets) []apiobject.AgingCurrency {
		return []apiobject.AgingCurrency{{Currency: "EUR", AgingBuckets: b}}
	}

	It("is exact at three past days over sealed invoices, payments and credit notes", func() {
		sealedStory()
		Eventually(func(g Gomega) {
			g.Expect(aging(g, dayString(140)).Data).To(BeEmpty(), "everything was settled by day 130")
			g.Expect(aging(g, dayString(75)).Data).NotTo(BeEmpty(), "the store serves the seal's records")
		}).Should(Succeed())

		By("before the first invoice: nothing")
		Expect(aging(Default, dayString(-1)).Data).To(BeEmpty())

		By("day 45: inv-a 15 days past due less pay-a1, inv-b not yet due; inv-c not issued")
		at45 := aging(Default, dayString(45)).Data
		Expect(at45).To(HaveLen(1))
		Expect(at45[0].CustomerID).To(Equal("cus-aging"))
		Expect(at45[0].CustomerName).To(Equal("Aging AG"))
		Expect(at45[0].Currencies).To(Equal(eur(apiobject.AgingBuckets{Current: 50_000, Days1To30: 60_000, Total: 110_000})))

		By("day 75: pay-a2 is later and does not count; cn-b does; inv-c counts although voided on day 80")
		Expect(aging(Default, dayString(75)).Data[0].Currencies).To(Equal(eur(apiobject.AgingBuckets{
			Current: 30_000, Days1To30: 30_000, Days31To60: 60_000, Total: 120_000})))

		By("day 125: inv-a paid, inv-c voided, inv-b 75 days past due; pay-b on day 130 does not count")
		Expect(aging(Default, dayString(125)).Data[0].Currencies).To(Equal(eur(apiobject.AgingBuckets{
			Days61To90: 30_000, Total: 30_000})))

		By("answering the same as CSV with a header row")
		got := send(http.MethodGet, "/v1/reports/receivables_aging?as_of="+dayString(75), inWorkspace(ns),
			withHeader("Accept", "text/csv"))
		Expect(got.status).To(Equal(http.StatusOK))
		rows, err := csv.NewReader(bytes.NewReader(got.body)).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(rows).To(HaveLen(2))
		Expect(rows[0]).To(Equal(apiobject.AgingCSVHeader))
		Expect(rows[1]).To(Equal([]string{"cus-aging", "Aging AG", dayString(75), "EUR",
			strconv.Itoa(30_000), strconv.Itoa(30_000), strconv.Itoa(60_000), "0", "0", strconv.Itoa(120_000), "0"}))

		By("the customer's statement over the story agrees, row by row")
		st := send(http.MethodGet, "/v1/customers/cus-aging/statement?from="+dayString(30)+"&to="+dayString(75),
			inWorkspace(ns)).statementOf()
		Expect(st.Currencies).To(HaveLen(1))
		sc := st.Currencies[0]
		Expect(sc.OpeningBalance).To(Equal(int64(150_000)))
		Expect(sc.ClosingBalance).To(Equal(int64(120_000)))
		Expect(sc.Aging.Total).To(Equal(int64(120_000)))
		Expect(sc.Rows).To(HaveLen(3), "pay-a1, cn-b and inv-c")

		By("refusing a day that has not ended, or is not one, and changing nothing")
		before := aging(Default, dayString(75))
		for _, q := range []string{"as_of=" + time.Now().UTC().AddDate(0, 0, 2).Format(time.DateOnly), "as_of=2026-02-30",
			"from=" + dayString(1)} {
			bad := send(http.MethodGet, "/v1/reports/receivables_aging?"+q, inWorkspace(ns))
			Expect(bad.status).To(Equal(http.StatusBadRequest), "?%s: %s", q, bad.body)
		}
		Expect(aging(Default, dayString(75))).To(Equal(before))
	})
})
