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
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// Reading a workspace's billing profile (profile.go).

// profileStore is a store, not started, whose API server holds profiles.
func profileStore(t *testing.T, profiles ...*billingv1.BillingProfile) *Store {
	t.Helper()
	s := runtime.NewScheme()
	if err := billingv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(s)
	for _, p := range profiles {
		b = b.WithObjects(p)
	}
	return New(nil, b.Build(), Options{})
}

func TestProfileReadsTheFooterAndDefaultTaxOfTheWorkspacesDefaultProfile(t *testing.T) {
	profile := func(ns, name, footer string, tax *billingv1.Tax) *billingv1.BillingProfile {
		return &billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec:       billingv1.BillingProfileSpec{Footer: footer, DefaultTax: tax},
		}
	}
	cases := []struct {
		name     string
		profiles []*billingv1.BillingProfile
		want     Profile
	}{
		{"a workspace without a profile has the zero profile", nil, Profile{}},
		{"the default profile gives its footer and default tax",
			[]*billingv1.BillingProfile{profile("ws", "default", "IBAN DE00", builder.StandardTax("19"))},
			Profile{Footer: "IBAN DE00", DefaultTax: builder.StandardTax("19")}},
		{"a default profile without a default tax gives none",
			[]*billingv1.BillingProfile{profile("ws", "default", "Thanks", nil)}, Profile{Footer: "Thanks"}},
		{"a profile of another name applies to nothing",
			[]*billingv1.BillingProfile{profile("ws", "other", "No", builder.StandardTax("7"))}, Profile{}},
		{"another workspace's default profile applies to nothing",
			[]*billingv1.BillingProfile{profile("elsewhere", "default", "No", builder.StandardTax("7"))}, Profile{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := profileStore(t, tc.profiles...).Profile(t.Context(), "ws")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// footerProfile is ws's default profile with footer.
func footerProfile(footer string) *billingv1.BillingProfile {
	return builder.BillingProfile("ws", billingv1.DefaultBillingProfileName, builder.WithFooter(footer))
}

func TestProfileIsReadFromTheCacheWhenTheAPIServerConfirmsItsVersion(t *testing.T) {
	f := newFixture(t)
	f.createdLive(t, footerProfile("as the API server has it"))
	if err := f.cache.objects.Create(t.Context(), footerProfile("as the cache has it")); err != nil {
		t.Fatal(err)
	}
	f.start(t)

	got, err := f.store.Profile(t.Context(), "ws")
	if err != nil {
		t.Fatal(err)
	}
	if got.Footer != "as the cache has it" {
		t.Errorf("footer %q, want the cache's", got.Footer)
	}
	if n := f.liveReads.Load(); n != 1 {
		t.Errorf("%d reads from the API server, want 1: the version's", n)
	}
}

func TestAProfileChangedJustBeforeIsReadFromTheAPIServerUntilTheCacheHasIt(t *testing.T) {
	f := newFixture(t)
	profile := footerProfile("old")
	f.createdLive(t, profile)
	if err := f.cache.objects.Create(t.Context(), footerProfile("old")); err != nil {
		t.Fatal(err)
	}
	f.start(t)
	changed := &billingv1.BillingProfile{}
	if err := f.live.Get(t.Context(), profileKey("ws"), changed); err != nil {
		t.Fatal(err)
	}
	changed.Spec.Footer = "new"
	if err := f.live.Update(t.Context(), changed); err != nil {
		t.Fatal(err)
	}

	got, err := f.store.Profile(t.Context(), "ws")
	if err != nil {
		t.Fatal(err)
	}
	if got.Footer != "new" {
		t.Errorf("footer %q, want the one in force, new", got.Footer)
	}
}

func TestAProfileDeletedJustBeforeIsNoneWhileTheCacheStillHasIt(t *testing.T) {
	f := newFixture(t)
	if err := f.cache.objects.Create(t.Context(), footerProfile("deleted")); err != nil {
		t.Fatal(err)
	}
	f.start(t)

	got, err := f.store.Profile(t.Context(), "ws")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, Profile{}) {
		t.Errorf("got %+v, want the zero profile", got)
	}
}
