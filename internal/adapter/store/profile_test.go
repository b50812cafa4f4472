/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// Reading a workspace's billing profile (profile.go).

// profileStore is a store whose API server holds profiles. Like the real
// one, it answers a list with a field selector on metadata.name; it
// refuses a get, which the adapter's ClusterRole does not allow.
func profileStore(t *testing.T, profiles ...*billingv1.BillingProfile) *Store {
	t.Helper()
	s := runtime.NewScheme()
	if err := billingv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(s).
		WithIndex(&billingv1.BillingProfile{}, "metadata.name", func(o client.Object) []string { return []string{o.GetName()} }).
		WithInterceptorFuncs(interceptor.Funcs{
			Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return errors.New("forbidden: the adapter may not get billing profiles")
			},
		})
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
