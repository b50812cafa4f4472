/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Command manager runs the invoicing controllers: it issues Invoices whose
// Customer exists and keeps Customers that invoices reference from being
// deleted.
package main

import (
	"crypto/tls"
	"flag"
	"os"

	// Import all Kubernetes client auth plugins (e.g. Azure, GCP, OIDC, etc.)
	// to ensure that exec-entrypoint and run can make use of them.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/servingtls"
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(billingv1.AddToScheme(scheme))
	// +kubebuilder:scaffold:scheme
}

func main() {
	var metricsAddr, probeAddr, leaderElectionNamespace string
	var enableLeaderElection, secureMetrics, enableHTTP2 bool
	var concurrency, burst int
	var qps float64
	var pprofAddr, metricsCertPath string
	var webhookOpts delivery.SenderOptions
	var webhookWorkers int
	var keepStatusManagedFields bool
	var managedFieldsDropRate float64
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to. "+
		"Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable the metrics service.")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to.")
	flag.BoolVar(&enableLeaderElection, "leader-elect", false,
		"Enable leader election for controller manager. "+
			"Enabling this will ensure there is only one active controller manager.")
	flag.StringVar(&leaderElectionNamespace, "leader-election-namespace", "",
		"The namespace of the leader election Lease. Inside a cluster it defaults to the pod's namespace; "+
			"set it when the manager runs outside one.")
	flag.BoolVar(&secureMetrics, "metrics-secure", true,
		"If set, the metrics endpoint is served securely via HTTPS, behind Kubernetes authentication and authorization.")
	flag.StringVar(&metricsCertPath, "metrics-cert-path", "", "A directory holding tls.crt and tls.key for the metrics "+
		"endpoint (a cert-manager Secret), reloaded when renewed. Empty serves a self-signed certificate.")
	flag.BoolVar(&enableHTTP2, "enable-http2", false,
		"If set, HTTP/2 will be enabled for the metrics server.")
	flag.IntVar(&concurrency, "max-concurrent-reconciles", 256,
		"How many objects of each kind are reconciled at once. One object is never reconciled twice at the same time. "+
			"An invoice being issued waits mostly for its workspace's number batch and its status patch, not on CPU, "+
			"so the workers are many (docs/performance.md).")
	flag.Float64Var(&qps, "kube-api-qps", 500,
		"Requests per second the manager may send to the Kubernetes API (a status patch and an event per new invoice).")
	flag.IntVar(&burst, "kube-api-burst", 1000, "Burst of requests the manager may send to the Kubernetes API.")
	flag.StringVar(&pprofAddr, "pprof-bind-address", "",
		"The address to serve Go's net/http/pprof profiles on (e.g. 127.0.0.1:6060); empty disables it.")
	flag.BoolVar(&webhookOpts.Policy.AllowInsecureLoopback, "webhook-allow-insecure-loopback", false,
		"Allow WebhookEndpoints with plain http URLs to loopback addresses, and any URL that resolves to loopback. "+
			"For local development only (make run sets it): in a pod, loopback is the manager itself.")
	flag.DurationVar(&webhookOpts.Timeout, "webhook-timeout", delivery.DefaultTimeout,
		"How long one webhook delivery attempt may take, from connecting to the end of the answer.")
	flag.IntVar(&webhookWorkers, "webhook-workers", controller.DefaultWebhookWorkers,
		"How many webhook endpoints receive deliveries at once.")
	flag.Float64Var(&managedFieldsDropRate, "managed-fields-drop-rate", trim.DefaultManagedFieldsDropRate,
		"How many invoices, credit notes and payments a second have the status's entry dropped from their managedFields "+
			"after a status patch (queued, off the issuing path).")
	flag.BoolVar(&keepStatusManagedFields, "keep-status-managed-fields", false,
		"Keep the API server's record (metadata.managedFields) of the manager owning the status of invoices, "+
			"credit notes and payments; by default it is dropped after each status patch, a third of an issued invoice's size.")
	opts := zap.Options{Development: false}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()

	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))

	// HTTP/2 is disabled by default because of the HTTP/2 Stream Cancellation
	// and Rapid Reset CVEs (GHSA-qppj-fm5r-hxr3, GHSA-4374-p667-p6c8).
	var tlsOpts []func(*tls.Config)
	if !enableHTTP2 {
		tlsOpts = append(tlsOpts, func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} })
	}

	metricsServerOptions := metricsserver.Options{
		BindAddress:   metricsAddr,
		SecureServing: secureMetrics,
		TLSOpts:       tlsOpts,
	}
	// A mounted certificate, reloaded when cert-manager renews it.
	metricsCert, err := metricsCertWatcher(metricsCertPath)
	if err != nil {
		setupLog.Error(err, "Unable to read the metrics certificate")
		os.Exit(1)
	}
	if metricsCert != nil {
		metricsServerOptions.TLSOpts = append(metricsServerOptions.TLSOpts, servingtls.UseCertificate(metricsCert))
	}
	if secureMetrics {
		// Only callers that RBAC allows to get /metrics may read it
		// (config/rbac/metrics_reader_role.yaml).
		metricsServerOptions.FilterProvider = filters.WithAuthenticationAndAuthorization
	}

	cfg := ctrl.GetConfigOrDie()
	// controller-runtime's default client limit (20 per second, burst 30)
	// would cap the controller at about ten new invoices a second.
	cfg.QPS, cfg.Burst = float32(qps), burst
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme,
		// The controllers never read managedFields, nor some fields of
		// issued invoices: not caching them saves memory on every object.
		Cache:                   trim.CacheOptions(),
		PprofBindAddress:        pprofAddr,
		Metrics:                 metricsServerOptions,
		HealthProbeBindAddress:  probeAddr,
		LeaderElection:          enableLeaderElection,
		LeaderElectionID:        "invoicing-controller.billing.invoicing.dev",
		LeaderElectionNamespace: leaderElectionNamespace,
		// The process exits right after the manager stops, so the leader
		// lease can be given up at once and a new leader takes over faster.
		LeaderElectionReleaseOnCancel: true,
	})
	if err != nil {
		setupLog.Error(err, "Unable to create manager")
		os.Exit(1)
	}

	ctx := ctrl.SetupSignalHandler()
	// Invoices by phase, issue latency, reconcile errors (internal/controller/metrics.go).
	if err := controller.RegisterMetrics(metrics.Registry, mgr.GetCache()); err != nil {
		setupLog.Error(err, "Unable to register the business metrics")
		os.Exit(1)
	}
	if err := controller.Setup(ctx, mgr, controller.Options{
		MaxConcurrentReconciles: concurrency,
		Webhooks:                webhookOpts,
		WebhookWorkers:          webhookWorkers,
		KeepStatusManagedFields: keepStatusManagedFields,
		ManagedFieldsDropRate:   managedFieldsDropRate,
	}); err != nil {
		setupLog.Error(err, "Unable to set up the controllers")
		os.Exit(1)
	}
	// +kubebuilder:scaffold:builder
	if metricsCert != nil {
		if err := mgr.Add(metricsCert); err != nil {
			setupLog.Error(err, "Unable to watch the metrics certificate")
			os.Exit(1)
		}
	}

	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		setupLog.Error(err, "Unable to set up health check")
		os.Exit(1)
	}
	if err := mgr.AddReadyzCheck("readyz", controller.CachesSynced(mgr.GetCache())); err != nil {
		setupLog.Error(err, "Unable to set up ready check")
		os.Exit(1)
	}

	setupLog.Info("Starting manager")
	if err := mgr.Start(ctx); err != nil {
		setupLog.Error(err, "Problem running manager")
		os.Exit(1)
	}
}

// metricsCertWatcher reads the metrics certificate in dir, or returns nil
// for an empty dir (the metrics server then makes a self-signed one).
func metricsCertWatcher(dir string) (*certwatcher.CertWatcher, error) {
	if dir == "" {
		return nil, nil
	}
	return servingtls.Watcher(dir, 0)
}
