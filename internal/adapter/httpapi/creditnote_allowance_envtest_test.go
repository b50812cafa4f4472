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
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// Credit notes of an invoice that bills hours less a discount and a
// document allowance (issue 48): a part of the hours with its share of the
// allowance, a refusal of the rest without it, and a full credit of what
// is left, the allowance's rest included.

var _ = Describe("Credit notes of hours under a discount and an allowance", Label(ledgerController), func() {
	const s19 = `{"category":"S","rate":"19"}`
	var ns, invoiceID string
	BeforeEach(func() {
		ns = newWorkspace()
		customer := createCustomer(v1client.Workspace(ns))
		// 7.5 hours at 120.00 less 10 %: 810.00; less 81.00 for early
		// payment at 19 %: base 729.00, tax 138.51, total 867.51.
		created := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[{"description":"Consulting","quantity":7.5,"unit_code":"HUR",`+
				`"amount":12000,"discount":{"percent":"10","reason":"Framework agreement"},"tax":%s}],`+
				`"allowances":[{"amount":8100,"reason":"Early payment","tax":%s}]}`, customer.ID, s19, s19)))
		Expect(created.status).To(Equal(http.StatusCreated), "body: %s", created.body)
		invoiceID = created.invoice().ID
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
			g.Expect(got.Status).To(Equal("issued"))
			g.Expect(got.Total).To(HaveValue(Equal(int64(86_751))))
		}).Should(Succeed())
	})

	creditNote := func(body string) response {
		return send(http.MethodPost, "/v1/credit_notes", inWorkspace(ns), withBody(body))
	}
	issued := func(id string) apiobject.CreditNote {
		var read apiobject.CreditNote
		Eventually(func(g Gomega) {
			g.Expect(json.Unmarshal(send(http.MethodGet, "/v1/credit_notes/"+id, inWorkspace(ns)).body, &read)).To(Succeed())
			g.Expect(read.Status).To(Equal("issued"))
		}).Should(Succeed())
		return read
	}
	count := func() int {
		var list billingv1.CreditNoteList
		ExpectWithOffset(1, k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		return len(list.Items)
	}

	It("credits 2.5 of the hours with their share of the allowance, refuses the rest without it, and credits all that is left", func() {
		By("2.5 hours credit a third of the discounted net, less a third of the allowance")
		got := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"product_unsatisfactory","lines":[{"invoice_line":0,"quantity":2.5}],`+
			`"allowances":[{"amount":2700,"reason":"Early payment","tax":%s}]}`, invoiceID, s19))
		Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
		Expect(string(got.body)).To(ContainSubstring(`"quantity":2.5,"unit_code":"HUR","amount":27000`))
		var first apiobject.CreditNote
		Expect(json.Unmarshal(got.body, &first)).To(Succeed())
		Expect(first.AllowanceTotal).To(HaveValue(Equal(int64(2_700))))
		Expect(first.TaxBreakdown).To(HaveLen(1))
		Expect(first.TaxBreakdown[0].TaxableAmount).To(Equal(int64(24_300)))
		Expect(first.Total).To(HaveValue(Equal(int64(24_300 + 4_617))))
		Expect(issued(first.ID).Allowances).To(HaveLen(1))

		By("the other 5 hours without their share of the allowance exceed what is left, and nothing is created")
		refused := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"other","lines":[{"invoice_line":0,"quantity":5}]}`, invoiceID))
		Expect(refused.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", refused.body)
		Expect(refused.apiErr().Code).To(Equal(CodeExceedsCreditable))
		Expect(refused.apiErr().Param).To(Equal("lines"))
		Expect(count()).To(Equal(1))

		By("a full credit credits the other 5 hours less the rest of the allowance, and the invoice's total in all")
		full := creditNote(fmt.Sprintf(`{"invoice_id":%q,"reason":"order_change","full_credit":true}`, invoiceID))
		Expect(full.status).To(Equal(http.StatusCreated), "body: %s", full.body)
		var rest apiobject.CreditNote
		Expect(json.Unmarshal(full.body, &rest)).To(Succeed())
		rest = issued(rest.ID)
		Expect(rest.Lines).To(HaveLen(1))
		Expect(rest.Lines[0].Amount).To(Equal(int64(54_000)))
		Expect(rest.Allowances).To(HaveLen(1))
		Expect(rest.Allowances[0].Amount).To(HaveValue(Equal(int64(5_400))))
		Expect(rest.Allowances[0].Reason).To(HaveValue(Equal("Early payment")))
		Expect(rest.Total).To(HaveValue(Equal(int64(48_600 + 9_234))))
		Expect(*first.Total + *rest.Total).To(Equal(int64(86_751)))
		Eventually(func(g Gomega) {
			inv := send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
			g.Expect(inv.AmountCredited).To(HaveValue(Equal(int64(86_751))))
			g.Expect(inv.PaymentStatus).To(HaveValue(Equal("void")))
		}).Should(Succeed())
	})
})
