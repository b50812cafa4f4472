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

// Command adapter serves the /v1 HTTP API, a REST interface over the
// Customer and Invoice resources, over HTTPS with --tls-cert-dir. It runs
// next to the controller manager, talks to the Kubernetes API with its own identity (--kubeconfig, or the
// in-cluster ServiceAccount) and authenticates and authorizes each caller
// with TokenReview and SubjectAccessReview.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"net/http"
	"net/http/pprof"
	"os"
	"strconv"
	"strings"
	"time"

	// Import all Kubernetes client auth plugins (e.g. Azure, GCP, OIDC, etc.)
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/invoicing-dev/invoicing/internal/adapter"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/servingtls"
)

func main() {
	if err := run(ctrl.SetupSignalHandler(), os.Args[1:]); err != nil {
		ctrl.Log.WithName("setup").Error(err, "The adapter failed")
		os.Exit(1)
	}
}

// options are the adapter's command-line flags.
type options struct {
	// api holds what the flags set of the /v1 API's options.
	api                    httpapi.Options
	listenAddr, tlsCertDir string
	metricsAddr            string
	secureMetrics          bool
	metricsCertPath        string
	pprofAddr              string
	qps                    float64
	burst                  int
	zap                    zap.Options
}

// parseFlags defines every flag on fs and parses args into options. The
// binary passes flag.CommandLine, on which controller-runtime defines
// --kubeconfig, and which exits on -help (0) or a bad flag (2) itself.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	d := httpapi.DefaultOptions()
	o := options{api: d}
	fs.StringVar(&o.listenAddr, "listen-address", ":8080", "The address the HTTP API listens on.")
	fs.StringVar(&o.tlsCertDir, "tls-cert-dir", "", "A directory holding tls.crt and tls.key (a cert-manager Secret): "+
		"the API is then served over HTTPS only, and a renewed certificate is picked up without a restart. Empty serves plain HTTP.")
	fs.Func("token-audiences", "Comma-separated audiences a caller's token must be bound to (kubectl create token --audience); "+
		"a token for the API server is then refused with 401. Empty accepts any token the API server accepts.",
		func(v string) error {
			for a := range strings.SplitSeq(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					o.api.TokenAudiences = append(o.api.TokenAudiences, a)
				}
			}
			return nil
		})
	fs.DurationVar(&o.api.RequestTimeout, "request-timeout", d.RequestTimeout,
		"How long a request may take, Kubernetes API calls included; a request that cannot finish in time is answered 503.")
	fs.Float64Var(&o.api.RateLimit, "rate-limit", d.RateLimit,
		"Requests per second allowed to each caller identity (sustained). A negative value disables rate limiting.")
	fs.IntVar(&o.api.RateBurst, "rate-burst", d.RateBurst, "Requests each caller identity may send in a burst.")
	fs.DurationVar(&o.api.TokenCacheTTL, "token-cache-ttl", d.TokenCacheTTL, "How long a TokenReview answer is reused.")
	fs.DurationVar(&o.api.AllowCacheTTL, "authorization-allow-cache-ttl", d.AllowCacheTTL,
		"How long an allowing SubjectAccessReview answer is reused.")
	fs.DurationVar(&o.api.DenyCacheTTL, "authorization-deny-cache-ttl", d.DenyCacheTTL,
		"How long a denying SubjectAccessReview answer is reused.")
	fs.DurationVar(&o.api.ReadYourWritesTimeout, "read-your-writes-timeout", d.ReadYourWritesTimeout,
		"How long an object this adapter created is served from its own memory while its cache has not received it "+
			"(normally milliseconds); after that, one the cache never received is taken to be gone.")
	fs.Func("read-others-writes", "Whether the last page of a list waits for this replica's cache to hold what "+
		"any replica wrote before (a read barrier: the API server's current resource version, one coalesced, "+
		"single-name list), else reads the page from the API server, so that a client behind a Service reads its own "+
		"writes whichever replica answers (default true; false saves the barrier with one replica).",
		func(v string) error {
			on, err := strconv.ParseBool(v)
			o.api.NoReadOthersWrites = !on
			return err
		})
	fs.BoolVar(&o.api.ReadyBeforeSynced, "ready-before-synced", d.ReadyBeforeSynced,
		"Report ready (GET /readyz) as soon as the Kubernetes API answers, before the cache has synced: gets, creates "+
			"and whole-workspace lists are read from the API server meanwhile, filtered lists and the feeds wait for the "+
			"cache. For a single replica; with several, a rollout keeps the old replica serving until the new one is warm.")
	fs.Int64Var(&o.api.EncodedCacheBytes, "encoded-cache-bytes", d.EncodedCacheBytes,
		"Bytes of JSON of listed invoices and customers kept to answer the next list page that holds them unchanged "+
			"without encoding them again. A negative value keeps none.")
	fs.DurationVar(&o.api.IdempotencyInFlightWait, "idempotency-in-flight-wait", d.IdempotencyInFlightWait,
		"How long a retry waits for the request that first used its Idempotency-Key before answering 409 idempotency_key_in_use.")
	fs.DurationVar(&o.api.StaleClaimAfter, "idempotency-stale-claim-after", d.StaleClaimAfter,
		"How old an Idempotency-Key claim whose object was never created must be before a retry may claim the key anew. "+
			"Keep it well above --request-timeout.")
	fs.DurationVar(&o.api.ReadHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout,
		"HTTP server: time to read request headers.")
	fs.DurationVar(&o.api.ReadTimeout, "read-timeout", d.ReadTimeout, "HTTP server: time to read a whole request.")
	fs.DurationVar(&o.api.WriteTimeout, "write-timeout", d.WriteTimeout, "HTTP server: time to write a response.")
	fs.DurationVar(&o.api.IdleTimeout, "idle-timeout", d.IdleTimeout,
		"HTTP server: how long an idle keep-alive connection is kept.")
	fs.IntVar(&o.api.MaxHeaderBytes, "max-header-bytes", d.MaxHeaderBytes,
		"HTTP server: the largest request header accepted.")
	fs.DurationVar(&o.api.ShutdownTimeout, "shutdown-timeout", d.ShutdownTimeout,
		"How long in-flight requests get to finish on SIGINT or SIGTERM.")
	fs.IntVar(&o.api.MaxStreamsPerCaller, "max-streams-per-caller", d.MaxStreamsPerCaller,
		"Open event streams of the invoice feed allowed per caller identity; one more is answered 429.")
	fs.DurationVar(&o.api.StreamHeartbeat, "stream-heartbeat", d.StreamHeartbeat,
		"How often an idle event stream sends a comment, so that proxies keep it open.")
	fs.DurationVar(&o.api.StreamWriteTimeout, "stream-write-timeout", d.StreamWriteTimeout,
		"How long a write to an event stream may block before the client, who stopped reading, is dropped.")
	fs.Float64Var(&o.qps, "kube-api-qps", 1000, "Requests per second the adapter may send to the Kubernetes API "+
		"(its creates, reviews and cache misses, for all its callers together; the API server's priority and fairness bounds it too).")
	fs.IntVar(&o.burst, "kube-api-burst", 2000, "Burst of requests the adapter may send to the Kubernetes API.")
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to, "+
		"for example :8444; 0 disables it. It is served over HTTPS to callers that RBAC allows to get /metrics.")
	fs.BoolVar(&o.secureMetrics, "metrics-secure", true,
		"If set, the metrics endpoint is served securely via HTTPS, behind Kubernetes authentication and authorization.")
	fs.StringVar(&o.metricsCertPath, "metrics-cert-path", "", "A directory holding tls.crt and tls.key for the metrics "+
		"endpoint (a cert-manager Secret), reloaded when renewed. Empty serves a self-signed certificate.")
	fs.StringVar(&o.pprofAddr, "pprof-address", "",
		"The address to serve Go's net/http/pprof profiles on (e.g. 127.0.0.1:6061); empty disables it.")
	o.zap.BindFlags(fs)
	return o, fs.Parse(args)
}

// run parses the flags in args, connects to the Kubernetes API, and serves
// the /v1 API (and the metrics and pprof endpoints asked for) until ctx is
// done or the metrics server fails.
func run(ctx context.Context, args []string) error {
	o, err := parseFlags(flag.CommandLine, args)
	if err != nil {
		return err
	}
	logger := zap.New(zap.UseFlagOptions(&o.zap))
	ctrl.SetLogger(logger)
	klog.SetLogger(logger.WithName("klog"))
	ctx = ctrl.LoggerInto(ctx, ctrl.Log)

	cfg, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("loading the Kubernetes client configuration: %w", err)
	}
	cfg.QPS, cfg.Burst = float32(o.qps), o.burst
	cfg.UserAgent = "invoicing-adapter"

	o.api.Metrics = metrics.Registry
	a, err := adapter.New(cfg, o.api)
	if err != nil {
		return fmt.Errorf("setting up the adapter: %w", err)
	}
	// A failing metrics server stops the API too (the adapter shuts down
	// as on SIGTERM), and run returns its error.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	metricsFailed := make(chan error, 1)
	if err := serveMetrics(ctx, cfg, o.metricsAddr, o.secureMetrics, o.metricsCertPath, func(err error) {
		metricsFailed <- err
		stop()
	}); err != nil {
		return fmt.Errorf("serving metrics on %s: %w", o.metricsAddr, err)
	}
	ln, err := servingtls.Listen(ctx, o.listenAddr, o.tlsCertDir, 0)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.listenAddr, err)
	}
	if o.pprofAddr != "" {
		go servePprof(o.pprofAddr)
	}
	if err := a.Run(ctx, ln); err != nil {
		return err
	}
	select {
	case err := <-metricsFailed:
		return fmt.Errorf("the metrics server failed: %w", err)
	default:
		return nil
	}
}

// serveMetrics serves controller-runtime's registry (the request series,
// client-go's, and the Go and process collectors it registers) the way
// kubebuilder's managers do: HTTPS (the certificate in certDir, reloaded
// when renewed, else a self-signed one), with each scraper authenticated by
// a TokenReview and authorized by a SubjectAccessReview for GET /metrics.
// "0" serves nothing. A server that fails once started is handed to failed.
func serveMetrics(ctx context.Context, cfg *rest.Config, addr string, secure bool, certDir string,
	failed func(error)) error {
	if addr == "0" {
		return nil
	}
	o := metricsserver.Options{
		BindAddress:   addr,
		SecureServing: secure,
		// HTTP/2 stays off (the Rapid Reset CVEs), as in the manager.
		TLSOpts: []func(*tls.Config){func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }},
	}
	if certDir != "" {
		w, err := servingtls.Watcher(certDir, 0)
		if err != nil {
			return err
		}
		o.TLSOpts = append(o.TLSOpts, servingtls.UseCertificate(w))
		go func() {
			if err := w.Start(ctx); err != nil {
				ctrl.LoggerFrom(ctx).Error(err, "Unable to watch the metrics certificate", "dir", certDir)
			}
		}()
	}
	if secure {
		o.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return err
	}
	srv, err := metricsserver.NewServer(o, cfg, httpClient)
	if err != nil {
		return err
	}
	go func() {
		if err := srv.Start(ctx); err != nil {
			failed(err)
		}
	}()
	return nil
}

// servePprof serves net/http/pprof's profiles on addr, apart from the API.
func servePprof(addr string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		ctrl.Log.WithName("pprof").Error(err, "Unable to serve pprof", "address", addr)
	}
}
