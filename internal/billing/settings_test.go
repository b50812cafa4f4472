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

package billing_test

import (
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestSettingsOf(t *testing.T) {
	issuer := &billingv1.Issuer{Name: "Acme GmbH"}
	for _, tc := range []struct {
		name    string
		profile *billingv1.BillingProfile
		want    billing.Settings
		zone    string
		wantErr bool
	}{
		{"a workspace without a profile has the zero settings, in UTC", nil, billing.Settings{}, "UTC", false},
		{"a profile's time zone, locale, footer and issuer are read as they are",
			&billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{TimeZone: "Europe/Berlin", Locale: "de-DE",
				Footer: "IBAN DE00", Issuer: issuer}},
			billing.Settings{TimeZone: "Europe/Berlin", Locale: "de-DE", Footer: "IBAN DE00", Issuer: issuer},
			"Europe/Berlin", false},
		{"a time zone that is not an IANA name has no location",
			&billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{TimeZone: "Mars/Olympus"}},
			billing.Settings{TimeZone: "Mars/Olympus"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := billing.SettingsOf(tc.profile)
			if got != tc.want {
				t.Fatalf("SettingsOf = %+v, want %+v", got, tc.want)
			}
			loc, err := got.Location()
			if (err != nil) != tc.wantErr || (err == nil && loc.String() != tc.zone) {
				t.Errorf("Location = %v, %v; want %q (an error: %v)", loc, err, tc.zone, tc.wantErr)
			}
			tz, tzErr := billing.TimeZone(tc.profile)
			if (tzErr != nil) != tc.wantErr || (tzErr == nil && tz.String() != tc.zone) {
				t.Errorf("TimeZone = %v, %v; want it as Location", tz, tzErr)
			}
		})
	}
}
