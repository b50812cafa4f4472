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
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Invoices a schedule issued", func() {
	It("answer their schedule_id and invoicing_period; other invoices answer null", func() {
		ns := newWorkspace()
		customer := createCustomer(v1client.Workspace(ns))
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		Expect(k8s.Create(ctx, builder.InvoiceSchedule(ns, "hosting", customer.ID, start.Format(time.DateOnly)))).To(Succeed())

		id := "hosting-" + start.Format("20060102")
		var inv apiobject.Invoice
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK))
			inv = got.invoice()
			g.Expect(inv.Status).To(Equal("issued"))
		}).Should(Succeed())
		Expect(inv.ScheduleID).To(HaveValue(Equal("hosting")))
		Expect(inv.InvoicingPeriod).To(HaveValue(Equal(apiobject.Period{Start: start.Format(time.DateOnly),
			End: start.AddDate(0, 1, -1).Format(time.DateOnly)})))

		other := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(customer.ID)))
		Expect(other.status).To(Equal(http.StatusCreated))
		Expect(string(other.body)).To(ContainSubstring(`"schedule_id":null,"invoicing_period":null`))
	})
})
