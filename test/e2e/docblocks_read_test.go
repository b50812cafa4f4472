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

package e2e

import (
	"reflect"
	"testing"
)

// TestDocCommandsAreReadAsTheConventionSays pins how a document's sh
// blocks become commands and expected output (docs/development.md, "The
// docs' commands are a test"); it needs no control plane.
func TestDocCommandsAreReadAsTheConventionSays(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []docCommand
	}{
		{"the comment lines under a command are its output, a wrapped line joins the one above",
			"```sh\ncurl x   # an annotation\n# {\"a\":1,\n#  \"b\":2}\n# next\n```\n",
			[]docCommand{{file: "d.md", line: 2, text: "curl x   # an annotation", expected: []string{` {"a":1,  "b":2}`, " next"}}}},
		{"a comment after a blank line is a note",
			"```sh\nA=1\n\n# a note\nB=2\n```\n",
			[]docCommand{{file: "d.md", line: 2, text: "A=1"}, {file: "d.md", line: 5, text: "B=2"}}},
		{"a backslash, an open quote and a here-document continue a command",
			"```sh\ncurl \\\n  -d '{\n  }' x\nkubectl apply -f - <<'YAML'\n# yaml: not output\nYAML\njq -r .id <<<\"$X\"\n```\n",
			[]docCommand{{file: "d.md", line: 2, text: "curl \\\n  -d '{\n  }' x"},
				{file: "d.md", line: 5, text: "kubectl apply -f - <<'YAML'\n# yaml: not output\nYAML"},
				{file: "d.md", line: 8, text: `jq -r .id <<<"$X"`}}},
		{"a block after a skip marker is left out",
			"<!-- doc-test: skip (a reason) -->\n```sh\nmake run\n```\n```sh\nls\n```\n",
			[]docCommand{{file: "d.md", line: 6, text: "ls"}}},
		{"an apostrophe in an annotation opens no quote",
			"```sh\nls   # the customer's\n# out\n```\n",
			[]docCommand{{file: "d.md", line: 2, text: "ls   # the customer's", expected: []string{" out"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseDocCommands("d.md", c.doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

// TestDocOutputMatchesLineByLine pins how output is compared.
func TestDocOutputMatchesLineByLine(t *testing.T) {
	cases := []struct {
		name     string
		expected []string
		output   string
		want     bool
	}{
		{"whitespace and blank lines are ignored", []string{" NAME   AGE", " a  1s"}, "NAME AGE\n\na 1s\n", true},
		{"... stands for any text", []string{` {"id":"cus-...","name":"Ada",...}`}, `{"id":"cus-01x","name":"Ada","x":1}`, true},
		{"text outside ... must be there", []string{` {"id":"cus-01kaw...",...}`}, `{"id":"cus-01x","name":"Ada"}`, false},
		{"a missing line fails", []string{" a", " b"}, "a\n", false},
		{"an extra line fails", []string{" a"}, "a\nb\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := (docCommand{expected: c.expected}).matches(c.output); got != c.want {
				t.Errorf("matches(%q) = %v, want %v", c.output, got, c.want)
			}
		})
	}
}
