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
	"fmt"
	"testing"
	"time"
)

// The per-caller rate limiter.

func TestLimiter(t *testing.T) {
	l := newLimiter(1, 2)
	now := time.Unix(1000, 0)
	for i := range 2 {
		if ok, _ := l.allow("u", now); !ok {
			t.Fatalf("request %d within the burst was refused", i)
		}
	}
	ok, wait := l.allow("u", now)
	if ok || wait <= 0 || wait > time.Second {
		t.Fatalf("want a refusal with a wait of at most 1s, got %v, %v", ok, wait)
	}
	if ok, _ := l.allow("v", now); !ok {
		t.Error("another identity shares the bucket")
	}
	if ok, _ := l.allow("u", now.Add(time.Second)); !ok {
		t.Error("the bucket does not refill")
	}
	l.allow("old", now)
	l.allow("u", now.Add(time.Hour))
	if _, kept := l.buckets["old"]; kept {
		t.Error("an idle bucket was not forgotten")
	}
	if ok, _ := newLimiter(-1, 0).allow("u", now); !ok {
		t.Error("a disabled limiter refuses")
	}
}

func TestLimiterForgetsIdleIdentities(t *testing.T) {
	l := newLimiter(50, 100)
	now := time.Unix(1000, 0)
	for i := range 10_000 {
		l.allow(fmt.Sprintf("user-%d", i), now)
	}
	if len(l.buckets) != 10_000 {
		t.Fatalf("%d buckets, want one per identity", len(l.buckets))
	}
	// Idle for longer than a bucket takes to fill up (and at least a minute).
	l.allow("late", now.Add(time.Minute+time.Second))
	if len(l.buckets) != 1 {
		t.Errorf("%d buckets after a minute of idleness, want 1", len(l.buckets))
	}
}
