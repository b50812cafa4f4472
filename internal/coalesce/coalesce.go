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

// Package coalesce shares one call to the API server among the callers
// that need its answer read after they asked: a resource version the
// cache must reach, or an object the cache may not have seen yet. Each
// caller joins the next call, which every caller that asks while one is
// under way shares, and never the call under way, which may have been
// sent before the caller's own cause (a client's write, an object it
// watched) happened. However many callers wait, at most one call runs and
// one more waits to: a burst costs two calls, not one per caller.
package coalesce

import (
	"context"
	"sync"
	"time"
)

// Timeout bounds one call, which no single caller's context bounds since
// many share it.
const Timeout = 10 * time.Second

// Call coalesces the calls of Fetch. Its zero value with Fetch set is
// ready to use; it must not be copied after its first use.
type Call[T any] struct {
	// Fetch is the call, for the key of the caller that started it.
	Fetch func(ctx context.Context, key string) (T, error)

	mu sync.Mutex
	// running is the call under way; queued, when set, starts when it
	// ends. A caller joins queued, never running.
	running, queued *round[T]
}

// round is one call of Fetch, shared by the callers that joined it.
type round[T any] struct {
	key     string // the key of the caller that created it
	waiters int    // the callers it answers
	done    chan struct{}
	value   T
	err     error
}

// Next returns the answer of a call that starts after Next is called,
// or ctx's error when ctx ends first.
func (c *Call[T]) Next(ctx context.Context, key string) (T, error) {
	c.mu.Lock()
	r := c.queued
	if r == nil {
		r = &round[T]{key: key, done: make(chan struct{})}
		if c.running == nil {
			c.running = r
			go c.run(context.WithoutCancel(ctx), r)
		} else {
			c.queued = r
		}
	}
	r.waiters++
	c.mu.Unlock()
	select {
	case <-r.done:
		return r.value, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Queued is how many callers wait for the call that starts when the one
// under way ends.
func (c *Call[T]) Queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queued == nil {
		return 0
	}
	return c.queued.waiters
}

// run calls r, then each call queued meanwhile. ctx carries the first
// caller's values, not its end: the calls serve other callers too.
func (c *Call[T]) run(ctx context.Context, r *round[T]) {
	for r != nil {
		callCtx, cancel := context.WithTimeout(ctx, Timeout)
		r.value, r.err = c.Fetch(callCtx, r.key)
		cancel()
		close(r.done)
		c.mu.Lock()
		r, c.queued = c.queued, nil
		c.running = r
		c.mu.Unlock()
	}
}
