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
	d := httpapi.DefaultOptions()
	o := d
	var listenAddr, pprofAddr, tlsCertDir, metricsCertPath string
	var qps float64
	var burst int
	var metricsAddr string
	var secureMetrics bool
	flag.StringVar(&listenAddr, "listen-address", ":8080", "The address the HTTP API listens on.")
	flag.StringVar(&tlsCertDir, "tls-cert-dir", "", "A directory holding tls.crt and tls.key (a cert-manager Secret): "+
		"the API is then served over HTTPS only, and a renewed certificate is picked up without a restart. Empty serves plain HTTP.")
	flag.Func("token-audiences", "Comma-separated audiences a caller's token must be bound to (kubectl create token --audience); "+
		"a token for the API server is then refused with 401. Empty accepts any token the API server accepts.",
		func(v string) error {
			for a := range strings.SplitSeq(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					o.TokenAudiences = append(o.TokenAudiences, a)
				}
			}
			return nil
		})
	flag.DurationVar(&o.RequestTimeout, "request-timeout", d.RequestTimeout,
		"How long a request may take, Kubernetes API calls included; a request that cannot finish in time is answered 503.")
	flag.Float64Var(&o.RateLimit, "rate-limit", d.RateLimit,
		"Requests per second allowed to each caller identity (sustained). A negative value disables rate limiting.")
	flag.IntVar(&o.RateBurst, "rate-burst", d.RateBurst, "Requests each caller identity may send in a burst.")
	flag.DurationVar(&o.TokenCacheTTL, "token-cache-ttl", d.TokenCacheTTL, "How long a TokenReview answer is reused.")
	flag.DurationVar(&o.AllowCacheTTL, "authorization-allow-cache-ttl", d.AllowCacheTTL,
		"How long an allowing SubjectAccessReview answer is reused.")
	flag.DurationVar(&o.DenyCacheTTL, "authorization-deny-cache-ttl", d.DenyCacheTTL,
		"How long a denying SubjectAccessReview answer is reused.")
	flag.DurationVar(&o.ReadYourWritesTimeout, "read-your-writes-timeout", d.ReadYourWritesTimeout,
		"How long an object this adapter created is served from its own memory while its cache has not received it "+
			"(normally milliseconds); after that, one the cache never received is taken to be gone.")
	flag.Func("read-others-writes", "Whether the last page of a list waits for this replica's cache to hold what "+
		"any replica wrote before (a read barrier: the API server's current resource version, one coalesced, "+
		"single-name list), else reads the page from the API server, so that a client behind a Service reads its own "+
		"writes whichever replica answers (default true; false saves the barrier with one replica).",
		func(v string) error {
			on, err := strconv.ParseBool(v)
			o.NoReadOthersWrites = !on
			return err
		})
	flag.BoolVar(&o.ReadyBeforeSynced, "ready-before-synced", d.ReadyBeforeSynced,
		"Report ready (GET /readyz) as soon as the Kubernetes API answers, before the cache has synced: gets, creates "+
			"and whole-workspace lists are read from the API server meanwhile, filtered lists and the feeds wait for the "+
			"cache. For a single replica; with several, a rollout keeps the old replica serving until the new one is warm.")
	flag.Int64Var(&o.EncodedCacheBytes, "encoded-cache-bytes", d.EncodedCacheBytes,
		"Bytes of JSON of listed invoices and customers kept to answer the next list page that holds them unchanged "+
			"without encoding them again. A negative value keeps none.")
	flag.DurationVar(&o.IdempotencyInFlightWait, "idempotency-in-flight-wait", d.IdempotencyInFlightWait,
		"How long a retry waits for the request that first used its Idempotency-Key before answering 409 idempotency_key_in_use.")
	flag.DurationVar(&o.StaleClaimAfter, "idempotency-stale-claim-after", d.StaleClaimAfter,
		"How old an Idempotency-Key claim whose object was never created must be before a retry may claim the key anew. "+
			"Keep it well above --request-timeout.")
	flag.DurationVar(&o.ReadHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout,
		"HTTP server: time to read request headers.")
	flag.DurationVar(&o.ReadTimeout, "read-timeout", d.ReadTimeout, "HTTP server: time to read a whole request.")
	flag.DurationVar(&o.WriteTimeout, "write-timeout", d.WriteTimeout, "HTTP server: time to write a response.")
	flag.DurationVar(&o.IdleTimeout, "idle-timeout", d.IdleTimeout,
		"HTTP server: how long an idle keep-alive connection is kept.")
	flag.IntVar(&o.MaxHeaderBytes, "max-header-bytes", d.MaxHeaderBytes,
		"HTTP server: the largest request header accepted.")
	flag.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", d.ShutdownTimeout,
		"How long in-flight requests get to finish on SIGINT or SIGTERM.")
	flag.IntVar(&o.MaxStreamsPerCaller, "max-streams-per-caller", d.MaxStreamsPerCaller,
		"Open event streams of the invoice feed allowed per caller identity; one more is answered 429.")
	flag.DurationVar(&o.StreamHeartbeat, "stream-heartbeat", d.StreamHeartbeat,
		"How often an idle event stream sends a comment, so that proxies keep it open.")
	flag.DurationVar(&o.StreamWriteTimeout, "stream-write-timeout", d.StreamWriteTimeout,
		"How long a write to an event stream may block before the client, who stopped reading, is dropped.")
	flag.Float64Var(&qps, "kube-api-qps", 1000, "Requests per second the adapter may send to the Kubernetes API "+
		"(its creates, reviews and cache misses, for all its callers together; the API server's priority and fairness bounds it too).")
	flag.IntVar(&burst, "kube-api-burst", 2000, "Burst of requests the adapter may send to the Kubernetes API.")
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to, "+
		"for example :8444; 0 disables it. It is served over HTTPS to callers that RBAC allows to get /metrics.")
	flag.BoolVar(&secureMetrics, "metrics-secure", true,
		"If set, the metrics endpoint is served securely via HTTPS, behind Kubernetes authentication and authorization.")
	flag.StringVar(&metricsCertPath, "metrics-cert-path", "", "A directory holding tls.crt and tls.key for the metrics "+
		"endpoint (a cert-manager Secret), reloaded when renewed. Empty serves a self-signed certificate.")
	flag.StringVar(&pprofAddr, "pprof-address", "",
		"The address to serve Go's net/http/pprof profiles on (e.g. 127.0.0.1:6061); empty disables it.")
	opts := zap.Options{Development: false}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()

	logger := zap.New(zap.UseFlagOptions(&opts))
	ctrl.SetLogger(logger)
	klog.SetLogger(logger.WithName("klog"))
	log := ctrl.Log.WithName("setup")

	cfg, err := ctrl.GetConfig()
	if err != nil {
		log.Error(err, "Unable to load the Kubernetes client configuration")
		os.Exit(1)
	}
	cfg.QPS, cfg.Burst = float32(qps), burst
	cfg.UserAgent = "invoicing-adapter"

	o.Metrics = metrics.Registry
	a, err := adapter.New(cfg, o)
	if err != nil {
		log.Error(err, "Unable to set up the adapter")
		os.Exit(1)
	}
	ctx := ctrl.LoggerInto(ctrl.SetupSignalHandler(), ctrl.Log)
	if err := serveMetrics(ctx, cfg, metricsAddr, secureMetrics, metricsCertPath); err != nil {
		log.Error(err, "Unable to serve metrics", "address", metricsAddr)
		os.Exit(1)
	}
	ln, err := servingtls.Listen(ctx, listenAddr, tlsCertDir, 0)
	if err != nil {
		log.Error(err, "Unable to listen", "address", listenAddr)
		os.Exit(1)
	}
	if pprofAddr != "" {
		go servePprof(pprofAddr)
	}
	if err := a.Run(ctx, ln); err != nil {
		log.Error(err, "The adapter failed")
		os.Exit(1)
	}
}

// serveMetrics serves controller-runtime's registry (the request series,
// client-go's, and the Go and process collectors it registers) the way
// kubebuilder's managers do: HTTPS (the certificate in certDir, reloaded
// when renewed, else a self-signed one), with each scraper authenticated by
// a TokenReview and authorized by a SubjectAccessReview for GET /metrics.
// "0" serves nothing.
func serveMetrics(ctx context.Context, cfg *rest.Config, addr string, secure bool, certDir string) error {
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
			ctrl.LoggerFrom(ctx).Error(err, "The metrics server failed")
			os.Exit(1)
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
