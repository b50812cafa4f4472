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
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func fixedVersion(rv string) func(context.Context, string) (string, error) {
	return func(context.Context, string) (string, error) { return rv, nil }
}

func TestTheBarrierKeepsTheHighestWellFormedVersionDelivered(t *testing.T) {
	for _, tc := range []struct {
		name      string
		delivered []string
		want      string
	}{
		{name: "nothing delivered", want: ""},
		{name: "in order", delivered: []string{"9", "10", "11"}, want: "11"},
		{name: "a shorter one is older", delivered: []string{"100", "99"}, want: "100"},
		{name: "an older one, from a missed deletion", delivered: []string{"12", "7"}, want: "12"},
		{name: "malformed ones are ignored", delivered: []string{"", "abc", "05", "0", "8"}, want: "8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newReadBarrier(fixedVersion("1"), time.Second)
			for _, rv := range tc.delivered {
				b.observe(rv)
			}
			if b.delivered != tc.want {
				t.Errorf("delivered = %q; want %q", b.delivered, tc.want)
			}
		})
	}
}

func TestTheBarrierEndsAsTheInformerAllows(t *testing.T) {
	for _, tc := range []struct {
		name      string
		barrier   string
		delivered string
		idle      bool
		want      barrierOutcome
	}{
		{name: "the informer is past the barrier", barrier: "10", delivered: "12", want: barrierReached},
		{name: "the informer is at the barrier", barrier: "10", delivered: "10", want: barrierReached},
		{name: "the informer is behind and busy", barrier: "10", delivered: "9", want: barrierTimeout},
		{name: "the informer is behind and idle", barrier: "10", delivered: "9", idle: true, want: barrierIdle},
		{name: "the informer has delivered nothing", barrier: "10", idle: true, want: barrierIdle},
		{name: "the barrier is not a number", barrier: "abc", delivered: "9", want: barrierIncomparable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newReadBarrier(fixedVersion(tc.barrier), 30*time.Millisecond)
			b.observe(tc.delivered)
			if tc.idle {
				b.advancedAt = time.Now().Add(-time.Minute)
			}
			rv, outcome, _, err := b.await(t.Context(), "ws")
			if err != nil || outcome != tc.want || rv != tc.barrier {
				t.Errorf("await = %q, %s, %v; want %q, %s", rv, outcome, err, tc.barrier, tc.want)
			}
		})
	}
}

func TestTheBarrierReturnsOnceTheInformerDeliversIt(t *testing.T) {
	b := newReadBarrier(fixedVersion("10"), time.Minute)
	b.observe("9")
	go func() {
		time.Sleep(20 * time.Millisecond)
		b.observe("10")
	}()
	_, outcome, waited, err := b.await(t.Context(), "ws")
	if err != nil || outcome != barrierReached || waited <= 0 {
		t.Fatalf("await = %s after %v, %v; want reached", outcome, waited, err)
	}
}

func TestTheBarrierStopsWaitingWithTheRequest(t *testing.T) {
	b := newReadBarrier(fixedVersion("10"), time.Minute)
	b.observe("9")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, _, _, err := b.await(ctx, "ws"); err == nil {
		t.Fatal("await returned no error after the request ended")
	}
}

// TestConcurrentBarriersShareOneFetch: while a fetch is under way, every
// request that arrives waits for the next one, which they share: a
// request never takes a version fetched before it arrived, and the API
// server sees at most two fetches at a time, whatever the load.
func TestConcurrentBarriersShareOneFetch(t *testing.T) {
	var calls atomic.Int64
	release := make(chan struct{})
	b := newReadBarrier(func(context.Context, string) (string, error) {
		n := calls.Add(1)
		<-release
		return strconv.FormatInt(n, 10), nil
	}, time.Second)

	first := make(chan string, 1)
	go func() {
		rv, _ := b.currentVersion(t.Context(), "ws")
		first <- rv
	}()
	for calls.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	var wg sync.WaitGroup
	got := make([]string, 50)
	for i := range got {
		wg.Go(func() { got[i], _ = b.currentVersion(t.Context(), "ws") })
	}
	time.Sleep(20 * time.Millisecond) // all 50 are waiting
	close(release)
	wg.Wait()
	if rv := <-first; rv != "1" {
		t.Errorf("the first request got %q; want 1", rv)
	}
	for i, rv := range got {
		if rv != "2" {
			t.Fatalf("request %d got %q; want the second fetch's 2", i, rv)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d fetches; want 2", n)
	}
}
