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

// Package pdfcheck checks the PDFs the documents package writes, for
// tests: `qpdf --check` on a batch of files (qpdf compiled to WebAssembly,
// npm @neslinesli93/qpdf-wasm, run by node, which make xmltools installs,
// pinned, into bin/ beside the e-invoice validators), and Inspect, which
// reads with a Go PDF reader what PDF/A-3 and Factur-X ask of a file: its
// header, trailer /ID, XMP packet, output intents, embedded files and
// their associations, and the embedding of its fonts.
package pdfcheck

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

//go:embed qpdf.js
var script []byte

// qpdfPackage is the npm package of qpdf in WebAssembly.
const qpdfPackage = "@neslinesli93/qpdf-wasm"

// T is what Require and Check need of a test: a *testing.T, or the
// GinkgoT() of a Ginkgo suite.
type T = schematron.T

// Tools run qpdf, installed under a module's bin/.
type Tools struct {
	// modules is the node_modules directory holding qpdfPackage.
	modules string
	// script is qpdf.js, written to a temporary file.
	script string
}

// Require returns qpdf, for a test that checks PDFs, as
// schematron.Require returns the e-invoice validators: it skips the test
// with -short (make test-unit), and fails it with one line saying what to
// run when node or the package under bin/ is missing (make test installs
// them first, and a test that passes without checking anything would read
// as checked).
func Require(t T) *Tools {
	t.Helper()
	n := schematron.RequireNode(t, "qpdf --check", "xmltools", "qpdf.js", script, qpdfPackage)
	return &Tools{modules: n.Modules, script: n.Script}
}

// Result is what `qpdf --check` says of a file: its exit code (0 clean,
// 2 errors, 3 warnings) and what it printed.
type Result struct {
	Exit   int
	Output string
}

// OK reports whether qpdf found neither an error nor a warning.
func (r Result) OK() bool {
	return r.Exit == 0 && !strings.Contains(r.Output, "WARNING")
}

// QPDFCheck runs `qpdf --check` on each of files in one node process and
// returns its result for each.
func (v *Tools) QPDFCheck(ctx context.Context, files []string) ([]Result, error) {
	cmd := exec.CommandContext(ctx, "node", append([]string{v.script}, files...)...) //nolint:gosec // the embedded script, a test's files
	cmd.Env = append(os.Environ(), "NODE_PATH="+v.modules)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node qpdf.js: %w: %s", err, stderr.Bytes())
	}
	var out []struct {
		File   int    `json:"file"`
		Exit   int    `json:"exit"`
		Output string `json:"output"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("reading qpdf's results: %w", err)
	}
	results := make([]Result, len(files))
	for _, r := range out {
		if r.File < 0 || r.File >= len(files) {
			return nil, fmt.Errorf("qpdf.js: a result for file %d of %d", r.File, len(files))
		}
		results[r.File] = Result{Exit: r.Exit, Output: r.Output}
	}
	return results, nil
}

// Document is a PDF to check, and the name a failure calls it by.
type Document struct {
	Name string
	Path string
}

// Check runs `qpdf --check` on docs in one batch and fails t for each
// document with an error or a warning, with what qpdf said.
func (v *Tools) Check(t T, docs []Document) {
	t.Helper()
	files := make([]string, len(docs))
	for i, d := range docs {
		files[i] = d.Path
	}
	results, err := v.QPDFCheck(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if !r.OK() {
			t.Errorf("%s: qpdf --check exits %d:\n%s", docs[i].Name, r.Exit, r.Output)
		}
	}
}
