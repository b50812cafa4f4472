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

// Package cluster connects the /v1 adapter to its Kubernetes cluster: from
// a rest.Config it builds what the handlers are given — the store (informer
// cache, live client, name indexes), the Idempotency-Key claims, the
// TokenReview authenticator and the SubjectAccessReview authorizer — and the
// readiness check. It is the one place those are constructed; package
// adapter hands them to httpapi, whose handlers only see small interfaces.
// It does not import httpapi, so that httpapi's own test suites can build a
// real adapter with it.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/adapter/watchdecode"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Options tune the connection; httpapi.Options documents each and holds
// their defaults.
type Options struct {
	// RequestTimeout bounds a TokenReview.
	RequestTimeout time.Duration
	TokenCacheTTL  time.Duration
	TokenAudiences []string
	AllowCacheTTL  time.Duration
	DenyCacheTTL   time.Duration

	ReadYourWritesTimeout time.Duration
	ReadOthersWrites      bool
	ReadyBeforeSynced     bool
	// Metrics, when set, is where the store's series are registered.
	Metrics prometheus.Registerer

	IdempotencyInFlightWait time.Duration
	StaleClaimAfter         time.Duration
}

// Conn is the adapter's connection to the cluster.
type Conn struct {
	// Store is the one way handlers read.
	Store *store.Store
	// Claims creates objects, once per Idempotency-Key.
	Claims *idempotency.Claims
	Authn  authenticator.Request
	Authz  authorizer.Authorizer

	clientset kubernetes.Interface
	// readyBeforeSynced makes Ready pass before the store has synced.
	readyBeforeSynced bool
}

// Scheme holds the types the adapter reads and writes.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(billingv1.AddToScheme(s))
	return s
}

// restMapper maps the adapter's kinds to their resources without
// discovery, so that the adapter starts, serves and answers 503 while the
// API server is unreachable, instead of failing to start: those of the
// table of record kinds, and the two it reads besides.
func restMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{billingv1.GroupVersion})
	kinds := map[string]string{"IdempotencyKey": "idempotencykeys", "BillingProfile": "billingprofiles"}
	for _, k := range recordkind.All {
		kinds[k.Name] = k.Resource
	}
	for kind, plural := range kinds {
		gv := billingv1.GroupVersion
		m.AddSpecific(gv.WithKind(kind), gv.WithResource(plural), gv.WithResource(strings.ToLower(kind)),
			meta.RESTScopeNamespace)
	}
	return m
}

// Connect builds the connection to the API server of cfg, with the
// identity of cfg. Nothing is started: call Start before serving.
func Connect(cfg *rest.Config, opts Options) (*Conn, error) {
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
	authn, err := NewAuthenticator(cs, opts.TokenCacheTTL, opts.RequestTimeout, opts.TokenAudiences)
	if err != nil {
		return nil, fmt.Errorf("building the authenticator: %w", err)
	}
	authz, err := NewAuthorizer(cs, opts.AllowCacheTTL, opts.DenyCacheTTL)
	if err != nil {
		return nil, fmt.Errorf("building the authorizer: %w", err)
	}
	st := store.New(c, live, store.Options{
		ReadYourWritesTimeout: opts.ReadYourWritesTimeout,
		ReadOthersWrites:      opts.ReadOthersWrites,
	})
	if opts.Metrics != nil {
		if err := st.RegisterMetrics(opts.Metrics); err != nil {
			return nil, err
		}
	}
	return &Conn{
		readyBeforeSynced: opts.ReadyBeforeSynced,
		Store:             st,
		Claims:            idempotency.NewClaims(live, opts.IdempotencyInFlightWait, opts.StaleClaimAfter),
		Authn:             authn,
		Authz:             authz,
		clientset:         cs,
	}, nil
}

// Start starts the store's cache in the background until ctx is done.
func (c *Conn) Start(ctx context.Context) error { return c.Store.Start(ctx) }

// Ready reports whether the caches are synced (unless the connection is
// ready before, Options.ReadyBeforeSynced) and the API server answers.
func (c *Conn) Ready(ctx context.Context) error {
	if !c.Store.Synced() && !c.readyBeforeSynced {
		return errors.New("the cache has not synced yet")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := c.clientset.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Error(); err != nil {
		return fmt.Errorf("the Kubernetes API does not answer: %w", err)
	}
	return nil
}
