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
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// profiles is a reader that holds at most one BillingProfile, or fails,
// and counts what it was asked.
type profiles struct {
	client.Reader
	held  *billingv1.BillingProfile
	err   error
	reads *int
}

func (r profiles) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	*r.reads++
	if r.err != nil {
		return r.err
	}
	if r.held == nil || r.held.Name != key.Name || r.held.Namespace != key.Namespace {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "billingprofiles"}, key.Name)
	}
	r.held.DeepCopyInto(obj.(*billingv1.BillingProfile))
	return nil
}

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
			var liveReader client.Reader = profiles{held: tt.live, err: tt.liveErr, reads: &liveReads}
			if tt.noLive {
				liveReader = nil
			}
			got, err := IssuingProfile(context.Background(), profiles{held: tt.cache, reads: &cacheReads}, liveReader, "team-a")
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
