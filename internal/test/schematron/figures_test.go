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

package schematron_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

func TestTheFiguresOfCENsExamplesAreReadInEitherSyntax(t *testing.T) {
	for _, c := range []struct {
		file      string
		totals    map[string]string
		breakdown []string
	}{{
		// Its second tax total, in EUR (BT-111), is not the document's.
		file: "ubl-tc434-example5.xml",
		totals: map[string]string{"BT-106": "4000.00", "BT-107": "150.00", "BT-108": "150.00", "BT-109": "4000.00",
			"BT-110": "675.00", "BT-112": "4675.00"},
		breakdown: []string{"S 25.00: 1500.00 / 375.00", "S 12.00: 2500.00 / 300.00"},
	}, {
		file:      "CII_example3.xml",
		totals:    map[string]string{"BT-106": "800.00", "BT-108": "100.00", "BT-109": "900.00", "BT-110": "225.00", "BT-112": "1125.00"},
		breakdown: []string{"S 25.00: 900.00 / 225.00"},
	}} {
		got, err := schematron.CENExample(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got.Totals, c.totals) || !slices.Equal(got.Breakdown, c.breakdown) {
			t.Errorf("%s: got %v %v, want %v %v", c.file, got.Totals, got.Breakdown, c.totals, c.breakdown)
		}
	}
}
