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
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/coalesce"
)

// Profile is what handlers use of a workspace's BillingProfile "default";
// the zero Profile when the workspace has none.
type Profile struct {
	// Footer is the profile's footer, "" when it has none. An invoice's
	// status does not keep the footer, so a document shows the current one.
	Footer string
	// DefaultTax is the tax of every line of an invoice that has none of
	// its own (spec.defaultTax), nil when the profile has none. A create
	// writes it into the invoice's lines, so that the total it answers is
	// the total the invoice is issued with.
	DefaultTax *billingv1.Tax
	// Email is how the workspace sends by e-mail (spec.email), nil when
	// it does not: a request to send is refused then, and a message's
	// Message-ID names the domain of its from.
	Email *billingv1.EmailSettings
	// TimeZone is the profile's spec.timeZone, "" for UTC: the days of a
	// statement are the workspace's.
	TimeZone string
	// Locale is the profile's spec.locale, "" for English: the language of
	// the documents of a customer without a preferred locale.
	Locale string
}

// Profile reads workspace ns's BillingProfile "default" as it is when
// Profile is called, so that a create takes the default tax in force when
// it is sent: from the cache when the API server confirms that the cache
// holds that version of it, else from the API server. It is read with the
// adapter's own identity (after the caller was authorized for the
// invoice).
//
// Why not behind a read barrier (barrier.go): billing profiles change
// rarely, so their informer is idle and never reaches the API server's
// current resource version; and why not a list: a consistent list of an
// idle kind waits for the API server's watch cache to catch up with etcd
// (a progress notification, requested every 100 ms), which cost creates a
// third of their rate. A get without a resource version is read from etcd
// at once. The confirmation is a metadata-only get of the profile, shared
// by the requests of the workspace that arrive while one is under way
// (coalesce.Call): the profile's resource version, which the cached one must
// have reached.
func (s *Store) Profile(ctx context.Context, ns string) (Profile, error) {
	rv, err := s.profiles.version(ctx, ns)
	if err != nil || rv == "" {
		return Profile{}, err // no profile (rv ""), or unable to tell
	}
	if p, ok := s.cachedProfile(ctx, ns); ok {
		if c, err := resourceversion.CompareResourceVersion(p.ResourceVersion, rv); err == nil && c >= 0 {
			return profileOf(p), nil
		}
	}
	// The informer has not delivered the profile's last change yet.
	var p billingv1.BillingProfile
	err = s.live.Get(ctx, profileKey(ns), &p)
	if apierrors.IsNotFound(err) {
		return Profile{}, nil
	}
	if err != nil {
		return Profile{}, fmt.Errorf("reading the billing profile: %w", err)
	}
	return profileOf(&p), nil
}

// cachedProfile is ns's profile as the cache holds it; ok is false when it
// holds none, or has not synced.
func (s *Store) cachedProfile(ctx context.Context, ns string) (*billingv1.BillingProfile, bool) {
	if !s.synced.Load() {
		return nil, false
	}
	p := &billingv1.BillingProfile{}
	if err := s.cache.Get(ctx, profileKey(ns), p, client.UnsafeDisableDeepCopy); err != nil {
		return nil, false
	}
	return p, true
}

// profileOf is what handlers use of p, copied: p may be the cache's.
func profileOf(p *billingv1.BillingProfile) Profile {
	return Profile{Footer: p.Spec.Footer, DefaultTax: p.Spec.DefaultTax.DeepCopy(), Email: p.Spec.Email.DeepCopy(),
		TimeZone: p.Spec.TimeZone, Locale: p.Spec.Locale}
}

func profileKey(ns string) types.NamespacedName {
	return types.NamespacedName{Namespace: ns, Name: billingv1.DefaultBillingProfileName}
}

// profileVersions reads the resource version of each workspace's profile
// from the API server, one coalesced get per workspace at a time.
type profileVersions struct {
	live client.Reader

	mu          sync.Mutex
	byWorkspace map[string]*coalesce.Call[string]
}

// version returns the resource version of ns's profile, read after the
// call, "" when ns has none.
func (v *profileVersions) version(ctx context.Context, ns string) (string, error) {
	v.mu.Lock()
	c, ok := v.byWorkspace[ns]
	if !ok {
		c = &coalesce.Call[string]{Fetch: v.fetch}
		v.byWorkspace[ns] = c
	}
	v.mu.Unlock()
	return c.Next(ctx, ns)
}

// fetch reads the resource version of ns's profile: a metadata-only get,
// without a resource version, which the API server reads from etcd.
func (v *profileVersions) fetch(ctx context.Context, ns string) (string, error) {
	p := &metav1.PartialObjectMetadata{}
	p.SetGroupVersionKind(billingv1.GroupVersion.WithKind("BillingProfile"))
	err := v.live.Get(ctx, profileKey(ns), p)
	if apierrors.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the billing profile's version: %w", err)
	}
	return p.ResourceVersion, nil
}
