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

package webhooks

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"

	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// Webhook delivery metrics, labelled by workspace and endpoint name: an
// endpoint is a few objects a team creates by hand, not a per-invoice value,
// so the series stay few. An endpoint's series are deleted with it.
var (
	webhookDeliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: reconciler.MetricsNamespace,
		Name:      "webhook_deliveries_total",
		Help: "Webhook delivery attempts by endpoint and result: success (a 2xx answer) or failure " +
			"(another answer, an error, a timeout or a refused address).",
	}, []string{reconciler.WorkspaceLabel, endpointLabel, "result"})
	webhookLag = lagGauge("webhook_lag_sequences", "Issued invoices not yet delivered to an endpoint: the highest "+
		"sequence the manager has seen issued in the workspace minus the endpoint's status.deliveredSequence.")
	webhookLagEvents = lagGauge("webhook_lag_events", "Events not yet walked by an endpoint (sent or skipped): the "+
		"highest event sequence the manager has seen in the workspace minus the endpoint's "+
		"status.deliveredEventSequence.")
	webhookAttemptSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: reconciler.MetricsNamespace,
		Name:      "webhook_attempt_duration_seconds",
		Help:      "Duration of webhook delivery attempts, by result.",
		Buckets:   []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
	}, []string{"result"})
)

// lagGauge is a gauge of how far behind each endpoint of a workspace is,
// named name; help says in what, and the gauge's help adds that it is
// absent while the endpoint is paused.
func lagGauge(name, help string) *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: reconciler.MetricsNamespace,
		Name:      name,
		Help:      help + " Absent while the endpoint is paused.",
	}, []string{reconciler.WorkspaceLabel, endpointLabel})
}

const endpointLabel = "endpoint"

// Collectors are the webhook delivery metrics, registered by
// controller.RegisterMetrics.
var Collectors = []prometheus.Collector{webhookDeliveries, webhookLag, webhookLagEvents, webhookAttemptSeconds}

func observeWebhookAttempt(endpoint types.NamespacedName, took time.Duration, err error) {
	result := "success"
	if err != nil {
		result = "failure"
	}
	webhookDeliveries.WithLabelValues(endpoint.Namespace, endpoint.Name, result).Inc()
	webhookAttemptSeconds.WithLabelValues(result).Observe(took.Seconds())
}

// observeWebhookLag sets the endpoint's lags after run, given the highest
// invoice and event sequences seen in its workspace; a paused endpoint
// exports none, so that a deliberate pause does not alert.
func observeWebhookLag(endpoint types.NamespacedName, invoices, events int64, run deliveryRun) {
	if run.paused {
		webhookLag.DeleteLabelValues(endpoint.Namespace, endpoint.Name)
		webhookLagEvents.DeleteLabelValues(endpoint.Namespace, endpoint.Name)
		return
	}
	invoiceLag, eventLag := webhookLags(invoices, events, run)
	webhookLag.WithLabelValues(endpoint.Namespace, endpoint.Name).Set(float64(invoiceLag))
	webhookLagEvents.WithLabelValues(endpoint.Namespace, endpoint.Name).Set(float64(eventLag))
}

// webhookLags are an endpoint's lags after run: in invoice sequences (the
// highest seen minus the invoice watermark) and in event sequences (the
// highest seen minus the cursor), never below 0.
func webhookLags(invoices, events int64, run deliveryRun) (invoiceLag, eventLag int64) {
	return max(invoices-run.invoices, 0), max(events-run.delivered, 0)
}

func forgetWebhookMetrics(endpoint types.NamespacedName) {
	labels := prometheus.Labels{reconciler.WorkspaceLabel: endpoint.Namespace, endpointLabel: endpoint.Name}
	webhookDeliveries.DeletePartialMatch(labels)
	webhookLag.DeletePartialMatch(labels)
	webhookLagEvents.DeletePartialMatch(labels)
}

// watermarks are the highest sequence (of invoices, or of events) the
// manager has seen in each workspace. Safe for concurrent use.
type watermarks struct {
	mu      sync.Mutex
	highest map[string]int64
}

func (w *watermarks) raise(namespace string, sequence int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.highest == nil {
		w.highest = map[string]int64{}
	}
	if sequence > w.highest[namespace] {
		w.highest[namespace] = sequence
	}
}

func (w *watermarks) get(namespace string) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.highest[namespace]
}
