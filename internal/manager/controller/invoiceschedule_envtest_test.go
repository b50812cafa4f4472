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
	"fmt"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/schedules"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

var _ = Describe("InvoiceSchedule controller", func() {
	var ns string
	BeforeEach(func() {
		ns = newNamespace()
		create(builder.Customer(ns, "acme"))
	})

	// scheduled is the names of the invoices the schedule named name
	// issued, sorted.
	scheduled := func(name string) []string {
		GinkgoHelper()
		list := &billingv1.InvoiceList{}
		Expect(k8sClient.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{billingv1.LabelSchedule: name})).To(Succeed())
		var names []string
		for _, inv := range list.Items {
			names = append(names, inv.Name)
		}
		sort.Strings(names)
		return names
	}
	getSchedule := func(g Gomega, name string) *billingv1.InvoiceSchedule {
		s := &billingv1.InvoiceSchedule{}
		g.Expect(apiReader.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s)).To(Succeed())
		return s
	}

	It("issues a monthly schedule from the 31st on the 31st, Feb 29 and the 30th, once per period, whoever reconciles", func() {
		// Periods in 2032, so that the manager's own reconciler, on the
		// real clock, only waits; the injected clock makes them due.
		s := builder.InvoiceSchedule(ns, "rent", "acme", "2031-12-31")
		// As Argo CD and Flux label and annotate what they apply.
		s.Labels = map[string]string{"app.kubernetes.io/instance": "billing", "kustomize.toolkit.fluxcd.io/name": "billing"}
		s.Annotations = map[string]string{"argocd.argoproj.io/tracking-id": "billing:billing.invoicing.dev/InvoiceSchedule:" + ns + "/rent"}
		create(s)
		Eventually(func(g Gomega) {
			got := getSchedule(g, "rent")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseActive))
			g.Expect(got.Status.NextPeriod).To(HaveValue(Equal(billingv1.InvoicingPeriod{Start: "2031-12-31", End: "2032-01-30"})))
			g.Expect(got.Status.NextIssueAt.Time).To(BeTemporally("==", time.Date(2031, 12, 31, 0, 0, 0, 0, time.UTC)))
		}).Should(Succeed())
		Expect(scheduled("rent")).To(BeEmpty())

		By("reconciling on May 1 2032: five periods are due")
		clock := clocktesting.NewFakePassiveClock(time.Date(2032, 5, 1, 0, 0, 0, 0, time.UTC))
		r := &schedules.InvoiceScheduleReconciler{Client: k8sClient, APIReader: apiReader, Clock: clock}
		request := reconcile.Request{NamespacedName: client.ObjectKeyFromObject(s)}
		// The manager's reconciler may patch the status meanwhile: a
		// conflict, retried as controller-runtime would.
		var result reconcile.Result
		Eventually(func() (err error) { result, err = r.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(result.RequeueAfter).To(Equal(30 * 24 * time.Hour)) // May 31
		want := []string{"rent-20311231", "rent-20320131", "rent-20320229", "rent-20320331", "rent-20320430"}
		Expect(scheduled("rent")).To(Equal(want))

		By("giving each invoice its period and issuing it with a number, as any invoice")
		feb := &billingv1.Invoice{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "rent-20320229"}, feb)).To(Succeed())
		Expect(feb.Spec.InvoicingPeriod).To(HaveValue(Equal(billingv1.InvoicingPeriod{Start: "2032-02-29", End: "2032-03-30"})))
		Expect(feb.OwnerReferences).To(BeEmpty())
		By("copying none of the schedule's GitOps labels and annotations: no tool counts the invoices as its own")
		Expect(feb.Labels).To(Equal(map[string]string{billingv1.LabelSchedule: "rent"}))
		Expect(feb.Annotations).To(BeEmpty())
		for _, name := range want {
			inv := &billingv1.Invoice{}
			inv.Namespace, inv.Name = ns, name
			Eventually(func(g Gomega) {
				issued := getInvoice(g, inv)
				g.Expect(issued.Status.Phase).To(Equal(billingv1.InvoiceIssued))
				g.Expect(issued.Status.Number).NotTo(BeEmpty())
			}).Should(Succeed())
		}
		got := getSchedule(Default, "rent")
		Expect(got.Status.IssuedCount).To(BeEquivalentTo(5))
		Expect(got.Status.LastInvoice).To(Equal("rent-20320430"))
		Expect(got.Status.NextPeriod).To(HaveValue(Equal(billingv1.InvoicingPeriod{Start: "2032-05-31", End: "2032-06-29"})))

		By("a second manager reconciling at the same moment creates nothing")
		other := &schedules.InvoiceScheduleReconciler{Client: k8sClient, APIReader: apiReader, Clock: clock}
		Eventually(func() error { _, err := other.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(scheduled("rent")).To(Equal(want))

		By("a crash between the creates and the status patch: the next attempt finds the invoices and creates nothing")
		crashed := getSchedule(Default, "rent")
		before := crashed.DeepCopy()
		crashed.Status.NextPeriod = &billingv1.InvoicingPeriod{Start: "2031-12-31", End: "2032-01-30"}
		crashed.Status.IssuedCount, crashed.Status.LastInvoice = 0, ""
		Expect(k8sClient.Status().Patch(ctx, crashed, client.MergeFrom(before))).To(Succeed())
		Eventually(func() error { _, err := r.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(scheduled("rent")).To(Equal(want))
		Expect(getSchedule(Default, "rent").Status.IssuedCount).To(BeEquivalentTo(5))
	})

	It("gives each pending item to exactly one invoice, the first created after it, across a crash and a second manager", func() {
		// Periods in 2032, as above: the injected clock makes them due.
		s := builder.InvoiceSchedule(ns, "retainer", "acme", "2032-01-01")
		create(s)
		Eventually(func(g Gomega) {
			g.Expect(getSchedule(g, "retainer").Status.Phase).To(Equal(billingv1.SchedulePhaseActive))
		}).Should(Succeed())
		workshop := builder.PendingItem(ns, "workshop", "retainer", "Workshop", 50_000)
		create(workshop)
		time.Sleep(time.Second) // a later creationTimestamp: taken in order
		travel := builder.PendingItem(ns, "travel", "retainer", "Travel", 12_000)
		create(travel)
		tooMuch := builder.PendingItem(ns, "too-much", "retainer", "Discounted below nothing", 100)
		over := int64(101)
		tooMuch.Spec.Item.Discount = &billingv1.LineDiscount{Amount: &over, Reason: "More than the line"}
		create(tooMuch)
		create(builder.PendingItem(ns, "elsewhere", "other-schedule", "Not this schedule's", 1))

		By("reconciling on Mar 1 2032: the first of three invoices takes both items, in the order they were created")
		clock := clocktesting.NewFakePassiveClock(time.Date(2032, 3, 1, 0, 0, 0, 0, time.UTC))
		r := &schedules.InvoiceScheduleReconciler{Client: k8sClient, APIReader: apiReader, Clock: clock}
		request := reconcile.Request{NamespacedName: client.ObjectKeyFromObject(s)}
		Eventually(func() error { _, err := r.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(scheduled("retainer")).To(Equal([]string{"retainer-20320101", "retainer-20320201", "retainer-20320301"}))
		lines := func(name string) []string {
			GinkgoHelper()
			inv := &billingv1.Invoice{}
			Expect(apiReader.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, inv)).To(Succeed())
			var out []string
			for _, it := range inv.Spec.Items {
				out = append(out, it.Description)
			}
			return out
		}
		Expect(lines("retainer-20320101")).To(Equal([]string{"Rent", "Workshop", "Travel"}))
		Expect(lines("retainer-20320201")).To(Equal([]string{"Rent"}))
		Expect(lines("retainer-20320301")).To(Equal([]string{"Rent"}))
		item := func(name string) *billingv1.PendingItem {
			GinkgoHelper()
			p := &billingv1.PendingItem{}
			Expect(apiReader.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, p)).To(Succeed())
			return p
		}
		for _, name := range []string{"workshop", "travel"} {
			Expect(item(name).Status).To(And(HaveField("Phase", billingv1.PendingItemTaken),
				HaveField("Invoice", "retainer-20320101"), HaveField("TakenAt", Not(BeNil()))))
		}
		Expect(item("too-much").Status.Phase).To(Equal(billingv1.PendingItemInvalid))
		Expect(item("too-much").Status.Message).To(ContainSubstring("cannot be invoiced"))
		Expect(item("elsewhere").Status.Phase).To(BeEmpty(), "another schedule's item is not this one's")
		Eventually(func(g Gomega) {
			issued := getInvoice(g, &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "retainer-20320101"}})
			g.Expect(issued.Status.Phase).To(Equal(billingv1.InvoiceIssued))
			g.Expect(issued.Status.Total).To(HaveValue(BeEquivalentTo(100_000 + 50_000 + 12_000)))
		}).Should(Succeed())

		By("a crash after the April invoice was created with an item, before the item was told")
		late := builder.PendingItem(ns, "late", "retainer", "Late fee", 2_500)
		create(late)
		march := &billingv1.Invoice{}
		Expect(apiReader.Get(ctx, client.ObjectKey{Namespace: ns, Name: "retainer-20320301"}, march)).To(Succeed())
		april := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "retainer-20320401",
			Labels:      map[string]string{billingv1.LabelSchedule: "retainer"},
			Annotations: map[string]string{billingv1.AnnotationPendingItems: "late"}},
			Spec: *march.Spec.DeepCopy()}
		april.Spec.InvoicingPeriod = &billingv1.InvoicingPeriod{Start: "2032-04-01", End: "2032-04-30"}
		april.Spec.Items = append(april.Spec.Items, late.Spec.Item)
		create(april)
		create(builder.PendingItem(ns, "after", "retainer", "After the crash", 700))

		By("reconciling on May 1 2032: April's invoice is found and takes its item; May's takes only what came after")
		clock.SetTime(time.Date(2032, 5, 1, 0, 0, 0, 0, time.UTC))
		Eventually(func() error { _, err := r.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(item("late").Status.Invoice).To(Equal("retainer-20320401"))
		Expect(lines("retainer-20320401")).To(Equal([]string{"Rent", "Late fee"}))
		Expect(lines("retainer-20320501")).To(Equal([]string{"Rent", "After the crash"}))
		Expect(item("after").Status.Invoice).To(Equal("retainer-20320501"))

		By("a second manager reconciling at the same moment changes nothing")
		other := &schedules.InvoiceScheduleReconciler{Client: k8sClient, APIReader: apiReader, Clock: clock}
		Eventually(func() error { _, err := other.Reconcile(ctx, request); return err }).Should(Succeed())
		Expect(scheduled("retainer")).To(HaveLen(5))
		for name, invoice := range map[string]string{"workshop": "retainer-20320101", "travel": "retainer-20320101",
			"late": "retainer-20320401", "after": "retainer-20320501"} {
			Expect(item(name).Status.Invoice).To(Equal(invoice))
		}

		By("a pending item's spec cannot change")
		taken := item("workshop")
		taken.Spec.Item.Amount = 1
		Expect(k8sClient.Update(ctx, taken)).To(MatchError(ContainSubstring("immutable")))
	})

	It("stalls, issuing nothing, when an invoice it did not issue holds a period's name", func() {
		now := time.Now().UTC()
		first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		create(builder.Invoice(ns, "taken-"+first.Format("20060102"), builder.WithCustomer("acme"),
			builder.WithItem("By hand", 1, 100)))
		create(builder.InvoiceSchedule(ns, "taken", "acme", first.Format(time.DateOnly)))
		Eventually(func(g Gomega) {
			got := getSchedule(g, "taken")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseInvalid))
			g.Expect(meta.FindStatusCondition(got.Status.Conditions, billingv1.ConditionStalled)).To(
				HaveField("Reason", billingv1.ReasonInvoiceNameTaken))
			g.Expect(got.Status.IssuedCount).To(BeZero())
		}).Should(Succeed())
		Expect(scheduled("taken")).To(BeEmpty())
	})

	// A schedule whose periods started on the 1st of each of the last four
	// months and this one: five periods came due before it was created.
	DescribeTable("applies its missed-periods policy to the periods that came due before it was created",
		func(policy billingv1.MissedPeriods, maxCatchUp int32, issued []int, skipped int) {
			now := time.Now().UTC()
			first := time.Date(now.Year(), now.Month()-4, 1, 0, 0, 0, 0, time.UTC)
			name := fmt.Sprintf("catch-up-%s", policy)
			if maxCatchUp > 0 {
				name += fmt.Sprint(maxCatchUp)
			}
			name = strings.ReplaceAll(name, "_", "-")
			create(builder.InvoiceSchedule(ns, name, "acme", first.Format(time.DateOnly),
				builder.WithMissedPeriods(policy, maxCatchUp)))
			var want []string
			for _, m := range issued {
				want = append(want, name+"-"+first.AddDate(0, m, 0).Format("20060102"))
			}
			Eventually(func(g Gomega) {
				got := getSchedule(g, name)
				g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseActive))
				g.Expect(got.Status.SkippedPeriods).To(BeEquivalentTo(skipped))
				g.Expect(got.Status.IssuedCount).To(BeEquivalentTo(len(issued)))
				g.Expect(got.Status.NextPeriod.Start).To(Equal(first.AddDate(0, 5, 0).Format(time.DateOnly)))
			}).Should(Succeed())
			Expect(scheduled(name)).To(Equal(want))
		},
		Entry("issue_all issues all five", billingv1.MissedIssueAll, int32(0), []int{0, 1, 2, 3, 4}, 0),
		Entry("issue_all with max_catch_up 2 issues the latest two", billingv1.MissedIssueAll, int32(2), []int{3, 4}, 3),
		Entry("issue_latest issues this month's alone", billingv1.MissedIssueLatest, int32(0), []int{4}, 4),
		Entry("skip issues none", billingv1.MissedSkip, int32(0), []int(nil), 5),
	)

	It("issues nothing while paused, and skips the periods passed while paused when it resumes with skip", func() {
		now := time.Now().UTC()
		first := time.Date(now.Year(), now.Month()-2, 1, 0, 0, 0, 0, time.UTC)
		create(builder.InvoiceSchedule(ns, "paused", "acme", first.Format(time.DateOnly), builder.Paused(),
			builder.WithMissedPeriods(billingv1.MissedSkip, 0)))
		Eventually(func(g Gomega) {
			got := getSchedule(g, "paused")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhasePaused))
			g.Expect(meta.FindStatusCondition(got.Status.Conditions, billingv1.ConditionReady)).To(HaveField("Reason", billingv1.ReasonPaused))
		}).Should(Succeed())
		Consistently(func() []string { return scheduled("paused") }).WithTimeout(time.Second).Should(BeEmpty())

		By("resuming")
		s := getSchedule(Default, "paused")
		patch := client.MergeFrom(s.DeepCopy())
		s.Spec.Paused = false
		Expect(k8sClient.Patch(ctx, s, patch)).To(Succeed())
		Eventually(func(g Gomega) {
			got := getSchedule(g, "paused")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseActive))
			g.Expect(got.Status.SkippedPeriods).To(BeEquivalentTo(3))
		}).Should(Succeed())
		Expect(scheduled("paused")).To(BeEmpty())
	})

	It("stalls with its reason when its template cannot be issued or its customer is missing, and issues nothing", func() {
		now := time.Now().UTC()
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		amount := int64(101)
		create(builder.InvoiceSchedule(ns, "bad-template", "acme", start, builder.WithTemplateItems(billingv1.LineItem{
			Description: "x", Quantity: billingv1.Units(1), Amount: 100,
			Discount: &billingv1.LineDiscount{Amount: &amount, Reason: "More than the line"}})))
		create(builder.InvoiceSchedule(ns, "no-customer", "nobody", start))
		for name, reason := range map[string]string{"bad-template": billingv1.ReasonInvalidTemplate,
			"no-customer": billingv1.ReasonCustomerNotFound} {
			Eventually(func(g Gomega) {
				got := getSchedule(g, name)
				g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseInvalid))
				stalled := meta.FindStatusCondition(got.Status.Conditions, billingv1.ConditionStalled)
				g.Expect(stalled).NotTo(BeNil())
				g.Expect(stalled.Reason).To(Equal(reason))
			}).Should(Succeed())
			Expect(scheduled(name)).To(BeEmpty())
		}

		By("each carrying invoice_schedule.stalled, in the workspace's event sequence")
		stalledEvent := func(g Gomega, name string) *billingv1.RecordedEvent {
			e := billingv1.FindEvent(getSchedule(g, name).Status.Events, billingv1.EventTypeInvoiceScheduleStalled)
			g.Expect(e).NotTo(BeNil(), "%s carries invoice_schedule.stalled", name)
			return e
		}
		var first billingv1.RecordedEvent
		Eventually(func(g Gomega) {
			first = *stalledEvent(g, "no-customer")
			g.Expect(stalledEvent(g, "bad-template").Sequence).NotTo(Equal(first.Sequence))
		}).Should(Succeed())
		Expect(first.Sequence).To(BeNumerically(">=", 1))

		By("creating the customer issues what came due meanwhile, and keeps the one event of its stall")
		create(builder.Customer(ns, "nobody"))
		Eventually(func(g Gomega) {
			got := getSchedule(g, "no-customer")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseActive))
			g.Expect(got.Status.IssuedCount).To(BeEquivalentTo(1))
		}).Should(Succeed())
		Expect(getSchedule(Default, "no-customer").Status.Events).To(ConsistOf(first))
	})

	It("completes at its end and records invoice_schedule.completed once", func() {
		now := time.Now().UTC()
		first := time.Date(now.Year(), now.Month()-2, 1, 0, 0, 0, 0, time.UTC)
		create(builder.InvoiceSchedule(ns, "two-months", "acme", first.Format(time.DateOnly), func(s *billingv1.InvoiceSchedule) {
			two := int32(2)
			s.Spec.End = &billingv1.ScheduleEnd{Count: &two}
		}))
		var completed billingv1.RecordedEvent
		Eventually(func(g Gomega) {
			got := getSchedule(g, "two-months")
			g.Expect(got.Status.Phase).To(Equal(billingv1.SchedulePhaseCompleted))
			g.Expect(got.Status.IssuedCount).To(BeEquivalentTo(2))
			g.Expect(got.Status.Events).To(HaveLen(1))
			completed = got.Status.Events[0]
		}).Should(Succeed())
		Expect(completed.Type).To(Equal(billingv1.EventTypeInvoiceScheduleCompleted))
		Expect(scheduled("two-months")).To(HaveLen(2))

		By("its invoices' invoice.issued and its own event each hold a sequence of their own")
		sequences := map[int64]string{completed.Sequence: "two-months"}
		for _, name := range scheduled("two-months") {
			Eventually(func(g Gomega) {
				inv := &billingv1.Invoice{}
				g.Expect(apiReader.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, inv)).To(Succeed())
				issued := billingv1.FindEvent(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
				g.Expect(issued).NotTo(BeNil())
				g.Expect(sequences).NotTo(HaveKey(issued.Sequence))
				sequences[issued.Sequence] = name
			}).Should(Succeed())
		}
		Consistently(func(g Gomega) {
			g.Expect(getSchedule(g, "two-months").Status.Events).To(ConsistOf(completed))
		}).WithTimeout(time.Second).Should(Succeed(), "recorded once")
	})
})
