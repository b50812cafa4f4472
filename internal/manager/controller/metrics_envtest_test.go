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
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

var _ = Describe("The business metrics", func() {
	var reg *prometheus.Registry

	BeforeEach(func() {
		reg = prometheus.NewRegistry()
		// The manager's reader, as cmd/main.go registers the cache.
		Expect(reconciler.RegisterMetrics(reg, apiReader)).To(Succeed())
	})

	It("count invoices by phase and reason, time the issue, and age the oldest invalid invoice", func() {
		ns := newNamespace()
		issuedBefore := histogramCount(reg, "invoicing_invoice_issue_latency_seconds")
		invalidBefore := gaugeValue(reg, "invoicing_invoices", map[string]string{"phase": "Invalid", "reason": "CustomerNotFound"})

		By("creating an invoice whose customer exists, and one whose customer does not")
		Expect(k8sClient.Create(ctx, builder.Customer(ns, "acme"))).To(Succeed())
		issued := builder.Invoice(ns, "inv-paid", builder.WithCustomer("acme"), builder.WithItem("Anvil", 1, 5000))
		Expect(k8sClient.Create(ctx, issued)).To(Succeed())
		waiting := builder.Invoice(ns, "inv-waiting", builder.WithCustomer("nobody"), builder.WithItem("Rocket", 1, 9000))
		Expect(k8sClient.Create(ctx, waiting)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(getInvoice(g, issued).Status.Phase).To(Equal(billingv1.InvoiceIssued))
			g.Expect(getInvoice(g, waiting).Status.Phase).To(Equal(billingv1.InvoiceInvalid))
		}).Should(Succeed())

		Expect(histogramCount(reg, "invoicing_invoice_issue_latency_seconds")).To(BeNumerically(">=", issuedBefore+1))
		Expect(gaugeValue(reg, "invoicing_invoices", map[string]string{"phase": "Invalid", "reason": "CustomerNotFound"})).
			To(BeNumerically(">=", invalidBefore+1))
		Expect(gaugeValue(reg, "invoicing_invoices", map[string]string{"phase": "Issued", "reason": "Issued"})).
			To(BeNumerically(">=", 1))
		created := getInvoice(Default, waiting).CreationTimestamp
		Expect(gaugeValue(reg, "invoicing_invoice_oldest_unissued_age_seconds", map[string]string{"phase": "Invalid"})).
			To(BeNumerically(">=", metav1.Now().Sub(created.Time).Seconds()-1))
		Expect(len(series(reg, "invoicing_workspace_invoices"))).To(BeNumerically("<=", (reconciler.TopWorkspaces+1)*3),
			"one series per phase for at most the top workspaces and _other")
	})
})

// series returns the gathered metrics of the family name.
func series(reg *prometheus.Registry, name string) []*dto.Metric {
	GinkgoHelper()
	families, err := reg.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()
		}
	}
	return nil
}

// gaugeValue returns the value of the gauge name with exactly labels, or 0.
func gaugeValue(reg *prometheus.Registry, name string, labels map[string]string) float64 {
	GinkgoHelper()
	for _, m := range series(reg, name) {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		if len(got) == len(labels) {
			match := true
			for k, v := range labels {
				match = match && got[k] == v
			}
			if match {
				return m.GetGauge().GetValue()
			}
		}
	}
	return 0
}

// histogramCount returns the number of observations of the histogram name.
func histogramCount(reg *prometheus.Registry, name string) uint64 {
	GinkgoHelper()
	for _, m := range series(reg, name) {
		return m.GetHistogram().GetSampleCount()
	}
	return 0
}
