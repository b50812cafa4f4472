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
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
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

var _ = Describe("Invoice schedules", func() {
	var ns, customerID string
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
	})
	schedule := func(resp response) apiobject.InvoiceSchedule {
		var s apiobject.InvoiceSchedule
		ExpectWithOffset(1, json.Unmarshal(resp.body, &s)).To(Succeed(), "body: %s", resp.body)
		return s
	}
	count := func() int {
		var list billingv1.InvoiceScheduleList
		ExpectWithOffset(1, k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		return len(list.Items)
	}

	It("creates a monthly schedule started three months ago that issues its three missed periods and the current one", func() {
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month()-3, 1, 0, 0, 0, 0, time.UTC)
		resp := send(http.MethodPost, "/v1/invoice_schedules", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[{"description":"Hosting","quantity":1,"amount":4900,`+
				`"tax":{"category":"S","rate":"19"}}],"interval":{"unit":"month","count":1},"start_date":%q,`+
				`"time_zone":"Europe/Berlin"}`, customerID, start.Format(time.DateOnly))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		created := schedule(resp)
		Expect(created.ID).To(MatchRegexp(`^isch-[0-9a-z]{26}$`))
		Expect(created.Object).To(Equal("invoice_schedule"))
		Expect(created.Status).To(Equal("pending"))
		Expect(created.Interval).To(Equal(apiobject.Interval{Unit: "month", Count: 1}))
		Expect(created.Billing).To(Equal("in_advance"))
		Expect(created.MissedPeriods).To(Equal("issue_all"))
		Expect(created.Items[0].NetAmount).To(HaveValue(Equal(int64(4900))))
		Expect(resp.header.Get("Location")).To(Equal("/v1/invoice_schedules/" + created.ID))

		var got apiobject.InvoiceSchedule
		Eventually(func(g Gomega) {
			got = schedule(send(http.MethodGet, "/v1/invoice_schedules/"+created.ID, inWorkspace(ns)))
			g.Expect(got.Status).To(Equal("active"))
			g.Expect(got.IssuedCount).To(BeEquivalentTo(4))
		}).Should(Succeed())
		next := start.AddDate(0, 4, 0)
		Expect(got.NextPeriod).To(HaveValue(Equal(apiobject.Period{Start: next.Format(time.DateOnly),
			End: next.AddDate(0, 1, -1).Format(time.DateOnly)})))
		Expect(got.LastInvoiceID).To(HaveValue(Equal(created.ID + "-" + start.AddDate(0, 3, 0).Format("20060102"))))
		// 00:00 in Berlin is 22:00 or 23:00 UTC the day before.
		Expect(got.NextIssueAt).To(HaveValue(HavePrefix(next.AddDate(0, 0, -1).Format(time.DateOnly) + "T2")))

		By("listing it")
		var list apiobject.List[apiobject.InvoiceSchedule]
		Expect(json.Unmarshal(send(http.MethodGet, "/v1/invoice_schedules", inWorkspace(ns)).body, &list)).To(Succeed())
		Expect(list.Data).To(HaveLen(1))
		Expect(list.Data[0].ID).To(Equal(created.ID))

		By("answering its next two periods and their amounts, creating nothing")
		var upcoming apiobject.List[apiobject.UpcomingInvoice]
		Expect(json.Unmarshal(send(http.MethodGet, "/v1/invoice_schedules/"+created.ID+"/upcoming?count=2",
			inWorkspace(ns)).body, &upcoming)).To(Succeed())
		Expect(upcoming.Data).To(HaveLen(2))
		Expect(upcoming.Data[0].Period.Start).To(Equal(next.Format(time.DateOnly)))
		Expect(upcoming.Data[1].Period.Start).To(Equal(next.AddDate(0, 1, 0).Format(time.DateOnly)))
		Expect(upcoming.Data[0].IssueAt).To(Equal(*got.NextIssueAt))
		Expect([]int64{upcoming.Data[0].Subtotal, upcoming.Data[0].TaxTotal, upcoming.Data[0].Total}).To(Equal([]int64{4900, 931, 5831}))
		tooMany := send(http.MethodGet, "/v1/invoice_schedules/"+created.ID+"/upcoming?count=25", inWorkspace(ns))
		Expect(tooMany.status).To(Equal(http.StatusBadRequest))
		Expect(tooMany.apiErr().Param).To(Equal("count"))
		Expect(send(http.MethodGet, "/v1/invoice_schedules/"+created.ID, inWorkspace(ns)).body).To(ContainSubstring(`"issued_count":4`))

		By("listing its invoices alone with schedule_id, and refusing another filter beside it")
		other := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(customerID)))
		Expect(other.status).To(Equal(http.StatusCreated))
		var invoices apiobject.List[apiobject.Invoice]
		Expect(json.Unmarshal(send(http.MethodGet, "/v1/invoices?schedule_id="+created.ID, inWorkspace(ns)).body,
			&invoices)).To(Succeed())
		Expect(invoices.Data).To(HaveLen(4))
		for _, inv := range invoices.Data {
			Expect(inv.ScheduleID).To(HaveValue(Equal(created.ID)))
		}
		both := send(http.MethodGet, "/v1/invoices?schedule_id="+created.ID+"&customer_id="+customerID, inWorkspace(ns))
		Expect(both.status).To(Equal(http.StatusBadRequest))
		Expect(both.apiErr().Param).To(Equal("schedule_id"))

		By("its invoices answer it")
		first := send(http.MethodGet, "/v1/invoices/"+created.ID+"-"+start.Format("20060102"), inWorkspace(ns)).invoice()
		Expect(first.ScheduleID).To(HaveValue(Equal(created.ID)))
		Expect(first.Total).To(HaveValue(Equal(int64(5831))))
	})

	It("records invoice_schedule.completed in the event feed once it has issued its last period, with the schedule as its object", func() {
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month()-2, 1, 0, 0, 0, 0, time.UTC)
		resp := send(http.MethodPost, "/v1/invoice_schedules", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[{"description":"Setup","quantity":1,"amount":1000}],`+
				`"interval":{"unit":"month","count":1},"start_date":%q,"end":{"count":2}}`,
			customerID, start.Format(time.DateOnly))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		created := schedule(resp)

		reader := eventsReader(ns)
		var feed apiobject.List[struct {
			Type string `json:"type"`
			Data struct {
				Object apiobject.InvoiceSchedule `json:"object"`
			} `json:"data"`
		}]
		Eventually(func(g Gomega) {
			events := send(http.MethodGet, "/v1/events?type=invoice_schedule.completed", as(reader), inWorkspace(ns))
			g.Expect(events.status).To(Equal(http.StatusOK), "body: %s", events.body)
			g.Expect(json.Unmarshal(events.body, &feed)).To(Succeed())
			g.Expect(feed.Data).To(HaveLen(1))
		}).Should(Succeed())
		Expect(feed.Data[0].Type).To(Equal("invoice_schedule.completed"))
		got := feed.Data[0].Data.Object
		Expect([]string{got.ID, got.Object, got.Status}).To(Equal([]string{created.ID, "invoice_schedule", "completed"}))
		Expect(got.IssuedCount).To(BeEquivalentTo(2))
	})

	It("adds pending items that the next invoice takes once, lists them, and refuses them when they cannot be", func() {
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		resp := send(http.MethodPost, "/v1/invoice_schedules", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"currency":"EUR","items":[{"description":"Retainer","quantity":1,"amount":100000,`+
				`"tax":{"category":"S","rate":"19"}}],"interval":{"unit":"month","count":1},"start_date":%q,`+
				`"missed_periods":"issue_latest","paused":true}`, customerID, start.Format(time.DateOnly))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		id := schedule(resp).ID
		path := "/v1/invoice_schedules/" + id + "/pending_items"

		By("adding 7.5 hours of a workshop, taxed as the schedule's lines")
		added := send(http.MethodPost, path, inWorkspace(ns), withBody(
			`{"description":"Workshop","quantity":7.5,"unit_code":"HUR","amount":15000,"tax":{"category":"S","rate":"19"}}`))
		Expect(added.status).To(Equal(http.StatusCreated), "body: %s", added.body)
		var item apiobject.PendingItem
		Expect(json.Unmarshal(added.body, &item)).To(Succeed())
		Expect(item.ID).To(MatchRegexp(`^pitem-[0-9a-z]{26}$`))
		Expect([]string{item.Object, item.ScheduleID, item.Status, item.UnitCode}).To(Equal(
			[]string{"pending_item", id, "pending", "HUR"}))
		Expect(item.NetAmount).To(HaveValue(Equal(int64(112_500))))
		Expect(item.InvoiceID).To(BeNil())
		Expect(added.header.Get("Location")).To(Equal(path + "/" + item.ID))

		By("refusing what cannot be added, creating nothing")
		for _, tc := range []struct {
			path, body string
			status     int
			code       string
			param      string
		}{
			{path, `{"description":"x","quantity":0,"amount":1}`, http.StatusUnprocessableEntity, CodeParameterInvalid, "quantity"},
			{path, `{"description":"x","quantity":1,"amount":1,"tax":{"category":"S","rate":"x"}}`,
				http.StatusUnprocessableEntity, CodeParameterInvalid, "tax.rate"},
			{path, `{"description":"x","quantity":1,"amount":100,"discount":{"amount":101,"reason":"r"}}`,
				http.StatusUnprocessableEntity, CodeAllowanceExceedsBase, "discount"},
			{path, `{"description":"x","quantity":"1","amount":1}`, http.StatusUnprocessableEntity, CodeParameterInvalid, "quantity"},
			{path, `{"description":"x","quantity":1,"amount":1,"colour":"red"}`, http.StatusBadRequest, CodeParameterUnknown, "colour"},
			{"/v1/invoice_schedules/isch-nope/pending_items", `{"description":"x","quantity":1,"amount":1}`,
				http.StatusNotFound, CodeResourceMissing, "invoice_schedule_id"},
		} {
			refused := send(http.MethodPost, tc.path, inWorkspace(ns), withBody(tc.body))
			Expect(refused.status).To(Equal(tc.status), "%s: %s", tc.body, refused.body)
			Expect(refused.apiErr().Code).To(Equal(tc.code), "%s", tc.body)
			Expect(refused.apiErr().Param).To(Equal(tc.param), "%s", tc.body)
		}
		var list apiobject.List[apiobject.PendingItem]
		Expect(json.Unmarshal(send(http.MethodGet, path, inWorkspace(ns)).body, &list)).To(Succeed())
		Expect(list.Data).To(ConsistOf(HaveField("ID", item.ID)))

		setSpec := func(change func(*billingv1.InvoiceScheduleSpec)) {
			GinkgoHelper()
			s := &billingv1.InvoiceSchedule{}
			Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, s)).To(Succeed())
			patch := client.MergeFrom(s.DeepCopy())
			change(&s.Spec)
			Expect(k8s.Patch(ctx, s, patch)).To(Succeed())
		}

		By("resuming (with kubectl): this month's invoice takes it, once")
		setSpec(func(s *billingv1.InvoiceScheduleSpec) { s.Paused = false })
		invoiceID := id + "-" + start.Format("20060102")
		Eventually(func(g Gomega) {
			got := send(http.MethodGet, path+"/"+item.ID, inWorkspace(ns))
			g.Expect(got.status).To(Equal(http.StatusOK), "body: %s", got.body)
			var taken apiobject.PendingItem
			g.Expect(json.Unmarshal(got.body, &taken)).To(Succeed())
			g.Expect(taken.Status).To(Equal("taken"))
			g.Expect(taken.InvoiceID).To(HaveValue(Equal(invoiceID)))
			g.Expect(taken.TakenAt).NotTo(BeNil())
		}).Should(Succeed())
		var inv apiobject.Invoice
		Eventually(func(g Gomega) {
			inv = send(http.MethodGet, "/v1/invoices/"+invoiceID, inWorkspace(ns)).invoice()
			g.Expect(inv.Total).NotTo(BeNil())
		}).Should(Succeed())
		Expect(inv.Items).To(HaveLen(2))
		Expect(inv.Items[1].Description).To(Equal("Workshop"))
		Expect(inv.Total).To(HaveValue(Equal(int64((100_000 + 112_500) * 119 / 100))))

		By("answering 404 for an item of another schedule's path, and 409 once the schedule has ended")
		Expect(send(http.MethodGet, "/v1/invoice_schedules/isch-other/pending_items/"+item.ID, inWorkspace(ns)).status).
			To(Equal(http.StatusNotFound))
		setSpec(func(s *billingv1.InvoiceScheduleSpec) { s.Cancelled = true })
		// Once this adapter has seen it cancelled: a create a moment
		// before would still be taken for a schedule that goes on.
		Eventually(func() string {
			return schedule(send(http.MethodGet, "/v1/invoice_schedules/"+id, inWorkspace(ns))).Status
		}).Should(Equal("cancelled"))
		ended := send(http.MethodPost, path, inWorkspace(ns), withBody(`{"description":"x","quantity":1,"amount":1}`))
		Expect(ended.status).To(Equal(http.StatusConflict), "body: %s", ended.body)
		Expect(ended.apiErr().Code).To(Equal(CodeScheduleEnded))
		Expect(json.Unmarshal(send(http.MethodGet, path, inWorkspace(ns)).body, &list)).To(Succeed())
		Expect(list.Data).To(HaveLen(1), "nothing created by a refusal")
	})

	It("pauses, resumes with its own missed-periods policy, cancels, and then refuses to change", func() {
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
		resp := send(http.MethodPost, "/v1/invoice_schedules", inWorkspace(ns), withBody(fmt.Sprintf(
			`{"customer_id":%q,"items":[{"description":"Support","quantity":1,"amount":900}],`+
				`"interval":{"unit":"week","count":2},"start_date":%q}`, customerID, start.Format(time.DateOnly))))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		id := schedule(resp).ID
		action := func(name, body string) response {
			opts := []reqOpt{inWorkspace(ns)}
			if body != "" {
				opts = append(opts, withBody(body))
			}
			return send(http.MethodPost, "/v1/invoice_schedules/"+id+"/"+name, opts...)
		}
		statusOf := func() string {
			return schedule(send(http.MethodGet, "/v1/invoice_schedules/"+id, inWorkspace(ns))).Status
		}

		By("refusing a caller that may not patch schedules, changing nothing")
		denied := action("pause", "")
		Expect(denied.status).To(Equal(http.StatusForbidden), "body: %s", denied.body)
		Expect(schedule(send(http.MethodGet, "/v1/invoice_schedules/"+id, inWorkspace(ns))).Paused).To(BeFalse())
		Expect(k8s.Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "patch-schedules", Namespace: ns},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"invoiceschedules"},
				Verbs: []string{"patch"}}}})).To(Succeed())
		Expect(k8s.Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "patch-schedules", Namespace: ns},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "patch-schedules"},
			Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: nsAlpha, Name: "writer"}}})).To(Succeed())
		awaitAllowed("system:serviceaccount:"+nsAlpha+":writer", ns, "patch", "invoiceschedules")

		By("pausing")
		var paused response
		Eventually(func(g Gomega) {
			// The adapter caches a denial for a moment.
			paused = action("pause", "")
			g.Expect(paused.status).To(Equal(http.StatusOK), "body: %s", paused.body)
		}).Should(Succeed())
		Expect(schedule(paused).Paused).To(BeTrue())
		Eventually(statusOf).Should(Equal("paused"))

		resumed := action("resume", `{"missed_periods":"skip"}`)
		Expect(resumed.status).To(Equal(http.StatusOK), "body: %s", resumed.body)
		Expect(schedule(resumed).Paused).To(BeFalse())
		Expect(schedule(resumed).MissedPeriods).To(Equal("skip"))
		Eventually(statusOf).Should(Equal("active"))

		bad := action("resume", `{"missed_periods":"all"}`)
		Expect(bad.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(bad.apiErr().Param).To(Equal("missed_periods"))

		cancelled := action("cancel", "")
		Expect(cancelled.status).To(Equal(http.StatusOK), "body: %s", cancelled.body)
		Eventually(statusOf).Should(Equal("cancelled"))
		got := schedule(send(http.MethodGet, "/v1/invoice_schedules/"+id, inWorkspace(ns)))
		Expect(got.NextPeriod).To(BeNil())
		upcoming := send(http.MethodGet, "/v1/invoice_schedules/"+id+"/upcoming", inWorkspace(ns))
		Expect(string(upcoming.body)).To(ContainSubstring(`"data":[]`))

		for _, name := range []string{"pause", "resume", "cancel"} {
			ended := action(name, "")
			Expect(ended.status).To(Equal(http.StatusConflict), "%s: %s", name, ended.body)
			Expect(ended.apiErr().Code).To(Equal(CodeScheduleEnded))
		}

		By("the API server keeps it cancelled, whoever writes")
		s := &billingv1.InvoiceSchedule{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, s)).To(Succeed())
		patch := client.MergeFrom(s.DeepCopy())
		s.Spec.Cancelled = false
		Expect(k8s.Patch(ctx, s, patch)).To(MatchError(ContainSubstring("stays cancelled")))
	})

	DescribeTable("refuses a schedule at fault with its code and JSON path, and creates nothing",
		func(rest, code, param string) {
			body := fmt.Sprintf(`{"customer_id":%q,"items":[{"description":"x","quantity":1,"amount":100}]%s}`, customerID, rest)
			if code == CodeResourceMissing {
				body = `{"customer_id":"cus-nobody","items":[{"description":"x","quantity":1,"amount":100}]` + rest + `}`
			}
			before := count()
			resp := send(http.MethodPost, "/v1/invoice_schedules", inWorkspace(ns), withBody(body))
			Expect(resp.status).To(Equal(http.StatusUnprocessableEntity), "body: %s", resp.body)
			Expect(resp.apiErr().Code).To(Equal(code), "body: %s", resp.body)
			Expect(resp.apiErr().Param).To(Equal(param))
			Consistently(count).Should(Equal(before))
		},
		Entry("an unknown customer", `,"interval":{"unit":"month","count":1},"start_date":"2026-01-31"`,
			CodeResourceMissing, "customer_id"),
		Entry("no interval", `,"start_date":"2026-01-31"`, CodeParameterMissing, "interval"),
		Entry("an interval of 37 months", `,"interval":{"unit":"month","count":37},"start_date":"2026-01-31"`,
			CodeParameterInvalid, "interval.count"),
		Entry("an interval of 0 days", `,"interval":{"unit":"day","count":0},"start_date":"2026-01-31"`,
			CodeParameterInvalid, "interval.count"),
		Entry("an unknown unit", `,"interval":{"unit":"fortnight","count":1},"start_date":"2026-01-31"`,
			CodeParameterInvalid, "interval.unit"),
		Entry("a date that does not exist", `,"interval":{"unit":"month","count":1},"start_date":"2026-02-30"`,
			CodeParameterInvalid, "start_date"),
		Entry("an unknown zone", `,"interval":{"unit":"month","count":1},"start_date":"2026-01-31","time_zone":"Mars/Olympus"`,
			CodeParameterInvalid, "time_zone"),
		Entry("an end after 0 periods", `,"interval":{"unit":"month","count":1},"start_date":"2026-01-31","end":{"count":0}`,
			CodeParameterInvalid, "end.count"),
		Entry("max_catch_up of 121", `,"interval":{"unit":"month","count":1},"start_date":"2026-01-31","max_catch_up":121`,
			CodeParameterInvalid, "max_catch_up"),
		Entry("an unknown missed-periods policy", `,"interval":{"unit":"month","count":1},"start_date":"2026-01-31","missed_periods":"all"`,
			CodeParameterInvalid, "missed_periods"),
	)
})
