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

package coalesce_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/coalesce"
)

// gated is a Fetch whose calls wait for a gate and answer their own
// number: 1 for the first call, 2 for the second.
type gated struct {
	gate  chan struct{}
	calls atomic.Int64
	keys  sync.Map // call number → key
}

func (g *gated) fetch(_ context.Context, key string) (int64, error) {
	n := g.calls.Add(1)
	g.keys.Store(n, key)
	<-g.gate
	return n, nil
}

func TestCallersThatAskDuringACallShareTheNextOne(t *testing.T) {
	g := &gated{gate: make(chan struct{})}
	c := &coalesce.Call[int64]{Fetch: g.fetch}
	ctx := context.Background()

	first := make(chan int64, 1)
	go func() { n, _ := c.Next(ctx, "team-a"); first <- n }()
	waitUntil(t, func() bool { return g.calls.Load() == 1 })

	const callers = 40
	got := make([]int64, callers)
	var wg sync.WaitGroup
	for i := range callers {
		key := "team-b"
		if i%2 == 1 {
			key = "team-c"
		}
		wg.Go(func() { got[i], _ = c.Next(ctx, key) })
	}
	waitUntil(t, func() bool { return c.Queued() == callers })
	close(g.gate)
	wg.Wait()

	if n := <-first; n != 1 {
		t.Errorf("the first caller got call %d, want the call it started", n)
	}
	for i, n := range got {
		if n != 2 {
			t.Fatalf("caller %d got call %d: a caller must be answered by a call that started after it asked, "+
				"and those who asked together share one", i, n)
		}
	}
	if n := g.calls.Load(); n != 2 {
		t.Errorf("%d calls for %d callers, want 2", n, callers+1)
	}
	if key, _ := g.keys.Load(int64(2)); key != "team-b" && key != "team-c" {
		t.Errorf("the queued call ran for key %v, want a key of a caller that joined it", key)
	}
	if n, _ := c.Next(ctx, "team-a"); n != 3 {
		t.Errorf("a caller after the calls ended got call %d, want a third", n)
	}
}

func TestACallersErrorIsItsCallsOrItsContexts(t *testing.T) {
	down := errors.New("connection refused")
	tests := []struct {
		name    string
		fetch   func(context.Context, string) (int64, error)
		ctx     func() context.Context
		wantErr error
	}{
		{name: "a failed call fails each of its callers",
			fetch:   func(context.Context, string) (int64, error) { return 0, down },
			ctx:     context.Background,
			wantErr: down},
		{name: "a caller whose context ends stops waiting",
			fetch: func(ctx context.Context, _ string) (int64, error) { <-ctx.Done(); return 0, ctx.Err() },
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
			wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &coalesce.Call[int64]{Fetch: tt.fetch}
			if _, err := c.Next(tt.ctx(), "team-a"); !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// waitUntil polls cond for up to five seconds.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
