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

// Invoice schedules in the install: the adapter creates and pauses a
// schedule as the install's ServiceAccount, and the manager issues its
// periods' invoices, under the install's RBAC.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// issuesSchedules: creates a schedule over HTTP, adds a pending item that its first invoice takes, and pauses it.
func (s *installSuite) issuesSchedules() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)
	cus, resp, err := a.CreateCustomer(ctx, v1client.CustomerParams{Name: "Hooli", Email: "ap@hooli.example"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))

	By("creating a monthly schedule started two months ago, paused")
	now := time.Now().UTC()
	start := time.Date(now.Year(), now.Month()-2, 1, 0, 0, 0, 0, time.UTC)
	resp, err = a.Do(ctx, http.MethodPost, "/v1/invoice_schedules", fmt.Appendf(nil,
		`{"customer_id":%q,"items":[{"description":"Hosting","quantity":1,"amount":4900}],`+
			`"interval":{"unit":"month","count":1},"start_date":%q,"paused":true}`, cus.ID, start.Format(time.DateOnly)))
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated), "body: %s", resp.Body)
	var schedule struct {
		ID          string `json:"id"`
		Status      string `json:"status"`
		IssuedCount int    `json:"issued_count"`
		Paused      bool   `json:"paused"`
	}
	Expect(json.Unmarshal(resp.Body, &schedule)).To(Succeed())

	By("adding a pending item, and resuming: the manager issues the three periods, the first taking the item")
	resp, err = a.Do(ctx, http.MethodPost, "/v1/invoice_schedules/"+schedule.ID+"/pending_items",
		[]byte(`{"description":"Migration","quantity":2.5,"unit_code":"HUR","amount":12000}`))
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated), "body: %s", resp.Body)
	var item struct {
		ID        string  `json:"id"`
		Status    string  `json:"status"`
		InvoiceID *string `json:"invoice_id"`
	}
	Expect(json.Unmarshal(resp.Body, &item)).To(Succeed())
	resp, err = a.Do(ctx, http.MethodPost, "/v1/invoice_schedules/"+schedule.ID+"/resume", nil)
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
	read := func(g Gomega) {
		resp, err := a.Do(ctx, http.MethodGet, "/v1/invoice_schedules/"+schedule.ID, nil)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusOK))
		g.Expect(json.Unmarshal(resp.Body, &schedule)).To(Succeed())
	}
	Eventually(func(g Gomega) {
		read(g)
		g.Expect(schedule.Status).To(Equal("active"))
		g.Expect(schedule.IssuedCount).To(Equal(3))
	}, 30*time.Second).Should(Succeed())
	Eventually(func(g Gomega) {
		inv, _, err := a.GetInvoice(ctx, schedule.ID+"-"+start.Format("20060102"))
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(inv.Status).To(Equal("issued"))
		g.Expect(inv.ScheduleID).To(HaveValue(Equal(schedule.ID)))
		g.Expect(inv.InvoicingPeriod).To(HaveValue(Equal(v1client.Period{Start: start.Format(time.DateOnly),
			End: start.AddDate(0, 1, -1).Format(time.DateOnly)})))
		g.Expect(inv.Items).To(HaveLen(2))
	}, 30*time.Second).Should(Succeed())
	Eventually(func(g Gomega) {
		resp, err := a.Do(ctx, http.MethodGet, "/v1/invoice_schedules/"+schedule.ID+"/pending_items/"+item.ID, nil)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
		g.Expect(json.Unmarshal(resp.Body, &item)).To(Succeed())
		g.Expect(item.Status).To(Equal("taken"))
		g.Expect(item.InvoiceID).To(HaveValue(Equal(schedule.ID + "-" + start.Format("20060102"))))
	}, 30*time.Second).Should(Succeed())

	By("pausing it over HTTP: the adapter patches it, and the manager marks it paused")
	// The polls above may have spent team-a's rate limit: a 429 is asked
	// again after its Retry-After.
	Eventually(func(g Gomega) {
		resp, err = a.Do(ctx, http.MethodPost, "/v1/invoice_schedules/"+schedule.ID+"/pause", nil)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
	}, 30*time.Second, time.Second).Should(Succeed())
	Eventually(func(g Gomega) {
		read(g)
		g.Expect(schedule.Paused).To(BeTrue())
		g.Expect(schedule.Status).To(Equal("paused"))
	}, 30*time.Second).Should(Succeed())
}
