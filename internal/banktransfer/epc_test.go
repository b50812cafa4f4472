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

package banktransfer

import (
	"errors"
	"strings"
	"testing"
)

func TestEPCPayloadWritesTheLinesOfEPC069(t *testing.T) {
	full := EPCTransfer{BIC: "BYLADEM1001", Name: "Example GmbH", IBAN: "DE02120300000000202051", Cents: 119_00, Reference: "RF29INV000042"}
	cases := []struct {
		name string
		in   EPCTransfer
		want []string
	}{
		{"a transfer with a BIC and a reference", full,
			[]string{"BCD", "002", "1", "SCT", "BYLADEM1001", "Example GmbH", "DE02120300000000202051", "EUR119.00", "", "RF29INV000042"}},
		{"no BIC leaves its line empty", EPCTransfer{Name: "Example GmbH", IBAN: "DE02120300000000202051", Cents: 5, Reference: "RF29 INV0 0004 2"},
			[]string{"BCD", "002", "1", "SCT", "", "Example GmbH", "DE02120300000000202051", "EUR0.05", "", "RF29INV000042"}},
		{"no reference sends the text on the line after it", EPCTransfer{Name: "Example GmbH", IBAN: "DE02120300000000202051", Cents: 1234_56, Text: "INV-000042"},
			[]string{"BCD", "002", "1", "SCT", "", "Example GmbH", "DE02120300000000202051", "EUR1234.56", "", "", "INV-000042"}},
		{"the largest amount", EPCTransfer{Name: "A", IBAN: "DE02120300000000202051", Cents: MaxEPCAmount, Reference: "RF29INV000042"},
			[]string{"BCD", "002", "1", "SCT", "", "A", "DE02120300000000202051", "EUR999999999.99", "", "RF29INV000042"}},
		{"a name longer than 70 characters is cut", EPCTransfer{Name: strings.Repeat("Ä", 71), IBAN: "DE02120300000000202051", Cents: 100, Reference: "RF29INV000042"},
			[]string{"BCD", "002", "1", "SCT", "", strings.Repeat("Ä", 70), "DE02120300000000202051", "EUR1.00", "", "RF29INV000042"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := EPCPayload(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Join(c.want, "\n"); got != want {
				t.Errorf("payload\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestEPCPayloadRefusesWhatNoCodeCanCarry(t *testing.T) {
	ok := EPCTransfer{Name: "Example GmbH", IBAN: "DE02120300000000202051", Cents: 100, Reference: "RF29INV000042"}
	cases := []struct {
		name   string
		change func(*EPCTransfer)
	}{
		{"nothing to pay", func(t *EPCTransfer) { t.Cents = 0 }},
		{"a negative amount", func(t *EPCTransfer) { t.Cents = -1 }},
		{"more than 999999999.99", func(t *EPCTransfer) { t.Cents = MaxEPCAmount + 1 }},
		{"no IBAN", func(t *EPCTransfer) { t.IBAN = "" }},
		{"no name", func(t *EPCTransfer) { t.Name = "  " }},
		{"a reference whose check digits fail", func(t *EPCTransfer) { t.Reference = "RF30INV000042" }},
		{"a text longer than 140 characters", func(t *EPCTransfer) { t.Reference, t.Text = "", strings.Repeat("x", 141) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			c.change(&in)
			if _, err := EPCPayload(in); !errors.Is(err, ErrNoEPCCode) {
				t.Errorf("err = %v, want ErrNoEPCCode", err)
			}
		})
	}
}
