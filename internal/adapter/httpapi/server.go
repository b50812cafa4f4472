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

// Package httpapi is the /v1 HTTP adapter: a small REST interface over the
// Customer and Invoice resources, for clients that do not speak the
// Kubernetes API. Callers are authenticated with TokenReview and authorized
// as themselves with SubjectAccessReview; the adapter reads through an
// informer cache and writes with its own identity. openapi.json is the
// contract.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/adapter/watchdecode"
)

// MaxBodyBytes is the largest request body accepted (1 MiB).
const MaxBodyBytes = 1 << 20

// Options tune the adapter. Zero values take the defaults in DefaultOptions.
type Options struct {
	// RequestTimeout bounds each request, Kubernetes API calls included:
	// a request that cannot finish in time is answered 503.
	RequestTimeout time.Duration
	// RateLimit is the sustained number of requests per second allowed to
	// each caller identity, RateBurst the bucket size. A negative RateLimit
	// disables rate limiting.
	RateLimit float64
	RateBurst int
	// TokenCacheTTL is how long a TokenReview answer is reused.
	TokenCacheTTL time.Duration
	// TokenAudiences, when set, are the audiences a caller's token must be
	// bound to (kubectl create token --audience): the TokenReview asks for
	// them, so a token for the API server is refused with 401. Empty
	// accepts any token the API server accepts.
	TokenAudiences []string
	// AllowCacheTTL and DenyCacheTTL are how long SubjectAccessReview
	// answers are reused.
	AllowCacheTTL time.Duration
	DenyCacheTTL  time.Duration
	// ReadYourWritesTimeout is how long an object this replica created is
	// served from its own memory while its informer has not delivered it
	// (normally milliseconds): a create answers at once, and the same
	// client's next get or list through this replica sees the object.
	ReadYourWritesTimeout time.Duration
	// NoReadOthersWrites turns off reading, on the last page of a list, the
	// objects other replicas created in the last seconds (one metadata-only
	// list from the API server per last page). With one replica it saves
	// that list; with several, a client may then not see its own create in
	// a list answered by another replica for as long as that replica's
	// informer lags.
	NoReadOthersWrites bool
	// IdempotencyInFlightWait bounds how long a retry waits for the request
	// that first used its Idempotency-Key to finish.
	IdempotencyInFlightWait time.Duration
	// StaleClaimAfter is the age after which an Idempotency-Key whose object
	// does not exist is taken to belong to a request that died, and is
	// claimed anew. It must exceed the longest a create can take.
	StaleClaimAfter time.Duration

	// HTTP server timeouts and limits (see net/http.Server).
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// ShutdownTimeout bounds the graceful shutdown of Run.
	ShutdownTimeout time.Duration

	// MaxStreamsPerCaller bounds the open event streams of the feed per
	// caller identity; one more is answered 429.
	MaxStreamsPerCaller int
	// StreamHeartbeat is how often an idle stream sends a comment, so that
	// proxies keep its connection open.
	StreamHeartbeat time.Duration
	// StreamWriteTimeout is how long a stream's write may block before the
	// client, who stopped reading, is dropped.
	StreamWriteTimeout time.Duration

	// Metrics, when set, is where the request count and latency series
	// (invoicing_http_requests_total, invoicing_http_request_duration_seconds)
	// are registered. cmd/adapter serves it on its metrics endpoint.
	Metrics prometheus.Registerer
}

// DefaultOptions are the defaults of the adapter's flags.
func DefaultOptions() Options {
	return Options{
		RequestTimeout:          10 * time.Second,
		RateLimit:               50,
		RateBurst:               100,
		TokenCacheTTL:           10 * time.Second,
		AllowCacheTTL:           10 * time.Second,
		DenyCacheTTL:            5 * time.Second,
		ReadYourWritesTimeout:   time.Minute,
		IdempotencyInFlightWait: 5 * time.Second,
		StaleClaimAfter:         2 * time.Minute,
		ReadHeaderTimeout:       5 * time.Second,
		ReadTimeout:             15 * time.Second,
		WriteTimeout:            20 * time.Second,
		IdleTimeout:             60 * time.Second,
		MaxHeaderBytes:          64 << 10,
		ShutdownTimeout:         15 * time.Second,
		MaxStreamsPerCaller:     4,
		StreamHeartbeat:         15 * time.Second,
		StreamWriteTimeout:      10 * time.Second,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	set := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&o.RequestTimeout, d.RequestTimeout)
	set(&o.TokenCacheTTL, d.TokenCacheTTL)
	set(&o.AllowCacheTTL, d.AllowCacheTTL)
	set(&o.DenyCacheTTL, d.DenyCacheTTL)
	set(&o.ReadYourWritesTimeout, d.ReadYourWritesTimeout)
	set(&o.IdempotencyInFlightWait, d.IdempotencyInFlightWait)
	set(&o.StaleClaimAfter, d.StaleClaimAfter)
	set(&o.ReadHeaderTimeout, d.ReadHeaderTimeout)
	set(&o.ReadTimeout, d.ReadTimeout)
	set(&o.WriteTimeout, d.WriteTimeout)
	set(&o.IdleTimeout, d.IdleTimeout)
	set(&o.ShutdownTimeout, d.ShutdownTimeout)
	set(&o.StreamHeartbeat, d.StreamHeartbeat)
	set(&o.StreamWriteTimeout, d.StreamWriteTimeout)
	if o.MaxStreamsPerCaller <= 0 {
		o.MaxStreamsPerCaller = d.MaxStreamsPerCaller
	}
	if o.RateLimit == 0 {
		o.RateLimit = d.RateLimit
	}
	if o.RateBurst <= 0 {
		o.RateBurst = d.RateBurst
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = d.MaxHeaderBytes
	}
	return o
}

// Scheme holds the types the adapter reads and writes.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(billingv1.AddToScheme(s))
	return s
}

// restMapper maps the adapter's few kinds to their resources without
// discovery, so that the adapter starts, serves and answers 503 while the
// API server is unreachable, instead of failing to start.
func restMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{billingv1.GroupVersion})
	for kind, plural := range map[string]string{
		"Customer": "customers", "Invoice": "invoices", "IdempotencyKey": "idempotencykeys",
		"BillingProfile": "billingprofiles",
	} {
		gv := billingv1.GroupVersion
		m.AddSpecific(gv.WithKind(kind), gv.WithResource(plural), gv.WithResource(strings.ToLower(kind)),
			meta.RESTScopeNamespace)
	}
	return m
}

// Adapter serves the /v1 API.
type Adapter struct {
	opts Options
	// store is the one way handlers read Customers and Invoices.
	store *store.Store
	// claims creates objects, once per Idempotency-Key.
	claims    *idempotency.Claims
	clientset kubernetes.Interface
	authn     authenticator.Request
	authz     authorizer.Authorizer
	limiter   *limiter
	handler   http.Handler
	metrics   *metrics
	// streams are the open event streams of the feed.
	streams *streams
	now     func() time.Time
}

// New builds an adapter that talks to the API server of cfg with the
// identity of cfg. Call Run to serve.
func New(cfg *rest.Config, opts Options) (*Adapter, error) {
	opts = opts.withDefaults()
	cfg = rest.CopyConfig(cfg)
	if cfg.QPS == 0 {
		// The adapter makes a few API calls per request (reviews, creates):
		// client-go's default of 5 per second would queue them. The same
		// defaults as cmd/adapter's --kube-api-qps and --kube-api-burst.
		cfg.QPS, cfg.Burst = 1000, 2000
	}
	scheme := Scheme()
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("building the HTTP client: %w", err)
	}
	mapper := restMapper()
	c, err := cache.New(cfg, cache.Options{
		HTTPClient:       httpClient,
		Scheme:           scheme,
		Mapper:           mapper,
		DefaultTransform: cache.TransformStripManagedFields(),
		// Every create comes back as watch events: decode them in fewer
		// passes over each object.
		NewInformer: watchdecode.NewInformer(cfg, httpClient, scheme, mapper),
	})
	if err != nil {
		return nil, fmt.Errorf("building the cache: %w", err)
	}
	live, err := client.New(cfg, client.Options{HTTPClient: httpClient, Scheme: scheme, Mapper: mapper})
	if err != nil {
		return nil, fmt.Errorf("building the client: %w", err)
	}
	cs, err := kubernetes.NewForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("building the clientset: %w", err)
	}
	authn, err := newAuthenticator(cs, opts.TokenCacheTTL, opts.RequestTimeout, opts.TokenAudiences)
	if err != nil {
		return nil, fmt.Errorf("building the authenticator: %w", err)
	}
	authz, err := newAuthorizer(cs, opts.AllowCacheTTL, opts.DenyCacheTTL)
	if err != nil {
		return nil, fmt.Errorf("building the authorizer: %w", err)
	}
	a := &Adapter{
		opts: opts,
		store: store.New(c, live, store.Options{
			ReadYourWritesTimeout: opts.ReadYourWritesTimeout,
			ReadOthersWrites:      !opts.NoReadOthersWrites,
		}),
		claims: &idempotency.Claims{
			Client:       live,
			InFlightWait: opts.IdempotencyInFlightWait,
			StaleAfter:   opts.StaleClaimAfter,
		},
		clientset: cs,
		authn:     authn,
		authz:     authz,
		limiter:   newLimiter(opts.RateLimit, opts.RateBurst),
		metrics:   newMetrics(),
		streams:   newStreams(),
		now:       time.Now,
	}
	if opts.Metrics != nil {
		if err := a.metrics.register(opts.Metrics); err != nil {
			return nil, fmt.Errorf("registering the metrics: %w", err)
		}
	}
	a.handler = a.middleware(a.routes())
	return a, nil
}

// Handler is the adapter's HTTP handler (all routes, all middleware).
func (a *Adapter) Handler() http.Handler { return a.handler }

// Run starts the cache and serves HTTP on ln until ctx is done, then shuts
// the server down gracefully: in-flight requests get ShutdownTimeout to
// finish. It returns nil after a clean shutdown.
func (a *Adapter) Run(ctx context.Context, ln net.Listener) error {
	log := logf.FromContext(ctx).WithName("adapter")
	ctx = logf.IntoContext(ctx, log)
	if err := a.store.Start(ctx); err != nil {
		return err
	}
	srv := a.Server(ctx)
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info("Serving the /v1 API", "address", ln.Addr().String())

	select {
	case err := <-serveErr:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	log.Info("Shutting down the HTTP server", "timeout", a.opts.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutting down the HTTP server: %w", err)
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving HTTP: %w", err)
	}
	return nil
}

// Server is an http.Server for the adapter's handler with its timeouts. Its
// requests' contexts carry ctx's values (the logger) but not its
// cancellation, so that a shutdown lets them finish; its shutdown ends the
// event streams.
func (a *Adapter) Server(ctx context.Context) *http.Server {
	base := context.WithoutCancel(ctx)
	srv := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: a.opts.ReadHeaderTimeout,
		ReadTimeout:       a.opts.ReadTimeout,
		WriteTimeout:      a.opts.WriteTimeout,
		IdleTimeout:       a.opts.IdleTimeout,
		MaxHeaderBytes:    a.opts.MaxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          newServerErrorLog(logf.FromContext(ctx)),
	}
	// Streams never end by themselves: a shutdown ends them.
	srv.RegisterOnShutdown(a.streams.shutdown)
	return srv
}

// ready reports whether the caches are synced and the API server answers.
func (a *Adapter) ready(ctx context.Context) error {
	if !a.store.Synced() {
		return errors.New("the cache has not synced yet")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := a.clientset.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Error(); err != nil {
		return fmt.Errorf("the Kubernetes API does not answer: %w", err)
	}
	return nil
}

func logFrom(ctx context.Context) logr.Logger { return logf.FromContext(ctx) }
