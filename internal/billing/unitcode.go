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
	_ "embed"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// unitCodesText is the list of the unit codes of UN/ECE Recommendation 20
// (with Recommendation 21) that CEN's validation of EN 16931 accepts
// (BR-CL-23), one a line, after a header of comment lines (#): the file
// says where it comes from and under which licence.
//
//go:embed unitcodes.txt
var unitCodesText string

// unitCodes is the set of unitCodesText's codes.
var unitCodes = func() map[string]bool {
	codes := UnitCodes()
	set := make(map[string]bool, len(codes))
	for _, c := range codes {
		set[c] = true
	}
	return set
}()

// UnitCodes are the unit codes a line may have, in the list's order.
func UnitCodes() []string {
	var codes []string
	for line := range strings.Lines(unitCodesText) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		codes = append(codes, line)
	}
	return codes
}

// ValidUnitCode reports whether code is a unit code of UN/ECE
// Recommendation 20 (with Recommendation 21) that EN 16931 accepts, such
// as HUR, DAY, KGM or C62. Codes are upper case: "hur" is none.
func ValidUnitCode(code string) bool { return unitCodes[code] }

// UnitCodeOf is item's unit code: its own, or C62 ("one") when it names
// none.
func UnitCodeOf(item *billingv1.LineItem) billingv1.UnitCode {
	if item.UnitCode == "" {
		return billingv1.UnitOne
	}
	return item.UnitCode
}
