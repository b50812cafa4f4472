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

// Package adapter puts the /v1 adapter together: New connects to the
// cluster (package cluster builds the store, the claims, the authenticator
// and the authorizer from a rest.Config) and hands those dependencies to
// httpapi.New, whose handlers see only small interfaces of them; Run starts
// the store and serves. cmd/adapter, and the tests that run a real adapter
// outside httpapi, build it here; httpapi's own suites cannot import this
// package (it imports theirs) and use cluster directly.
package adapter

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/invoicing-dev/invoicing/internal/adapter/cluster"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
)

// Adapter is the /v1 adapter connected to its cluster.
type Adapter struct {
	conn *cluster.Conn
	api  *httpapi.Adapter
}

// New builds an adapter that talks to the API server of cfg with the
// identity of cfg. Call Run to serve.
func New(cfg *rest.Config, opts httpapi.Options) (*Adapter, error) {
	opts = opts.WithDefaults()
	conn, err := cluster.Connect(cfg, ClusterOptions(opts))
	if err != nil {
		return nil, err
	}
	api, err := httpapi.New(httpapi.Deps{
		Store:  conn.Store,
		Claims: conn.Claims,
		Authn:  conn.Authn,
		Authz:  conn.Authz,
		Ready:  conn.Ready,
	}, opts)
	if err != nil {
		return nil, err
	}
	return &Adapter{conn: conn, api: api}, nil
}

// ClusterOptions are the options of opts that tune the connection.
func ClusterOptions(opts httpapi.Options) cluster.Options {
	return cluster.Options{
		RequestTimeout:          opts.RequestTimeout,
		TokenCacheTTL:           opts.TokenCacheTTL,
		TokenAudiences:          opts.TokenAudiences,
		AllowCacheTTL:           opts.AllowCacheTTL,
		DenyCacheTTL:            opts.DenyCacheTTL,
		ReadYourWritesTimeout:   opts.ReadYourWritesTimeout,
		ReadOthersWrites:        !opts.NoReadOthersWrites,
		ReadyBeforeSynced:       opts.ReadyBeforeSynced,
		Metrics:                 opts.Metrics,
		IdempotencyInFlightWait: opts.IdempotencyInFlightWait,
		StaleClaimAfter:         opts.StaleClaimAfter,
	}
}

// Scheme holds the types the adapter reads and writes.
func Scheme() *runtime.Scheme { return cluster.Scheme() }

// Handler is the adapter's HTTP handler (all routes, all middleware).
func (a *Adapter) Handler() http.Handler { return a.api.Handler() }

// Server is an http.Server for the adapter's handler with its timeouts
// (see httpapi.Adapter.Server).
func (a *Adapter) Server(ctx context.Context) *http.Server { return a.api.Server(ctx) }

// Run starts the store and serves HTTP on ln until ctx is done, then shuts
// the server down gracefully: in-flight requests get ShutdownTimeout to
// finish. It returns nil after a clean shutdown.
func (a *Adapter) Run(ctx context.Context, ln net.Listener) error {
	ctx = logf.IntoContext(ctx, logf.FromContext(ctx).WithName("adapter"))
	if err := a.conn.Start(ctx); err != nil {
		return fmt.Errorf("starting the store: %w", err)
	}
	return a.api.Serve(ctx, ln)
}
