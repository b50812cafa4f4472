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

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/invoicing-dev/invoicing/internal/coalesce"
)

// A read barrier, as the API server's consistent reads from its watch cache
// do it (KEP-2340), one per kind: learn the API server's current resource
// version (the barrier), then wait until this replica's informer has
// delivered at least that version, then serve from the cache. Every write
// that completed before the barrier was taken (a client's create through
// another replica) is then in the cache.
//
// Resource versions are compared as numbers, which KEP-5504 made part of
// the API (apimachinery's resourceversion.CompareResourceVersion); one that
// is not a well-formed number makes the barrier fail, and the caller reads
// the API server instead.
//
// The informer's position is the highest resource version its event
// handlers have seen (adds, updates and deletes, of every namespace: the
// adapter's informers are cluster-wide, so any event of the kind moves it).
// Bookmarks are not counted: the informer records them before its handlers
// have run (an object still in the handlers' queue would be missed), and
// the API server sends them about once a minute anyway. An informer moves
// only when its kind changes: the barrier, the store's latest version of
// any kind, is often higher than the last change of this kind, and an idle
// kind never reaches it. The wait is therefore bounded (timeout), and not
// even tried when the informer has been idle for that long; the caller
// then reads the API server (recent.go), which is correct at any lag.
type readBarrier struct {
	// current asks the API server for its current resource version, of a
	// list in a namespace (any: the version is the kind's), once a request
	// arrived.
	current coalesce.Call[string]
	// timeout bounds a wait.
	timeout time.Duration

	mu sync.Mutex
	// delivered is the highest resource version the handlers have seen, at
	// the time advancedAt; advanced is closed when it moves.
	delivered  string
	advancedAt time.Time
	advanced   chan struct{}
}

// barrierOutcome says how a barrier ended.
type barrierOutcome string

const (
	// barrierReached: the informer has delivered the barrier; the cache
	// may be read.
	barrierReached barrierOutcome = "reached"
	// barrierTimeout: the informer did not deliver it within the timeout.
	barrierTimeout barrierOutcome = "timeout"
	// barrierIdle: the informer has delivered nothing for longer than the
	// timeout, so the wait was not tried.
	barrierIdle barrierOutcome = "idle"
	// barrierIncomparable: the barrier is not a well-formed resource
	// version (an API server that does not follow KEP-5504).
	barrierIncomparable barrierOutcome = "incomparable"
)

func newReadBarrier(current func(ctx context.Context, ns string) (string, error), timeout time.Duration) *readBarrier {
	return &readBarrier{current: coalesce.Call[string]{Fetch: current}, timeout: timeout, advanced: make(chan struct{}),
		advancedAt: time.Now()}
}

// observe records that the handlers have seen resource version rv.
func (b *readBarrier) observe(rv string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.delivered != "" {
		if c, err := resourceversion.CompareResourceVersion(rv, b.delivered); err != nil || c <= 0 {
			return
		}
	} else if _, err := resourceversion.CompareResourceVersion(rv, rv); err != nil {
		return
	}
	b.delivered = rv
	b.advancedAt = time.Now()
	close(b.advanced)
	b.advanced = make(chan struct{})
}

// currentVersion returns the API server's current resource version, from a
// fetch that starts after the call (coalesce.Call).
func (b *readBarrier) currentVersion(ctx context.Context, ns string) (string, error) {
	return b.current.Next(ctx, ns)
}

// await takes the barrier (target) and waits until the informer has
// delivered it, at most the timeout. took is how long it took, the fetch
// of the barrier included. err is the fetch's, or the request's context's
// when it ends first; any outcome but barrierReached means the cache may
// lack a write that completed before the call.
func (b *readBarrier) await(ctx context.Context, ns string) (target string, outcome barrierOutcome,
	took time.Duration, err error) {
	start := time.Now()
	if target, err = b.currentVersion(ctx, ns); err != nil {
		return "", "", time.Since(start), err
	}
	if _, err := resourceversion.CompareResourceVersion(target, target); err != nil {
		return target, barrierIncomparable, time.Since(start), nil
	}
	var timer *time.Timer
	for {
		b.mu.Lock()
		c := -1 // nothing delivered yet: an empty kind, or one still listing
		if b.delivered != "" {
			c, _ = resourceversion.CompareResourceVersion(b.delivered, target)
		}
		idle := time.Since(b.advancedAt) > b.timeout
		advanced := b.advanced
		b.mu.Unlock()
		switch {
		case c >= 0:
			return target, barrierReached, time.Since(start), nil
		case timer == nil && idle:
			return target, barrierIdle, time.Since(start), nil
		case timer == nil:
			timer = time.NewTimer(b.timeout)
			defer timer.Stop()
		}
		select {
		case <-advanced:
		case <-timer.C:
			return target, barrierTimeout, time.Since(start), nil
		case <-ctx.Done():
			return target, barrierTimeout, time.Since(start), ctx.Err()
		}
	}
}

// observed is an event handler followed by the barrier's observe: the
// barrier moves only once the handler (the name index's) has taken the
// event in.
type observed struct {
	toolscache.ResourceEventHandler
	barrier *readBarrier
}

func (h observed) OnAdd(obj any, isInInitialList bool) {
	h.ResourceEventHandler.OnAdd(obj, isInInitialList)
	h.observe(obj)
}

func (h observed) OnUpdate(oldObj, newObj any) {
	h.ResourceEventHandler.OnUpdate(oldObj, newObj)
	h.observe(newObj)
}

func (h observed) OnDelete(obj any) {
	h.ResourceEventHandler.OnDelete(obj)
	// A deletion's event carries the version of the deletion; one the
	// informer missed (DeletedFinalStateUnknown) only the last known one,
	// which observe ignores as older.
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	h.observe(obj)
}

func (h observed) observe(obj any) {
	if o, err := meta.Accessor(obj); err == nil {
		h.barrier.observe(o.GetResourceVersion())
	}
}
