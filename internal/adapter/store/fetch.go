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

package store

import (
	"context"
	"sync"
	"time"
)

// coalesced is a call to the API server that many requests need answered
// after they arrived (a resource version, read at least as late as the
// request): each request joins the next call, shared by every request that
// arrives while one is under way, never the one under way, which may have
// been sent before the request's client finished its write. However many
// requests wait, at most one call runs and one more waits to.
type coalesced struct {
	// fetch is the call, in the namespace of the request that started it.
	fetch func(ctx context.Context, ns string) (string, error)

	mu sync.Mutex
	// running is the call under way; queued, when set, starts when it
	// ends. A request joins queued, never running.
	running, queued *rvFetch
}

// rvFetch is one call of fetch, shared by the requests that joined it.
type rvFetch struct {
	ns   string // the namespace of the request that created it
	done chan struct{}
	rv   string
	err  error
}

// fetchTimeout bounds a call, which no single request's context bounds
// since many share it.
const fetchTimeout = 10 * time.Second

// next returns the answer of a call that starts after next is called.
func (c *coalesced) next(ctx context.Context, ns string) (string, error) {
	c.mu.Lock()
	f := c.queued
	if f == nil {
		f = &rvFetch{ns: ns, done: make(chan struct{})}
		if c.running == nil {
			c.running = f
			go c.run(context.WithoutCancel(ctx), f)
		} else {
			c.queued = f
		}
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		return f.rv, f.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// run calls f, then each call queued meanwhile. ctx carries the first
// request's values, not its end: the calls serve other requests too.
func (c *coalesced) run(ctx context.Context, f *rvFetch) {
	for f != nil {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		f.rv, f.err = c.fetch(ctx, f.ns)
		cancel()
		close(f.done)
		c.mu.Lock()
		f, c.queued = c.queued, nil
		c.running = f
		c.mu.Unlock()
	}
}
