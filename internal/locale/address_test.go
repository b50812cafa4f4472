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

package locale

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestAddressesAreWrittenInTheOrderOfTheirCountry(t *testing.T) {
	for _, tc := range []struct {
		name string
		tag  language.Tag
		a    *billingv1.Address
		want []string
	}{
		{"A German address has its postal code before its city", language.German,
			&billingv1.Address{Line1: "Friedrichstraße 1", City: "Berlin", PostalCode: "10117", Country: "DE"},
			[]string{"Friedrichstraße 1", "10117 Berlin", "Deutschland"}},
		{"A French address has its postal code before its city in capitals", language.French,
			&billingv1.Address{Line1: "12 rue de la Paix", City: "Paris", PostalCode: "75002", Country: "FR"},
			[]string{"12 rue de la Paix", "75002 PARIS", "France"}},
		{"A US address has its city, state and ZIP code on one line", language.English,
			&billingv1.Address{Line1: "1 Main Street", Line2: "Suite 100", City: "Springfield", State: "IL",
				PostalCode: "62701", Country: "US"},
			[]string{"1 Main Street", "Suite 100", "SPRINGFIELD, IL 62701", "United States"}},
		{"A US address without a state keeps a space between city and ZIP code", language.English,
			&billingv1.Address{Line1: "1 Main Street", City: "Springfield", PostalCode: "62701", Country: "US"},
			[]string{"1 Main Street", "SPRINGFIELD 62701", "United States"}},
		{"A German address without a postal code is its city alone", language.German,
			&billingv1.Address{Line1: "Hauptstraße 5", City: "München", Country: "DE"},
			[]string{"Hauptstraße 5", "München", "Deutschland"}},
		{"A US address without state and ZIP code has no stray comma", language.English,
			&billingv1.Address{Line1: "1 Main Street", City: "Springfield", Country: "us"},
			[]string{"1 Main Street", "SPRINGFIELD", "United States"}},
		{"A UK address has its post town and postcode on lines of their own", language.English,
			&billingv1.Address{Line1: "10 Downing Street", City: "London", PostalCode: "SW1A 2AA", Country: "GB"},
			[]string{"10 Downing Street", "LONDON", "SW1A 2AA", "United Kingdom"}},
		{"A Japanese address in Japanese script starts with its postal code", language.Japanese,
			&billingv1.Address{Line1: "千代田1-1", City: "千代田区", State: "東京都", PostalCode: "100-0001", Country: "JP"},
			[]string{"〒100-0001", "東京都", "千代田区", "千代田1-1", "日本"}},
		{"A Japanese address in Latin script ends with its postal code", language.English,
			&billingv1.Address{Line1: "1-1 Chiyoda", City: "Chiyoda-ku", State: "Tokyo", PostalCode: "100-0001", Country: "JP"},
			[]string{"1-1 Chiyoda", "Chiyoda-ku, TOKYO", "100-0001", "Japan"}},
		{"A country without a format of its own has the default order", language.English,
			&billingv1.Address{Line1: "Rua 1", City: "Luanda", Country: "AO"},
			[]string{"Rua 1", "Luanda", "Angola"}},
		{"An unknown country code is printed as it is", language.English,
			&billingv1.Address{Line1: "Street 1", City: "Town", PostalCode: "123", Country: "QQ"},
			[]string{"Street 1", "Town", "QQ"}},
		{"An address without a country has no country line", language.English,
			&billingv1.Address{Line1: "Street 1", City: "Town"},
			[]string{"Street 1", "Town"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, New(tc.tag).Address(tc.a)); diff != "" {
				t.Errorf("Address (-want +got):\n%s", diff)
			}
		})
	}
	if got := New(language.English).Address(nil); got != nil {
		t.Errorf("no address has lines: %q", got)
	}
}

func TestTheAddressFormatsAreLibaddressinputs(t *testing.T) {
	for country, want := range map[string]string{
		"DE": "%N%n%O%n%A%n%Z %C", "US": "%N%n%O%n%A%n%C, %S %Z", "GB": "%N%n%O%n%A%n%C%n%Z", "ZZ": "%N%n%O%n%A%n%C",
	} {
		if got := addressFormats[country].Fmt; got != want {
			t.Errorf("%s: %q, want %q", country, got, want)
		}
	}
	if n := len(addressFormats); n < 240 {
		t.Errorf("%d countries, want every country", n)
	}
}
