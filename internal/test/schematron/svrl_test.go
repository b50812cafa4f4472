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
	"slices"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

func TestParseSVRLReturnsTheFatalAndErrorAssertionsOnly(t *testing.T) {
	const report = `<?xml version="1.0" encoding="UTF-8"?>
<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <svrl:fired-rule context="/ubl:Invoice"/>
  <svrl:failed-assert test="cbc:ID" id="BR-02" flag="fatal" location="/Invoice[1]">
    <svrl:text>[BR-02]-An Invoice shall have
      an Invoice number (BT-1).</svrl:text>
  </svrl:failed-assert>
  <svrl:failed-assert test="x" id="BR-W" flag="warning" location="/Invoice[1]">
    <svrl:text>only a warning</svrl:text>
  </svrl:failed-assert>
  <svrl:successful-report test="y" id="PEPPOL-R1" flag="error" location="/Invoice[1]/Note[1]">
    <svrl:text>reported</svrl:text>
  </svrl:successful-report>
  <svrl:failed-assert test="z" id="NO-FLAG" location="/Invoice[1]">
    <svrl:text>no flag</svrl:text>
  </svrl:failed-assert>
</svrl:schematron-output>`
	got, err := schematron.ParseSVRL(strings.NewReader(report))
	if err != nil {
		t.Fatal(err)
	}
	want := []schematron.Failure{
		{ID: "BR-02", Flag: "fatal", Location: "/Invoice[1]", Text: "[BR-02]-An Invoice shall have an Invoice number (BT-1)."},
		{ID: "PEPPOL-R1", Flag: "error", Location: "/Invoice[1]/Note[1]", Text: "reported"},
		{ID: "NO-FLAG", Flag: "error", Location: "/Invoice[1]", Text: "no flag"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestParseSVRLOfAPassingDocumentIsEmpty(t *testing.T) {
	got, err := schematron.ParseSVRL(strings.NewReader(
		`<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl"><svrl:fired-rule context="/"/></svrl:schematron-output>`))
	if err != nil || len(got) != 0 {
		t.Errorf("got %v, %v; want no failure", got, err)
	}
}

func TestParseSVRLRefusesWhatIsNotXML(t *testing.T) {
	if _, err := schematron.ParseSVRL(strings.NewReader("<svrl:schematron-output")); err == nil {
		t.Error("got no error")
	}
}
