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

package einvoice_test

import (
	"slices"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// CEN's own example invoices with allowances and charges
// (builder.CENExamples), each rebuilt as one of our invoices: what our
// billing computes of it must be the example's figures. The batch of
// validate_test.go checks each against every validator, under every
// profile; the adapter's envtest suite issues them and serves them over
// HTTP.

// cenExampleCases are CEN's examples as issued invoices, with our parties
// and what Peppol and XRechnung need of them.
func cenExampleCases() []taxCase {
	var cases []taxCase
	for _, e := range builder.CENExamples() {
		spec := builder.Invoice("acme", "inv-1", e.Options...).Spec
		inv := adjusted(issued(spec.Currency, spec.Items...), spec.Allowances, spec.Charges...)
		cases = append(cases, taxCase{e.Name, inv})
	}
	return cases
}

// TestCENsExamplesWithAllowancesAndChargesRebuiltHaveTheirTotals checks
// that our UBL and CII of each of CEN's examples rebuilt carry the
// example's totals (BT-106 to BT-110 and BT-112; BT-111, the tax in an
// accounting currency, we do not write) and tax breakdown (BG-23).
func TestCENsExamplesWithAllowancesAndChargesRebuiltHaveTheirTotals(t *testing.T) {
	for i, e := range builder.CENExamples() {
		want, err := schematron.CENExample(e.File)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Totals) < 5 || len(want.Breakdown) == 0 {
			t.Fatalf("%s: only %v and %v read", e.File, want.Totals, want.Breakdown)
		}
		for _, format := range einvoice.Formats {
			b, err := einvoice.Invoice(cenExampleCases()[i].inv, format, einvoice.EN16931)
			if err != nil {
				t.Fatalf("%s (%s): %v", e.Name, format, err)
			}
			got, err := schematron.FiguresOf(b)
			if err != nil {
				t.Fatalf("%s (%s): %v", e.Name, format, err)
			}
			for bt, w := range want.Totals {
				if got.Totals[bt] != w {
					t.Errorf("%s (%s): %s is %q, want the example's %q", e.Name, format, bt, got.Totals[bt], w)
				}
			}
			if !slices.Equal(got.Breakdown, want.Breakdown) {
				t.Errorf("%s (%s): tax breakdown %v, want the example's %v", e.Name, format, got.Breakdown, want.Breakdown)
			}
		}
	}
}
