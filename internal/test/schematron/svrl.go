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

package schematron

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Failure is one failed assertion of a Schematron report (SVRL) whose flag
// is fatal or error: a rule the document breaks.
type Failure struct {
	// ID is the rule's id, "BR-CO-16".
	ID string
	// Flag is "fatal" or "error".
	Flag string
	// Location is the XPath of the element the rule was checked on.
	Location string
	// Text is the rule's message.
	Text string
}

func (f Failure) String() string {
	return fmt.Sprintf("[%s] %s: %s (at %s)", f.Flag, f.ID, f.Text, f.Location)
}

// svrlAssert is an svrl:failed-assert or svrl:successful-report.
type svrlAssert struct {
	ID       string `xml:"id,attr"`
	Flag     string `xml:"flag,attr"`
	Location string `xml:"location,attr"`
	Text     string `xml:"text"`
}

const svrlNS = "http://purl.oclc.org/dsdl/svrl"

// ParseSVRL reads an SVRL report and returns its failed assertions and
// successful reports flagged fatal or error, in document order. Those
// flagged warning or information are not failures. An assertion without a
// flag counts as an error, as Schematron's default is.
func ParseSVRL(r io.Reader) ([]Failure, error) {
	dec := xml.NewDecoder(r)
	var out []Failure
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the SVRL report: %w", err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok || start.Name.Space != svrlNS ||
			(start.Name.Local != "failed-assert" && start.Name.Local != "successful-report") {
			continue
		}
		var a svrlAssert
		if err := dec.DecodeElement(&a, &start); err != nil {
			return nil, fmt.Errorf("reading the SVRL report: %w", err)
		}
		flag := strings.ToLower(strings.TrimSpace(a.Flag))
		if flag == "" {
			flag = "error"
		}
		if flag != "fatal" && flag != "error" {
			continue
		}
		out = append(out, Failure{
			ID: a.ID, Flag: flag, Location: a.Location,
			Text: strings.Join(strings.Fields(a.Text), " "),
		})
	}
}
