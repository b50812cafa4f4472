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

package controller

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestBillingProfileStatus(t *testing.T) {
	const defaultMessage = "The profile applies to the invoices this workspace issues"
	notDefaultMessage := fmt.Sprintf("Only the profile named %q applies to the workspace's invoices; this one applies to none",
		billingv1.DefaultBillingProfileName)
	// profile returns the profile name at generation 2 with conditions.
	profile := func(name string, conditions ...metav1.Condition) *billingv1.BillingProfile {
		p := builder.BillingProfile("ns", name)
		p.Generation = 2
		p.Status = billingv1.BillingProfileStatus{ObservedGeneration: 1, Conditions: conditions}
		return p
	}
	applies := func(at time.Time) metav1.Condition {
		return managertest.Condition(billingv1.ConditionReady, metav1.ConditionTrue, billingv1.ReasonDefault, defaultMessage, at)
	}
	appliesToNothing := func(at time.Time) []metav1.Condition {
		return []metav1.Condition{
			managertest.Condition(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonNotDefault, notDefaultMessage, at),
			managertest.Condition(billingv1.ConditionStalled, metav1.ConditionTrue, billingv1.ReasonNotDefault, notDefaultMessage, at),
		}
	}

	for _, tc := range []struct {
		name    string
		profile *billingv1.BillingProfile
		want    billingv1.BillingProfileStatus
	}{
		{
			name:    "the profile named default applies, since now",
			profile: profile(billingv1.DefaultBillingProfileName),
			want:    billingv1.BillingProfileStatus{ObservedGeneration: 2, Conditions: []metav1.Condition{applies(managertest.Now)}},
		},
		{
			name:    "a profile of another name applies to nothing and is Stalled, since now",
			profile: profile("acme"),
			want:    billingv1.BillingProfileStatus{ObservedGeneration: 2, Conditions: appliesToNothing(managertest.Now)},
		},
		{
			name:    "a name that only starts with default is another name",
			profile: profile("default-2"),
			want:    billingv1.BillingProfileStatus{ObservedGeneration: 2, Conditions: appliesToNothing(managertest.Now)},
		},
		{
			name:    "an edited default profile follows its generation and keeps its transition time",
			profile: profile(billingv1.DefaultBillingProfileName, applies(managertest.Earlier)),
			want:    billingv1.BillingProfileStatus{ObservedGeneration: 2, Conditions: []metav1.Condition{applies(managertest.Earlier)}},
		},
		{
			name:    "an edited profile of another name keeps its transition times",
			profile: profile("acme", appliesToNothing(managertest.Earlier)...),
			want:    billingv1.BillingProfileStatus{ObservedGeneration: 2, Conditions: appliesToNothing(managertest.Earlier)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			before := tc.profile.DeepCopy()
			g.Expect(billingProfileStatus(tc.profile, managertest.Now)).To(Equal(tc.want))
			g.Expect(tc.profile).To(Equal(before), "billingProfileStatus changed its argument")
		})
	}
}
