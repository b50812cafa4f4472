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

package camt

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

//go:embed testdata/xmllint.js
var xmllintScript []byte

// refusedBeforeTheSchema are the fixtures this package refuses by policy
// although they are valid against the schema: libxml2 expands a DOCTYPE's
// entities, Read never reads one.
var refusedBeforeTheSchema = map[string]bool{"invalid/doctype.xml": true}

// TestLibxml2AndThisValidatorAgreeOnEveryFixture validates every fixture,
// valid and invalid, with libxml2 (npm xmllint-wasm, run by node) against
// the same official schema, and checks that both accept or both refuse
// it. Like the e-invoice checks, it is skipped under -short and fails,
// saying what to run, when the tools are not installed.
func TestLibxml2AndThisValidatorAgreeOnEveryFixture(t *testing.T) {
	n := schematron.RequireNode(t, "camt.053 schema agreement with libxml2", "einvoice-validators", "xmllint.js", xmllintScript, "xmllint-wasm")
	valid, _ := filepath.Glob("testdata/*.xml")
	invalid, _ := filepath.Glob("testdata/invalid/*")
	// Files by the schema to check them against; those that are not XML
	// at all apart, as libxml2 says which file such an error is in only
	// when each is checked on its own.
	type batch struct {
		v      Version
		notXML bool
	}
	batches := map[batch][]string{}
	for _, f := range append(valid, invalid...) {
		doc, err := os.ReadFile(f) //nolint:gosec // a fixture
		if err != nil {
			t.Fatal(err)
		}
		v := V02
		if root, err := parseTree(doc); err == nil {
			if found, ok := versionOf(root.name.Space); ok {
				v = found
			}
		}
		b := batch{v: v, notXML: !bytes.HasPrefix(bytes.TrimSpace(doc), []byte("<"))}
		batches[b] = append(batches[b], f)
	}
	checked := 0
	for b, files := range batches {
		v := b.v
		schema, err := filepath.Abs("schema/" + string(v) + ".xsd")
		if err != nil {
			t.Fatal(err)
		}
		verdicts := libxml2(t, n, schema, files)
		for i, f := range files {
			name, _ := filepath.Rel("testdata", f)
			doc, _ := os.ReadFile(f) //nolint:gosec // a fixture
			_, _, err := check(doc)
			var refused *InvalidError
			if err != nil && !errors.As(err, &refused) {
				t.Fatalf("%s: %v", name, err)
			}
			ours, theirs := err == nil, len(verdicts[i]) == 0
			switch {
			case refusedBeforeTheSchema[name]:
				if ours || !theirs {
					t.Errorf("%s: valid here %v, to libxml2 %v; want refused here only: %q", name, ours, theirs, verdicts[i])
				}
			case ours != theirs:
				t.Errorf("%s: valid here %v (%v), to libxml2 %v (%q)", name, ours, err, theirs, verdicts[i])
			}
			checked++
		}
	}
	if want := len(valid) + len(invalid); checked != want || len(valid) < 3 || len(invalid) < 10 {
		t.Errorf("checked %d fixtures of %d valid and %d invalid", checked, len(valid), len(invalid))
	}
}

// libxml2 runs xmllint.js on files and returns each file's errors.
func libxml2(t *testing.T, n *schematron.Node, schema string, files []string) [][]string {
	t.Helper()
	if len(files) == 0 {
		return nil
	}
	cmd := exec.Command("node", append([]string{n.Script, schema}, files...)...) //nolint:gosec // the embedded script, the fixtures
	cmd.Env = append(os.Environ(), "NODE_PATH="+n.Modules)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node xmllint.js: %v: %s", err, stderr.Bytes())
	}
	var verdicts [][]string
	if err := json.Unmarshal(stdout.Bytes(), &verdicts); err != nil || len(verdicts) != len(files) {
		t.Fatalf("reading xmllint.js's output %q: %v", stdout.Bytes(), err)
	}
	return verdicts
}
