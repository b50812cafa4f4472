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

package httpapi

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The documents that list the event types the feed carries are the test's
// input: docs/events.md's table of facts and the README's Events row name
// exactly the types of eventTypes, the table GET /v1/events and its type
// parameter take, so a type added to one cannot be missing from the others.

// eventTypeName is an event type as the documents spell it, in backticks.
var eventTypeName = regexp.MustCompile("`([a-z_]+\\.[a-z_]+)`")

// docEventTypes returns the event types doc names where pick finds them
// (the part of a line to read, and whether to read it), sorted, each once.
func docEventTypes(t *testing.T, doc string, pick func(line string) (string, bool)) []string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for line := range strings.Lines(string(data)) {
		part, ok := pick(line)
		if !ok {
			continue
		}
		for _, m := range eventTypeName.FindAllStringSubmatch(part, -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// factsTable picks the first cell, the type, of each row of docs/events.md's
// table of facts.
func factsTable() func(line string) (string, bool) {
	inTable := false
	return func(line string) (string, bool) {
		if strings.HasPrefix(line, "| Type | The fact |") {
			inTable = true
			return "", false
		}
		if !strings.HasPrefix(line, "|") {
			inTable = false
		}
		cells := strings.Split(line, "|")
		if !inTable || len(cells) < 3 {
			return "", false
		}
		return cells[1], true
	}
}

// readmeEventsRow picks the README's row of docs/events.md in its table of
// documents.
func readmeEventsRow(line string) (string, bool) {
	return line, strings.HasPrefix(line, "| [Events](docs/events.md) |")
}

func TestTheDocsListEveryEventTypeTheFeedCarries(t *testing.T) {
	want := make([]string, len(eventTypes))
	for i, typ := range eventTypes {
		want[i] = string(typ)
	}
	slices.Sort(want)
	for _, tc := range []struct {
		name, doc string
		pick      func(line string) (string, bool)
	}{
		{name: "docs/events.md has a row for each type in its table of facts", doc: "../../../docs/events.md",
			pick: factsTable()},
		{name: "the README's Events row names each type", doc: "../../../README.md", pick: readmeEventsRow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := docEventTypes(t, tc.doc, tc.pick)
			if !slices.Equal(got, want) {
				t.Errorf("%s lists %v\nthe feed carries %v\nmissing: %v, not a type: %v", tc.doc, got, want,
					namesNotIn(want, got), namesNotIn(got, want))
			}
		})
	}
}

// namesNotIn returns the names of a not in b.
func namesNotIn(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}
