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
	"fmt"
	"testing"
)

func TestValidAcceptsTheStandardsExamplesAndRefusesBrokenOnes(t *testing.T) {
	cases := []struct {
		name string
		ref  string
		want bool
	}{
		{"the standard's example, printed in groups", "RF18 5390 0754 7034", true},
		{"the standard's example, transmitted whole", "RF18539007547034", true},
		{"the standard's example with leading zeros", "RF18000000000539007547034", true},
		{"a reference with letters", "RF29G72UUR55D", true},
		{"lower case is read as upper case", "rf29g72uur55d", true},
		{"a wrong check digit", "RF19539007547034", false},
		{"two digits swapped", "RF18539007547043", false},
		{"another prefix", "XY18539007547034", false},
		{"no reference after the check digits", "RF18", false},
		{"more than 21 characters after the check digits", "RF18" + "0000000000000539007547034", false},
		{"a character outside letters and digits", "RF18-539007547034", false},
		{"empty", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Valid(c.ref); got != c.want {
				t.Errorf("Valid(%q) = %v, want %v", c.ref, got, c.want)
			}
		})
	}
}

func TestReferenceDerivesAValidReferenceFromAnInvoiceNumber(t *testing.T) {
	cases := []struct {
		name, number, want string
	}{
		{"the default prefix", "INV-000042", "RF29INV000042"},
		{"a prefix with a slash and lower case", "acme/2026-001", "RF77ACME2026001"},
		{"a number of digits only", "000001", "RF74000001"},
		{"more than 21 letters and digits keeps the last 21", "VERYLONGPREFIX-2026-000000000123", "RF58REFIX2026000000000123"},
		{"no letter or digit", "--", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Reference(c.number)
			if got != c.want {
				t.Fatalf("Reference(%q) = %q, want %q", c.number, got, c.want)
			}
			if got != "" && !Valid(got) {
				t.Errorf("Reference(%q) = %q, which does not check", c.number, got)
			}
		})
	}
}

func TestEveryReferenceAWorkspaceIssuesChecksAndIsUnique(t *testing.T) {
	seen := map[string]string{}
	for _, prefix := range []string{"INV-", "acme-2026-", "R", "", "a.b_c/"} {
		for seq := 1; seq <= 20_000; seq++ {
			number := fmt.Sprintf("%s%06d", prefix, seq)
			ref := Reference(number)
			if !Valid(ref) {
				t.Fatalf("Reference(%q) = %q does not check", number, ref)
			}
			if other, ok := seen[ref]; ok && other[:len(other)-6] == number[:len(number)-6] {
				t.Fatalf("%q and %q share the reference %q", other, number, ref)
			}
			seen[ref] = number
		}
	}
}

func TestGroupPrintsAReferenceInGroupsOfFour(t *testing.T) {
	if got := Group("RF18539007547034"); got != "RF18 5390 0754 7034" {
		t.Errorf("Group = %q", got)
	}
	if got := Group("RF29INV000042"); got != "RF29 INV0 0004 2" {
		t.Errorf("Group = %q", got)
	}
}

func TestFindReadsReferencesOutOfARemittanceText(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"a reference alone", "RF29INV000042", []string{"RF29INV000042"}},
		{"a reference in printed groups among words", "Payment RF29 INV0 0004 2 thanks", []string{"RF29INV000042"}},
		{"a reference in lower case after a colon", "ref:rf18539007547034/", []string{"RF18539007547034"}},
		{"two references, each once", "RF18539007547034 RF29INV000042 RF18539007547034", []string{"RF18539007547034", "RF29INV000042"}},
		{"a reference whose check digits fail", "RF19539007547034", nil},
		{"an invoice number without a reference", "Invoice INV-000042", nil},
		{"a word that only starts like one", "RFC2822 RF1", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Find(c.text)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("Find(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}
