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

// Command manager runs the invoicing controllers (internal/manager/controller):
// the Invoice reconciler issues invoices whose Customer exists and keeps
// their balance; the CreditNote and Payment reconcilers enter credit notes
// and payments in their invoice's ledger; the Customer reconciler keeps
// customers that invoices reference from being deleted; the BillingProfile
// reconciler reports which profile applies to a workspace; the
// IdempotencyKey reconciler expires the adapter's claims; and the
// WebhookEndpoint reconciler pushes a workspace's events to its endpoints.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
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
	if err := run(ctrl.SetupSignalHandler(), os.Args[1:]); err != nil {
		setupLog.Error(err, "The manager failed")
		os.Exit(1)
	}
}

// run parses the flags in args, connects to the Kubernetes API, sets up the
// controllers, the metrics and the health checks, and runs the manager
// until ctx is done.
func run(ctx context.Context, args []string) error {
	o, err := parseFlags(flag.CommandLine, args)
	if err != nil {
		return err
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap)))
	mgr, err := newManager(o)
	if err != nil {
		return err
	}
	// Invoices by phase, issue latency, reconcile errors (internal/manager/reconciler/metrics.go).
	if err := controller.RegisterMetrics(metrics.Registry, mgr.GetCache()); err != nil {
		return fmt.Errorf("registering the business metrics: %w", err)
	}
	if err := controller.Setup(ctx, mgr, o.controllers); err != nil {
		return fmt.Errorf("setting up the controllers: %w", err)
	}
	// +kubebuilder:scaffold:builder
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return fmt.Errorf("setting up the health check: %w", err)
	}
	if err := mgr.AddReadyzCheck("readyz", controller.CachesSynced(mgr.GetCache())); err != nil {
		return fmt.Errorf("setting up the ready check: %w", err)
	}

	setupLog.Info("Starting manager")
	if err := mgr.Start(ctx); err != nil {
		return fmt.Errorf("running the manager: %w", err)
	}
	return nil
}

// newManager makes the controller manager: its client's rate limit, its
// cache, its metrics server (and the watch of its certificate) and leader
// election.
func newManager(o options) (ctrl.Manager, error) {
	// HTTP/2 is disabled by default because of the HTTP/2 Stream Cancellation
	// and Rapid Reset CVEs (GHSA-qppj-fm5r-hxr3, GHSA-4374-p667-p6c8).
	var tlsOpts []func(*tls.Config)
	if !o.enableHTTP2 {
		tlsOpts = append(tlsOpts, func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} })
	}
	metricsServerOptions := metricsserver.Options{
		BindAddress:   o.metricsAddr,
		SecureServing: o.secureMetrics,
		TLSOpts:       tlsOpts,
	}
	// A mounted certificate, reloaded when cert-manager renews it.
	metricsCert, err := metricsCertWatcher(o.metricsCertPath)
	if err != nil {
		return nil, fmt.Errorf("reading the metrics certificate: %w", err)
	}
	if metricsCert != nil {
		metricsServerOptions.TLSOpts = append(metricsServerOptions.TLSOpts, servingtls.UseCertificate(metricsCert))
	}
	if o.secureMetrics {
		// Only callers that RBAC allows to get /metrics may read it
		// (config/rbac/metrics_reader_role.yaml).
		metricsServerOptions.FilterProvider = filters.WithAuthenticationAndAuthorization
	}

	cfg, err := ctrl.GetConfig()
	if err != nil {
		return nil, fmt.Errorf("loading the Kubernetes client configuration: %w", err)
	}
	// controller-runtime's default client limit (20 per second, burst 30)
	// would cap the controller at about ten new invoices a second.
	cfg.QPS, cfg.Burst = float32(o.qps), o.burst
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme,
		// The controllers never read managedFields, nor some fields of
		// issued invoices: not caching them saves memory on every object.
		Cache:                   trim.CacheOptions(),
		PprofBindAddress:        o.pprofAddr,
		Metrics:                 metricsServerOptions,
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "invoicing-controller.billing.invoicing.dev",
		LeaderElectionNamespace: o.leaderElectionNamespace,
		// The process exits right after the manager stops, so the leader
		// lease can be given up at once and a new leader takes over faster.
		LeaderElectionReleaseOnCancel: true,
	})
	if err != nil {
		return nil, fmt.Errorf("creating the manager: %w", err)
	}
	if metricsCert != nil {
		if err := mgr.Add(metricsCert); err != nil {
			return nil, fmt.Errorf("watching the metrics certificate: %w", err)
		}
	}
	return mgr, nil
}

// options are the manager's command-line flags.
type options struct {
	metricsAddr, metricsCertPath string
	secureMetrics, enableHTTP2   bool
	probeAddr, pprofAddr         string

	leaderElect             bool
	leaderElectionNamespace string

	qps   float64
	burst int

	// controllers holds what the flags set of the controllers' options.
	controllers controller.Options
	zap         zap.Options
}

// parseFlags defines every flag on fs and parses args into options. The
// binary passes flag.CommandLine, on which controller-runtime defines
// --kubeconfig, and which exits on -help (0) or a bad flag (2) itself.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to. "+
		"Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable the metrics service.")
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to.")
	fs.BoolVar(&o.leaderElect, "leader-elect", false,
		"Enable leader election for controller manager. "+
			"Enabling this will ensure there is only one active controller manager.")
	fs.StringVar(&o.leaderElectionNamespace, "leader-election-namespace", "",
		"The namespace of the leader election Lease. Inside a cluster it defaults to the pod's namespace; "+
			"set it when the manager runs outside one.")
	fs.BoolVar(&o.secureMetrics, "metrics-secure", true,
		"If set, the metrics endpoint is served securely via HTTPS, behind Kubernetes authentication and authorization.")
	fs.StringVar(&o.metricsCertPath, "metrics-cert-path", "", "A directory holding tls.crt and tls.key for the metrics "+
		"endpoint (a cert-manager Secret), reloaded when renewed. Empty serves a self-signed certificate.")
	fs.BoolVar(&o.enableHTTP2, "enable-http2", false,
		"If set, HTTP/2 will be enabled for the metrics server.")
	fs.IntVar(&o.controllers.MaxConcurrentReconciles, "max-concurrent-reconciles", 256,
		"How many objects of each kind are reconciled at once. One object is never reconciled twice at the same time. "+
			"An invoice being issued waits mostly for its workspace's number batch and its status patch, not on CPU, "+
			"so the workers are many (docs/performance.md).")
	fs.Float64Var(&o.qps, "kube-api-qps", 500,
		"Requests per second the manager may send to the Kubernetes API (a status patch and an event per new invoice).")
	fs.IntVar(&o.burst, "kube-api-burst", 1000, "Burst of requests the manager may send to the Kubernetes API.")
	fs.StringVar(&o.pprofAddr, "pprof-bind-address", "",
		"The address to serve Go's net/http/pprof profiles on (e.g. 127.0.0.1:6060); empty disables it.")
	fs.BoolVar(&o.controllers.Webhooks.Policy.AllowInsecureLoopback, "webhook-allow-insecure-loopback", false,
		"Allow WebhookEndpoints with plain http URLs to loopback addresses, and any URL that resolves to loopback. "+
			"For local development only (make run sets it): in a pod, loopback is the manager itself.")
	fs.DurationVar(&o.controllers.Webhooks.Timeout, "webhook-timeout", delivery.DefaultTimeout,
		"How long one webhook delivery attempt may take, from connecting to the end of the answer.")
	fs.IntVar(&o.controllers.WebhookWorkers, "webhook-workers", controller.DefaultWebhookWorkers,
		"How many webhook endpoints receive deliveries at once.")
	fs.Float64Var(&o.controllers.ManagedFieldsDropRate, "managed-fields-drop-rate", trim.DefaultManagedFieldsDropRate,
		"How many invoices, credit notes and payments a second have the status's entry dropped from their managedFields "+
			"after a status patch (queued, off the issuing path).")
	fs.BoolVar(&o.controllers.KeepStatusManagedFields, "keep-status-managed-fields", false,
		"Keep the API server's record (metadata.managedFields) of the manager owning the status of invoices, "+
			"credit notes and payments; by default it is dropped after each status patch, a third of an issued invoice's size.")
	o.zap.BindFlags(fs)
	return o, fs.Parse(args)
}

// metricsCertWatcher reads the metrics certificate in dir, or returns nil
// for an empty dir (the metrics server then makes a self-signed one).
func metricsCertWatcher(dir string) (*certwatcher.CertWatcher, error) {
	if dir == "" {
		return nil, nil
	}
	return servingtls.Watcher(dir, 0)
}
