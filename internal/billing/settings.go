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

package billing

import (
	"fmt"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Settings are what a workspace's documents, statements and days read of
// its default BillingProfile: its time zone, locale (a BCP 47 tag that
// locale.Resolve reads after the customer's), footer and issuer. SettingsOf
// is the one reading of them.
type Settings struct {
	// TimeZone is an IANA time zone name, "" for UTC.
	TimeZone string
	// Locale is the workspace's language, "" for none.
	Locale string
	// Footer is printed at the bottom of the documents.
	Footer string
	// Issuer is who issues the documents, nil for none.
	Issuer *billingv1.Issuer
}

// SettingsOf reads the settings of profile, the workspace's default
// BillingProfile; a workspace without one (nil) has the zero settings.
func SettingsOf(profile *billingv1.BillingProfile) Settings {
	if profile == nil {
		return Settings{}
	}
	return Settings{TimeZone: profile.Spec.TimeZone, Locale: profile.Spec.Locale, Footer: profile.Spec.Footer,
		Issuer: profile.Spec.Issuer}
}

// Location is the workspace's time zone (Location of s.TimeZone).
func (s Settings) Location() (*time.Location, error) {
	return Location(s.TimeZone)
}

// Location is the time zone named zone, an IANA name: UTC for "".
func Location(zone string) (*time.Location, error) {
	if zone == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, fmt.Errorf("the time zone %q is not an IANA time zone name", zone)
	}
	return loc, nil
}
