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

package reconciler

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// profiles is a oneObject of billing profiles.
type profiles = oneObject[billingv1.BillingProfile, *billingv1.BillingProfile]

func TestIssuingProfileReadsLiveOnlyWhatTheCacheHasNotSeen(t *testing.T) {
	cached := &billingv1.BillingProfile{ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName,
		Namespace: "team-a", Labels: map[string]string{"from": "cache"}}}
	live := cached.DeepCopy()
	live.Labels = map[string]string{"from": "live"}
	down := errors.New("connection refused")
	tests := []struct {
		name           string
		cache, live    *billingv1.BillingProfile
		liveErr        error
		noLive         bool
		wantFrom       string // "" for no profile
		wantErr        error
		wantLiveReads  int
		wantCacheReads int
	}{
		{name: "a cached profile is used without a live read", cache: cached, live: live,
			wantFrom: "cache", wantCacheReads: 1},
		{name: "a profile the cache has not seen yet is read live", live: live,
			wantFrom: "live", wantCacheReads: 1, wantLiveReads: 1},
		{name: "a workspace without a profile has none after one live read",
			wantCacheReads: 1, wantLiveReads: 1},
		{name: "a failed live read is returned, not taken for no profile", liveErr: down,
			wantErr: down, wantCacheReads: 1, wantLiveReads: 1},
		{name: "without a live reader the cache's answer stands", live: live, noLive: true,
			wantCacheReads: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cacheReads, liveReads int
			liveProfiles := &LiveProfiles{Reader: profiles{held: tt.live, err: tt.liveErr, reads: &liveReads}}
			if tt.noLive {
				liveProfiles = nil
			}
			got, err := IssuingProfile(context.Background(), profiles{held: tt.cache, reads: &cacheReads}, liveProfiles, "team-a")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			var from string
			if got != nil {
				from = got.Labels["from"]
			}
			if from != tt.wantFrom {
				t.Errorf("profile from %q, want %q", from, tt.wantFrom)
			}
			if cacheReads != tt.wantCacheReads || liveReads != tt.wantLiveReads {
				t.Errorf("reads: cache %d, live %d; want %d and %d", cacheReads, liveReads, tt.wantCacheReads, tt.wantLiveReads)
			}
		})
	}
}

// gatedReads is a live reader whose reads wait for a gate, and which
// numbers each read as it starts.
type gatedReads struct {
	client.Reader
	gate    chan struct{}
	started atomic.Int64
	held    *billingv1.BillingProfile // answered from the second read on
}

func (r *gatedReads) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	n := r.started.Add(1)
	<-r.gate
	if n == 1 || r.held == nil {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "billingprofiles"}, key.Name)
	}
	r.held.DeepCopyInto(obj.(*billingv1.BillingProfile))
	return nil
}

func TestCallersThatAskDuringALiveReadShareTheNextOne(t *testing.T) {
	created := &billingv1.BillingProfile{ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName,
		Namespace: "team-a"}}
	reader := &gatedReads{gate: make(chan struct{}), held: created}
	live := &LiveProfiles{Reader: reader}
	ctx := context.Background()

	// The first caller starts a read, which the API server answers as
	// it was then: no profile.
	first := make(chan *billingv1.BillingProfile, 1)
	go func() { p, _ := live.Profile(ctx, "team-a"); first <- p }()
	for reader.started.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	// Fifty callers ask while it runs (a profile was created meanwhile):
	// none may take the first read's answer, and all share one more read.
	const callers = 50
	var wg sync.WaitGroup
	got := make([]*billingv1.BillingProfile, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() { got[i], errs[i] = live.Profile(ctx, "team-a") })
	}
	waitUntil(t, func() bool { return live.waiting("team-a") == callers })
	close(reader.gate)
	wg.Wait()
	if p := <-first; p != nil {
		t.Errorf("the first caller got a profile the API server did not have when its read started")
	}
	for i := range callers {
		if errs[i] != nil || got[i] == nil {
			t.Fatalf("caller %d: profile %v, error %v; want the profile the second read found", i, got[i], errs[i])
		}
	}
	if n := reader.started.Load(); n != 2 {
		t.Errorf("%d live reads for 51 callers, want 2", n)
	}
	got[0].Labels = map[string]string{"changed": "by one caller"}
	if got[1].Labels != nil {
		t.Errorf("callers share one object: a change by one is seen by another")
	}
	if p, err := live.Profile(ctx, "team-a"); err != nil || p == nil || reader.started.Load() != 3 {
		t.Errorf("a caller after the rounds ended: profile %v, error %v, reads %d; want a third read", p, err, reader.started.Load())
	}
}

func TestACallerStopsWaitingWhenItsContextEnds(t *testing.T) {
	reader := &gatedReads{gate: make(chan struct{})}
	defer close(reader.gate)
	live := &LiveProfiles{Reader: reader}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := live.Profile(ctx, "team-a"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's", err)
	}
}

// waiting is how many callers wait for the read that starts next in
// namespace.
func (l *LiveProfiles) waiting(namespace string) int {
	return l.call(namespace).Queued()
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
