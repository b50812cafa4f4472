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
	"regexp"
	"slices"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// unitRuleList reads the list of the unit code rule of a CRD's unitCode
// schema: the codes between spaces of the string the rule searches.
var unitRuleList = regexp.MustCompile(`^'( [A-Z0-9 ]+ )'\.contains\(' ' \+ self \+ ' '\)$`)

// TestTheCRDsHoldTheUnitCodesOfUnitcodesTxt reads the rule of each CRD's
// unitCode: it lists exactly the codes of unitcodes.txt, in its order, so
// that kubectl and the HTTP API accept the same units.
func TestTheCRDsHoldTheUnitCodesOfUnitcodesTxt(t *testing.T) {
	want := UnitCodes()
	for _, tt := range []struct {
		name, file string
		path       []string
	}{
		{"an invoice's line", "billing.invoicing.dev_invoices.yaml", []string{"spec", "items", "[]", "unitCode"}},
		{"a credit note's line", "billing.invoicing.dev_creditnotes.yaml", []string{"status", "lines", "[]", "unitCode"}},
	} {
		t.Run(tt.name+" holds the list", func(t *testing.T) {
			schema := property(t, crdSchema(t, tt.file), tt.path...)
			if len(schema.XValidations) != 1 {
				t.Fatalf("%v has %d rules, want the one of unit codes", tt.path, len(schema.XValidations))
			}
			m := unitRuleList.FindStringSubmatch(schema.XValidations[0].Rule)
			if m == nil {
				t.Fatalf("the rule of %v is not a list of codes: %.80s...", tt.path, schema.XValidations[0].Rule)
			}
			if got := strings.Fields(m[1]); !slices.Equal(got, want) {
				t.Errorf("the CRD lists %d codes, unitcodes.txt %d: they differ", len(got), len(want))
			}
		})
	}
}

func TestValidUnitCode(t *testing.T) {
	for _, tt := range []struct {
		name, code string
		valid      bool
	}{
		{"C62, one, is valid", "C62", true},
		{"HUR, hour, is valid", "HUR", true},
		{"a two-character code, 10 (group), is valid", "10", true},
		{"the last code of the list, XZZ, is valid", "XZZ", true},
		{"a code in lower case is refused", "hur", false},
		{"an unknown code is refused", "ZZZ", false},
		{"an empty code is refused", "", false},
		{"a code with spaces around it is refused", " HUR", false},
		{"a line of the header is refused", "#", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValidUnitCode(tt.code); got != tt.valid {
				t.Errorf("ValidUnitCode(%q) = %v, want %v", tt.code, got, tt.valid)
			}
		})
	}
	if n := len(UnitCodes()); n != 2162 {
		t.Errorf("unitcodes.txt has %d codes, want the 2162 of EN 16931 1.3.16", n)
	}
}

func TestUnitCodeOf(t *testing.T) {
	if got := UnitCodeOf(&billingv1.LineItem{}); got != billingv1.UnitOne {
		t.Errorf("a line without unit: %s, want C62", got)
	}
	if got := UnitCodeOf(&billingv1.LineItem{UnitCode: "HUR"}); got != "HUR" {
		t.Errorf("a line of hours: %s, want HUR", got)
	}
}
