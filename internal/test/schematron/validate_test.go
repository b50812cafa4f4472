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
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// The positive and negative controls: CEN's own examples pass CEN's rules
// and the UBL schema; copies broken on purpose fail them, each with the
// rule it breaks. Without them, a validator that checks nothing would pass
// every document the other tests give it.

// brokenCopy writes example, from testdata, to dir with each of the
// replacements applied, checking that each one applies.
func brokenCopy(t *testing.T, dir, example string, replacements ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", example))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(replacements); i += 2 {
		if !strings.Contains(s, replacements[i]) {
			t.Fatalf("%s has no %q", example, replacements[i])
		}
		s = strings.Replace(s, replacements[i], replacements[i+1], 1)
	}
	path := filepath.Join(dir, "broken-"+filepath.Base(example))
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func ruleIDs(fs []schematron.Failure) []string {
	ids := make([]string, 0, len(fs))
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids
}

func TestCENsExamplesPassAndBrokenCopiesFailTheEN16931Rules(t *testing.T) {
	tools := schematron.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	cases := []struct {
		stylesheet string
		example    string
		broken     []string
		wantRules  []string
	}{{
		stylesheet: schematron.EN16931UBL,
		example:    "en16931-1.3.16/ubl-tc434-example1.xml",
		broken: []string{
			"<cbc:ID>12115118</cbc:ID>", "",
			`<cbc:PayableAmount currencyID="EUR">250.33</cbc:PayableAmount>`, `<cbc:PayableAmount currencyID="EUR">1.00</cbc:PayableAmount>`,
		},
		wantRules: []string{"BR-02", "BR-CO-16"},
	}, {
		stylesheet: schematron.EN16931CII,
		example:    "en16931-1.3.16/CII_example1.xml",
		broken: []string{
			"<ram:DuePayableAmount>", "<ram:DuePayableAmount>1",
		},
		wantRules: []string{"BR-CO-16"},
	}}
	for _, c := range cases {
		good := filepath.Join("testdata", c.example)
		bad := brokenCopy(t, dir, c.example, c.broken...)
		failures, err := tools.Schematron(ctx, c.stylesheet, []string{good, bad})
		if err != nil {
			t.Fatal(err)
		}
		if len(failures[0]) != 0 {
			t.Errorf("%s: CEN's example fails: %v", c.example, failures[0])
		}
		got := ruleIDs(failures[1])
		for _, id := range c.wantRules {
			if !slices.Contains(got, id) {
				t.Errorf("%s broken: got failures %v, want %s among them", c.example, failures[1], id)
			}
		}
	}
}

func TestThePeppolAndXRechnungExamplesPassTheirRulesAndBrokenCopiesFail(t *testing.T) {
	tools := schematron.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	cases := []struct {
		stylesheet string
		example    string
		broken     []string
		wantRules  []string
	}{{
		stylesheet: schematron.PeppolUBL,
		example:    "peppol-bis-3.0.19/base-example.xml",
		broken:     []string{"<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>", ""},
		wantRules:  []string{"PEPPOL-EN16931-R001"},
	}, {
		stylesheet: schematron.XRechnungUBL,
		example:    "xrechnung-schematron-2.5.0/ubl-inv-br-de-1-test.xml",
		broken:     []string{"<cbc:BuyerReference>90000000-03083-12</cbc:BuyerReference>", ""},
		wantRules:  []string{"BR-DE-15"},
	}, {
		stylesheet: schematron.XRechnungCII,
		example:    "xrechnung-schematron-2.5.0/cii-br-de-1-test.xml",
		broken:     []string{"<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>", ""},
		wantRules:  []string{"BR-DE-15"},
	}}
	for _, c := range cases {
		good := filepath.Join("testdata", c.example)
		bad := brokenCopy(t, dir, c.example, c.broken...)
		failures, err := tools.Schematron(ctx, c.stylesheet, []string{good, bad})
		if err != nil {
			t.Fatal(err)
		}
		if len(failures[0]) != 0 {
			t.Errorf("%s: the example fails %s: %v", c.example, c.stylesheet, failures[0])
		}
		got := ruleIDs(failures[1])
		for _, id := range c.wantRules {
			if !slices.Contains(got, id) {
				t.Errorf("%s broken: got failures %v, want %s among them", c.example, failures[1], id)
			}
		}
	}
}

func TestCENsExamplesPassTheirSchemaAndBrokenCopiesFail(t *testing.T) {
	tools := schematron.Require(t)
	for _, c := range []struct {
		schema          schematron.Schema
		example, before string
		unknownElement  string
	}{
		{schematron.UBLInvoice, "en16931-1.3.16/ubl-tc434-example1.xml", "<cbc:IssueDate>", "<cbc:Unknown/>"},
		{schematron.CIIInvoice, "en16931-1.3.16/CII_example1.xml", "<ram:TypeCode>380", "<ram:Unknown/>"},
		{schematron.FacturXEN16931, "en16931-1.3.16/CII_example1.xml", "<ram:TypeCode>380", "<ram:Unknown/>"},
	} {
		bad := brokenCopy(t, t.TempDir(), c.example, c.before, c.unknownElement+c.before)
		errs, err := tools.XSD(context.Background(), c.schema, []string{filepath.Join("testdata", c.example), bad})
		if err != nil {
			t.Fatal(err)
		}
		if len(errs[0]) != 0 {
			t.Errorf("%s does not pass %s: %v", c.example, c.schema.Main, errs[0])
		}
		if len(errs[1]) == 0 || !strings.Contains(errs[1][0].Message, "Unknown") {
			t.Errorf("the broken copy of %s: got %v, want an error naming the element Unknown", c.example, errs[1])
		}
	}
}
