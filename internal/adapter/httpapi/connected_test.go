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

package httpapi

import (
	"context"
	"net"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/invoicing-dev/invoicing/internal/adapter/cluster"
)

// connected is an adapter connected to a real API server, as package
// adapter builds it; this package's tests cannot import package adapter,
// which imports this one.
type connected struct {
	*Adapter
	conn *cluster.Conn
}

// newConnected is adapter.New for this package's suites.
func newConnected(cfg *rest.Config, opts Options) (*connected, error) {
	opts = opts.withDefaults()
	conn, err := cluster.Connect(cfg, cluster.Options{
		RequestTimeout:          opts.RequestTimeout,
		TokenCacheTTL:           opts.TokenCacheTTL,
		TokenAudiences:          opts.TokenAudiences,
		AllowCacheTTL:           opts.AllowCacheTTL,
		DenyCacheTTL:            opts.DenyCacheTTL,
		ReadYourWritesTimeout:   opts.ReadYourWritesTimeout,
		ReadOthersWrites:        !opts.NoReadOthersWrites,
		ReadyBeforeSynced:       opts.ReadyBeforeSynced,
		IdempotencyInFlightWait: opts.IdempotencyInFlightWait,
		StaleClaimAfter:         opts.StaleClaimAfter,
	})
	if err != nil {
		return nil, err
	}
	a, err := New(Deps{Store: conn.Store, Claims: conn.Claims, Authn: conn.Authn, Authz: conn.Authz,
		Ready: conn.Ready}, opts)
	if err != nil {
		return nil, err
	}
	return &connected{Adapter: a, conn: conn}, nil
}

// Run is adapter.Adapter.Run: start the store, then serve.
func (c *connected) Run(ctx context.Context, ln net.Listener) error {
	ctx = logf.IntoContext(ctx, logf.FromContext(ctx).WithName("adapter"))
	if err := c.conn.Start(ctx); err != nil {
		return err
	}
	return c.Serve(ctx, ln)
}

// testScheme holds the types the adapter reads and writes.
func testScheme() *runtime.Scheme { return cluster.Scheme() }
