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

// Package httpapi is the /v1 HTTP adapter: a small REST interface over the
// Customer and Invoice resources, for clients that do not speak the
// Kubernetes API. Callers are authenticated with TokenReview and authorized
// as themselves with SubjectAccessReview; handlers read through a Store and
// write through Claims with the adapter's own identity. New takes those
// dependencies; package cluster builds the real ones and package adapter
// wires the two. openapi.json is the contract.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Store is everything handlers read: *store.Store, or a fake in a test.
type Store interface {
	// Get reads ns/name into obj and reports whether it exists.
	Get(ctx context.Context, ns, name string, obj client.Object) (bool, error)
	// Page reads the page of sel of kind k (a Cached row of
	// internal/recordkind) after the name after: at most limit objects, and
	// whether more follow. Handlers read it as their own type (pages).
	Page(ctx context.Context, k *recordkind.Kind, sel store.Selection, after string, limit int) (
		[]client.Object, bool, error)
	// Feed reads the issued invoices of ns after a sequence, in order;
	// FeedChanged is closed once another one is seen.
	Feed(ctx context.Context, ns string, after int64, limit int) ([]*billingv1.Invoice, bool, error)
	FeedChanged(ns string) <-chan struct{}
	// Events reads the events of ns after a sequence, in order, of the
	// types wanted (all when empty); last is the last sequence walked.
	// EventsChanged is closed once another one is seen.
	Events(ctx context.Context, ns string, after int64, limit int,
		wanted map[billingv1.EventType]bool) (page []store.Event, last int64, more bool, err error)
	EventsChanged(ns string) <-chan struct{}
	// Profile reads ns's billing profile: its footer, for documents, its
	// default tax, for creates, and its e-mail settings and time zone, for
	// sends.
	Profile(ctx context.Context, ns string) (store.Profile, error)
	// ClosedThrough is how far ns's books are closed, and by which close;
	// ok is false while they are not (billing.ClosedThrough).
	ClosedThrough(ctx context.Context, ns string) (through time.Time, closeName string, ok bool, err error)
	// Seals is every seal of ns in sequence order, read fresh from the API
	// server (for verifying the chain).
	Seals(ctx context.Context, ns string) ([]*billingv1.LedgerSeal, error)
	// Created makes an object this replica has just created readable at
	// once (read your writes).
	Created(obj client.Object)
}

// Claims is everything handlers write: *idempotency.Claims, or a fake.
type Claims interface {
	Create(ctx context.Context, r idempotency.Request) (client.Object, bool, error)
	// Find returns the object an earlier request with r's key created,
	// when that request was r.
	Find(ctx context.Context, r idempotency.Request) (client.Object, bool, error)
	// Patch writes patch to obj through the API server, and obj takes its
	// answer: a change of a schedule's spec (pause, resume, cancel).
	Patch(ctx context.Context, obj client.Object, patch client.Patch) error
	// CreateNamed creates obj under its own name through the API server,
	// and says whether it did; an object of that name that exists is
	// not an error (created false), obj is then left as given. A bank
	// statement's lines, and a transaction's payment, are named so.
	CreateNamed(ctx context.Context, obj client.Object) (created bool, err error)
}

// Deps are the adapter's dependencies.
type Deps struct {
	Store  Store
	Claims Claims
	// Authn reviews callers' bearer tokens, Authz their access.
	Authn authenticator.Request
	Authz authorizer.Authorizer
	// Ready reports why the adapter cannot serve yet (GET /readyz), nil
	// when it can; nil means always ready.
	Ready func(context.Context) error
}

// Adapter serves the /v1 API.
type Adapter struct {
	opts Options
	// store is the one way handlers read Customers and Invoices.
	store Store
	// claims creates objects, once per Idempotency-Key.
	claims Claims
	authn  authenticator.Request
	authz  authorizer.Authorizer
	// isReady is Deps.Ready.
	isReady func(context.Context) error
	limiter *limiter
	handler http.Handler
	metrics *metrics
	// streams are the open event streams (the feed's and the events').
	streams *streams
	// encoded keeps the JSON of listed invoices and customers.
	encoded *encodedCache
	now     func() time.Time
}

// New builds the adapter's handler over deps. Call Serve, or use Handler.
func New(deps Deps, opts Options) (*Adapter, error) {
	opts = opts.withDefaults()
	a := &Adapter{
		opts:    opts,
		store:   deps.Store,
		claims:  deps.Claims,
		authn:   deps.Authn,
		authz:   deps.Authz,
		isReady: deps.Ready,
		limiter: newLimiter(opts.RateLimit, opts.RateBurst),
		metrics: newMetrics(),
		streams: newStreams(),
		encoded: newEncodedCache(opts.EncodedCacheBytes),
		now:     time.Now,
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

// Serve serves HTTP on ln until ctx is done, then shuts the server down
// gracefully: in-flight requests get ShutdownTimeout to finish. It returns
// nil after a clean shutdown.
func (a *Adapter) Serve(ctx context.Context, ln net.Listener) error {
	log := logf.FromContext(ctx)
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

// ready reports why the adapter cannot serve yet, nil when it can.
func (a *Adapter) ready(ctx context.Context) error {
	if a.isReady == nil {
		return nil
	}
	return a.isReady(ctx)
}

func logFrom(ctx context.Context) logr.Logger { return logf.FromContext(ctx) }
