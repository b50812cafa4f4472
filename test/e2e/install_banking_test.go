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

package e2e

// Bank statements in the install: the adapter imports a statement as the
// install's ServiceAccount, and the manager matches its line and records
// the payment, under the install's RBAC.

import (
	"context"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/camtfile"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// paysByStatement: imports a bank statement over HTTP whose line names an invoice's number with its amount; the manager pays the invoice.
func (s *installSuite) paysByStatement() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)
	// An open invoice the schedule spec issued (team-a's ResourceQuota
	// leaves room for no more invoices than the retention spec creates,
	// and the later specs hold on to gitops-001, which paying would seal).
	open, resp, err := a.ListInvoices(ctx, v1client.ListParams{PaymentStatus: "open"})
	Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
	var inv *v1client.Invoice
	for i := range open.Data {
		if open.Data[i].ScheduleID != nil {
			inv = &open.Data[i]
			break
		}
	}
	Expect(inv).NotTo(BeNil(), "no open invoice of a schedule in team-a")

	By("importing a statement that names the invoice's number and what remains of it")
	// Booked tomorrow: the books spec closed team-a's books through a
	// moment ago, and a line booked in a closed period stays unmatched.
	statement := camtfile.Write("DE02120300000000202051", "e2e-statement", []camtfile.Entry{{BankRef: "E2E-0001",
		Cents: *inv.AmountRemaining, Currency: inv.Currency, Day: time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly),
		Text: "Invoice " + *inv.Number}})
	imported, resp, err := a.ImportBankStatement(ctx, statement)
	Expect(err).NotTo(HaveOccurred(), "body: %v", resp)
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Expect(imported.Transactions).To(Equal(1))
	Expect(imported.New).To(Equal(1))

	By("finding the line matched and the invoice paid by its payment")
	Eventually(func(g Gomega) {
		matched, _, err := a.ListBankTransactions(ctx, v1client.ListParams{Status: "matched"})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(matched.Data).To(HaveLen(1))
		g.Expect(matched.Data[0].MatchedBy).To(HaveValue(Equal("number_and_amount")))
		paid, _, err := a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(paid.PaymentStatus).To(HaveValue(Equal("paid")))
	}, 30*time.Second, 250*time.Millisecond).Should(Succeed())

	By("answering 404 for a line the cache has not seen, read from the API server")
	Eventually(func(g Gomega) {
		_, resp, err = a.GetBankTransaction(ctx, "btx-0000000000000000000000000000000000000000")
		g.Expect(err).To(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusNotFound), "body: %s", resp.Body) // not a 429 of team-a's limit
	}, 30*time.Second, time.Second).Should(Succeed())
	expectAPIError(resp, http.StatusNotFound, "resource_missing")
}
