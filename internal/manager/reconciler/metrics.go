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

package reconciler

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The business metrics. Counts of invoices are computed when Prometheus
// scrapes, from the manager's informer cache (no API calls, no state kept
// between scrapes), so they are right after a restart and on the replica
// that is not the leader too: aggregate them with max, not sum.
//
// Label values are bounded whatever users create: phase and reason are the
// API's constants; workspaces are labelled only for the TopWorkspaces with
// the most invoices, the others summed under workspace="_other" (a name no
// namespace can have), so a cluster with ten thousand namespaces still
// exports at most (TopWorkspaces+1) × phases series.

// TopWorkspaces is how many workspaces invoicing_workspace_invoices names.
const TopWorkspaces = 10

// otherWorkspaces labels the invoices of the workspaces not in the top.
const otherWorkspaces = "_other"

const (
	// MetricsNamespace prefixes every metric name.
	MetricsNamespace = "invoicing"
	phaseLabel       = "phase"
	// WorkspaceLabel names a metric's workspace.
	WorkspaceLabel = "workspace"
)

var (
	invoicesDesc = prometheus.NewDesc("invoicing_invoices",
		"Invoices by phase and by the reason of their Ready condition, counted from the controller's cache at scrape time.",
		[]string{phaseLabel, "reason"}, nil)
	workspaceInvoicesDesc = prometheus.NewDesc("invoicing_workspace_invoices",
		"Invoices by phase in the workspaces with the most invoices; the rest are summed under workspace=\"_other\".",
		[]string{WorkspaceLabel, phaseLabel}, nil)
	oldestUnissuedDesc = prometheus.NewDesc("invoicing_invoice_oldest_unissued_age_seconds",
		"Age of the oldest invoice in each phase that is not Issued (Pending, Invalid); absent when there is none.",
		[]string{phaseLabel}, nil)

	issueLatency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: MetricsNamespace,
		Name:      "invoice_issue_latency_seconds",
		Help: "Time from an invoice's creation to its issue (creationTimestamp has one-second resolution). " +
			"Long values are invoices that waited for their customer.",
		Buckets: []float64{0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600},
	})
	reconcileErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: MetricsNamespace,
		Name:      "reconcile_errors_total",
		Help: "Reconciles that returned an error, by controller and reason: the Kubernetes API status reason " +
			"(Conflict, Timeout, ...), Canceled, DeadlineExceeded, or Unknown.",
	}, []string{"controller", "reason"})
)

// RegisterMetrics registers the business metrics with reg (cmd/main.go:
// controller-runtime's metrics.Registry), counting invoices from reader (the
// manager's cache), and more, the collectors of other packages (the
// webhooks'). The issue latency and the errors are observed by the
// reconcilers.
func RegisterMetrics(reg prometheus.Registerer, reader client.Reader, more ...prometheus.Collector) error {
	collectors := append([]prometheus.Collector{
		&invoiceCollector{reader: reader, now: time.Now}, issueLatency, reconcileErrors, eventsRecorded,
	}, more...)
	for _, c := range collectors {
		if err := reg.Register(c); err != nil {
			var dup prometheus.AlreadyRegisteredError
			if !errors.As(err, &dup) {
				return err
			}
		}
	}
	return nil
}

// invoiceCollector counts the cached invoices at each scrape.
type invoiceCollector struct {
	reader client.Reader
	now    func() time.Time
}

func (c *invoiceCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- invoicesDesc
	ch <- workspaceInvoicesDesc
	ch <- oldestUnissuedDesc
}

func (c *invoiceCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	list := &billingv1.InvoiceList{}
	// Read-only: the cache's objects are not copied.
	if err := c.reader.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		ch <- prometheus.NewInvalidMetric(invoicesDesc, err)
		return
	}
	counts := countInvoices(list.Items, c.now(), TopWorkspaces)
	for k, n := range counts.byPhase {
		ch <- prometheus.MustNewConstMetric(invoicesDesc, prometheus.GaugeValue, float64(n), k.phase, k.reason)
	}
	for k, n := range counts.byWorkspace {
		ch <- prometheus.MustNewConstMetric(workspaceInvoicesDesc, prometheus.GaugeValue, float64(n), k.workspace, k.phase)
	}
	for phase, age := range counts.oldest {
		ch <- prometheus.MustNewConstMetric(oldestUnissuedDesc, prometheus.GaugeValue, age.Seconds(), phase)
	}
}

type phaseReason struct{ phase, reason string }
type workspacePhase struct{ workspace, phase string }

// invoiceCounts is what one scrape exports.
type invoiceCounts struct {
	byPhase     map[phaseReason]int
	byWorkspace map[workspacePhase]int
	oldest      map[string]time.Duration // by phase, Issued excluded
}

// countInvoices counts invoices by phase and reason, by workspace and phase
// for the top workspaces with the most invoices (ties: by name) and the rest
// as one, and finds the oldest not issued in each phase. An invoice the
// controller has not seen yet (no phase) is Pending.
func countInvoices(invoices []billingv1.Invoice, now time.Time, top int) invoiceCounts {
	out := invoiceCounts{
		byPhase:     map[phaseReason]int{},
		byWorkspace: map[workspacePhase]int{},
		oldest:      map[string]time.Duration{},
	}
	perWorkspace := map[string]map[string]int{}
	totals := map[string]int{}
	for i := range invoices {
		inv := &invoices[i]
		phase := string(inv.Status.Phase)
		if phase == "" {
			phase = string(billingv1.InvoicePending)
		}
		reason := ""
		if c := meta.FindStatusCondition(inv.Status.Conditions, billingv1.ConditionReady); c != nil {
			reason = c.Reason
		}
		out.byPhase[phaseReason{phase, reason}]++
		if perWorkspace[inv.Namespace] == nil {
			perWorkspace[inv.Namespace] = map[string]int{}
		}
		perWorkspace[inv.Namespace][phase]++
		totals[inv.Namespace]++
		if phase != string(billingv1.InvoiceIssued) {
			if age := now.Sub(inv.CreationTimestamp.Time); age > out.oldest[phase] {
				out.oldest[phase] = age
			}
		}
	}
	names := make([]string, 0, len(totals))
	for ns := range totals {
		names = append(names, ns)
	}
	sort.Slice(names, func(i, j int) bool {
		if totals[names[i]] != totals[names[j]] {
			return totals[names[i]] > totals[names[j]]
		}
		return names[i] < names[j]
	})
	for i, ns := range names {
		label := ns
		if i >= top {
			label = otherWorkspaces
		}
		for phase, n := range perWorkspace[ns] {
			out.byWorkspace[workspacePhase{label, phase}] += n
		}
	}
	return out
}

// ObserveIssued records the issue latency of an invoice this reconcile issued.
func ObserveIssued(before, after *billingv1.Invoice) {
	if before.Status.Phase != billingv1.InvoiceIssued && after.Status.Phase == billingv1.InvoiceIssued &&
		after.Status.IssuedAt != nil {
		issueLatency.Observe(after.Status.IssuedAt.Sub(after.CreationTimestamp.Time).Seconds())
	}
}

// CountErrors wraps a reconciler so that each error it returns is counted in
// invoicing_reconcile_errors_total under controller and the error's reason.
// A conflict is counted too (reason Conflict) but retried quietly, as a
// requeue without an error (requeueConflict).
func CountErrors(controller string, r reconcile.Reconciler) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
		res, err := r.Reconcile(ctx, req)
		if err != nil {
			reconcileErrors.WithLabelValues(controller, errorReason(err)).Inc()
		}
		return requeueConflict(ctx, res, err)
	})
}

// errorReason is a bounded label for err: the Kubernetes API status reason
// when it is one, the context's error, or Unknown.
func errorReason(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "Canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "DeadlineExceeded"
	}
	if reason := apierrors.ReasonForError(err); reason != "" {
		return string(reason)
	}
	return "Unknown"
}
