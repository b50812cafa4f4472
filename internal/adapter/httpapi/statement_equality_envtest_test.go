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
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// The statement the manager mails (an Email of purpose statement, sent by
// its Email controller) and the statement the adapter serves
// (GET /v1/customers/{id}/statement) are gathered and computed by each
// program from its own cache (issue 47). This spec holds the two equal for
// one customer and period: the mailed PDF's text is the served PDF's, and
// its rows (day, what, amount, balance) and closing balances are the
// served JSON's, in every currency.

var _ = Describe("A customer's statement", Label(emailController, ledgerController, moneyController), func() {
	It("is mailed by the manager with the rows and closing balances the adapter serves", func() {
		server, err := smtpserver.Start()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(server.Close)
		ns := newWorkspace()
		customerID := createCustomer(v1client.Workspace(ns)).ID
		const zone = "Pacific/Kiritimati" // UTC+14: its day is not UTC's for most of the day
		Expect(k8s.Create(ctx, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
			builder.WithTimeZone(zone), builder.WithDefaultTax(builder.StandardTax("19")),
			builder.WithIssuer(billingv1.Issuer{Name: "Example GmbH", Email: mailFrom}),
			builder.WithEmailSettings(server.Host, server.Port, mailFrom)))).To(Succeed())

		post := func(path, body string) string {
			GinkgoHelper()
			got := send(http.MethodPost, path, inWorkspace(ns), withBody(body))
			Expect(got.status).To(Equal(http.StatusCreated), "POST %s %s: %s", path, body, got.body)
			var created struct {
				ID string `json:"id"`
			}
			Expect(json.Unmarshal(got.body, &created)).To(Succeed())
			return created.ID
		}
		// settled waits until the record at path is in status.
		settled := func(path, status string) {
			GinkgoHelper()
			Eventually(func(g Gomega) {
				got := send(http.MethodGet, path, inWorkspace(ns))
				var rec struct {
					Status string `json:"status"`
				}
				g.Expect(json.Unmarshal(got.body, &rec)).To(Succeed())
				g.Expect(rec.Status).To(Equal(status), "GET %s: %s", path, got.body)
			}).Should(Succeed())
		}
		invoice := func(currency string, items ...string) string {
			GinkgoHelper()
			id := post("/v1/invoices", fmt.Sprintf(`{"customer_id":%q,"currency":%q,"items":[%s]}`,
				customerID, currency, strings.Join(items, ",")))
			settled("/v1/invoices/"+id, "issued")
			return id
		}

		By("sealing a settled history in EUR and USD, 60 to 20 days ago")
		now := time.Now().UTC()
		day := func(n int) metav1.Time {
			return metav1.NewTime(now.Truncate(24*time.Hour).AddDate(0, 0, -n).Add(9 * time.Hour))
		}
		eur := sealedLedger{ns: ns, customer: customerID, currency: "EUR", billTo: billingv1.BillTo{Name: "Ada Lovelace"}}
		usd := sealedLedger{ns: ns, customer: customerID, currency: "USD", billTo: billingv1.BillTo{Name: "Ada Lovelace"}}
		history, err := builder.LedgerSeal(ns, 1, billingv1.ZeroHash, day(16),
			eur.invoice("inv-old-eur", 1, 100_000, day(60), day(30)), usd.invoice("inv-old-usd", 2, 30_000, day(55), day(25)),
			eur.payment("pay-old-eur-1", "inv-old-eur", 40_000, day(45)),
			usd.creditNote("cn-old-usd", "inv-old-usd", 1, 30_000, day(42)),
			eur.payment("pay-old-eur-2", "inv-old-eur", 60_000, day(20)))
		Expect(err).NotTo(HaveOccurred())
		Expect(k8s.Create(ctx, history)).To(Succeed())

		By("issuing invoices in three currencies, paying, crediting, overpaying, applying and refunding")
		eurA := invoice("EUR", taxedItem("Consulting", 3, 15_000, standard(`"19"`)), untaxedItem("Travel", 4_250))
		eurB := invoice("EUR", taxedItem("Books", 2, 1_999, standard(`"7"`)))
		eurC := invoice("EUR", untaxedItem("Support", 12_000))
		usdA := invoice("USD", taxedItem("Licence", 1, 50_000, `{"category":"Z","rate":0}`))
		usdB := invoice("USD", untaxedItem("Hosting", 20_000))
		jpy := invoice("JPY", taxedItem("Workshop", 1, 120_000, standard(`"10"`)))

		settled("/v1/payments/"+post("/v1/payments", fmt.Sprintf(`{"invoice_id":%q,"amount":20000}`, eurA)), "recorded")
		settled("/v1/credit_notes/"+post("/v1/credit_notes", fmt.Sprintf(
			`{"invoice_id":%q,"reason":"order_change","lines":[{"invoice_line":0,"quantity":1}]}`, eurB)), "issued")
		settled("/v1/credit_notes/"+post("/v1/credit_notes", fmt.Sprintf(
			`{"invoice_id":%q,"reason":"other","full_credit":true}`, eurC)), "issued")
		settled("/v1/payments/"+post("/v1/payments", fmt.Sprintf(`{"invoice_id":%q,"amount":132000}`, jpy)), "recorded")
		// An overpayment, as a bank import records it (the API refuses more
		// than remains): 7,500 of credit in USD.
		Expect(k8s.Create(ctx, builder.Payment(ns, usdA+"-over", usdA, 57_500))).To(Succeed())
		Eventually(func() []apiobject.CurrencyAmount {
			return send(http.MethodGet, "/v1/customers/"+customerID, inWorkspace(ns)).customer().CreditBalance
		}).Should(Equal([]apiobject.CurrencyAmount{{Currency: "USD", Amount: 7_500}}))
		settled("/v1/credit_applications/"+post("/v1/credit_applications",
			fmt.Sprintf(`{"invoice_id":%q,"amount":5000}`, usdB)), "applied")
		settled("/v1/refunds/"+post("/v1/refunds",
			fmt.Sprintf(`{"customer_id":%q,"amount":1500,"currency":"USD"}`, customerID)), "recorded")

		loc, err := time.LoadLocation(zone)
		Expect(err).NotTo(HaveOccurred())
		to := time.Now().In(loc)
		period := "?from=" + to.AddDate(0, 0, -50).Format(time.DateOnly) + "&to=" + to.Format(time.DateOnly)
		path := "/v1/customers/" + customerID + "/statement" + period

		By("waiting until the adapter serves every record of the period: 6 invoices, 5 payments, 3 credit notes, " +
			"1 application, 1 refund")
		var served apiobject.Statement
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, path, inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			g.Expect(json.Unmarshal(got.body, &served)).To(Succeed())
			rows := 0
			for _, c := range served.Currencies {
				rows += len(c.Rows)
			}
			g.Expect(rows).To(Equal(16), "body: %s", got.body)
		}).Should(Succeed())

		openings := map[string]int64{}
		for _, c := range served.Currencies {
			openings[c.Currency] = c.OpeningBalance
		}
		Expect(openings).To(Equal(map[string]int64{"EUR": 100_000, "JPY": 0, "USD": 30_000}),
			"the sealed invoices of 60 and 55 days ago open the period")

		By("mailing the statement of the same period")
		queued := send(http.MethodPost, "/v1/customers/"+customerID+"/statement/send"+period, inWorkspace(ns))
		Expect(queued.status).To(Equal(http.StatusAccepted), "body: %s", queued.body)
		Eventually(func(g Gomega) {
			em := &billingv1.Email{}
			g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: queued.queued().ID}, em)).To(Succeed())
			g.Expect(em.Status.Phase).To(Equal(billingv1.EmailSent), "conditions: %v", em.Status.Conditions)
		}).Should(Succeed())
		messages := server.Messages()
		Expect(messages).To(HaveLen(1))
		attachments, err := messages[0].Attachments()
		Expect(err).NotTo(HaveOccurred())
		Expect(attachments).To(HaveLen(1))
		Expect(attachments[0].MediaType).To(Equal("application/pdf"))
		mailed := pdfTokens(attachments[0].Body)

		By("holding the mailed PDF's rows and balances to the served JSON's, currency by currency")
		sections := pdfStatement(mailed)
		Expect(sections).To(HaveLen(len(served.Currencies)), "the mailed PDF's text:\n%q", mailed)
		for i, c := range served.Currencies {
			got := sections[i]
			Expect(got.Heading).To(HaveSuffix(" " + c.Currency))
			want := pdfSection{Heading: got.Heading, Opening: c.OpeningBalance, Closing: c.ClosingBalance}
			for _, r := range c.Rows {
				date, err := time.Parse(time.DateOnly, r.Date)
				Expect(err).NotTo(HaveOccurred())
				want.Rows = append(want.Rows, pdfRow{Date: date.Format("Jan 2, 2006"), Amount: r.Amount, Balance: r.Balance})
			}
			descriptions := make([]string, len(got.Rows))
			for j := range got.Rows {
				descriptions[j], got.Rows[j].Description = got.Rows[j].Description, ""
			}
			Expect(got).To(Equal(want), "%s: the mailed PDF's rows and balances are not the served JSON's:\n%s",
				c.Currency, statusJSON(c))
			for j, r := range c.Rows {
				Expect(descriptions[j]).To(ContainSubstring(ptr.Deref(r.Number, ptr.Deref(r.InvoiceNumber, ""))),
					"%s row %d (%s %s)", c.Currency, j, r.Type, r.ID)
			}
		}

		By("holding the mailed PDF's text to the served PDF's")
		doc := send(http.MethodGet, path, inWorkspace(ns), withHeader("Accept", "application/pdf"))
		Expect(doc.status).To(Equal(http.StatusOK))
		Expect(mailed).To(Equal(pdfTokens(doc.body)), "the mailed statement's text is not the served one's")
	})
})

// pdfTokens are the runs of text of every page of a PDF, in the order
// the page draws them.
func pdfTokens(doc []byte) []string {
	GinkgoHelper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for i := 1; i <= r.NumPage(); i++ {
		rows, err := r.Page(i).GetTextByRow()
		Expect(err).NotTo(HaveOccurred())
		for _, row := range rows {
			for _, w := range row.Content {
				out = append(out, w.S)
			}
		}
	}
	return out
}

// pdfSection is one currency's part of a statement's PDF as its text
// reads: its heading ("Account in EUR"), its balances and rows, amounts
// in minor units.
type pdfSection struct {
	Heading          string
	Opening, Closing int64
	Rows             []pdfRow
}

// pdfRow is a row of a statement's PDF: its day as English writes it, what
// it is, and its amount and the balance after it.
type pdfRow struct {
	Date, Description string
	Amount, Balance   int64
}

// pdfDay is a day as the English statement writes it: "Nov 29, 2026".
var pdfDay = regexp.MustCompile(`^[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4}$`)

// pdfStatement reads the sections of an English statement's PDF from its
// tokens: a row is a day, a description of one line, its amount and the
// balance.
func pdfStatement(tokens []string) []pdfSection {
	GinkgoHelper()
	var sections []pdfSection
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		if strings.HasPrefix(t, "Account in ") {
			sections = append(sections, pdfSection{Heading: t})
			continue
		}
		if len(sections) == 0 {
			continue // the head: the issuer, the period, the customer
		}
		cur := &sections[len(sections)-1]
		switch {
		case t == "Opening balance" && i+1 < len(tokens):
			i++
			cur.Opening = pdfMinor(tokens[i])
		case t == "Closing balance" && i+1 < len(tokens):
			i++
			cur.Closing = pdfMinor(tokens[i])
		case pdfDay.MatchString(t) && i+3 < len(tokens):
			cur.Rows = append(cur.Rows, pdfRow{Date: t, Description: tokens[i+1], Amount: pdfMinor(tokens[i+2]),
				Balance: pdfMinor(tokens[i+3])})
			i += 3
		}
	}
	return sections
}

// pdfMinor is an amount the PDF prints ("-€21.39", "¥132,000", "–" for
// none) in minor units: every minor digit is printed.
func pdfMinor(s string) int64 {
	var n int64
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int64(r-'0')
		}
	}
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "\u2212") {
		return -n
	}
	return n
}
